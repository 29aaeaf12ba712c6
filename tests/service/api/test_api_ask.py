"""POST /v1/ask and /v1/ask/stream: validation, ownership, authentication, throttling,
clearance, and what is stored when the engine or its provider fails."""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from typing import Any

import pytest
from django.contrib.auth.models import Group, Permission
from django.test import Client
from rest_framework.test import APIClient

from askapp.api.sse import answer_frames
from askapp.database import ConnectionReleasingProvider
from askapp.models import Citation, Conversation, Turn
from askapp.owners import Owner
from askapp.permissions import PUBLIC_ONLY as PUBLIC
from askapp.services import asking
from askapp.services.asking import ask_prepare
from askapp.store import DatabaseStore
from engine import Engine
from engine.errors import ProviderBadResponse, ProviderRateLimited, ProviderTimeout
from engine.providers.base import Completion
from engine.providers.mock import MockProvider
from tests.factories import ConversationFactory, UserFactory
from tests.service.api.conftest import INTERNAL_CANARY, sse_events, streamed

pytestmark = pytest.mark.usefixtures("kb")

QUESTION = "What was Apple's revenue in FY2023?"
NARRATIVE = "Why did Apple's revenue dip in fiscal 2023?"


def post(client: Client, body: Any, path: str = "/v1/ask", **extra: Any) -> Any:
    data = body if isinstance(body, (str, bytes)) else json.dumps(body)
    return client.post(path, data, content_type="application/json", **extra)


def error_of(response: Any) -> dict[str, Any]:
    body = response.json()
    assert set(body) >= {"error"}, body
    assert set(body["error"]) <= {"code", "message", "field"}
    return body["error"]


# --- validation ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({}, "question"),
        ({"question": ""}, "question"),
        ({"question": "   \n\t "}, "question"),
        ({"question": "x" * 4001}, "question"),
        ({"question": 42}, "question"),
        ({"question": None}, "question"),
        ({"question": ["What?"]}, "question"),
        ({"question": "nul \x00 inside"}, "question"),
        ({"question": QUESTION, "conversation": "not-a-uuid"}, "conversation"),
        ({"question": QUESTION, "conversation": 7}, "conversation"),
        ({"question": QUESTION, "history": "user: hi"}, "history"),
        ({"question": QUESTION, "history": [["user", "hi"]] * 51}, "history"),
        ({"question": QUESTION, "history": [["user", "x" * 8001]]}, "history[0]"),
        ({"question": QUESTION, "history": [["user", "hi"], ["user"]]}, "history[1]"),
        ({"question": QUESTION, "history": [["user", "hi", "extra"]]}, "history[0]"),
        ({"question": QUESTION, "history": [{"role": "user", "text": "hi"}]}, "history[0]"),
        ({"question": QUESTION, "history": [["user", 5]]}, "history[0]"),
        ({"question": QUESTION, "history": [[None, "hi"]]}, "history[0]"),
    ],
)
@pytest.mark.parametrize("path", ["/v1/ask", "/v1/ask/stream"])
def test_a_bad_body_is_a_400_naming_the_field(
    api: APIClient, body: dict[str, Any], field: str, path: str
) -> None:
    response = post(api, body, path)

    assert response.status_code == 400, response.content
    assert response["Content-Type"] == "application/json"
    error = error_of(response)
    assert error["field"] == field
    assert error["message"]
    assert not Turn.objects.exists()


def test_a_question_of_4000_characters_after_trimming_is_accepted(api: APIClient) -> None:
    response = post(api, {"question": "  " + "revenue " * 499 + "revenue  "})

    assert response.status_code == 200, response.content


def test_the_question_is_stored_trimmed(api: APIClient) -> None:
    post(api, {"question": f"  {QUESTION}\n"})

    assert Turn.objects.get(role="user").text == QUESTION


MALFORMED = ["{not json", '{"question": "x",}', "[1, 2", '{"question": "\\ud8"}']


@pytest.mark.parametrize("body", MALFORMED)
def test_malformed_json_is_a_400(api: APIClient, body: str) -> None:
    response = post(api, body)

    assert response.status_code == 400
    assert error_of(response)["code"] == "parse_error"


def test_a_json_body_that_is_not_an_object_is_a_400(api: APIClient) -> None:
    response = post(api, ["What was Apple's revenue?"])

    assert response.status_code == 400
    assert "field" not in error_of(response)


def test_a_form_body_is_a_415(api: APIClient) -> None:
    response = api.post("/v1/ask", {"question": QUESTION})  # multipart

    assert response.status_code == 415
    assert error_of(response)["code"] == "unsupported_media_type"


