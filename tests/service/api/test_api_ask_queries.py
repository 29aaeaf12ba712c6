"""An ask costs a fixed, small number of database queries, however long the conversation is.

With a browser session: the session, the user (with their clearance and the knowledge
base's version, the question's freshness probe: docs/adr/0051), the conversation's last
turns, then in one transaction the position counter, the two turns and the citations: 6.
With a token, one query reads the token, the user, the clearance and the version: 5.
"""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from askapp.models import Entity, Metric
from askapp.selectors import compiled
from tests.factories import ConversationFactory, FactFactory, exchange

pytestmark = pytest.mark.usefixtures("kb")

SESSION_ASK_QUERIES = 6
TOKEN_ASK_QUERIES = 5
# A new conversation by token: the token with its user and the version, then in one
# transaction the conversation, both turns in one INSERT, and the citations.
TOKEN_NEW_CONVERSATION_QUERIES = 4
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


def _queries_of_one_ask(
    client: APIClient, conversation: str, expected: int, assert_num: Any
) -> list[str]:
    body = {"question": QUESTION, "conversation": conversation}
    client.post("/v1/ask", body, format="json")  # warm the store's vocabulary cache
    with assert_num(expected) as captured:
        response = client.post("/v1/ask", body, format="json")
    assert response.status_code == 200, response.content
    assert response.json()["turn"]["status"] == "found"
    return [query["sql"] for query in captured.captured_queries]


def test_an_ask_costs_the_same_queries_for_2_and_200_turns(
    api: APIClient, user: Any, django_assert_num_queries: Any
) -> None:
    for turns in (2, 200):
        _queries_of_one_ask(
            api, _conversation_of(user, turns), SESSION_ASK_QUERIES, django_assert_num_queries
        )


def test_an_ask_with_a_token_reads_token_user_and_clearance_in_one_query(
    token_api: APIClient, user: Any, django_assert_num_queries: Any
) -> None:
    _queries_of_one_ask(
        token_api, _conversation_of(user, 200), TOKEN_ASK_QUERIES, django_assert_num_queries
    )


def test_a_new_conversation_is_written_with_its_answer_in_one_transaction(
    token_api: APIClient, django_assert_num_queries: Any
) -> None:
    """The in-process provider answers at once: nothing is stored before the answer, and the
    conversation, its question and its answer are one INSERT each in one transaction."""
    body = {"question": QUESTION}
    token_api.post("/v1/ask", body, format="json")  # warm
    with django_assert_num_queries(TOKEN_NEW_CONVERSATION_QUERIES) as captured:
        response = token_api.post("/v1/ask", body, format="json")
    assert response.status_code == 200, response.content
    statements = [query["sql"] for query in captured.captured_queries]
    writes = [sql.split(" (")[0] for sql in statements if not sql.startswith("SELECT")]
    assert writes == ['INSERT INTO "askapp_conversation"', 'INSERT INTO "askapp_turn"',
                      "INSERT INTO askapp_citation"]  # fmt: skip


def test_what_a_company_holds_is_not_read_again_by_each_ask(
    token_api: APIClient, user: Any, django_assert_num_queries: Any
) -> None:
    """With two companies held, the parser links a question's words against what the named
    company holds: that is kept with the vocabulary, not read by every ask."""
    FactFactory(
        entity=Entity.objects.get(name="Microsoft"),
        metric=Metric.objects.get(name="Revenue"),
        period="FY2023",
    )
    _queries_of_one_ask(
        token_api, _conversation_of(user, 2), TOKEN_ASK_QUERIES, django_assert_num_queries
    )


def test_the_engine_is_given_the_window_not_the_whole_conversation(
    api: APIClient, user: Any, settings: Any, django_assert_num_queries: Any
) -> None:
    settings.ASKAPP_HISTORY_TURNS = 6
    conversation = _conversation_of(user, 200)
    queries = _queries_of_one_ask(api, conversation, SESSION_ASK_QUERIES, django_assert_num_queries)

    turn_reads = [q for q in queries if 'FROM "askapp_turn"' in q and "SELECT" in q]
    assert len(turn_reads) == 1
    assert "LIMIT 6" in turn_reads[0]


def test_asks_compile_no_sql_once_warm(
    api: APIClient, token_api: APIClient, user: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The reads every ask makes (the token or the session's user with their clearance, the
    conversation's recent turns) are compiled to SQL once a process, not once an ask."""
    conversation = _conversation_of(user, 4)
    bodies = ({"question": QUESTION}, {"question": QUESTION, "conversation": conversation})
    asks = [(client, body) for client in (api, token_api) for body in bodies]
    for client, body in asks:  # warm
        client.post("/v1/ask", body, format="json")
    built: list[object] = []
    real_init = compiled.CompiledRead.__init__

    def counting_init(self: Any, *args: Any, **kwargs: Any) -> None:
        built.append(args[0])
        real_init(self, *args, **kwargs)

    monkeypatch.setattr(compiled.CompiledRead, "__init__", counting_init)
    for client, body in asks * 2:
        assert client.post("/v1/ask", body, format="json").status_code == 200
    assert built == []


def test_the_version_read_with_the_user_is_the_questions_probe(token_api: APIClient) -> None:
    """No probe of its own, yet a fact reclassified between two asks is seen by the second:
    the version comes in the statement that reads the token and its user."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from askapp.models import Classification, Fact

    body = {"question": QUESTION}
    first = token_api.post("/v1/ask", body, format="json").json()["turn"]
    assert first["status"] == "found"
    Fact.objects.filter(entity__name="Apple").update(classification=Classification.RESTRICTED)
    with CaptureQueriesContext(connection) as captured:
        again = token_api.post("/v1/ask", body, format="json").json()["turn"]
    assert again["status"] != "found"
    assert all(source["kind"] != "fact" for source in again["sources"])  # none RESTRICTED
    statements = [query["sql"] for query in captured.captured_queries]
    assert "askapp_knowledge_version" in statements[0]  # with the token
    assert not any(sql.startswith("SELECT version FROM") for sql in statements)
