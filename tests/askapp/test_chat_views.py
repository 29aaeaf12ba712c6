"""The chat pages through Django's test client: the no-JavaScript paths, escaping, ownership,
and how each kind of answer reads."""

from __future__ import annotations

import re
from decimal import Decimal
from html import unescape
from typing import Any

import pytest
from django.core.cache import cache
from django.test import Client

from askapp.models import Conversation, Feedback, Turn
from tests.factories import (
    PASSWORD,
    ConversationFactory,
    EntityFactory,
    FactFactory,
    FeedbackFactory,
    MetricFactory,
    TurnFactory,
    UserFactory,
    exchange,
)

pytestmark = pytest.mark.django_db

SCRIPT = "<script>window.__xss=1</script>"
IMG = "<img src=x onerror=window.__xss=1>"
LOOKUP = {"kind": "lookup", "entities": ["Apple"], "metrics": ["Revenue"], "periods": ["FY2023"]}
APPLE_2023 = {
    "id": "fact:1",
    "kind": "fact",
    "title": "Apple · Revenue · FY2023",
    "reference": "10-K filed 2023-11-03",
    "document_id": None,
    "classification": "PUBLIC",
    "entity": "Apple",
    "metric": "Revenue",
    "period": "FY2023",
    "value": "383285000000",
    "unit": "USD",
}
APPLE_2022 = {
    **APPLE_2023,
    "id": "fact:2",
    "title": "Apple · Revenue · FY2022",
    "period": "FY2022",
    "value": "394328000000",
}


def figure(source: dict[str, Any], display: str) -> dict[str, Any]:
    return {
        "label": f"Apple Revenue {source['period']}",
        "value": source["value"],
        "unit": "USD",
        "kind": "fact",
        "sources": [source["id"]],
        "display": display,
        "entity": "Apple",
        "metric": "Revenue",
        "period": source["period"],
    }


@pytest.fixture(autouse=True)
def _chat_settings(settings: Any) -> None:
    settings.ASKAPP_PROVIDER = "mock"
    settings.ASKAPP_ANONYMOUS_CHAT = True
    settings.ASKAPP_THROTTLE_ANON = "100000/min"
    settings.ASKAPP_THROTTLE_USER = "100000/min"


@pytest.fixture
def kb(db: None) -> None:
    apple = EntityFactory(name="Apple", aliases=["Apple", "Apple Inc.", "AAPL"])
    EntityFactory(name="Microsoft", aliases=["Microsoft", "MSFT"])
    revenue = MetricFactory(name="Revenue", aliases=["Revenue", "Net sales"])
    FactFactory(entity=apple, metric=revenue, period="FY2023", value=Decimal("383285000000"))
    FactFactory(entity=apple, metric=revenue, period="FY2022", value=Decimal("394328000000"))


@pytest.fixture
def user_client(client: Client) -> tuple[Client, Any]:
    user = UserFactory()
    client.login(username=user.username, password=PASSWORD)
    return client, user


def page(response: Any) -> str:
    assert response.status_code == 200, response.status_code
    return response.content.decode()


def answer_for(conversation: Conversation, **fields: Any) -> Turn:
    status = fields.pop("status", Turn.Status.FOUND)
    question = fields.pop("question", "What was Apple's revenue in FY2023?")
    _, answer = exchange(conversation, question, fields.pop("text", "An answer."), status=status)
    for name, value in fields.items():
        setattr(answer, name, value)
    answer.save()
    return answer


# --- access ---------------------------------------------------------------------------------


def test_with_anonymous_chat_off_every_page_asks_to_log_in(client: Client, settings: Any) -> None:
    settings.ASKAPP_ANONYMOUS_CHAT = False
    conversation = ConversationFactory()
    for url in ("/", "/conversations/", f"/c/{conversation.pk}/"):
        response = client.get(url)
        assert response.status_code == 302
        assert response["Location"].startswith("/accounts/login/?next=")
    response = client.post("/ask", {"question": "What was Apple's revenue in FY2023?"})
    assert response.status_code == 302
    assert response["Location"].startswith("/accounts/login/")
    assert not Turn.objects.exists()


