"""Facts and documents in the admin: filters, search, and how many answers cite each (the
citation index the ask flow keeps)."""

from __future__ import annotations

import importlib
import re

import pytest
from django.apps import apps
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from askapp.models import Citation, Classification, Document, Fact
from askapp.owners import Owner
from askapp.services.asking import ask, ask_prepare
from askapp.services.citations import source_pointer, turn_citations_record
from askapp.services.knowledge import document_upsert
from tests.askapp.reviewing import ask as ask_and_index
from tests.askapp.reviewing import knowledge_base, listed, reviewer_client
from tests.factories import EntityFactory, FactFactory, MetricFactory, UserFactory

pytestmark = pytest.mark.django_db

ANSWERS = "admin:askapp_answerturn_changelist"


# --- the index ------------------------------------------------------------------------------


def test_an_answer_indexes_each_fact_and_the_document_of_each_passage() -> None:
    kb = knowledge_base()
    change = ask_and_index("What was the change in Apple's revenue from FY2022 to FY2023?")
    narrative = ask_and_index("Why did Apple's revenue dip in fiscal 2023?")

    facts = kb["facts"]
    assert set(change.citations.values_list("kind", "fact", "document")) == {
        ("fact", facts["FY2022"].pk, None),
        ("fact", facts["FY2023"].pk, None),
    }
    assert list(narrative.citations.values_list("kind", "fact", "document")) == [
        ("passage", None, kb["note"].pk)
    ]


def test_recording_again_replaces_the_rows_of_the_turn() -> None:
    knowledge_base()
    answer = ask_and_index("What was Apple's revenue in FY2023?")

    turn_citations_record(turn=answer)
    turn_citations_record(turn=answer)

    assert answer.citations.count() == 1


def test_a_source_whose_row_is_gone_is_indexed_without_a_pointer() -> None:
    knowledge_base()
    answer = ask_and_index("What was Apple's revenue in FY2023?")
    answer.sources = [*answer.sources, {"id": "fact:999999", "kind": "fact"}]

    turn_citations_record(turn=answer)

    assert set(answer.citations.values_list("source_id", "fact")) == {
        (answer.sources[0]["id"], int(answer.sources[0]["id"].split(":")[1])),
        ("fact:999999", None),
    }


def test_deleting_a_fact_keeps_the_citation_row_without_its_pointer() -> None:
    kb = knowledge_base()
    answer = ask_and_index("What was Apple's revenue in FY2023?")

    kb["facts"]["FY2023"].delete()

    assert list(answer.citations.values_list("fact", flat=True)) == [None]


def test_sources_are_read_in_both_document_id_forms() -> None:
    assert source_pointer({"id": "chunk:4", "kind": "passage", "document_id": "7"}).document_id == 7
    assert source_pointer({"id": "passage:20.1", "document_id": "document:20"}).document_id == 20
    assert source_pointer({"id": "fact:12", "kind": "fact"}).fact_id == 12
    assert source_pointer({"kind": "fact"}) is None


def test_the_migration_indexes_answers_stored_before_the_index_existed() -> None:
    knowledge_base()
    answer = ask_and_index("What was Apple's revenue in FY2023?")
    Citation.objects.all().delete()
    migration = importlib.import_module("askapp.migrations.0004_review")

    migration.index_existing_answers(apps, None)

    assert list(answer.citations.values_list("source_id", flat=True)) == [answer.sources[0]["id"]]


def test_the_ask_flow_records_the_citations_of_every_answer() -> None:
    knowledge_base()
    user = UserFactory()
    prepared = ask_prepare(
        owner=Owner(user_id=user.pk),
        question="What was Apple's revenue in FY2023?",
        clearance=frozenset({"PUBLIC"}),
    )
    stored = ask(prepared=prepared)

    assert stored.answer.citations.count() == 1


# --- facts ----------------------------------------------------------------------------------


def test_a_fact_shows_how_many_answers_cite_it_and_links_to_them() -> None:
    kb = knowledge_base()
    citing = {ask_and_index("What was Apple's revenue in FY2023?").pk for _ in range(2)}
    citing.add(ask_and_index("What was the change in Apple's revenue from FY2022 to FY2023?").pk)
    ask_and_index("What was Apple's revenue in FY2022?")
    fact = kb["facts"]["FY2023"]
    client, _ = reviewer_client()

    listing = client.get(reverse("admin:askapp_fact_changelist")).content.decode()
    detail = client.get(reverse("admin:askapp_fact_change", args=[fact.pk])).content.decode()

    link = f'<a href="{reverse(ANSWERS)}?cites=fact:{fact.pk}">3 answers</a>'
    assert link in listing and link in detail
    assert listed(client.get(reverse(ANSWERS), {"cites": f"fact:{fact.pk}"})) == citing