def test_conversation_and_history_together_are_a_400(api: APIClient, user: Any) -> None:
    conversation = ConversationFactory(owner=user)
    body = {"question": QUESTION, "conversation": str(conversation.pk), "history": [["user", "hi"]]}

    response = post(api, body)

    assert response.status_code == 400
    assert error_of(response) == {
        "code": "conflict",
        "message": "Give conversation or history, not both.",
        "field": "history",
    }


def test_neither_conversation_nor_history_starts_a_conversation(api: APIClient, user: Any) -> None:
    body = post(api, {"question": QUESTION}).json()

    conversation = Conversation.objects.get(pk=body["conversation"])
    assert conversation.owner == user
    assert conversation.title == QUESTION
    assert [t.position for t in conversation.turns.all()] == [1, 2]


def test_the_answer_points_to_its_question(api: APIClient) -> None:
    turn = post(api, {"question": QUESTION}).json()["turn"]

    question = Turn.objects.get(pk=turn["answers"])
    assert question.role == "user"
    assert question.text == QUESTION
    assert question.position == turn["position"] - 1
    assert question.status == turn["status"] == "found"


def test_the_turn_has_every_documented_field(api: APIClient) -> None:
    turn = post(api, {"question": QUESTION}).json()["turn"]

    assert set(turn) == {
        "id",
        "position",
        "role",
        "origin",
        "text",
        "status",
        "refused",
        "figures",
        "sources",
        "intent",
        "carried",
        "reason",
        "choices",
        "answers",
        "created",
        "withheld",
    }
    assert turn["figures"][0]["value"] == "383285000000"
    assert turn["figures"][0]["sources"] == [turn["sources"][0]["id"]]
    stored = Turn.objects.get(pk=turn["id"])
    assert stored.provider == "mock"
    assert stored.latency_ms is not None


# --- ownership ----------------------------------------------------------------------------


@pytest.mark.parametrize("path", ["/v1/ask", "/v1/ask/stream"])
def test_another_users_conversation_is_a_404(api: APIClient, path: str) -> None:
    theirs = ConversationFactory(owner=UserFactory())

    response = post(api, {"question": QUESTION, "conversation": str(theirs.pk)}, path)

    assert response.status_code == 404
    assert error_of(response)["field"] == "conversation"
    assert not theirs.turns.exists()


def test_an_unknown_or_deleted_conversation_is_a_404(api: APIClient, user: Any) -> None:
    stale = ConversationFactory(owner=user)
    stale_id = str(stale.pk)
    stale.delete()

    response = post(api, {"question": QUESTION, "conversation": stale_id})

    assert response.status_code == 404
    assert error_of(response)["code"] == "conversation_not_found"


# --- authentication -----------------------------------------------------------------------


def test_without_login_and_without_anonymous_chat_the_api_is_closed(settings: Any) -> None:
    settings.ASKAPP_ANONYMOUS_CHAT = False

    response = post(Client(), {"question": QUESTION})

    assert response.status_code == 401
    assert response["WWW-Authenticate"] == "Token"
    assert error_of(response)["code"] == "not_authenticated"


def test_an_api_token_authenticates(token_api: APIClient, user: Any, settings: Any) -> None:
    settings.ASKAPP_ANONYMOUS_CHAT = False

    body = post(token_api, {"question": QUESTION}).json()

    assert Conversation.objects.get(pk=body["conversation"]).owner == user


def test_a_wrong_token_is_a_401(settings: Any) -> None:
    response = post(Client(), {"question": QUESTION}, HTTP_AUTHORIZATION="Token nope")

    assert response.status_code == 401
    assert error_of(response)["code"] == "authentication_failed"


SECRET = "k" * 32


def test_a_logged_in_browser_must_send_the_csrf_token(user: Any, settings: Any) -> None:
    browser = Client(enforce_csrf_checks=True)
    browser.force_login(user)

    refused = post(browser, {"question": QUESTION})
    browser.cookies[settings.CSRF_COOKIE_NAME] = SECRET  # as a page of the site would set it
    accepted = post(browser, {"question": QUESTION}, HTTP_X_CSRFTOKEN=SECRET)

    assert refused.status_code == 403
    assert "CSRF" in error_of(refused)["message"]
    assert accepted.status_code == 200


def test_anonymous_chat_belongs_to_the_session() -> None:
    visitor, stranger = Client(), Client()

    body = post(visitor, {"question": QUESTION}).json()
    conversation = Conversation.objects.get(pk=body["conversation"])
    again = post(visitor, {"question": "and in FY2022?", "conversation": body["conversation"]})
    foreign = post(stranger, {"question": QUESTION, "conversation": body["conversation"]})

    assert conversation.owner is None
    # An opaque id kept in the session, not the session key (docs/adr/0031).
    assert conversation.visitor == visitor.session["askapp_visitor"]
    assert conversation.visitor != visitor.session.session_key
    assert again.status_code == 200
    assert again.json()["turn"]["position"] == 4
    assert foreign.status_code == 404
    assert [c["id"] for c in visitor.get("/v1/conversations").json()["results"]] == [
        body["conversation"]
    ]
    assert stranger.get("/v1/conversations").json()["results"] == []


