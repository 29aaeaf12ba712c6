"""/v1/ask/stream against the real server: the server on project.asgi, as bin/serve runs it, over
a SQLite file holding the demo data, with the OpenAI-compatible provider pointed at a fake
server that holds its answer back, so the stream has a pause to show.

These prove what the test client cannot: the stream is not buffered (the first event arrives
while the answer is still being made), keepalives fill the pause, many slow streams run side
by side, and a client that hangs up mid-stream still gets its turn stored.
"""

from __future__ import annotations

import json
import sqlite3
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx
import pytest

from tests.fakes.openai_server import FakeOpenAIServer, Hold, held, slow, stream
from tests.live import LiveServer, copy_database, demo_database

QUESTION = "Why did Apple's revenue dip in fiscal 2023?"
ANSWER = "Apple's revenue dipped because iPhone sales fell [1]."
PAUSE = 1.5  # seconds the fake model waits before it answers


@pytest.fixture(scope="session")
def demo_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return demo_database(tmp_path_factory.mktemp("demo-template"))


@pytest.fixture(scope="module")
def model() -> Iterator[FakeOpenAIServer]:
    with FakeOpenAIServer() as server:
        yield server


@pytest.fixture(scope="module")
def server(
    demo_template: Path, model: FakeOpenAIServer, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[LiveServer]:
    database = copy_database(demo_template, tmp_path_factory.mktemp("stream-server"))
    env = {
        "ASKAPP_PROVIDER": "openai",
        "ASKAPP_OPENAI_BASE_URL": model.base_url,
        "ASKAPP_OPENAI_API_KEY": "fake-key",
        "ASKAPP_OPENAI_MODEL": "fake-model",
        "ASKAPP_OPENAI_MAX_RETRIES": "0",
        "ASKAPP_SSE_KEEPALIVE": "0.2",
    }
    with LiveServer(database=database, env=env) as live:
        yield live


@pytest.fixture(autouse=True)
def _every_scripted_reply_is_used(model: FakeOpenAIServer) -> Iterator[None]:
    yield
    assert model.pending == 0, "a scripted model reply was never asked for"


def frames(response: httpx.Response) -> Iterator[tuple[str, str]]:
    """(event, data) as each frame arrives; a comment comes as ("", text)."""
    buffer = ""
    for text in response.iter_text():
        buffer += text
        while "\n\n" in buffer:
            block, buffer = buffer.split("\n\n", 1)
            if block.startswith(":"):
                yield "", block[1:].strip()
            else:
                fields = dict(line.split(": ", 1) for line in block.split("\n"))
                yield fields["event"], fields["data"]


def stored_turns(database: Path, conversation: str) -> list[tuple[int, str, str]]:
    with sqlite3.connect(f"file:{database}?mode=ro", uri=True) as db:
        rows = db.execute(
            "SELECT position, role, status FROM askapp_turn WHERE conversation_id = ?"
            " ORDER BY position",
            (conversation.replace("-", ""),),
        ).fetchall()
    return [tuple(row) for row in rows]


def wait_for_turns(database: Path, conversation: str, count: int) -> list[tuple[int, str, str]]:
    """The stored turns once there are `count` of them (the answer finishes in a thread)."""
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        turns = stored_turns(database, conversation)
        if len(turns) >= count:
            return turns
        time.sleep(0.05)
    return stored_turns(database, conversation)


def test_events_arrive_in_order_with_keepalives_during_the_pause(
    server: LiveServer, model: FakeOpenAIServer
) -> None:
    model.reply(slow(PAUSE, stream(ANSWER)))

    with httpx.stream(
        "POST", f"{server.url}/v1/ask/stream", json={"question": QUESTION}, timeout=30
    ) as response:
        received = []
        for kind, data in frames(response):
            if kind == "meta":
                conversation = json.loads(data)["conversation"]
                unanswered = stored_turns(server.database, conversation)
            received.append((kind, data))

    assert response.status_code == 200
    assert response.headers["content-type"] == "text/event-stream"
    assert response.headers["cache-control"] == "no-cache"
    assert response.headers["x-accel-buffering"] == "no"
    assert "content-length" not in response.headers
    assert unanswered == [], "meta came before the answer was made: nothing buffered it"
    kinds = [kind for kind, _ in received]
    assert kinds[0] == "meta"
    pause = kinds[1 : kinds.index("delta")]
    assert pause and set(pause) == {""}, kinds
    assert {data for kind, data in received if kind == ""} == {"keepalive"}
    assert [k for k in kinds if k] == ["meta", "delta", "sources", "done"]
    done = json.loads(received[-1][1])
    assert done["turn"]["text"] == ANSWER
    assert done["turn"]["status"] == "answered"
    assert done["turn"]["sources"] == json.loads(received[kinds.index("sources")][1])
    assert stored_turns(server.database, conversation) == [
        (1, "user", "answered"),
        (2, "assistant", "answered"),
    ]


def test_a_client_that_disconnects_mid_stream_still_gets_its_turn_stored(
    server: LiveServer, model: FakeOpenAIServer
) -> None:
    model.reply(slow(PAUSE, stream(ANSWER)))

    with httpx.stream(
        "POST", f"{server.url}/v1/ask/stream", json={"question": QUESTION}, timeout=30
    ) as response:
        kind, data = next(frames(response))
        conversation = json.loads(data)["conversation"]
    # Leaving the block closed the connection while the model was still thinking.
    assert kind == "meta"
    assert stored_turns(server.database, conversation) == []

    assert wait_for_turns(server.database, conversation, 2) == [
        (1, "user", "answered"),
        (2, "assistant", "answered"),
    ]
    follow_up = httpx.get(f"{server.url}/v1/conversations/{conversation}", timeout=10)
    assert follow_up.status_code == 404, "an anonymous conversation belongs to its session"


def test_many_slow_streams_run_side_by_side(server: LiveServer, model: FakeOpenAIServer) -> None:
    count = 24
    model.reply(*[slow(PAUSE * 2, stream(ANSWER)) for _ in range(count)])
    started = threading.Barrier(count + 1, timeout=60)
    outcomes: list[list[str]] = []

    def one_stream() -> None:
        kinds = []
        with httpx.stream(
            "POST", f"{server.url}/v1/ask/stream", json={"question": QUESTION}, timeout=60
        ) as response:
            for kind, _ in frames(response):
                if kind == "meta":
                    started.wait()  # every stream has begun before any may finish
                if kind:
                    kinds.append(kind)
        outcomes.append(kinds)

    threads = [threading.Thread(target=one_stream) for _ in range(count)]
    for thread in threads:
        thread.start()
    started.wait()
    health = httpx.get(f"{server.url}/healthz", timeout=10)
    for thread in threads:
        thread.join(timeout=60)

    assert health.status_code == 200
    assert len(outcomes) == count
    assert all(kinds == ["meta", "delta", "sources", "done"] for kinds in outcomes)


def test_errors_before_the_stream_are_json(server: LiveServer) -> None:
    response = httpx.post(
        f"{server.url}/v1/ask/stream",
        json={"question": "  "},
        headers={"Accept": "text/event-stream"},
        timeout=10,
    )

    assert response.status_code == 400
    assert response.headers["content-type"] == "application/json"
    assert response.json()["error"]["field"] == "question"


def test_a_request_waiting_on_the_model_does_not_hold_up_other_requests(
    server: LiveServer, model: FakeOpenAIServer
) -> None:
    """One server process. A plain /v1/ask whose model is paused is in flight; other requests
    are served meanwhile, by the other threads of the pool (under Django's own ASGI handler
    every sync request of a process ran on one thread, and they queued behind it)."""
    hold = Hold(after_deltas=0, limit=60)
    model.reply(held(stream(ANSWER), hold))
    asked_before = len(model.requests)
    with ThreadPoolExecutor(1) as pool:
        pending = pool.submit(
            httpx.post, f"{server.url}/v1/ask", json={"question": QUESTION}, timeout=90
        )
        while len(model.requests) == asked_before and not pending.done():
            time.sleep(0.01)  # until the model has the question
        listing = httpx.get(f"{server.url}/v1/conversations", timeout=20)
        health = httpx.get(f"{server.url}/healthz", timeout=20)
        still_thinking = not hold.passed
        hold.release()
        answered = pending.result()

    assert listing.status_code == 200
    assert health.status_code == 200
    assert still_thinking, "the model was still paused while the other requests were served"
    assert answered.status_code == 200
    assert answered.json()["turn"]["text"] == ANSWER
