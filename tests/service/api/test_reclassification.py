"""Reclassification reaches the past: an answer that cited material now beyond the reader's
clearance shows a notice instead of its text, excerpts and figures, to everyone without that
clearance (its owner included); its text never becomes history for a model; no search finds
it by its words."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import Permission
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from askapp.models import Document, Fact
from askapp.selectors.clearance import WITHHELD_TEXT
from askapp.services.knowledge import document_save
from tests.askapp.reviewing import reviewer_client
from tests.service.api.conftest import INTERNAL_CANARY, EngineSpy

pytestmark = pytest.mark.django_db

REVENUE = "What was Apple's revenue in FY2023?"
REVENUE_TEXT = "383.3 billion"
WHY = "Why did Apple's revenue dip in fiscal 2023?"
WHY_TEXT = "iPhone and Mac sales fell"


def _reclassify_revenue(level: str = "RESTRICTED") -> None:
    fact = Fact.objects.get(entity__name="Apple", metric__name="Revenue", period="FY2023")
    fact.classification = level
    fact.save()


def _conversation_with(api: APIClient, *questions: str) -> str:
    conversation = None
    for question in questions:
        body: dict[str, Any] = {"question": question}
        if conversation:
            body["conversation"] = conversation
        response = api.post("/v1/ask", body, format="json")
        assert response.status_code == 200, response.content
        conversation = response.json()["conversation"]
    assert conversation is not None
    return conversation


def test_the_owner_sees_a_notice_instead_of_an_answer_citing_what_is_now_restricted(
    kb: None, api: APIClient
) -> None:
    conversation = _conversation_with(api, REVENUE, WHY)
    _reclassify_revenue()
    turns = api.get(f"/v1/conversations/{conversation}").json()["turns"]
    revenue_answer, why_answer = turns[1], turns[3]
    assert revenue_answer["withheld"] is True
    assert revenue_answer["text"] == WITHHELD_TEXT
    assert revenue_answer["sources"] == revenue_answer["figures"] == []
    assert revenue_answer["intent"] == {} and turns[0]["intent"] == {}
    assert turns[0]["text"] == REVENUE  # the question is the asker's own words
    assert why_answer["withheld"] is False and WHY_TEXT in why_answer["text"]
    page = api.get(f"/c/{conversation}/").content.decode()
    assert REVENUE_TEXT not in page
    assert WITHHELD_TEXT in page
    assert WHY_TEXT in page


def test_a_withheld_answer_is_never_history_for_the_model(
    kb: None, api: APIClient, engine_spy: EngineSpy
) -> None:
    conversation = _conversation_with(api, REVENUE, WHY)
    _reclassify_revenue()
    api.post("/v1/ask", {"question": "and in FY2022?", "conversation": conversation}, format="json")
    history = " ".join(text for _, text in engine_spy.last["history"])
    assert REVENUE_TEXT not in history and REVENUE not in history
    assert WHY_TEXT in history
    # Nor a carried slot: the withheld exchange is not remembered at all.
    assert engine_spy.last["session"].turns[0].question == WHY


def test_no_search_finds_a_withheld_answer_by_its_words(kb: None, api: APIClient) -> None:
    _conversation_with(api, REVENUE)
    assert api.get("/v1/conversations", {"search": REVENUE_TEXT}).json()["count"] == 1
    _reclassify_revenue()
    assert api.get("/v1/conversations", {"search": REVENUE_TEXT}).json()["count"] == 0
    page = api.get("/conversations/", {"q": REVENUE_TEXT}).content.decode()
    assert "No conversation matches" in page or REVENUE not in page
    client, _ = reviewer_client()
    for url, term in (
        (reverse("admin:askapp_answerturn_changelist"), REVENUE_TEXT),
        (reverse("admin:askapp_conversation_changelist"), REVENUE_TEXT),
    ):
        response = client.get(url, {"q": term})
        assert response.status_code == 200
        assert list(response.context["cl"].result_list) == [], url


def _internal_user_api() -> tuple[APIClient, Any]:
    from tests.factories import UserFactory

    user = UserFactory()
    user.user_permissions.add(Permission.objects.get(codename="view_internal"))
    client = APIClient()
    client.force_login(user)
    return client, user


def test_the_admin_withholds_an_internal_answer_from_reviewers_without_internal(
    kb: None,
) -> None:
    cleared_api, _ = _internal_user_api()
    answer = cleared_api.post(
        "/v1/ask", {"question": "What is Apple's services margin plan?"}, format="json"
    ).json()["turn"]
    said = "margin plan is internal"
    assert said in answer["text"], answer
    plain, _ = reviewer_client()
    internal, _ = reviewer_client("view_internal")
    change = reverse("admin:askapp_answerturn_change", args=[answer["id"]])
    listing = reverse("admin:askapp_answerturn_changelist")
    replay = reverse("admin:askapp_answerturn_replay", args=[answer["id"]])
    conversation = reverse("admin:askapp_conversation_change", args=[answer_conversation(answer)])
    for url, marker in (
        (change, INTERNAL_CANARY),
        (change, said),
        (listing, said),
        (replay, said),
        (conversation, said),
    ):
        assert marker not in plain.get(url).content.decode(), url
        assert marker in internal.get(url).content.decode(), url


def answer_conversation(answer: dict[str, Any]) -> str:
    from askapp.models import Turn

    return str(Turn.objects.get(pk=answer["id"]).conversation_id)


def test_the_export_leaves_out_what_the_exporter_may_not_see(kb: None, api: APIClient) -> None:
    conversation = _conversation_with(api, REVENUE, WHY)
    _reclassify_revenue("INTERNAL")
    client, _ = reviewer_client()
    url = reverse("admin:askapp_answerturn_changelist")
    from askapp.models import AnswerTurn
    from askapp.services.reviews import review_set

    answers = list(AnswerTurn.objects.filter(conversation_id=conversation))
    review_set(turns=answers, verdict="correct", reviewer=None)
    selected = [str(a.pk) for a in answers]
    response = client.post(
        url, {"action": "export_cases", "_selected_action": selected}, follow=True
    )
    body = b"".join(response.streaming_content) if response.streaming else response.content
    text = body.decode()
    assert REVENUE_TEXT not in text
    assert WHY in text


def test_a_document_reclassified_internal_withholds_its_answers_from_public_readers(
    kb: None, api: APIClient
) -> None:
    conversation = _conversation_with(api, WHY)
    document = Document.objects.get(key="apple-dip")
    document.classification = "INTERNAL"
    document_save(document=document)
    page = api.get(f"/c/{conversation}/").content.decode()
    assert WHY_TEXT not in page
    cleared, user = _internal_user_api()
    from askapp.models import Conversation

    Conversation.objects.filter(pk=conversation).update(owner=user)
    assert WHY_TEXT in cleared.get(f"/c/{conversation}/").content.decode()


def test_the_chat_page_never_sends_a_withheld_answer_in_its_fragment(
    kb: None, api: APIClient
) -> None:
    conversation = _conversation_with(api, REVENUE)
    _reclassify_revenue()
    turns = api.get(f"/v1/conversations/{conversation}").json()["turns"]
    fragment = api.get(f"/turns/{turns[1]['id']}/").content.decode()
    assert REVENUE_TEXT not in fragment and WITHHELD_TEXT in fragment


def test_a_client_without_a_session_never_reaches_the_pages(client: Client) -> None:
    assert client.get("/c/00000000-0000-0000-0000-000000000000/").status_code == 404
