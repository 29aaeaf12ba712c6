"""The bench's framework floor is served by the real server with askapp's own handler: if it
fails to start, `python -m bench` has no floor to measure askapp against."""

from __future__ import annotations

from pathlib import Path

import httpx

from tests.live import LiveServer


def test_the_floor_view_answers_under_the_served_handler(tmp_path: Path) -> None:
    env = {"DJANGO_SETTINGS_MODULE": "bench.floor"}
    with LiveServer(
        database=tmp_path / "unused.sqlite3", env=env, workers=1,
        application="bench.floor:application",
    ) as server:  # fmt: skip
        response = httpx.get(f"{server.url}/floor", timeout=10)

    assert response.status_code == 200
    assert response.json() == {"status": "ok"}
