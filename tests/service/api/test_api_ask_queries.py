"""An ask costs a fixed number of database queries, however long the conversation is."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from tests.factories import ConversationFactory, exchange

pytestmark = pytest.mark.usefixtures("kb")

MAX_QUERIES = 10
QUESTION = "What was Apple's revenue in FY2023?"


def _conversation_of(user: Any, turns: int) -> str:
    conversation = ConversationFactory(owner=user)
    for n in range(turns // 2):
        exchange(
            conversation,
            f"What was Apple's revenue in FY{2000 + n % 24}?",
            f"Answer {n}.",
            intent={"kind": "lookup", "entities": ["Apple"], "metrics": ["Revenue"]},
        )
    return str(conversation.pk)


def _queries_of_one_ask(client: APIClient, conversation: str) -> list[str]:
    body = {"question": QUESTION, "conversation": conversation}
    client.post("/v1/ask", body, format="json")  # warm the store's vocabulary cache
    with CaptureQueriesContext(connection) as captured:
        response = client.post("/v1/ask", body, format="json")
    assert response.status_code == 200, response.content
    assert response.json()["turn"]["status"] == "found"
    return [query["sql"] for query in captured.captured_queries]


def test_an_ask_costs_the_same_queries_for_2_and_200_turns(api: APIClient, user: Any) -> None:
    short = _queries_of_one_ask(api, _conversation_of(user, 2))
    long = _queries_of_one_ask(api, _conversation_of(user, 200))

    assert len(short) == len(long), "\n".join(long)
    assert len(long) <= MAX_QUERIES, "\n".join(long)


def test_an_ask_with_a_token_stays_within_the_budget(token_api: APIClient, user: Any) -> None:
    queries = _queries_of_one_ask(token_api, _conversation_of(user, 200))

    assert len(queries) <= MAX_QUERIES, "\n".join(queries)


def test_the_engine_is_given_the_window_not_the_whole_conversation(
    api: APIClient, user: Any, settings: Any
) -> None:
    settings.ASKAPP_HISTORY_TURNS = 6
    conversation = _conversation_of(user, 200)
    queries = _queries_of_one_ask(api, conversation)

    turn_reads = [q for q in queries if 'FROM "askapp_turn"' in q and "SELECT" in q]
    assert len(turn_reads) == 1
    assert "LIMIT 6" in turn_reads[0]
