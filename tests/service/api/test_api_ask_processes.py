"""Asks served by two server processes over one SQLite file queue for the write in the
kernel (askapp/writer.py), so none fails even when SQLite itself would give up after 50 ms."""

from __future__ import annotations

import sqlite3
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx
import pytest

from tests.live import LiveServer, api_token, copy_database, demo_database

QUESTIONS = ["What was Apple's revenue in FY2023?", "and in FY2022?", "What was the change?"]
CLIENTS = 8
ASKS_PER_CLIENT = 12


@pytest.fixture(scope="module")
def database(tmp_path_factory: pytest.TempPathFactory) -> Path:
    template = demo_database(tmp_path_factory.mktemp("writers-template"))
    return copy_database(template, tmp_path_factory.mktemp("writers"))


def test_two_processes_never_fail_a_write_with_a_50_ms_busy_timeout(database: Path) -> None:
    token = api_token(database)
    headers = {"Authorization": f"Token {token}"}
    # Threads keep their connection (CONN_MAX_AGE's default on SQLite): with one opened and
    # closed per request, the last close checkpoints the WAL and a connection opening then may
    # wait on that too, which is not the writers' queue this test is about.
    env = {"ASKAPP_SQLITE_BUSY_TIMEOUT": "0.05"}
    with LiveServer(database=database, env=env, workers=2) as server:

        def converse(_: int) -> list[int]:
            statuses, conversation = [], None
            with httpx.Client(base_url=server.url, headers=headers, timeout=60) as client:
                for n in range(ASKS_PER_CLIENT):
                    body = {"question": QUESTIONS[n % len(QUESTIONS)]}
                    if conversation:
                        body["conversation"] = conversation
                    response = client.post("/v1/ask", json=body)
                    statuses.append(response.status_code)
                    if response.status_code == 200:
                        conversation = response.json()["conversation"]
            return statuses

        with ThreadPoolExecutor(CLIENTS) as pool:
            statuses = [s for run in pool.map(converse, range(CLIENTS)) for s in run]
        log = server.log()

    assert statuses == [200] * (CLIENTS * ASKS_PER_CLIENT), log[-2000:]
    with sqlite3.connect(database) as db:
        positions = db.execute(
            "SELECT conversation_id, group_concat(position) FROM "
            "(SELECT conversation_id, position FROM askapp_turn ORDER BY position) "
            "GROUP BY conversation_id"
        ).fetchall()
    expected = ",".join(str(n) for n in range(1, 2 * ASKS_PER_CLIENT + 1))
    assert [p for _, p in positions] == [expected] * CLIENTS
