"""askapp's benchmarks, one command: `.venv/bin/python -m bench [mode] [options]`.

    python -m bench                      the served product against the Django floor, SQLite,
                                         then 1,000 slow answer streams (bench/serving.py)
    python -m bench --postgres URL       the same on PostgreSQL (a fresh <name>_bench database)
    python -m bench streams              the slow answer streams alone (bench/streams.py;
                                         --streams, --pace, --hold, --postgres)
    python -m bench soak --postgres URL  50 clients in their own conversations for 10 minutes,
                                         once per connection setting (bench/soak.py)
    python -m bench profile              what one ask costs in-process, and a cProfile of it
                                         (bench/profile.py; --asks, --turns)
    python -m bench handler              CPU and Python calls a request in the server's own
                                         handler, in-process: the floor, /healthz, /v1/ask
                                         (bench/handler.py; --asks, --turns)
    python -m bench retrieval --postgres URL
                                         passage search at 1,000,000 chunks on PostgreSQL
                                         (bench/bench_search.py --postgres)

Figures are printed, never asserted. Ratios within one run are what count on a shared
machine: the load average is printed beside them.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench import load  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(
        prog="python -m bench", description=__doc__, formatter_class=argparse.RawTextHelpFormatter
    )
    modes = ("serve", "streams", "soak", "retrieval", "profile", "handler")
    parser.add_argument("mode", nargs="?", default="serve", choices=modes)
    parser.add_argument("--postgres", metavar="URL", help="a PostgreSQL server (any database "
                        "on it: the bench makes its own beside it)")  # fmt: skip
    parser.add_argument("--client", default="auto", choices=("auto", "wrk", "python"))
    parser.add_argument("--seconds", type=float, help="per measurement (serve: 10) or per "
                        "setting (soak: 600)")  # fmt: skip
    parser.add_argument("--connections", type=int, default=16)
    parser.add_argument("--streams", type=int, default=1000, help="slow streams (0: none)")
    parser.add_argument("--pace", type=float, default=0.004, help="seconds between opens")
    parser.add_argument("--hold", default="5,30", help="the model's hold, min,max seconds")
    parser.add_argument("--clients", type=int, default=50, help="soak: concurrent clients")
    parser.add_argument(
        "--setting", action="append", metavar="NAME=VALUE[,NAME=VALUE]",
        help="soak: a connection setting to run with (repeatable); default: each documented "
        "one",
    )  # fmt: skip
    parser.add_argument("--sizes", default="1000000", help="retrieval: chunk counts")
    parser.add_argument("--keep", action="store_true", help="retrieval: reuse its database")
    parser.add_argument("--asks", type=int, default=500, help="profile: asks of each kind")
    parser.add_argument("--turns", type=int, default=200, help="profile: the long conversation")
    parser.add_argument("--top", type=int, default=40, help="profile: functions printed")
    args = parser.parse_args()

    if args.mode == "retrieval":
        if not args.postgres:
            parser.error("retrieval needs --postgres URL (SQLite: bench/bench_search.py)")
        command = [sys.executable, str(ROOT / "bench" / "bench_search.py"), "--postgres",
                   args.postgres, "--sizes", args.sizes, "--rounds", "3"]  # fmt: skip
        sys.exit(subprocess.call(command + (["--keep", "yes"] if args.keep else []), cwd=ROOT))

    from tests.live import demo_database

    client = load.generator(args.client)
    with tempfile.TemporaryDirectory(prefix="askapp-bench-") as scratch:
        folder = Path(scratch)
        print("Preparing the demo database (migrate, load_demo) ...", flush=True)
        template = demo_database(folder)
        if args.mode == "profile":
            from bench import profile
            from tests.live import copy_database

            database = copy_database(template, folder / "profile")
            profile.run(database=database, asks=args.asks, turns=args.turns, top=args.top)
            return
        if args.mode == "handler":
            from bench import handler
            from tests.live import copy_database

            database = copy_database(template, folder / "handler")
            handler.run(database=database, count=args.asks, turns=args.turns)
            return
        if args.mode == "soak":
            from bench import soak

            if not args.postgres:
                parser.error("soak needs --postgres URL")
            soak.run(
                template=template, postgres=args.postgres, seconds=args.seconds or 600,
                clients=args.clients, settings=soak.parse_settings(args.setting),
            )  # fmt: skip
            return
        from bench import serving

        low, high = (float(part) for part in args.hold.split(","))
        if args.mode == "streams":
            serving.streams_only(
                template=template, folder=folder, postgres=args.postgres,
                stream_count=args.streams, pace=args.pace, hold=(low, high),
            )  # fmt: skip
            return
        serving.run(
            template=template, folder=folder, postgres=args.postgres,
            seconds=args.seconds or 10, connections=args.connections, client=client,
            stream_count=args.streams, pace=args.pace, hold=(low, high),
        )  # fmt: skip


if __name__ == "__main__":
    main()
