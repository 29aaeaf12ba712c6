"""Two real server processes share one request counter in Redis: the anonymous rate holds
across them, as it would across a deployment's workers (before, each process counted alone,
so four workers allowed four times the rate).

Redis database 14 of the local server (ASKAPP_TEST_REDIS_URL to use another); skipped, saying
so, when no Redis answers.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.live import LiveServer, manage

REDIS_URL = os.environ.get("ASKAPP_TEST_REDIS_URL", "redis://127.0.0.1:6379/14")
RATE = 6


def _redis() -> object:
    redis = pytest.importorskip("redis")
    client = redis.Redis.from_url(REDIS_URL, socket_connect_timeout=1)
    try:
        client.ping()
    except redis.exceptions.ConnectionError:
        pytest.skip(f"needs Redis at {REDIS_URL}")
    return client


@pytest.fixture(scope="module")
def servers(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[LiveServer, LiveServer]]:
    redis = _redis()
    redis.flushdb()  # type: ignore[attr-defined]
    database = Path(tmp_path_factory.mktemp("throttle")) / "askapp.sqlite3"
    manage(database, "migrate", "--noinput", "--verbosity", "0")
    env = {"REDIS_URL": REDIS_URL, "ASKAPP_THROTTLE_ANON": f"{RATE}/min"}
    with (
        LiveServer(database=database, env=env) as first,
        LiveServer(database=database, env=env) as second,
    ):
        yield first, second
    redis.flushdb()  # type: ignore[attr-defined]


def test_two_processes_share_one_counter(servers: tuple[LiveServer, LiveServer]) -> None:
    first, second = servers
    assert first.port != second.port
    codes = []
    for n in range(RATE + 2):
        server = (first, second)[n % 2]
        codes.append(httpx.get(f"{server.url}/v1/conversations", timeout=10).status_code)
    # Each process alone saw only half the requests, under the rate: shared counts refuse
    # the seventh and eighth all the same.
    assert codes == [200] * RATE + [429, 429]
