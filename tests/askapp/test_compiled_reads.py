"""The recent-turns read is compiled to SQL once a process and gives what the ORM would.

An ask rebuilds its session from the conversation's last turns (askapp/selectors/
conversations.py). Compiling that queryset cost more than running it, so it is compiled
once per kind of owner, clearance and window (askapp/selectors/compiled.py), and each ask
only puts its owner and conversation into the statement's parameters.
"""

from __future__ import annotations

import uuid
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from askapp.models import Citation, Classification, Turn, session_from_turns
from askapp.owners import Owner
from askapp.permissions import PUBLIC_ONLY, WITH_INTERNAL
from askapp.selectors import compiled, conversations
from askapp.selectors.clearance import withheld
from engine import Figure, Intent
from tests.factories import ConversationFactory, UserFactory, exchange

pytestmark = pytest.mark.django_db

INTENT = {"kind": "lookup", "entities": ["Apple"], "metrics": ["Revenue"]}


def _conversation(owner: Owner, exchanges: int) -> Any:
    user = {"owner_id": owner.user_id} if owner.user_id else {"owner": None}
    conversation = ConversationFactory(**user, visitor=owner.visitor)
    for n in range(exchanges):
        exchange(conversation, f"revenue in year {n}?", f"answer {n}", intent=INTENT)
    return conversation


def _recent(owner: Owner, conversation: Any, clearance: frozenset[str] = PUBLIC_ONLY) -> Any:
    return conversations.conversation_with_recent_turns(
        owner=owner, conversation_id=conversation.pk, limit=6, clearance=clearance
    )


@pytest.mark.parametrize("kind", ["user", "visitor"])
def test_the_compiled_read_gives_what_the_orm_gives(kind: str) -> None:
    owner = Owner(user_id=UserFactory().pk) if kind == "user" else Owner(visitor="v" * 32)
    conversation = _conversation(owner, 5)
    cited = Turn.objects.filter(conversation=conversation, position=8).get()
    Citation.objects.create(
        turn=cited, source_id="memo", kind="passage", classification=Classification.INTERNAL
    )

    for clearance in (PUBLIC_ONLY, WITH_INTERNAL):
        recent = _recent(owner, conversation, clearance)
        expected = list(
            Turn.objects.filter(conversation=conversation)
            .annotate(withheld=withheld(clearance))
            .order_by("position")
            .values_list("pk", "role", "text", "status", "intent", "figures", "withheld")
        )[-6:]
        # A question's intent comes back (it is its session slot); an answer's does not.
        expected = [(*row[:4], row[4] if row[1] == "user" else None, *row[5:]) for row in expected]
        assert [_fields(turn) for turn in recent.turns] == expected
        assert recent.conversation.pk == conversation.pk
        assert [t.withheld for t in recent.turns][2:4] == [clearance == PUBLIC_ONLY] * 2
        if connection.vendor == "sqlite":
            assert not any(isinstance(t.pk, uuid.UUID) for t in recent.turns)


def _fields(turn: conversations.RecentTurn) -> tuple[Any, ...]:
    # The id comes as the database gives it (never made a UUID on the ask's path).
    return (
        uuid.UUID(str(turn.pk)),
        turn.role,
        turn.text,
        turn.status,
        turn.intent,
        turn.figures,
        turn.withheld,
    )


@pytest.mark.parametrize("kind", ["user", "visitor"])
def test_another_owners_conversation_is_not_read(kind: str) -> None:
    mine, theirs = (
        (Owner(user_id=UserFactory().pk), Owner(user_id=UserFactory().pk))
        if kind == "user"
        else (Owner(visitor="a" * 32), Owner(visitor="b" * 32))
    )
    conversation = _conversation(theirs, 2)
    assert len(_recent(theirs, conversation).turns) == 4
    with pytest.raises(conversations.NotFound):
        _recent(mine, conversation)


