"""A figure read from a document's sentence, through the API and the real database: cited
with the sentence's span, stored with the turn, and carried by a follow-up (ADR 0041)."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest
from rest_framework.test import APIClient

from askapp.models import Classification, Entity, Turn
from askapp.services.knowledge import document_upsert

pytestmark = pytest.mark.usefixtures("kb")

NOTE = (
    "Apple's warehouse lease expense was $1.2 billion, $1.1 billion and $0.9 billion for "
    "2023, 2022 and 2021, respectively. The leases run for up to ten years."
)


def ask(client: APIClient, question: str, **body: Any) -> tuple[dict[str, Any], str]:
    response = client.post("/v1/ask", {"question": question, **body}, format="json")
    assert response.status_code == 200, response.content
    return response.json()["turn"], response.json()["conversation"]


@pytest.fixture
def lease_note(kb: None) -> None:
    document_upsert(
        key="apple-lease-note",
        title="Apple lease note",
        body=NOTE,
        classification=Classification.PUBLIC,
        entity=Entity.objects.get(name="Apple"),
        source="10-K 2023, note 9",
    )


@pytest.mark.usefixtures("lease_note")
def test_the_sentence_figure_is_cited_and_stored_with_the_turn(api: APIClient) -> None:
    turn, conversation = ask(api, "What was Apple's warehouse lease expense in 2022?")

    assert turn["status"] == "found", turn["text"]
    (figure,) = turn["figures"]
    assert (Decimal(figure["value"]), figure["unit"]) == (Decimal("1.1"), "billion")
    assert figure["kind"] == "fact" and figure["period"] == "FY2022"
    (source,) = turn["sources"]
    assert figure["sources"] == [source["id"]] and source["kind"] == "passage"
    (span,) = source["cited_spans"]
    cited = source["excerpt"][span["start"] : span["end"]]
    assert cited.startswith("Apple's warehouse lease expense was $1.2 billion")
    assert "1.1 billion" in turn["text"]
    stored = Turn.objects.get(conversation_id=conversation, role="assistant")
    assert stored.figures[0]["value"] == "1.1" and stored.sources[0]["id"] == source["id"]


@pytest.mark.usefixtures("lease_note")
def test_a_follow_up_carries_the_stored_sentence_figure(api: APIClient) -> None:
    _, conversation = ask(api, "What was Apple's warehouse lease expense in 2023?")
    ask(api, "and in 2021?", conversation=conversation)

    change, _ = ask(api, "what was the change?", conversation=conversation)

    assert change["status"] == "found", change["text"]
    computed = change["figures"][-1]
    assert computed["role"] == "change" and Decimal(computed["value"]) == Decimal("0.3")