def test_logging_in_and_out(client: Client, settings: Any) -> None:
    settings.ASKAPP_ANONYMOUS_CHAT = False
    user = UserFactory()
    form = page(client.get("/accounts/login/?next=/conversations/"))
    assert 'name="username"' in form and 'name="password"' in form
    response = client.post(
        "/accounts/login/",
        {"username": user.username, "password": PASSWORD, "next": "/conversations/"},
    )
    assert response["Location"] == "/conversations/"
    assert "Log out" in page(client.get("/"))
    response = client.post("/accounts/logout/")
    assert response.status_code == 302
    assert client.get("/").status_code == 302


def test_a_wrong_password_is_refused_on_the_page(client: Client) -> None:
    user = UserFactory()
    response = client.post("/accounts/login/", {"username": user.username, "password": "nope"})
    assert response.status_code == 200
    assert 'role="alert"' in response.content.decode()


def test_anonymous_chat_lets_a_visitor_in(client: Client) -> None:
    body = page(client.get("/"))
    assert 'name="question"' in body
    assert "Log in" in body


def test_another_users_conversation_is_not_found(user_client: tuple[Client, Any]) -> None:
    client, _ = user_client
    theirs = ConversationFactory(title="Their plans")
    answer = answer_for(theirs)
    assert client.get(f"/c/{theirs.pk}/").status_code == 404
    assert client.get(f"/turns/{answer.pk}/").status_code == 404
    assert client.post(f"/c/{theirs.pk}/rename", {"title": "Mine now"}).status_code == 404
    assert client.post(f"/c/{theirs.pk}/delete").status_code == 404
    assert client.post(f"/turns/{answer.pk}/feedback", {"value": "up"}).status_code == 404
    assert client.post("/ask", {"question": "hi", "conversation": theirs.pk}).status_code == 404
    theirs.refresh_from_db()
    assert theirs.title == "Their plans"
    assert not Feedback.objects.exists()
    assert "Their plans" not in page(client.get("/conversations/"))


def test_an_anonymous_visitor_cannot_open_a_users_conversation(client: Client) -> None:
    theirs = ConversationFactory()
    answer = answer_for(theirs)
    assert client.get(f"/c/{theirs.pk}/").status_code == 404
    assert client.get(f"/turns/{answer.pk}/").status_code == 404


# --- asking without JavaScript --------------------------------------------------------------


def test_asking_without_javascript_posts_redirects_and_shows_the_answer(
    client: Client, kb: None
) -> None:
    response = client.post("/ask", {"question": "What was Apple's revenue in FY2023?"})
    assert response.status_code == 302
    conversation = Conversation.objects.get()
    answer = conversation.turns.get(role=Turn.Role.ASSISTANT)
    assert response["Location"] == f"/c/{conversation.pk}/#answer-{answer.pk}"
    assert conversation.visitor and conversation.owner is None

    body = page(client.get(f"/c/{conversation.pk}/"))
    assert "What was Apple&#x27;s revenue in FY2023?" in body
    assert "USD 383.3 billion" in body
    assert "Found in the knowledge base" in body
    assert "10-K filed 2024-01-31" in body  # the fact's filing, in its source

    client.post("/ask", {"question": "and in FY2022?", "conversation": conversation.pk})
    body = page(client.get(f"/c/{conversation.pk}/"))
    assert "USD 394.3 billion" in body
    assert "Company Apple and metric Revenue carried from your first question" in body
    assert conversation.turns.count() == 4


def test_a_scoped_conversation_starts_without_javascript(client: Client, kb: None) -> None:
    response = client.post("/ask", {"question": "What was revenue in FY2023?", "scope": "Apple"})
    conversation = Conversation.objects.get()
    assert conversation.scope.name == "Apple"
    body = page(client.get(response["Location"].partition("#")[0]))
    assert "About <strong>Apple</strong>" in body
    assert "USD 383.3 billion" in body
    assert "carried from this conversation&#x27;s scope" in body


def test_an_empty_question_shows_the_form_again_with_its_error(client: Client) -> None:
    response = client.post("/ask", {"question": "   "})
    assert response.status_code == 400
    assert "Type a question first." in response.content.decode()
    assert not Conversation.objects.exists()


