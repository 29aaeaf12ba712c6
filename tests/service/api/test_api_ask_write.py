"""What an ask writes, as its next ask and a fresh process read it back (docs/adr/0073).

An ask's turns are written with values made ready outside Django's field preparation (a JSON
value its question and answer share dumped once, one creation stamp a statement): a
conversation asked through the API reads back, in a process that decoded nothing yet, as the
session its stored turns give; and an ask whose write fails leaves nothing of itself.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.db import DatabaseError
from rest_framework.test import APIClient

from askapp.models import Conversation, Turn, session_from_turns
from askapp.models import conversations as stored_turns
from askapp.owners import Owner
from askapp.selectors.conversations import conversation_with_recent_turns
from askapp.services import asking

pytestmark = pytest.mark.usefixtures("kb")

QUESTIONS = (
    "What was Apple's revenue in FY2023?",
    "And in FY2022?",
    "What was the change?",
    "What was Apple's net income in FY2023?",
)


def _ask(api: APIClient, question: str, conversation: str | None = None) -> Any:
    body = {"question": question, **({"conversation": conversation} if conversation else {})}
    return api.post("/v1/ask", body, format="json")


def test_a_long_conversation_reads_back_in_a_fresh_process_as_its_stored_turns(
    api: APIClient, user: Any, settings: Any
) -> None:
    settings.ASKAPP_HISTORY_TURNS = 12
    conversation = None
    answered: dict[str, dict[str, Any]] = {}  # what each answer's response said, by turn id
    for n in range(15):  # 30 turns: the window slides past the first questions
        response = _ask(api, QUESTIONS[n % len(QUESTIONS)], conversation)
        assert response.status_code == 200, response.content
        conversation = response.json()["conversation"]
        answered[response.json()["turn"]["id"]] = response.json()["turn"]
    # A restarted process: nothing decoded yet, no reading kept.
    stored_turns.intent_from_json.cache_clear()
    stored_turns.figures_from_json.cache_clear()

    owner = Owner(user_id=user.pk)
    recent = conversation_with_recent_turns(owner=owner, conversation_id=conversation, limit=12)
    turns = list(Turn.objects.filter(conversation_id=conversation).order_by("position"))[-12:]
    from_read = session_from_turns(recent.turns, scope=recent.scope)
    from_models = session_from_turns(turns, scope=None)

    assert len(turns) == 12 and turns[-1].position == 30
    assert from_read.turns == from_models.turns
    assert from_read.history() == from_models.history()
    # Each stored answer holds what its response said; its question shares what it resolved.
    for question, answer in zip(turns[::2], turns[1::2], strict=True):
        said = answered[str(answer.pk)]
        kept = [answer.figures, answer.sources, answer.intent, answer.carried, answer.choices]
        assert kept == [said[k] for k in ("figures", "sources", "intent", "carried", "choices")]
        assert answer.answers_id == question.pk
        assert (question.intent, question.carried) == (answer.intent, answer.carried)
        assert question.status == answer.status == "found"
    assert any(t.carried for t in turns)  # the follow-ups carried slots


@pytest.mark.django_db(transaction=True)  # the ask's own transaction, not a test's savepoint
@pytest.mark.parametrize("continued", [False, True], ids=["new", "continued"])
def test_an_ask_whose_write_fails_leaves_nothing_of_itself(
    api: APIClient, monkeypatch: pytest.MonkeyPatch, continued: bool
) -> None:
    """The citation index is the ask's last statement: when it fails, the conversation's
    counter, its title and both turns roll back with it."""
    conversation = _ask(api, QUESTIONS[0]).json()["conversation"] if continued else None
    before = list(Turn.objects.values_list("pk", flat=True))
    counters = dict(Conversation.objects.values_list("pk", "last_position"))

    def failing(**_: Any) -> None:
        raise DatabaseError("the disk is full")

    monkeypatch.setattr(asking, "new_answer_citations_record", failing)
    api.raise_request_exception = False
    response = _ask(api, QUESTIONS[1] if continued else QUESTIONS[0], conversation)

    assert response.status_code >= 500
    assert list(Turn.objects.values_list("pk", flat=True)) == before
    assert dict(Conversation.objects.values_list("pk", "last_position")) == counters
    monkeypatch.undo()
    again = _ask(api, QUESTIONS[1] if continued else QUESTIONS[0], conversation)
    assert again.status_code == 200
    assert again.json()["turn"]["position"] == (4 if continued else 2)
