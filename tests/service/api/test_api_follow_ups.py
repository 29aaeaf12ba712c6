"""Follow-ups on earlier answers through askapp (docs/adr/0043): every ask rebuilds the
conversation's session from its stored turns, as after a restart, so a year counted from the
conversation's period and two earlier figures named at once come from what the database kept
of the engine's own answers."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest
from rest_framework.test import APIClient

from askapp.models import Turn
from askapp.models.conversations import session_from_turns
from tests.service.api.conftest import APPLE_FY2023_REVENUE

pytestmark = pytest.mark.usefixtures("kb")


def ask(client: APIClient, question: str, **body: Any) -> tuple[dict[str, Any], Any]:
    response = client.post("/v1/ask", {"question": question, **body}, format="json")
    assert response.status_code == 200, response.content
    return response.json()["turn"], response.json()["conversation"]


def computed(turn: dict[str, Any]) -> dict[str, Any]:
    return [f for f in turn["figures"] if f["kind"] == "computed"][-1]


def test_the_year_before_counts_from_the_stored_period(api: APIClient) -> None:
    _, conversation = ask(api, "What was Apple's revenue in FY2023?")
    before, _ = ask(api, "and in the year before?", conversation=conversation)

    assert before["status"] == "found", before["text"]
    assert [f["period"] for f in before["figures"]] == ["FY2022"]
    carried = {(c["slot"], c["value"], c["from_turn"]) for c in before["carried"]}
    assert ("period", "FY2022", 1) in carried


def test_the_first_and_the_second_are_the_stored_answers_figures(api: APIClient) -> None:
    _, conversation = ask(api, "What was Apple's revenue in FY2023?")
    income, _ = ask(api, "and its net income in that same year?", conversation=conversation)
    ratio, _ = ask(
        api, "what did the first represent in relation to the second?", conversation=conversation
    )

    assert ratio["status"] == "found", ratio["text"]
    results = [c for c in ratio["carried"] if c["slot"] == "result"]
    assert [c["from_turn"] for c in results] == [1, 2]
    expected = APPLE_FY2023_REVENUE / Decimal(income["figures"][0]["value"])
    assert Decimal(computed(ratio)["value"]) == pytest.approx(expected, abs=Decimal("1e-6"))
    assert "from your question 1" in computed(ratio)["formula"]

    # What made it possible is stored with the turns: the rebuilt session reads the pair back.
    turns = list(Turn.objects.filter(conversation_id=conversation).order_by("position"))
    session = session_from_turns(turns, scope=None)
    assert session.turns[-1].intent.pair == ("first", "second")


def test_the_pair_is_asked_back_when_a_stored_answer_lost_its_figures(api: APIClient) -> None:
    _, conversation = ask(api, "What was Apple's revenue in FY2023?")
    ask(api, "and its net income in that same year?", conversation=conversation)
    # Keep the answers' text, drop their figures: nothing typed is left to point back at.
    Turn.objects.filter(conversation_id=conversation, role="assistant").update(figures=[])

    ratio, _ = ask(
        api, "what did the first represent in relation to the second?", conversation=conversation
    )

    assert ratio["status"] == "clarify"
    assert ratio["figures"] == []