def test_the_form_path_counts_against_the_api_rate(client: Client, kb: None, settings: Any) -> None:
    settings.ASKAPP_THROTTLE_ANON = "2/min"
    cache.clear()  # throttle counts live in the cache
    client.post("/v1/ask", {"question": "What was Apple's revenue in FY2023?"}, "application/json")
    client.post("/ask", {"question": "and in FY2022?"})
    response = client.post("/ask", {"question": "and in FY2021?"})
    assert response.status_code == 429
    assert "Too many questions at once: try again in" in response.content.decode()
    assert Turn.objects.filter(role=Turn.Role.USER).count() == 2
    cache.clear()


def test_the_ask_view_stores_through_the_ask_service(client: Client, kb: None) -> None:
    client.post("/ask", {"question": "What was JPMorgan's operating income in FY2023?"})
    question, answer = Turn.objects.order_by("position")
    assert (question.role, answer.role) == (Turn.Role.USER, Turn.Role.ASSISTANT)
    assert answer.answers == question
    assert answer.status == Turn.Status.NOT_FOUND and answer.refused


# --- escaping -------------------------------------------------------------------------------


def test_questions_titles_and_excerpts_are_escaped(user_client: tuple[Client, Any]) -> None:
    client, user = user_client
    conversation = ConversationFactory(owner=user, title=f"Title {SCRIPT}")
    passage = {
        "id": "passage:1.1",
        "kind": "passage",
        "title": f"Memo {IMG}",
        "reference": "note",
        "document_id": "document:1",
        "classification": "PUBLIC",
        "excerpt": f"Revenue rose {SCRIPT} and {IMG}.",
    }
    answer_for(
        conversation,
        question=f"Why? {SCRIPT} {IMG}",
        text=f"Because {IMG} [1].",
        status=Turn.Status.ANSWERED,
        sources=[passage],
    )
    for url in (f"/c/{conversation.pk}/", "/", "/conversations/"):
        body = page(client.get(url))
        assert "<script>window" not in body
        assert "<img src=x" not in body
    body = page(client.get(f"/c/{conversation.pk}/"))
    assert "&lt;script&gt;window.__xss=1&lt;/script&gt;" in body
    assert "&lt;img src=x onerror=window.__xss=1&gt;" in body
    assert "script-src &#x27;self&#x27;" not in body  # the policy is a header, not markup
    response = client.get(f"/c/{conversation.pk}/")
    assert "script-src 'self'" in response["Content-Security-Policy"]


def test_an_opened_passage_marks_the_sentence_the_answer_cites(
    user_client: tuple[Client, Any],
) -> None:
    client, user = user_client
    conversation = ConversationFactory(owner=user)
    excerpt = f"Fiscal 2023 was hard. Revenue fell 3% {SCRIPT}. Services kept growing."
    cited = excerpt.index("Revenue"), excerpt.index(". Services") + 1
    passage = {
        "id": "chunk:7", "kind": "passage", "title": "Apple 10-K FY2023", "reference": "10-K",
        "document_id": "7", "classification": "PUBLIC", "excerpt": excerpt,
        "entity": "Apple", "period": "FY2023",
        "cited_spans": [{"start": cited[0], "end": cited[1]}, {"start": 5, "end": 999}],
    }  # fmt: skip
    answer_for(conversation, text="Revenue fell 3% [1].", status=Turn.Status.ANSWERED,
               sources=[passage])  # fmt: skip

    body = page(client.get(f"/c/{conversation.pk}/"))

    marked = re.findall(r'<mark class="cited"[^>]*>(.*?)</mark>', body, re.S)
    assert marked == ["Revenue fell 3% &lt;script&gt;window.__xss=1&lt;/script&gt;."]
    assert "Fiscal 2023 was hard. <mark" in body, "a span past the excerpt's end is ignored"
    assert "<dt>Company</dt><dd>Apple</dd>" in body and "<dt>Period</dt><dd>FY2023</dd>" in body


