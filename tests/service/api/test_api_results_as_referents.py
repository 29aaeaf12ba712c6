"""Results as referents through askapp (docs/adr/0023): each ask rebuilds the conversation's
session from its stored turns, as after a restart, and an earlier answer's stored figures are
the results a follow-up may name."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest
from rest_framework.test import APIClient

from askapp.models import Turn
from askapp.models.conversations import session_from_turns
from askapp.presentation import carried_notes
from engine.types import Carried, Figure

pytestmark = pytest.mark.usefixtures("kb")


def ask(client: APIClient, question: str, **body: Any) -> Any:
    response = client.post("/v1/ask", {"question": question, **body}, format="json")
    assert response.status_code == 200, response.content
    return response.json()["turn"], response.json()["conversation"]


def computed(turn: dict[str, Any]) -> dict[str, Any]:
    return [f for f in turn["figures"] if f["kind"] == "computed"][-1]


def test_a_stored_change_is_an_operand_of_a_later_ask(api: APIClient) -> None:
    _, conversation = ask(api, "What was Apple's revenue in FY2023?")
    ask(api, "and in FY2022?", conversation=conversation)
    change, _ = ask(api, "what was the change?", conversation=conversation)
    share, _ = ask(api, "and what percentage of FY2022 was that change?", conversation=conversation)

    assert share["status"] == "found", share["text"]
    result = next(c for c in share["carried"] if c["slot"] == "result")
    assert result["from_turn"] == 3
    assert Decimal(result["figure"]["value"]) == Decimal(computed(change)["value"])
    base = next(f for f in share["figures"] if f["kind"] == "fact")
    expected = Decimal(computed(change)["value"]) / Decimal(base["value"]) * 100
    assert Decimal(computed(share)["value"]) == pytest.approx(expected, abs=Decimal("1e-6"))
    assert computed(share)["role"] == "share" and "÷" in computed(share)["formula"]


def test_the_rebuilt_session_holds_the_stored_answers_results(api: APIClient) -> None:
    _, conversation = ask(api, "What was Apple's revenue in FY2023?")
    ask(api, "and in FY2022?", conversation=conversation)
    ask(api, "what was the change?", conversation=conversation)

    turns = list(Turn.objects.filter(conversation_id=conversation).order_by("position"))
    session = session_from_turns(turns, scope=None)

    roles = [[f.role for f in turn.results] for turn in session.turns]
    assert roles[0] == ["fact"] and roles[1] == ["fact"]
    assert "change" in roles[2]


def test_a_result_is_never_read_from_an_answers_text(api: APIClient) -> None:
    _, conversation = ask(api, "What was Apple's revenue in FY2023?")
    ask(api, "and in FY2022?", conversation=conversation)
    change, _ = ask(api, "what was the change?", conversation=conversation)
    # Damage the stored answer's figures, keep its text: nothing is left to point back at.
    Turn.objects.filter(conversation_id=conversation, role="assistant", position=6).update(
        figures=[]
    )

    share, _ = ask(api, "and what percentage of FY2022 was that change?", conversation=conversation)

    assert change["status"] == "found"
    assert share["status"] == "clarify"


def test_a_carried_result_reads_like_a_carried_slot() -> None:
    change = Figure("change", Decimal("35.8"), "USD", "computed", ("fact:1", "fact:2"),
                    display="USD 35.80", role="change")  # fmt: skip
    carried = [Carried("result", "the change of USD 35.80", 3, "what was the change?", change)]

    (note,) = carried_notes(carried, [])

    assert note.sentence == (
        "The change of USD 35.80 carried from your third question: “what was the change?”."
    )