def test_a_long_conversation_is_read_with_the_same_statement_as_a_short_one(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    conversations._recent_turns_read.cache_clear()
    built: list[object] = []
    real_init = compiled.CompiledRead.__init__

    def counting_init(self: Any, *args: Any, **kwargs: Any) -> None:
        built.append(self)
        real_init(self, *args, **kwargs)

    monkeypatch.setattr(compiled.CompiledRead, "__init__", counting_init)
    owner = Owner(user_id=UserFactory().pk)
    for exchanges in (1, 100, 1, 100):
        conversation = _conversation(owner, exchanges)
        with CaptureQueriesContext(connection) as captured:
            recent = _recent(owner, conversation)
        assert len(captured.captured_queries) == 1  # one statement, however long
        assert "LIMIT 6" in captured.captured_queries[0]["sql"]
        assert [t.text for t in recent.turns][-1] == f"answer {exchanges - 1}"

    assert len(built) == 1  # compiled by the first read, reused by the other three


def _with_figures(owner: Owner, exchanges: int) -> Any:
    conversation = _conversation(owner, exchanges)
    for n, answer in enumerate(Turn.objects.filter(conversation=conversation, role="assistant")):
        answer.figures = [
            {"label": f"Revenue {n}", "value": f"{n}.5", "unit": "USD m", "role": "result"},
            {"label": "no number here", "value": "n/a"},
        ]
        answer.save(update_fields=["figures"])
    return conversation


def test_a_session_rebuilt_from_the_read_is_the_one_the_stored_turns_give() -> None:
    owner = Owner(user_id=UserFactory().pk)
    conversation = _with_figures(owner, 4)
    recent = _recent(owner, conversation)
    stored = list(Turn.objects.filter(conversation=conversation).order_by("position"))[-6:]

    from_read = session_from_turns(recent.turns, scope=None)
    from_models = session_from_turns(stored, scope=None)

    assert from_read.turns == from_models.turns
    assert [len(t.results) for t in from_read.turns] == [1, 1, 1]  # "n/a" holds no number


def test_a_window_read_again_is_not_decoded_again(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every ask in a conversation reads its window again; the stored intents and figures it
    holds are decoded once a process."""
    owner = Owner(user_id=UserFactory().pk)
    conversation = _with_figures(owner, 4)
    session_from_turns(_recent(owner, conversation).turns, scope=None)
    decoded: list[str] = []
    for model in (Intent, Figure):
        real = model.from_dict
        monkeypatch.setattr(
            model, "from_dict", lambda *a, _real=real, **k: decoded.append("x") or _real(*a, **k)
        )

    again = session_from_turns(_recent(owner, conversation).turns, scope=None)

    assert decoded == []
    assert len(again.turns) == 3


def test_a_window_marks_each_turn_as_withheld_marks_it_at_its_edges() -> None:
    """The read marks a question from its answers' own citations (one subquery a row): at
    the window's edges, an answer whose question lies before the window, and a question
    answered twice (one answer citing a memo now INTERNAL), it agrees with the ORM's
    `withheld` for every turn."""
    owner = Owner(user_id=UserFactory().pk)
    conversation = _conversation(owner, 4)  # positions 1-8, then 9-11
    twice, _ = exchange(conversation, "Lindqvist Freight margin?", "14%", intent=INTENT)
    second_answer = Turn.objects.create(
        conversation=conversation, position=11, role=Turn.Role.ASSISTANT, text="Or 15%",
        answers=twice, status=Turn.Status.FOUND,
    )  # fmt: skip
    for turn in (Turn.objects.get(conversation=conversation, position=6), second_answer):
        Citation.objects.create(
            turn=turn, source_id="memo", kind="passage", classification=Classification.INTERNAL
        )
    conversation.last_position = 11
    conversation.save(update_fields=["last_position"])

    recent = _recent(owner, conversation)
    expected = dict(
        Turn.objects.filter(conversation=conversation)
        .annotate(withheld=withheld(PUBLIC_ONLY))
        .values_list("position", "withheld")
    )
    positions = Turn.objects.in_bulk([uuid.UUID(str(t.pk)) for t in recent.turns])
    marks = {positions[uuid.UUID(str(t.pk))].position: bool(t.withheld) for t in recent.turns}
    assert sorted(marks) == list(range(6, 12))
    assert marks == {p: bool(expected[p]) for p in marks}
    assert [p for p, m in marks.items() if m] == [6, 9, 11]  # 6 alone: its question is out
    assert not any(t.withheld for t in _recent(owner, conversation, WITH_INTERNAL).turns)