def test_the_fragment_escapes_as_the_page_does(user_client: tuple[Client, Any]) -> None:
    client, user = user_client
    conversation = ConversationFactory(owner=user)
    answer = answer_for(conversation, question=f"Q {SCRIPT}", text=f"A {IMG}")
    body = page(client.get(f"/turns/{answer.pk}/"))
    assert body.lstrip().startswith('<li class="exchange"')
    assert "<script>" not in body and "<img" not in body
    assert "&lt;script&gt;" in body and "&lt;img src=x" in body


# --- how answers read -----------------------------------------------------------------------


def test_a_found_answer_cites_its_sources(user_client: tuple[Client, Any]) -> None:
    client, user = user_client
    conversation = ConversationFactory(owner=user)
    answer = answer_for(
        conversation,
        text="Apple's Revenue in FY2023 was USD 383.3 billion [1].",
        intent=LOOKUP,
        sources=[APPLE_2023],
        figures=[figure(APPLE_2023, "USD 383.3 billion")],
    )
    body = page(client.get(f"/c/{conversation.pk}/"))
    anchor = f"answer-{answer.pk}-source-1"
    assert f'<a class="cite" href="#{anchor}"' in body
    assert f'<li id="{anchor}">' in body
    assert "USD 383,285,000,000" in body  # the exact value, never rounded
    assert "(shown as USD 383.3 billion)" in body
    assert "10-K filed 2023-11-03" in body
    assert "Understood as</span> Apple · Revenue · FY2023" in body
    assert "chart-svg" not in body  # one figure: no chart


def test_a_citation_without_a_source_stays_plain_text(user_client: tuple[Client, Any]) -> None:
    client, user = user_client
    conversation = ConversationFactory(owner=user)
    answer_for(conversation, text="See [7].", sources=[APPLE_2023])
    body = page(client.get(f"/c/{conversation.pk}/"))
    assert "See [7]." in body
    assert 'class="cite"' not in body


def test_a_comparison_gets_a_labelled_chart(user_client: tuple[Client, Any]) -> None:
    client, user = user_client
    conversation = ConversationFactory(owner=user)
    change = {
        "label": "change",
        "value": "-11043000000",
        "unit": "USD",
        "kind": "computed",
        "sources": ["fact:2", "fact:1"],
        "display": "USD -11 billion",
    }
    answer = answer_for(
        conversation,
        text="From USD 394.3 billion [1] to USD 383.3 billion [2]: a decrease of USD 11 billion.",
        sources=[APPLE_2022, APPLE_2023],
        figures=[
            figure(APPLE_2022, "USD 394.3 billion"),
            figure(APPLE_2023, "USD 383.3 billion"),
            change,
        ],
    )
    body = page(client.get(f"/c/{conversation.pk}/"))
    svg = re.search(r"<svg class=\"chart-svg\".*?</svg>", body, re.S).group(0)  # type: ignore[union-attr]
    assert f'aria-labelledby="chart-{answer.pk}-title chart-{answer.pk}-desc"' in svg
    assert "<title" in svg and "Apple · Revenue by period</title>" in svg
    assert "FY2022: USD 394.3 billion; FY2023: USD 383.3 billion" in svg
    assert svg.count('class="bar-rect"') == 2  # the computed change is not drawn
    assert ">FY2022</text>" in svg and ">USD 383.3 billion</text>" in svg


def test_a_chart_of_negative_values_hatches_them(user_client: tuple[Client, Any]) -> None:
    client, user = user_client
    conversation = ConversationFactory(owner=user)
    losses = [
        {**APPLE_2022, "id": "f:1", "entity": "Boeing", "value": "-4935000000"},
        {**APPLE_2023, "id": "f:2", "entity": "Boeing", "value": "-2222000000"},
    ]
    answer_for(
        conversation,
        sources=losses,
        figures=[
            {**figure(losses[0], "USD -4.94 billion"), "entity": "Boeing"},
            {**figure(losses[1], "USD -2.22 billion"), "entity": "Boeing"},
        ],
    )
    body = page(client.get(f"/c/{conversation.pk}/"))
    assert body.count("bar bar--negative") == 2
    assert "hatched bars are below zero" in body
    assert 'class="zero-line"' in body


