"""The front page is a new conversation: the ask form, example questions chosen from what the
knowledge base holds for the visitor, and how much it holds."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.test import Client

from askapp.models import Classification
from tests.factories import DocumentFactory, EntityFactory, FactFactory, MetricFactory

pytestmark = pytest.mark.django_db


def test_the_front_page_starts_a_conversation_and_shows_knowledge_base_counts(
    client: Client, settings, django_assert_num_queries
) -> None:  # type: ignore[no-untyped-def]
    settings.ASKAPP_ANONYMOUS_CHAT = True
    apple = EntityFactory(name="Apple")
    revenue = MetricFactory(name="Revenue")
    for period in ("FY2022", "FY2023"):
        FactFactory(entity=apple, metric=revenue, period=period, value=Decimal("10"))
    FactFactory(entity=apple, metric=MetricFactory(name="Net income"), period="FY2023")
    DocumentFactory()
    client.get("/")  # the engine's store reads the vocabulary once, then probes it
    # the scope select's entities, the four counts, then the examples: the facts held, the
    # vocabulary's probe and the documents (no session yet: no recent list)
    with django_assert_num_queries(8):
        response = client.get("/")
    page = response.content.decode()
    assert response.status_code == 200
    assert '<form method="post" action="/ask"' in page
    assert '<option value="Apple">Apple</option>' in page
    # chosen from what is held: the latest figure of a metric, and a change where two
    # years are held
    assert "What was Apple&#x27;s Net income in FY2023?" in page
    assert "What was the change in Apple&#x27;s Revenue from FY2022 to FY2023?" in page
    assert "holds 3 facts about 1 company (2 metrics) and 1 document." in page
    assert 'href="/coverage/"' in page


def test_the_examples_never_name_what_the_visitor_may_not_see(client: Client, settings) -> None:  # type: ignore[no-untyped-def]
    settings.ASKAPP_ANONYMOUS_CHAT = True
    revenue = MetricFactory(name="Revenue")
    for name, classification in (
        ("Shanghai Co", Classification.RESTRICTED),
        ("Lantern Co", Classification.INTERNAL),
    ):
        entity = EntityFactory(name=name)
        for period in ("FY2021", "FY2022", "FY2023", "FY2024"):
            FactFactory(entity=entity, metric=revenue, period=period, classification=classification)
    FactFactory(entity=EntityFactory(name="Apple"), metric=revenue, period="FY2023")

    page = client.get("/").content.decode()
    examples = page.split("Try a question")[1].split("</form>")[0]

    assert "What was Apple&#x27;s Revenue in FY2023?" in examples
    assert "Shanghai" not in examples and "Lantern" not in examples


def test_the_health_check_answers(client: Client) -> None:
    assert client.get("/healthz").json() == {"status": "ok"}
