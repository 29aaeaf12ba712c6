"""insert_new stores new instances as bulk_create would, and update_columns updates a saved row
as a queryset update would, each with a statement compiled once."""

from __future__ import annotations

import pytest
from django.forms.models import model_to_dict

from askapp.models import Conversation, Turn
from askapp.services.inserts import insert_new, update_columns
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def test_new_rows_read_back_as_they_were_built() -> None:
    conversation = Conversation(owner=UserFactory(), title="t", last_position=2)
    question = Turn(conversation=conversation, position=1, text="q?", intent={"kind": "lookup"})
    answer = Turn(
        conversation=conversation, position=2, role=Turn.Role.ASSISTANT, text="a",
        answers=question, figures=[{"value": "1.5"}], latency_ms=7,
    )  # fmt: skip

    insert_new([conversation])
    insert_new([question, answer])

    assert question.created is not None  # stamped as the field's pre_save does
    assert not answer._state.adding
    stored = Turn.objects.get(pk=answer.pk)
    assert model_to_dict(stored) == model_to_dict(answer)
    assert stored.created == answer.created
    assert stored.answers_id == question.pk
    assert Conversation.objects.get(pk=conversation.pk).title == "t"


def test_mixed_models_are_refused() -> None:
    conversation = Conversation(visitor="v")
    with pytest.raises(ValueError, match="one model"):
        insert_new([conversation, Turn(conversation=conversation, position=1)])


def test_updated_columns_read_back_and_the_others_are_left_alone() -> None:
    conversation = Conversation(visitor="v", last_position=1)
    question = Turn(conversation=conversation, position=1, text="q?", reason="Interrupted")
    insert_new([conversation])
    insert_new([question])

    question.status, question.intent, question.latency_ms = "found", {"kind": "lookup"}, 12
    question.text = "changed here only"
    update_columns(question, ["status", "intent", "latency_ms"])

    stored = Turn.objects.get(pk=question.pk)
    assert (stored.status, stored.intent, stored.latency_ms) == ("found", {"kind": "lookup"}, 12)
    assert (stored.text, stored.reason) == ("q?", "Interrupted")


def test_the_values_sent_are_those_get_db_prep_save_makes(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Values already of a plain field's own type are sent as they are: exactly what the
    field's get_db_prep_save would have sent, the others (UUIDs, JSON, stamps, keys and a
    value of another type) through it."""
    from django.db import connection

    conversation = Conversation(owner=UserFactory(), title="t", last_position=2)
    turn = Turn(
        conversation=conversation, position=2, role=Turn.Role.ASSISTANT, text="a",
        refused=True, latency_ms=7, figures=[{"value": "1.5"}],
    )  # fmt: skip
    turn.reason = 12  # type: ignore[assignment]  # not a str: through get_db_prep_save
    sent: list[list[object]] = []
    real_execute = type(connection.cursor()).execute

    def recording(self: object, sql: str, params: list[object] | None = None) -> object:
        if sql.startswith("INSERT"):
            sent.append(list(params or []))
        return real_execute(self, sql, params)

    insert_new([conversation])
    monkeypatch.setattr(type(connection.cursor()), "execute", recording)
    turn.created = None
    insert_new([turn])
    expected = [
        f.get_db_prep_save(getattr(turn, f.attname), connection) for f in Turn._meta.concrete_fields
    ]
    assert [[_comparable(v) for v in row] for row in sent] == [list(map(_comparable, expected))]
    assert Turn.objects.get(pk=turn.pk).reason == "12"


def _comparable(value: object) -> object:
    """psycopg's Jsonb wrappers compare by identity: what they wrap, with its type."""
    return (type(value), value.obj) if hasattr(value, "obj") else (type(value), value)


def test_a_value_two_turns_share_is_dumped_once_and_reads_back_for_both(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A question and its answer share their intent and carried slots (the ask freezes one
    dict and one list for both): on SQLite each is made JSON text once a statement, an empty
    list or object is never dumped, and both rows read back what each turn holds."""
    from django.db import connection

    from askapp.services import inserts

    conversation = Conversation(owner=UserFactory(), title="t", last_position=2)
    intent, carried = {"kind": "lookup", "entities": ["Apple"]}, [{"slot": "entity"}]
    question = Turn(conversation=conversation, position=1, text="q?", intent=intent,
                    carried=carried)  # fmt: skip
    answer = Turn(
        conversation=conversation, position=2, role=Turn.Role.ASSISTANT, text="a",
        answers=question, intent=intent, carried=carried, figures=[{"value": "1.5"}],
    )  # fmt: skip
    dumped: list[object] = []
    real_dumps = inserts.json.dumps

    def counting(value: object, **kwargs: object) -> str:
        dumped.append(value)
        return real_dumps(value, **kwargs)

    insert_new([conversation])
    monkeypatch.setattr(inserts.json, "dumps", counting)
    insert_new([question, answer])
    monkeypatch.undo()

    if connection.vendor == "sqlite":
        assert dumped == [intent, carried, [{"value": "1.5"}]]
    for turn in (question, answer):
        stored = Turn.objects.get(pk=turn.pk)
        assert model_to_dict(stored) == model_to_dict(turn)
        assert (stored.intent, stored.carried) == (intent, carried)


def test_one_statements_rows_are_stamped_with_one_moment() -> None:
    """auto_now_add and auto_now stamp every row of one INSERT with the same moment, set on
    the instances as pre_save sets it, and stored as the field stores it."""
    conversation = Conversation(owner=UserFactory(), title="t", last_position=2)
    turns = [Turn(conversation=conversation, position=n, text=f"t{n}") for n in (1, 2)]
    insert_new([conversation])
    insert_new(turns)

    assert conversation.created == conversation.updated
    assert turns[0].created == turns[1].created
    stored = Conversation.objects.get(pk=conversation.pk)
    assert (stored.created, stored.updated) == (conversation.created, conversation.updated)
    assert [t.created for t in Turn.objects.filter(conversation=conversation)] == [
        turns[0].created
    ] * 2
