"""/v1/conversations (list, search, create, read, rename, delete) and answer feedback."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone
from rest_framework.test import APIClient

from askapp.models import Conversation, Feedback, Turn
from tests.factories import ConversationFactory, UserFactory, exchange

pytestmark = pytest.mark.usefixtures("kb")


def _aged(conversation: Conversation, minutes: int) -> Conversation:
    Conversation.objects.filter(pk=conversation.pk).update(
        updated=timezone.now() - timedelta(minutes=minutes)
    )
    return conversation


def test_the_list_holds_only_mine_most_recently_active_first(api: APIClient, user: Any) -> None:
    old = _aged(ConversationFactory(owner=user, title="old"), 30)
    new = _aged(ConversationFactory(owner=user, title="new"), 1)
    _aged(ConversationFactory(owner=user, title="middle"), 10)
    ConversationFactory(owner=UserFactory(), title="someone else's")

    body = api.get("/v1/conversations").json()

    assert body["count"] == 3
    assert [c["title"] for c in body["results"]] == ["new", "middle", "old"]
    assert body["results"][0] == {
        "id": str(new.pk),
        "title": "new",
        "scope": None,
        "created": body["results"][0]["created"],
        "updated": body["results"][0]["updated"],
    }
    assert str(old.pk) == body["results"][-1]["id"]


def test_asking_moves_a_conversation_to_the_top(api: APIClient, user: Any) -> None:
    first = _aged(ConversationFactory(owner=user, title="first"), 30)
    _aged(ConversationFactory(owner=user, title="second"), 1)

    api.post(
        "/v1/ask",
        {"question": "What was Apple's revenue in FY2023?", "conversation": str(first.pk)},
        format="json",
    )

    assert api.get("/v1/conversations").json()["results"][0]["title"] == "first"


def test_the_list_is_paginated(api: APIClient, user: Any) -> None:
    for n in range(25):
        _aged(ConversationFactory(owner=user, title=f"c{n}"), n)

    first = api.get("/v1/conversations").json()
    second = api.get(first["next"]).json()
    small = api.get("/v1/conversations?page_size=5&page=2").json()

    assert first["count"] == 25
    assert len(first["results"]) == 20
    assert len(second["results"]) == 5
    assert second["next"] is None
    assert [c["title"] for c in small["results"]] == ["c5", "c6", "c7", "c8", "c9"]
    assert api.get("/v1/conversations?page=99").status_code == 404


def test_search_matches_titles_and_turn_text(api: APIClient, user: Any) -> None:
    by_title = ConversationFactory(owner=user, title="Margins review")
    by_turn = ConversationFactory(owner=user, title="untitled")
    exchange(by_turn, "What were Tesla's MARGINS in FY2023?", "Not found.")
    ConversationFactory(owner=user, title="Revenue")
    theirs = ConversationFactory(owner=UserFactory(), title="margins too")

    found = api.get("/v1/conversations?search=margins").json()["results"]

    assert {c["id"] for c in found} == {str(by_title.pk), str(by_turn.pk)}
    assert str(theirs.pk) not in {c["id"] for c in found}


def test_create_with_a_title_and_a_scope(api: APIClient, user: Any) -> None:
    response = api.post(
        "/v1/conversations", {"title": " Apple deep dive ", "scope": "aapl"}, format="json"
    )

    assert response.status_code == 201
    body = response.json()
    assert body["title"] == "Apple deep dive"
    assert body["scope"] == "Apple"
    assert Conversation.objects.get(pk=body["id"]).owner == user


def test_a_scoped_conversation_answers_questions_that_name_no_entity(api: APIClient) -> None:
    conversation = api.post("/v1/conversations", {"scope": "Apple"}, format="json").json()

    turn = api.post(
        "/v1/ask",
        {"question": "What was revenue in FY2023?", "conversation": conversation["id"]},
        format="json",
    ).json()["turn"]

    assert turn["status"] == "found"
    assert turn["intent"]["entities"] == ["Apple"]
    assert turn["carried"][0]["slot"] == "entity"
    assert turn["carried"][0]["from_turn"] == 0


def test_create_without_anything_makes_an_untitled_conversation(api: APIClient) -> None:
    response = api.post("/v1/conversations", {}, format="json")

    assert response.status_code == 201
    assert response.json()["title"] == ""
    assert response.json()["scope"] is None


@pytest.mark.parametrize(
    ("body", "field", "code"),
    [
        ({"scope": "Atlantis Corp"}, "scope", "unknown_entity"),
        ({"scope": 12}, "scope", "invalid"),
        ({"title": "x" * 201}, "title", "max_length"),
        ({"title": ["a"]}, "title", "invalid"),
    ],
)
def test_create_refuses_bad_fields(api: APIClient, body: Any, field: str, code: str) -> None:
    response = api.post("/v1/conversations", body, format="json")

    assert response.status_code == 400
    assert response.json()["error"]["field"] == field
    assert response.json()["error"]["code"] == code
    assert not Conversation.objects.exists()


def test_read_returns_every_turn_in_order(api: APIClient) -> None:
    asked = api.post(
        "/v1/ask", {"question": "What was Apple's revenue in FY2023?"}, format="json"
    ).json()

    body = api.get(f"/v1/conversations/{asked['conversation']}").json()

    assert [(t["position"], t["role"]) for t in body["turns"]] == [(1, "user"), (2, "assistant")]
    assert body["turns"][1] == asked["turn"]
    assert body["turns"][1]["answers"] == body["turns"][0]["id"]


def test_a_long_conversation_reads_a_page_of_turns_at_a_time(api: APIClient, user: Any) -> None:
    chat = ConversationFactory(owner=user)
    for n in range(60):  # 120 turns: pages of 50, 50 and 20
        exchange(chat, f"question {n}", f"answer {n}")

    latest = api.get(f"/v1/conversations/{chat.pk}").json()
    first = api.get(f"/v1/conversations/{chat.pk}?page=1").json()

    assert [t["position"] for t in latest["turns"]] == list(range(101, 121))
    assert latest["page"] == {"number": 3, "count": 3, "size": 50, "previous": 2, "next": None}
    assert [t["position"] for t in first["turns"]] == list(range(1, 51))
    assert first["page"]["next"] == 2


@pytest.mark.parametrize(
    ("page", "status", "words"),
    [("0", 400, "page"), ("two", 400, "page"), ("4", 404, "3 page(s)")],
)
def test_a_page_that_is_not_there_says_so(
    api: APIClient, user: Any, page: str, status: int, words: str
) -> None:
    chat = ConversationFactory(owner=user)
    for n in range(60):
        exchange(chat, f"question {n}", f"answer {n}")

    response = api.get(f"/v1/conversations/{chat.pk}?page={page}")

    assert response.status_code == status
    assert words in str(response.json())


def test_rename(api: APIClient, user: Any) -> None:
    conversation = ConversationFactory(owner=user, title="before")

    response = api.patch(f"/v1/conversations/{conversation.pk}", {"title": "after"}, format="json")

    assert response.status_code == 200
    assert response.json()["title"] == "after"
    conversation.refresh_from_db()
    assert conversation.title == "after"


def test_rename_needs_a_title(api: APIClient, user: Any) -> None:
    conversation = ConversationFactory(owner=user)

    response = api.patch(f"/v1/conversations/{conversation.pk}", {}, format="json")

    assert response.status_code == 400
    assert response.json()["error"]["field"] == "title"


def test_delete_removes_the_conversation_with_its_turns(api: APIClient, user: Any) -> None:
    conversation = ConversationFactory(owner=user)
    exchange(conversation, "Q?", "A.")

    response = api.delete(f"/v1/conversations/{conversation.pk}")

    assert response.status_code == 204
    assert not Conversation.objects.exists()
    assert not Turn.objects.exists()
    assert api.get(f"/v1/conversations/{conversation.pk}").status_code == 404


@pytest.mark.parametrize("method", ["get", "patch", "delete"])
def test_another_users_conversation_is_a_404(api: APIClient, method: str) -> None:
    theirs = ConversationFactory(owner=UserFactory(), title="theirs")

    response = getattr(api, method)(
        f"/v1/conversations/{theirs.pk}", {"title": "mine"}, format="json"
    )

    assert response.status_code == 404
    assert response.json()["error"]["code"] == "conversation_not_found"
    theirs.refresh_from_db()
    assert theirs.title == "theirs"


@pytest.mark.parametrize("bad_id", ["nope", "123", "00000000-0000-0000-0000-000000000000"])
def test_a_malformed_or_unknown_id_is_a_404(api: APIClient, bad_id: str) -> None:
    response = api.get(f"/v1/conversations/{bad_id}")

    assert response.status_code == 404
    assert response.json()["error"]["code"] == "conversation_not_found"


def test_an_unknown_api_path_is_a_json_404(api: APIClient) -> None:
    response = api.get("/v1/nothing/here")

    assert response.status_code == 404
    assert response.json()["error"]["code"] == "not_found"


def test_anonymous_visitors_without_a_session_see_nothing() -> None:
    assert Client().get("/v1/conversations").json()["count"] == 0
    assert Client().get(f"/v1/conversations/{ConversationFactory().pk}").status_code == 404


# --- feedback -----------------------------------------------------------------------------


@pytest.fixture
def answer(user: Any) -> Turn:
    return exchange(ConversationFactory(owner=user), "Q?", "A.")[1]


def test_feedback_on_an_answer(api: APIClient, user: Any, answer: Turn) -> None:
    response = api.post(
        f"/v1/turns/{answer.pk}/feedback",
        {"value": "down", "comment": " wrong period "},
        format="json",
    )

    assert response.status_code == 201
    body = response.json()
    assert (body["turn"], body["value"], body["comment"]) == (
        str(answer.pk),
        "down",
        "wrong period",
    )
    feedback = Feedback.objects.get()
    assert (feedback.user, feedback.turn) == (user, answer)


def test_a_second_verdict_replaces_the_first(api: APIClient, answer: Turn) -> None:
    api.post(f"/v1/turns/{answer.pk}/feedback", {"value": "down"}, format="json")

    response = api.post(f"/v1/turns/{answer.pk}/feedback", {"value": "up"}, format="json")

    assert response.status_code == 200
    assert list(Feedback.objects.values_list("value", flat=True)) == ["up"]


def test_feedback_on_a_question_is_a_400(api: APIClient, answer: Turn) -> None:
    response = api.post(f"/v1/turns/{answer.answers_id}/feedback", {"value": "up"}, format="json")

    assert response.status_code == 400
    assert response.json()["error"]["code"] == "not_an_answer"


@pytest.mark.parametrize(
    ("body", "field"),
    [({}, "value"), ({"value": "meh"}, "value"), ({"value": "up", "comment": 3}, "comment")],
)
def test_feedback_refuses_bad_fields(api: APIClient, answer: Turn, body: Any, field: str) -> None:
    response = api.post(f"/v1/turns/{answer.pk}/feedback", body, format="json")

    assert response.status_code == 400
    assert response.json()["error"]["field"] == field


def test_feedback_on_someone_elses_answer_is_a_404(api: APIClient) -> None:
    theirs = exchange(ConversationFactory(owner=UserFactory()), "Q?", "A.")[1]

    response = api.post(f"/v1/turns/{theirs.pk}/feedback", {"value": "up"}, format="json")

    assert response.status_code == 404
    assert not Feedback.objects.exists()


def test_anonymous_feedback_belongs_to_the_session() -> None:
    visitor = Client()
    asked = visitor.post(
        "/v1/ask",
        {"question": "What was Apple's revenue in FY2023?"},
        content_type="application/json",
    ).json()

    response = visitor.post(
        f"/v1/turns/{asked['turn']['id']}/feedback",
        {"value": "up"},
        content_type="application/json",
    )

    assert response.status_code == 201
    feedback = Feedback.objects.get()
    assert feedback.user is None
    assert feedback.visitor == visitor.session["askapp_visitor"]
    assert feedback.visitor != visitor.session.session_key


def test_the_api_root_points_to_the_schema_and_the_docs() -> None:
    client = Client()

    index = client.get("/v1/").json()

    assert index == {"schema": "/v1/schema", "docs": "/v1/docs", "redoc": "/v1/redoc"}
    assert client.get(index["schema"]).status_code == 200
    assert client.get(index["docs"]).status_code == 200