def test_an_anonymous_session_is_protected_by_csrf_once_it_exists() -> None:
    visitor = Client(enforce_csrf_checks=True)
    first = post(visitor, {"question": QUESTION})  # no session yet: nothing to protect

    second = post(visitor, {"question": QUESTION})

    assert first.status_code == 200
    assert second.status_code == 403


# --- throttling ---------------------------------------------------------------------------


def test_too_many_requests_is_a_429_with_retry_after(api: APIClient, settings: Any) -> None:
    settings.ASKAPP_THROTTLE_USER = "2/min"

    statuses = [post(api, {"question": QUESTION}).status_code for _ in range(3)]
    response = post(api, {"question": QUESTION})

    assert statuses == [200, 200, 429]
    assert response.status_code == 429
    assert 1 <= int(response["Retry-After"]) <= 60
    assert error_of(response)["code"] == "throttled"


def test_anonymous_clients_have_their_own_rate(settings: Any, api: APIClient) -> None:
    settings.ASKAPP_THROTTLE_ANON = "1/min"
    visitor = Client()

    assert post(visitor, {"question": QUESTION}).status_code == 200
    assert post(visitor, {"question": QUESTION}).status_code == 429
    assert post(api, {"question": QUESTION}).status_code == 200


# --- clearance ----------------------------------------------------------------------------

INTERNAL_QUESTION = "What is Apple's services margin plan in the memo?"


def _answer_text(client: Any) -> str:
    turn = post(client, {"question": INTERNAL_QUESTION}).json()["turn"]
    return json.dumps(turn)


def test_internal_material_needs_the_view_internal_permission(api: APIClient, user: Any) -> None:
    without = _answer_text(api)
    user.user_permissions.add(Permission.objects.get(codename="view_internal"))
    cleared = APIClient()
    cleared.force_login(user)

    with_permission = _answer_text(cleared)

    assert INTERNAL_CANARY not in without
    assert INTERNAL_CANARY in with_permission


def test_clearance_read_with_the_user_follows_groups_tokens_and_revocation(
    api: APIClient, token_api: APIClient, user: Any
) -> None:
    """The user's clearance comes in the query that reads the user (askapp/auth.py), for a
    session and for a token, from a group as well as the user, and a revoked permission
    holds from the next request on."""
    analysts = Group.objects.create(name="analysts")
    analysts.permissions.add(Permission.objects.get(codename="view_internal"))
    user.groups.add(analysts)

    assert INTERNAL_CANARY in _answer_text(api)
    assert INTERNAL_CANARY in _answer_text(token_api)
    user.groups.remove(analysts)
    assert INTERNAL_CANARY not in _answer_text(api)
    assert INTERNAL_CANARY not in _answer_text(token_api)


def test_anonymous_visitors_never_get_internal_material() -> None:
    assert INTERNAL_CANARY not in _answer_text(Client())


# --- what is stored before the answer ----------------------------------------------------


class WatchingProvider(MockProvider):
    """The mock, noting the stored turns each time the engine calls it."""

    def __init__(self) -> None:
        super().__init__()
        self.seen: list[list[tuple[str, str, str]]] = []

    def complete(self, messages: Sequence[Any], *, tools: Any = None) -> Completion:
        self.seen.append(list(Turn.objects.values_list("role", "status", "reason")))
        return super().complete(messages, tools=tools)


@pytest.mark.parametrize("remote", [True, False])
def test_a_new_conversations_question_is_stored_first_when_a_remote_model_holds_the_answer(
    api: APIClient, monkeypatch: pytest.MonkeyPatch, remote: bool
) -> None:
    watching = WatchingProvider()
    provider = ConnectionReleasingProvider(watching) if remote else watching
    setup = Engine(provider=provider, store=DatabaseStore())
    monkeypatch.setattr(asking, "the_engine", lambda: setup)

    response = post(api, {"question": QUESTION})

    assert response.status_code == 200
    pending = [("user", "error", "Interrupted")] if remote else []
    assert watching.seen and all(seen == pending for seen in watching.seen)
    turns = Turn.objects.filter(conversation_id=response.json()["conversation"])
    assert [(t.position, t.role, t.status, t.reason) for t in turns.order_by("position")] == [
        (1, "user", "found", ""),
        (2, "assistant", "found", ""),
    ]


