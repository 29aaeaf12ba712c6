"""DatabaseStore: the engine's KnowledgeStore over the database."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.db import connection, transaction

from askapp.models import Document, Entity, Fact
from askapp.services.knowledge import document_chunks_rebuild
from askapp.store import VERSION_SQL, DatabaseStore
from engine import types as et
from engine.store import KnowledgeStore
from tests.factories import DocumentFactory, EntityFactory, FactFactory, MetricFactory

pytestmark = pytest.mark.django_db

ALL = frozenset({"PUBLIC", "INTERNAL", "RESTRICTED"})


@pytest.fixture
def apple():
    return EntityFactory(name="Apple", aliases=["Apple Inc.", "AAPL"])


@pytest.fixture
def revenue():
    return MetricFactory(name="Revenue", aliases=["net sales"])


def fact(entity, metric, period, value, **kwargs):
    kwargs.setdefault("source", "")
    return FactFactory(
        entity=entity, metric=metric, period=period, value=Decimal(value), unit="USD m", **kwargs
    )


def document(key, body, **kwargs):
    kwargs.setdefault("source", "")
    doc = DocumentFactory(key=key, title=kwargs.pop("title", key), body=body, **kwargs)
    document_chunks_rebuild(document=doc)
    return doc


def test_it_is_a_knowledge_store():
    store: KnowledgeStore = DatabaseStore()
    assert isinstance(store.vocabulary(), et.Vocabulary)


# --- vocabulary ----------------------------------------------------------------------------------


def test_vocabulary_holds_names_aliases_and_periods(apple, revenue):
    fact(apple, revenue, "FY2023", "383285")
    fact(apple, revenue, "FY2022", "394328")
    vocabulary = DatabaseStore().vocabulary()
    assert vocabulary.entities == (et.Term("Apple", ("Apple Inc.", "AAPL")),)
    assert vocabulary.metrics == (et.Term("Revenue", ("net sales",)),)
    assert vocabulary.periods == ("FY2022", "FY2023")
    assert vocabulary.version


def test_repeated_calls_cost_one_probe_query(apple, django_assert_num_queries):
    store = DatabaseStore()
    first = store.vocabulary()
    with django_assert_num_queries(1):
        assert store.vocabulary() is first


@pytest.mark.parametrize(
    "change",
    [
        "new entity",
        "alias edit",
        "entity delete",
        "new metric",
        "new period",
        "fact delete",
    ],
)
def test_version_changes_when_the_vocabulary_changes(apple, revenue, change):
    existing = fact(apple, revenue, "FY2023", "1")
    store = DatabaseStore()
    before = store.vocabulary()
    if change == "new entity":
        EntityFactory(name="Microsoft")
    elif change == "alias edit":
        apple.aliases = ["Apple Computer"]
        apple.save()
    elif change == "entity delete":
        EntityFactory(name="Gone")
        store.vocabulary()
        before = store.vocabulary()
        Entity.objects.filter(name="Gone").delete()
    elif change == "new metric":
        MetricFactory(name="Net income")
    elif change == "new period":
        fact(apple, revenue, "FY2022", "2")
    elif change == "fact delete":
        existing.delete()
    after = store.vocabulary()
    assert after.version != before.version
    assert after != before


def test_a_queryset_update_that_leaves_updated_alone_is_seen_by_the_next_question(apple):
    store = DatabaseStore()
    store.vocabulary()
    Entity.objects.filter(pk=apple.pk).update(aliases=["Cupertino"])  # leaves `updated` alone
    # No fact or document names Apple here, so its name carries no classification.
    assert store.vocabulary().entities == (et.Term("Apple", ("Cupertino",), ""),)


def test_the_probe_reads_the_version_row_not_the_tables(apple, django_assert_num_queries):
    store = DatabaseStore()
    store.vocabulary()
    with django_assert_num_queries(1) as captured:
        store.vocabulary()
    (probe,) = captured.captured_queries
    assert "askapp_knowledge_version" in probe["sql"]
    assert "count(" not in probe["sql"].lower()


def test_every_write_to_the_knowledge_tables_moves_the_version(apple, revenue):
    seen = [_version()]
    fact(apple, revenue, "FY2023", "1")
    seen.append(_version())
    Fact.objects.update(value=Decimal("2"))
    seen.append(_version())
    DocumentFactory(key="note", body="text", source="")
    seen.append(_version())
    Fact.objects.all().delete()
    seen.append(_version())
    assert len(set(seen)) == len(seen)  # a new number with each write


def test_a_rolled_back_write_never_leaves_its_number_to_other_data(apple, revenue):
    store = DatabaseStore()
    with pytest.raises(RuntimeError), transaction.atomic():
        fact(apple, revenue, "FY2023", "1")
        store.vocabulary()  # probed: the uncommitted number
        assert store.find_facts(entity="Apple", metric="Revenue")[0].value == Decimal("1")
        raise RuntimeError("roll back")
    fact(apple, revenue, "FY2023", "2")  # the same kind of write again
    store.vocabulary()
    assert store.find_facts(entity="Apple", metric="Revenue")[0].value == Decimal("2")


def _version() -> int:
    with connection.cursor() as cursor:
        cursor.execute(VERSION_SQL)
        return int(cursor.fetchone()[0])


def test_a_write_the_triggers_miss_is_seen_after_the_refresh_interval(apple):
    now = [0.0]
    store = DatabaseStore(refresh_after=60.0, clock=lambda: now[0])
    before = store.vocabulary()
    with connection.cursor() as cursor:  # rolled back with the test's transaction
        for statement in _without_entity_update_triggers():
            cursor.execute(statement)
        cursor.execute("UPDATE askapp_entity SET aliases = '[\"Cupertino\"]'")
    assert store.vocabulary() is before
    now[0] = 61.0
    assert store.vocabulary().entities == (et.Term("Apple", ("Cupertino",), ""),)


def _without_entity_update_triggers() -> list[str]:
    if connection.vendor == "sqlite":
        return ["DROP TRIGGER askapp_knowledge_changed_askapp_entity_update"]
    return ["DROP TRIGGER askapp_knowledge_changed ON askapp_entity"]


def test_an_unchanged_vocabulary_keeps_its_version(apple):
    assert DatabaseStore().vocabulary().version == DatabaseStore().vocabulary().version


# --- facts --------------------------------------------------------------------------------------


def test_find_facts_returns_engine_facts_in_one_query(apple, revenue, django_assert_num_queries):
    source = document("10-K", "Annual report.")
    fact(apple, revenue, "FY2023", "383285", source="10-K p.20", source_document=source)
    fact(apple, revenue, "FY2022", "394328")
    store = DatabaseStore()
    with django_assert_num_queries(1):
        facts = store.find_facts(entity="Apple", metric="Revenue")
    assert [f.period for f in facts] == ["FY2022", "FY2023"]
    latest = facts[1]
    assert latest == et.Fact(
        id=f"fact:{Fact.objects.get(period='FY2023').pk}",
        entity="Apple",
        metric="Revenue",
        period="FY2023",
        value=Decimal("383285"),
        unit="USD m",
        classification="PUBLIC",
        source="10-K p.20",
        document_id=str(source.pk),
    )


def test_find_facts_keeps_the_order_of_the_periods_asked(apple, revenue):
    for period in ("FY2021", "FY2022", "FY2023"):
        fact(apple, revenue, period, "1")
    store = DatabaseStore()
    facts = store.find_facts(
        entity="Apple", metric="Revenue", periods=["FY2023", "FY2021", "FY1999"]
    )
    assert [f.period for f in facts] == ["FY2023", "FY2021"]
    assert store.find_facts(entity="Apple", metric="Revenue", periods=[]) == []
    assert store.find_facts(entity="Nobody", metric="Revenue") == []


def test_a_series_is_read_once_until_the_next_question_probes(
    apple, revenue, django_assert_num_queries
):
    fact(apple, revenue, "FY2023", "1")
    store = DatabaseStore()
    store.vocabulary()
    store.find_facts(entity="Apple", metric="Revenue")

    with django_assert_num_queries(0):
        again = store.find_facts(entity="Apple", metric="Revenue", periods=["FY2023"])

    assert [f.value for f in again] == [Decimal("1")]


def test_a_fact_edited_anywhere_is_read_afresh_by_the_next_question(apple, revenue):
    stored = fact(apple, revenue, "FY2023", "1")
    store = DatabaseStore()
    store.vocabulary()
    assert store.find_facts(entity="Apple", metric="Revenue")[0].value == Decimal("1")

    stored.value = Decimal("2")
    stored.save()
    store.vocabulary()  # every question starts with the probe

    assert store.find_facts(entity="Apple", metric="Revenue")[0].value == Decimal("2")


def test_holdings_are_read_once_until_the_next_question_probes(
    apple, revenue, django_assert_num_queries
):
    fact(apple, revenue, "FY2023", "1")
    store = DatabaseStore()
    store.vocabulary()
    first = store.holdings(entity="Apple")

    with django_assert_num_queries(0):
        again = store.holdings(entity="Apple")

    assert again == first == [et.Holding("Apple", "Revenue", "FY2023", "PUBLIC")]


def test_a_holding_reclassified_anywhere_is_read_afresh_by_the_next_question(apple, revenue):
    stored = fact(apple, revenue, "FY2023", "1")
    store = DatabaseStore()
    store.vocabulary()
    assert [h.classification for h in store.holdings(entity="Apple")] == ["PUBLIC"]

    Fact.objects.filter(pk=stored.pk).update(classification="RESTRICTED")
    store.vocabulary()  # every question starts with the probe

    assert [h.classification for h in store.holdings(entity="Apple")] == ["RESTRICTED"]
    assert [h.period for h in store.holdings(metric="Revenue")] == ["FY2023"]


# --- passages ------------------------------------------------------------------------------------


def test_search_passages_returns_engine_passages(apple):
    doc = document(
        "apple-mdna",
        "Net sales declined in fiscal 2023 on weaker iPhone demand.",
        title="Apple MD&A",
        classification="INTERNAL",
        entity=apple,
        period="FY2023",
        source="10-K 2023 Item 7",
    )
    (hit,) = DatabaseStore().search_passages(
        "why did net sales decline?", limit=5, classifications=frozenset({"INTERNAL"})
    )
    chunk = doc.chunks.get()
    assert hit.id == f"chunk:{chunk.pk}"
    assert hit.document_id == str(doc.pk)
    assert hit.title == "Apple MD&A"
    assert hit.text == chunk.text
    assert hit.classification == "INTERNAL"
    assert hit.source == "10-K 2023 Item 7"
    assert hit.entity == "Apple"
    assert hit.period == "FY2023"
    assert hit.score > 0


def test_search_passages_respects_the_allow_list_and_entities(apple):
    microsoft = EntityFactory(name="Microsoft")
    document("a", "Cloud revenue grew.", entity=apple)
    document("m", "Cloud revenue grew.", entity=microsoft)
    document("r", "Cloud revenue grew.", classification="RESTRICTED")
    store = DatabaseStore()
    public = frozenset({"PUBLIC"})
    hits = store.search_passages("cloud revenue", limit=10, classifications=public)
    assert sorted(h.entity or "" for h in hits) == ["Apple", "Microsoft"]
    hits = store.search_passages(
        "cloud revenue", limit=10, classifications=public, entities=["Apple"]
    )
    assert [h.entity for h in hits] == ["Apple"]


def test_an_unknown_classification_never_comes_back_as_a_passage():
    doc = document("odd", "Canary tamarind.")
    Document.objects.filter(pk=doc.pk).update(classification="")
    store = DatabaseStore()
    assert store.search_passages("tamarind", limit=5, classifications=ALL | {""}) == []
    assert store.document_passages(str(doc.pk), classifications=ALL | {""}) == []


def test_document_passages_in_order_when_allowed():
    doc = document("long", "\n\n".join(f"Paragraph {i} " + "word " * 100 for i in range(3)))
    store = DatabaseStore()
    passages = store.document_passages(str(doc.pk), classifications=frozenset({"PUBLIC"}))
    assert [p.id for p in passages] == [f"chunk:{c.pk}" for c in doc.chunks.order_by("ordinal")]
    assert store.document_passages(str(doc.pk), classifications=frozenset({"INTERNAL"})) == []
    assert store.document_passages("not-a-number", classifications=ALL) == []