def test_facts_filter_by_entity_metric_period_and_classification() -> None:
    apple, tesla = EntityFactory(name="Apple"), EntityFactory(name="Tesla")
    revenue, capex = MetricFactory(name="Revenue"), MetricFactory(name="Capex")
    a = FactFactory(entity=apple, metric=revenue, period="FY2023")
    b = FactFactory(entity=tesla, metric=revenue, period="FY2022", classification="INTERNAL")
    c = FactFactory(entity=tesla, metric=capex, period="FY2023")
    client, _ = reviewer_client()
    url = reverse("admin:askapp_fact_changelist")

    assert listed(client.get(url, {"entity__id__exact": tesla.pk})) == {b.pk, c.pk}
    assert listed(client.get(url, {"metric__id__exact": revenue.pk})) == {a.pk, b.pk}
    assert listed(client.get(url, {"period": "FY2023"})) == {a.pk, c.pk}
    assert listed(client.get(url, {"classification__exact": "INTERNAL"})) == {b.pk}
    assert listed(client.get(url, {"q": "capex"})) == {c.pk}


def test_the_fact_list_costs_the_same_queries_for_5_or_60_facts() -> None:
    knowledge_base()
    ask_and_index("What was Apple's revenue in FY2023?")
    client, _ = reviewer_client()
    url = reverse("admin:askapp_fact_changelist")

    def queries() -> int:
        with CaptureQueriesContext(connection) as captured:
            assert client.get(url).status_code == 200
        return len(captured)

    FactFactory.create_batch(3)
    few = queries()
    FactFactory.create_batch(58)
    assert Fact.objects.count() == 63
    assert queries() == few


# --- documents ------------------------------------------------------------------------------


def test_a_document_shows_how_many_answers_cite_one_of_its_passages() -> None:
    kb = knowledge_base()
    citing = {ask_and_index("Why did Apple's revenue dip in fiscal 2023?").pk}
    note = kb["note"]
    client, _ = reviewer_client()

    listing = client.get(reverse("admin:askapp_document_changelist")).content.decode()

    link = f'<a href="{reverse(ANSWERS)}?cites=document:{note.pk}">1 answer</a>'
    assert link in listing
    assert listed(client.get(reverse(ANSWERS), {"cites": f"document:{note.pk}"})) == citing


def test_a_document_keeps_its_citations_when_an_edit_cuts_its_chunks_afresh() -> None:
    kb = knowledge_base()
    answer = ask_and_index("Why did Apple's revenue dip in fiscal 2023?")
    note = kb["note"]

    document_upsert(
        key=note.key, title=note.title, body=note.body + " Services grew.",
        classification=note.classification, entity=note.entity,
    )  # fmt: skip

    assert list(answer.citations.values_list("document", flat=True)) == [note.pk]


def test_documents_filter_by_entity_period_and_classification() -> None:
    apple = EntityFactory(name="Apple")
    a, _ = document_upsert(key="a", title="A", body="x", classification="PUBLIC",
                           entity=apple, period="FY2023")  # fmt: skip
    b, _ = document_upsert(key="b", title="B", body="x", classification="INTERNAL",
                           period="FY2022")  # fmt: skip
    client, _ = reviewer_client()
    url = reverse("admin:askapp_document_changelist")

    assert listed(client.get(url, {"entity__id__exact": apple.pk})) == {a.pk}
    assert listed(client.get(url, {"period": "FY2022"})) == {b.pk}
    assert listed(client.get(url, {"classification__exact": "INTERNAL"})) == {b.pk}
    assert listed(client.get(url, {"q": "B"})) == {b.pk}


def test_a_malformed_cites_filter_lists_nothing() -> None:
    knowledge_base()
    ask_and_index("What was Apple's revenue in FY2023?")
    client, _ = reviewer_client()

    for value in ("fact:abc", "chunk:1", "nonsense"):
        assert listed(client.get(reverse(ANSWERS), {"cites": value})) == set()


def test_the_chunk_inline_and_body_of_a_restricted_document_stay_hidden() -> None:
    document, _ = document_upsert(
        key="r", title="Deal memo", body="CANARY-RESTRICTED-7Q2X walnut harbour",
        classification=Classification.RESTRICTED,
    )  # fmt: skip
    client, _ = reviewer_client()

    html = client.get(reverse("admin:askapp_document_change", args=[document.pk])).content
    assert "walnut harbour" not in html.decode()
    assert not re.search(r'id="chunks-group"', html.decode())
    assert Document.objects.get(pk=document.pk).chunks.count() == 1