# --- failures -----------------------------------------------------------------------------


class FailingProvider(MockProvider):
    """The mock, except that it fails with `error` on its `fail_on`-th call."""

    def __init__(self, error: Exception, *, after_words: int | None = None) -> None:
        super().__init__()
        self.error = error
        self.after_words = after_words

    def complete(self, messages: Sequence[Any], *, tools: Any = None) -> Completion:
        raise self.error

    def stream(self, messages: Sequence[Any]) -> Iterator[str]:
        if self.after_words is None:
            raise self.error
        for number, word in enumerate(super().stream(messages)):
            if number == self.after_words:
                raise self.error
            yield word


@pytest.fixture
def failing(monkeypatch: pytest.MonkeyPatch) -> Any:
    def use(error: Exception, *, after_words: int | None = None) -> None:
        setup = Engine(
            provider=FailingProvider(error, after_words=after_words),
            store=DatabaseStore(),
        )
        monkeypatch.setattr(asking, "the_engine", lambda: setup)

    return use


@pytest.mark.parametrize(
    ("error", "status", "code"),
    [
        (ProviderTimeout("no answer within 30 s"), 503, "provider_timeout"),
        (ProviderRateLimited("rate limited (HTTP 429)"), 503, "provider_rate_limited"),
        (ProviderBadResponse("unreadable answer"), 502, "provider_bad_response"),
    ],
)
def test_a_provider_failure_stores_the_question_with_status_error_and_no_answer(
    api: APIClient, failing: Any, error: Exception, status: int, code: str
) -> None:
    failing(error)

    response = post(api, {"question": QUESTION})

    assert response.status_code == status
    body = response.json()
    assert body["error"]["code"] == code
    assert str(error) in body["error"]["message"]
    turns = list(Turn.objects.filter(conversation_id=body["conversation"]))
    assert [(t.role, t.status, t.position) for t in turns] == [("user", "error", 1)]
    assert str(turns[0].pk) == body["turn"]
    assert turns[0].reason == type(error).__name__


def test_a_failed_ask_continues_the_conversation_in_order(
    api: APIClient, failing: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    conversation = post(api, {"question": QUESTION}).json()["conversation"]
    failing(ProviderTimeout("slow"))
    post(api, {"question": "and in FY2022?", "conversation": conversation})
    monkeypatch.undo()

    after = post(api, {"question": "and in FY2021?", "conversation": conversation}).json()

    turns = Turn.objects.filter(conversation_id=conversation).order_by("position")
    assert [(t.position, t.role, t.status) for t in turns] == [
        (1, "user", "found"),
        (2, "assistant", "found"),
        (3, "user", "error"),
        (4, "user", "not_found"),
        (5, "assistant", "not_found"),
    ]
    assert after["turn"]["position"] == 5


def test_a_stream_that_fails_midway_ends_with_an_error_event_and_stores_no_answer(
    api: APIClient, failing: Any
) -> None:
    failing(ProviderTimeout("stalled"), after_words=3)

    response = post(api, {"question": NARRATIVE}, "/v1/ask/stream")
    events = sse_events(streamed(response))

    assert response.status_code == 200
    assert events[0][0] == "meta"
    assert events[-1][0] == "error"
    error = json.loads(events[-1][1])
    assert error["error"]["code"] == "provider_timeout"
    assert error["turn"]["status"] == "error"
    assert "done" not in [kind for kind, _ in events]
    assert list(Turn.objects.values_list("role", "status")) == [("user", "error")]


def test_a_wsgi_stream_closed_early_still_stores_its_turn(user: Any) -> None:
    prepared = ask_prepare(owner=Owner(user_id=user.pk), question=NARRATIVE, clearance=PUBLIC)
    frames = answer_frames(prepared)
    assert next(frames).startswith(b"event: meta")

    frames.close()  # what a WSGI server does with the body when the client goes away

    assert list(Turn.objects.order_by("position").values_list("role", "status")) == [
        ("user", "answered"),
        ("assistant", "answered"),
    ]


def test_each_answer_indexes_what_it_cites(api: APIClient) -> None:
    found = post(api, {"question": QUESTION}).json()["turn"]
    narrative = post(api, {"question": NARRATIVE}).json()["turn"]
    refused = post(api, {"question": "What was Apple's revenue in FY2099?"}).json()["turn"]

    fact = Citation.objects.get(turn_id=found["id"])
    passage = Citation.objects.get(turn_id=narrative["id"])
    assert (fact.source_id, fact.fact_id) == (found["sources"][0]["id"], int(fact.source_id[5:]))
    assert passage.document_id == int(narrative["sources"][0]["document_id"])
    assert not Citation.objects.filter(turn_id=refused["id"]).exists()
