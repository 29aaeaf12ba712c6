"""A process killed while it answers a new conversation's first question leaves that
conversation readable, the question marked failed (status error, reason Interrupted), where
before the conversation id the stream had already sent answered 404."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.fakes.openai_server import FakeOpenAIServer, slow, stream
from tests.live import LiveServer, copy_database, demo_database
from tests.service.api.test_api_stream_server import frames

QUESTION = "Why did Apple's revenue dip in fiscal 2023?"


@pytest.fixture(scope="module")
def model() -> Iterator[FakeOpenAIServer]:
    with FakeOpenAIServer() as server:
        yield server


def test_a_conversation_whose_first_answer_died_with_the_process_stays_readable(
    model: FakeOpenAIServer, tmp_path_factory: pytest.TempPathFactory
) -> None:
    database = copy_database(
        demo_database(tmp_path_factory.mktemp("crash-template")), tmp_path_factory.mktemp("crash")
    )
    env = {
        "ASKAPP_PROVIDER": "openai",
        "ASKAPP_OPENAI_BASE_URL": model.base_url,
        "ASKAPP_OPENAI_API_KEY": "fake-key",
        "ASKAPP_OPENAI_MODEL": "fake-model",
        "ASKAPP_OPENAI_MAX_RETRIES": "0",
    }
    model.reply(slow(30, stream("Never sent.")))
    client = httpx.Client(timeout=30)
    first = LiveServer(database=Path(database), env=env).start()
    try:
        with client.stream(
            "POST", f"{first.url}/v1/ask/stream", json={"question": QUESTION}
        ) as response:
            kind, data = next(frames(response))
            assert kind == "meta"
            conversation = json.loads(data)["conversation"]
            first.crash()  # kill -9, mid-answer
    except httpx.HTTPError:
        pass
    finally:
        first.stop()
    with LiveServer(database=Path(database), env=env) as second:
        read = client.get(f"{second.url}/v1/conversations/{conversation}")
        assert read.status_code == 200, read.text
        turns = read.json()["turns"]
        assert [(t["role"], t["status"], t["reason"]) for t in turns] == [
            ("user", "error", "Interrupted")
        ]
        assert turns[0]["text"] == QUESTION
        page = client.get(f"{second.url}/c/{conversation}/")
        assert page.status_code == 200 and "Could not answer" in page.text
