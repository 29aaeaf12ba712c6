"""Over the demo data, as a first visitor would try it: every example question the chat page
offers is answered, and a range phrased as a lookup gives each year held (ADR 0040)."""

from __future__ import annotations

import re
from html import unescape
from typing import Any

import pytest
from django.core.management import call_command
from django.test import Client

pytestmark = pytest.mark.django_db


@pytest.fixture
def demo(settings: Any) -> None:
    settings.ASKAPP_ANONYMOUS_CHAT = True
    call_command("load_demo")


def _ask(client: Client, question: str) -> dict[str, Any]:
    response = client.post("/v1/ask", {"question": question}, content_type="application/json")
    assert response.status_code == 200, response.content
    turn: dict[str, Any] = response.json()["turn"]
    return turn


def test_every_example_on_the_chat_page_is_answered(client: Client, demo: None) -> None:
    page = client.get("/").content.decode()
    examples = [unescape(q) for q in re.findall(r'value="([^"]+)" class="example"', page)]
    assert len(examples) >= 4, examples

    for question in examples:
        turn = _ask(client, question)
        assert turn["status"] in ("found", "answered"), (question, turn["text"])


def test_a_range_asked_as_a_lookup_gives_every_year_of_it(client: Client, demo: None) -> None:
    turn = _ask(client, "What was Apple's revenue from FY2019 to FY2021?")

    facts = [f for f in turn["figures"] if f["kind"] == "fact"]
    assert turn["status"] == "found"
    assert [f["label"].split()[-1] for f in facts] == ["FY2019", "FY2020", "FY2021"]
