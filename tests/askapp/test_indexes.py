"""The reads an owner's conversations and a turn's citations need are served by an index,
though neither foreign key has one of its own: the wider index that starts with it covers
them, and a write keeps one index fewer up to date (docs/adr/0057)."""

from __future__ import annotations

import pytest
from django.db import connection

from askapp.models import Citation, Conversation
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
