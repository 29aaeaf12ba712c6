"""The front page is a new conversation: the ask form, example questions, and how much the
knowledge base holds (the chat page replaced the landing page)."""

from __future__ import annotations

import pytest
from django.test import Client

from tests.factories import DocumentFactory, EntityFactory, FactFactory

pytestmark = pytest.mark.django_db


def test_the_front_page_starts_a_conversation_and_shows_knowledge_base_counts(
    client: Client, settings, django_assert_num_queries
) -> None:  # type: ignore[no-untyped-def]
    settings.ASKAPP_ANONYMOUS_CHAT = True
    apple = EntityFactory(name="Apple")
    FactFactory.create_batch(3, entity=apple)
    DocumentFactory()
    # the scope select's entities, then the four counts (no session yet: no recent list)
    with django_assert_num_queries(5):
        response = client.get("/")
    page = response.content.decode()
    assert response.status_code == 200
    assert '<form method="post" action="/ask"' in page
    assert '<option value="Apple">Apple</option>' in page
    assert "What was Apple&#x27;s revenue in FY2023?" in page
    assert "holds 3 facts about 1 company (3 metrics) and 1 document." in page


def test_the_health_check_answers(client: Client) -> None:
    assert client.get("/healthz").json() == {"status": "ok"}
