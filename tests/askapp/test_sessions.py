"""Anonymous conversations belong to an opaque visitor id kept in the session, never to the
session key: nothing the admin shows or filters on can be replayed as a visitor's cookie, and
conversations stored under session keys before stay reachable by their visitors."""

from __future__ import annotations

from typing import Any

import pytest
from django.conf import settings as django_settings
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.test import Client
from django.urls import reverse

from askapp.models import Conversation
from tests.askapp.reviewing import knowledge_base, staff_client

QUESTION = "What was Apple's revenue in FY2023?"


@pytest.fixture(autouse=True)
def _anonymous_chat(settings: Any) -> None:
    settings.ASKAPP_ANONYMOUS_CHAT = True


def _visitor_asks(client: Client) -> Conversation:
    response = client.post("/v1/ask", {"question": QUESTION}, content_type="application/json")
    assert response.status_code == 200, response.content
    return Conversation.objects.get(pk=response.json()["conversation"])


@pytest.mark.django_db
def test_the_admin_never_shows_nor_filters_on_what_identifies_a_visitor() -> None:
    knowledge_base()
    visitor = Client()
    conversation = _visitor_asks(visitor)
    session_key = visitor.session.session_key
    admin, _ = staff_client(superuser=True)
    listing = reverse("admin:askapp_conversation_changelist")
    page = reverse("admin:askapp_conversation_change", args=[conversation.pk])
    for url in (listing, page):
        html = admin.get(url).content.decode()
        assert session_key not in html
        assert conversation.visitor not in html
    for lookup in ("session_key", "visitor", "visitor__exact", "owner__isnull"):
        assert admin.get(listing, {lookup: "x"}).status_code == 400, lookup


@pytest.mark.django_db
def test_the_stored_owner_id_is_no_cookie() -> None:
    knowledge_base()
    conversation = _visitor_asks(Client())
    thief = Client()
    thief.cookies[django_settings.SESSION_COOKIE_NAME] = conversation.visitor
    assert thief.get(f"/v1/conversations/{conversation.pk}").status_code == 404
    assert thief.get(f"/c/{conversation.pk}/").status_code == 404


@pytest.mark.django_db
def test_a_visitor_keeps_their_conversation_when_the_session_key_changes() -> None:
    knowledge_base()
    visitor = Client()
    conversation = _visitor_asks(visitor)
    session = visitor.session
    session.cycle_key()
    session.save()
    visitor.cookies[django_settings.SESSION_COOKIE_NAME] = session.session_key
    assert visitor.get(f"/v1/conversations/{conversation.pk}").status_code == 200


@pytest.mark.django_db(transaction=True)
def test_conversations_stored_under_session_keys_stay_reachable_after_the_migration() -> None:
    from importlib import import_module

    executor = MigrationExecutor(connection)
    executor.migrate([("askapp", "0005_citation_classification")])
    apps = executor.loader.project_state([("askapp", "0005_citation_classification")]).apps
    store = import_module(django_settings.SESSION_ENGINE).SessionStore()
    store["something"] = "the visitor's own"
    store.save()
    old = apps.get_model("askapp", "Conversation").objects.create(
        session_key=store.session_key, title="Asked before the change"
    )
    gone = apps.get_model("askapp", "Conversation").objects.create(
        session_key="a-session-that-expired", title="Nobody's"
    )

    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes())

    migrated = Conversation.objects.get(pk=old.pk)
    assert migrated.visitor and migrated.visitor != store.session_key
    assert Conversation.objects.get(pk=gone.pk).visitor != "a-session-that-expired"
    visitor = Client()
    visitor.cookies[django_settings.SESSION_COOKIE_NAME] = store.session_key
    response = visitor.get(f"/v1/conversations/{old.pk}")
    assert response.status_code == 200
    assert response.json()["title"] == "Asked before the change"
    assert "Asked before the change" in visitor.get("/conversations/").content.decode()
