"""What a primary key's order costs an ask's commit on SQLite, as the turns table grows.

    .venv/bin/python bench/bench_ids.py [--rows 300000] [--commits 2000]

Builds a table shaped like askapp_turn's keys (a UUID primary key, a unique (conversation,
position) index, a 300-byte body) holding `rows` turns, then times `commits` commits of an
ask's two new turns of a new conversation, each followed by a second connection reading
that conversation (as the next request's thread would), once with random (version 4) ids
and once with time-ordered (version 7) ids. SQLite in WAL mode, synchronous=NORMAL, its
default 2 MB page cache. Figures are printed, never asserted (docs/adr/0057).
"""

from __future__ import annotations

import argparse
import os
import sqlite3
import sys
import tempfile
import time
import uuid
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from askapp.ids import time_ordered_uuid

BODY = "x" * 300


def commit_cost(make: Callable[[], uuid.UUID], *, rows: int, commits: int) -> tuple[float, float]:
    """Wall and CPU microseconds a commit of two new turns, over a table of `rows` turns."""
    with tempfile.TemporaryDirectory(prefix="askapp-ids-") as folder:
        path = os.path.join(folder, "turns.sqlite3")
        writer = sqlite3.connect(path, isolation_level=None)
        writer.execute("PRAGMA journal_mode=WAL")
        writer.execute("PRAGMA synchronous=NORMAL")
        writer.execute("CREATE TABLE turn (id char(32) PRIMARY KEY, conversation char(32), "
                       "position integer, body text)")  # fmt: skip
        writer.execute("CREATE UNIQUE INDEX turn_position ON turn (conversation, position)")
        insert = "INSERT INTO turn VALUES (?, ?, ?, ?)"
        writer.execute("BEGIN")
        for _ in range(rows // 2):
            conversation = make().hex
            writer.execute(insert, (make().hex, conversation, 1, BODY))
            writer.execute(insert, (make().hex, conversation, 2, BODY))
        writer.execute("COMMIT")
        writer.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        reader = sqlite3.connect(path, isolation_level=None)
        wall, cpu = time.perf_counter(), time.process_time()
        for _ in range(commits):
            conversation = make().hex
            writer.execute("BEGIN IMMEDIATE")
            writer.execute(insert, (make().hex, conversation, 1, BODY))
            writer.execute(insert, (make().hex, conversation, 2, BODY))
            writer.execute("COMMIT")
            reader.execute("SELECT position FROM turn WHERE conversation = ?", (conversation,))
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        writer.close()
        reader.close()
    return wall / commits * 1e6, cpu / commits * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rows", default="10000,300000", help="table sizes, comma-separated")
    parser.add_argument("--commits", type=int, default=2000)
    args = parser.parse_args()
    print("| turns in the table | ids | µs a commit (wall) | µs a commit (CPU) |")
    print("|---:|---|---:|---:|")
    for rows in (int(n) for n in args.rows.split(",")):
        for name, make in (("random (v4)", uuid.uuid4), ("time-ordered (v7)", time_ordered_uuid)):
            wall, cpu = commit_cost(make, rows=rows, commits=args.commits)
            print(f"| {rows:,} | {name} | {wall:,.0f} | {cpu:,.0f} |", flush=True)


if __name__ == "__main__":
    main()