def test_not_found_never_shows_a_figure(user_client: tuple[Client, Any]) -> None:
    client, user = user_client
    conversation = ConversationFactory(owner=user)
    answer_for(
        conversation,
        status=Turn.Status.NOT_FOUND,
        refused=True,
        text="The knowledge base holds no figure for JPMorgan Chase's Operating income in FY2023.",
        # A not-found turn must never hold these; the page ignores them if it does.
        sources=[APPLE_2023, APPLE_2022],
        figures=[figure(APPLE_2023, "USD 383.3 billion"), figure(APPLE_2022, "x")],
    )
    body = page(client.get(f"/c/{conversation.pk}/"))
    assert "answer answer--not_found" in body
    assert "Not in the knowledge base" in body
    # (a random id on the page may hold the digits 383: look for the figure itself)
    assert "383.3" not in body and "383285" not in body and "USD" not in body
    assert "Sources" not in body and "chart-svg" not in body


def test_blocked_shows_the_reason(user_client: tuple[Client, Any]) -> None:
    client, user = user_client
    conversation = ConversationFactory(owner=user)
    answer_for(
        conversation,
        status=Turn.Status.BLOCKED,
        reason="instruction_override",
        text="This question was not answered: it asks the assistant to set aside its rules.",
    )
    body = page(client.get(f"/c/{conversation.pk}/"))
    assert "answer answer--blocked" in body
    assert "Not answered" in body
    assert "Reason: instruction override." in body


def test_clarify_offers_its_choices_as_buttons_that_ask(user_client: tuple[Client, Any]) -> None:
    client, user = user_client
    conversation = ConversationFactory(owner=user)
    answer_for(
        conversation,
        status=Turn.Status.CLARIFY,
        text="Which figure do you mean: Net income or Operating income?",
        choices=["Net income", "Operating income"],
    )
    body = page(client.get(f"/c/{conversation.pk}/"))
    form = re.search(r'<form[^>]*class="choices".*?</form>', body, re.S).group(0)  # type: ignore[union-attr]
    assert 'action="/ask"' in form
    assert f'name="conversation" value="{conversation.pk}"' in form
    assert '<button type="submit" name="question" value="Net income">Net income</button>' in form


def test_a_not_found_answer_offers_what_is_held_nearby_as_questions(
    user_client: tuple[Client, Any], kb: None
) -> None:
    client, _ = user_client
    client.post("/ask", {"question": "What was Apple's revenue in FY2020?"})
    conversation = Conversation.objects.get()
    body = page(client.get(f"/c/{conversation.pk}/"))

    form = re.search(r'<form[^>]*class="choices".*?</form>', body, re.S).group(0)  # type: ignore[union-attr]
    assert "Held nearby: ask instead" in form
    assert re.findall(r">(FY\d{4})</button>", form) == ["FY2023", "FY2022"]
    assert 'value="What was Apple&#x27;s Revenue in FY2023?"' in form
    assert 'href="/coverage/?company=Apple"' in body
    client.post(
        "/ask", {"question": "What was Apple's Revenue in FY2023?", "conversation": conversation.pk}
    )
    assert conversation.turns.order_by("position").last().status == Turn.Status.FOUND


def test_copy_carries_the_answer_as_markdown_with_numbered_sources(
    user_client: tuple[Client, Any],
) -> None:
    client, user = user_client
    conversation = ConversationFactory(owner=user)
    exchange(conversation, "What was Apple's revenue in FY2023?", "USD 383.3 billion [1].")
    carried = [{"slot": "entity", "value": "Apple", "from_turn": 1,
                "question": "What was Apple's revenue in FY2023?"}]  # fmt: skip
    answer_for(
        conversation,
        question="and in FY2022?",
        text="Apple's Revenue in FY2022 was USD 394.3 billion [1].",
        sources=[APPLE_2022],
        figures=[figure(APPLE_2022, "USD 394.3 billion")],
        carried=carried,
    )
    body = page(client.get(f"/c/{conversation.pk}/"))
    markdown = unescape(re.findall(r'data-markdown="([^"]*)"', body)[-1])

    assert markdown == (
        "Apple's Revenue in FY2022 was USD 394.3 billion [1].\n"
        "\n"
        "_Company Apple carried from your first question: “What was Apple's revenue in FY2023?”._\n"
        "\n"
        "Sources:\n"
        "\n"
        "1. Apple · Revenue · FY2022, USD 394,328,000,000, 10-K filed 2023-11-03\n"
    )


