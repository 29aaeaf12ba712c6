"""The landing page says what askapp is and how much the knowledge base holds."""

from __future__ import annotations

import pytest
from django.test import Client

from tests.factories import DocumentFactory, EntityFactory, FactFactory

pytestmark = pytest.mark.django_db


def test_the_landing_page_shows_knowledge_base_counts(
    client: Client, django_assert_num_queries
) -> None:  # type: ignore[no-untyped-def]
    apple = EntityFactory(name="Apple")
    FactFactory.create_batch(3, entity=apple)
    DocumentFactory()
    with django_assert_num_queries(4):
        response = client.get("/")
    page = response.content.decode()
    assert response.status_code == 200
    assert "financial knowledge base" in page
    assert "<dt>Facts</dt><dd>3</dd>" in page
    assert "<dt>Entities</dt><dd>1</dd>" in page
    assert "<dt>Documents</dt><dd>1</dd>" in page
    assert 'href="/admin/"' in page


def test_the_health_check_answers(client: Client) -> None:
    assert client.get("/healthz").json() == {"status": "ok"}
