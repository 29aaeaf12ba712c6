"""The reads an owner's conversations and a turn's citations need are served by an index,
though neither foreign key has one of its own: the wider index that starts with it covers
them, and a write keeps one index fewer up to date (docs/adr/0057)."""

from __future__ import annotations

import pytest
from django.db import connection

from askapp.models import Citation, Conversation, Turn
from askapp.owners import Owner
from askapp.selectors.conversations import conversation_list
from tests.factories import ConversationFactory, TurnFactory, UserFactory


def _plan(queryset: object) -> str:
    sql, params = queryset.query.sql_with_params()  # type: ignore[attr-defined]
    with connection.cursor() as cursor:
        if connection.vendor == "sqlite":
            cursor.execute(f"EXPLAIN QUERY PLAN {sql}", params)
            return " ".join(str(row[-1]) for row in cursor.fetchall())
        cursor.execute("SET enable_seqscan = off")
        try:
            cursor.execute(f"EXPLAIN {sql}", params)
            return " ".join(str(row[0]) for row in cursor.fetchall())
        finally:
            cursor.execute("SET enable_seqscan = on")


@pytest.mark.django_db
def test_an_owners_conversations_are_read_through_the_owner_and_recency_index() -> None:
    user = UserFactory()
    ConversationFactory.create_batch(3, owner=user)

    plan = _plan(conversation_list(owner=Owner(user_id=user.pk)))

    assert "conversation_owner_recent" in plan, plan


@pytest.mark.django_db
def test_a_turns_citations_are_read_through_the_unique_source_index() -> None:
    turn = TurnFactory()

    plan = _plan(Citation.objects.filter(turn=turn))

    # SQLite names a unique constraint's index sqlite_autoindex_<table>_N.
    assert "citation_unique_source" in plan or "USING INDEX sqlite_autoindex" in plan, plan


def test_neither_foreign_key_keeps_an_index_of_its_own() -> None:
    assert not Conversation._meta.get_field("owner").db_index
    assert not Citation._meta.get_field("turn").db_index


# Each index below holds only the rows its reads ask for (docs/adr/0069): a new user's
# conversation, its question and a citation of a fact each skip one index. These tests show
# the reads still find their index: the query's own condition implies the index's.


@pytest.mark.django_db
def test_a_visitors_conversations_are_read_through_the_visitors_index() -> None:
    ConversationFactory.create_batch(3, owner=None, visitor="v-1")

    plan = _plan(conversation_list(owner=Owner(visitor="v-1")))

    assert "conversation_visitor_recent" in plan, plan


@pytest.mark.django_db
def test_the_conversations_of_a_scope_are_read_through_the_scope_index() -> None:
    ConversationFactory()

    plan = _plan(Conversation.objects.filter(scope_id=7))

    assert "conversation_scope" in plan, plan


@pytest.mark.django_db
def test_the_answers_to_a_question_are_read_through_the_answers_index() -> None:
    question = TurnFactory()

    plan = _plan(Turn.objects.filter(answers=question))

    assert "turn_answers" in plan, plan


@pytest.mark.django_db
@pytest.mark.parametrize(("field", "index"), [("fact_id", "citation_fact"),
                                              ("document_id", "citation_document")])  # fmt: skip
def test_the_citations_of_a_fact_or_document_are_read_through_its_index(
    field: str, index: str
) -> None:
    plan = _plan(Citation.objects.filter(**{field: 7}))

    assert index in plan, plan


def test_each_partial_index_leaves_out_the_rows_without_its_key() -> None:
    """The foreign keys keep no full index of their own; their indexes skip the empty key."""
    fields = [(Conversation, "scope"), (Turn, "answers"), (Citation, "fact"),
              (Citation, "document")]  # fmt: skip
    for model, name in fields:
        assert not model._meta.get_field(name).db_index
    conditions = {index.name: index.condition for model in (Conversation, Turn, Citation)
                  for index in model._meta.indexes}  # fmt: skip
    partial = ("conversation_owner_recent", "conversation_visitor_recent", "conversation_scope",
               "turn_answers", "citation_fact", "citation_document")  # fmt: skip
    for name in partial:
        assert conditions[name] is not None, name