def test_edit_and_ask_puts_an_earlier_question_in_the_form(
    user_client: tuple[Client, Any],
) -> None:
    client, user = user_client
    conversation = ConversationFactory(owner=user)
    question, _ = exchange(
        conversation, "What was Apple's revenue in FY2023?", "USD 383.3 billion."
    )
    body = page(client.get(f"/c/{conversation.pk}/"))
    assert f'href="/c/{conversation.pk}/?edit={question.pk}#ask-form"' in body
    assert 'value="What was Apple&#x27;s revenue in FY2023?" class="link-button">Ask again' in body

    edited = page(client.get(f"/c/{conversation.pk}/?edit={question.pk}"))
    composer = re.search(r'<textarea name="question".*?</textarea>', edited, re.S).group(0)  # type: ignore[union-attr]
    assert composer.endswith(">What was Apple&#x27;s revenue in FY2023?</textarea>")


def test_a_slot_filled_because_one_company_is_held_says_why(
    user_client: tuple[Client, Any],
) -> None:
    client, user = user_client
    conversation = ConversationFactory(owner=user)
    carried = [{"slot": "entity", "value": "Apple", "from_turn": 0,
                "question": "the only company in the knowledge base"}]  # fmt: skip
    answer_for(conversation, question="What was revenue in FY2023?", carried=carried)
    body = page(client.get(f"/c/{conversation.pk}/"))
    assert "Company Apple: the only company in the knowledge base" in body


def test_a_failed_answer_offers_to_ask_again(user_client: tuple[Client, Any]) -> None:
    client, user = user_client
    conversation = ConversationFactory(owner=user, last_position=1)
    Turn.objects.create(
        conversation=conversation,
        position=1,
        role=Turn.Role.USER,
        text="What was Apple's revenue?",
        status=Turn.Status.ERROR,
        reason="ProviderTimeout",
    )
    body = page(client.get(f"/c/{conversation.pk}/"))
    assert "Could not answer" in body
    assert "(ProviderTimeout)" in body
    assert 'value="What was Apple&#x27;s revenue?">Ask again</button>' in body


def test_the_carried_note_names_the_question_it_came_from(
    user_client: tuple[Client, Any],
) -> None:
    client, user = user_client
    conversation = ConversationFactory(owner=user)
    exchange(conversation, "What was Apple's revenue in FY2023?", "USD 383.3 billion [1].")
    carried = [
        {"slot": "entity", "value": "Apple", "from_turn": 1,
         "question": "What was Apple's revenue in FY2023?"},
        {"slot": "metric", "value": "Revenue", "from_turn": 1,
         "question": "What was Apple's revenue in FY2023?"},
    ]  # fmt: skip
    answer = answer_for(
        conversation,
        question="and in FY2022?",
        intent={**LOOKUP, "periods": ["FY2022"]},
        carried=carried,
    )
    expected = (
        "Company Apple and metric Revenue carried from your first question: "
        "<q>What was Apple&#x27;s revenue in FY2023?</q>"
    )
    assert expected in page(client.get(f"/c/{conversation.pk}/"))
    assert expected in page(client.get(f"/turns/{answer.pk}/"))
    assert "Your question 2" in page(client.get(f"/turns/{answer.pk}/"))


# --- conversations, feedback ----------------------------------------------------------------


def test_the_list_is_newest_first_and_searchable(user_client: tuple[Client, Any]) -> None:
    client, user = user_client
    older = ConversationFactory(owner=user, title="Apple revenue")
    newer = ConversationFactory(owner=user, title="Tesla margins")
    exchange(older, "What was Apple's revenue?", "It was ...")  # now the most recent
    body = page(client.get("/conversations/"))
    assert body.index("Apple revenue") < body.index("Tesla margins")
    found = page(client.get("/conversations/?q=tesla"))
    assert "Tesla margins" in found and "Apple revenue" not in found
    assert str(newer.pk) in found
    assert "No conversation mentions" in page(client.get("/conversations/?q=zebra"))


def test_rename_and_delete_without_javascript(user_client: tuple[Client, Any]) -> None:
    client, user = user_client
    conversation = ConversationFactory(owner=user, title="Old")
    answer_for(conversation)
    response = client.post(f"/c/{conversation.pk}/rename", {"title": "  Apple, FY2023  "})
    assert response["Location"] == f"/c/{conversation.pk}/"
    conversation.refresh_from_db()
    assert conversation.title == "Apple, FY2023"
    response = client.post(f"/c/{conversation.pk}/delete")
    assert response["Location"] == "/"
    assert not Conversation.objects.exists() and not Turn.objects.exists()
    assert client.get(f"/c/{conversation.pk}/delete").status_code == 405


def test_feedback_without_javascript_is_recorded_and_shown(
    user_client: tuple[Client, Any],
) -> None:
    client, user = user_client
    conversation = ConversationFactory(owner=user)
    answer = answer_for(conversation)
    response = client.post(
        f"/turns/{answer.pk}/feedback", {"value": "down", "comment": "Wrong year"}
    )
    assert response["Location"] == f"/c/{conversation.pk}/#answer-{answer.pk}"
    feedback = Feedback.objects.get()
    assert (feedback.user, feedback.value, feedback.comment) == (user, "down", "Wrong year")
    body = page(client.get(f"/c/{conversation.pk}/"))
    assert 'value="down" aria-pressed="true"' in body
    assert "You marked this answer not helpful." in body


def test_the_conversation_page_reads_in_a_fixed_number_of_queries(
    user_client: tuple[Client, Any], django_assert_num_queries: Any
) -> None:
    client, user = user_client
    conversation = ConversationFactory(owner=user)
    for _ in range(5):
        answer = answer_for(conversation, sources=[APPLE_2023])
    FeedbackFactory(turn=answer, user=user)
    # session, user (with its clearance: askapp/auth.py), conversation, turns, feedback,
    # recent conversations
    with django_assert_num_queries(6):
        page(client.get(f"/c/{conversation.pk}/"))


@pytest.mark.django_db
def test_logging_in_keeps_what_the_visitor_asked_anonymously(client, settings) -> None:  # type: ignore[no-untyped-def]
    from django.contrib.auth import get_user_model

    settings.ASKAPP_ANONYMOUS_CHAT = True
    session = client.session
    session["askapp_visitor"] = "a-visitor-id"
    session.save()
    conversation = ConversationFactory(owner=None, visitor="a-visitor-id", title="Before login")
    get_user_model().objects.create_user("ana", password="a long test password")

    response = client.post(
        "/accounts/login/", {"username": "ana", "password": "a long test password"}
    )

    assert response.status_code == 302
    conversation.refresh_from_db()
    assert conversation.owner.username == "ana"
    assert conversation.visitor == ""
    assert "Before login" in client.get("/conversations/").content.decode()


def test_a_long_conversation_pages_by_fifty_turns_latest_first(
    user_client: tuple[Client, Any], django_assert_max_num_queries: Any
) -> None:
    client, user = user_client
    conversation = ConversationFactory(owner=user)
    for n in range(60):
        question = TurnFactory(conversation=conversation, position=2 * n + 1, role="user",
                               text=f"Question number {n}?", status="found")  # fmt: skip
        TurnFactory(conversation=conversation, position=2 * n + 2, role="assistant",
                    text=f"Answer number {n}.", status="found", answers=question)  # fmt: skip
    conversation.last_position = 120
    conversation.save()
    latest = page(client.get(f"/c/{conversation.pk}/"))
    assert "Answer number 59." in latest and "Answer number 34." not in latest
    assert "Page 3 of 3" in latest and "?page=2" in latest
    first = page(client.get(f"/c/{conversation.pk}/", {"page": "1"}))
    assert "Question number 0?" in first and "Question number 25?" not in first
    middle = page(client.get(f"/c/{conversation.pk}/", {"page": "2"}))
    assert "Your question 26" in middle  # numbered as in the whole conversation
    with django_assert_max_num_queries(9):
        page(client.get(f"/c/{conversation.pk}/", {"page": "2"}))
