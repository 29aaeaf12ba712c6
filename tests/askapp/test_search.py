"""The full-text index follows every write path, any text is a safe query, ranking is sane.

These run on whichever database the suite runs on: FTS5 on SQLite, tsvector on PostgreSQL.
The tantivy accelerator (SQLite files) has its own tests at the end.
"""

from __future__ import annotations

import pytest
from django.db import connection, transaction

from askapp import search
from askapp.models import Chunk, Document, Entity
from askapp.search import accelerator as accelerator_module
from askapp.search import chunk_search
from askapp.search.hits import Filters
from askapp.search.sqlite import _levels
from askapp.services.knowledge import document_chunks_rebuild
from tests.factories import DocumentFactory, EntityFactory

ALL = frozenset({"PUBLIC", "INTERNAL", "RESTRICTED"})
PUBLIC = frozenset({"PUBLIC"})
VISIBLE = frozenset({"PUBLIC", "INTERNAL"})

pytestmark = pytest.mark.django_db


def make_document(
    key: str,
    body: str,
    *,
    classification: str = "PUBLIC",
    entity: Entity | None = None,
    title: str | None = None,
    period: str = "",
) -> Document:
    document = DocumentFactory(
        key=key,
        title=title or key,
        body=body,
        classification=classification,
        entity=entity,
        period=period,
    )
    document_chunks_rebuild(document=document)
    return document


def found(query: str, classifications: frozenset[str] = ALL, **kwargs: object) -> list[str]:
    hits = chunk_search(query=query, limit=10, classifications=classifications, **kwargs)
    return [hit.title for hit in hits]


# --- the index follows every write path ------------------------------------------------------


def test_a_new_document_is_found():
    make_document("memo", "Gross margin widened on lower freight costs.")
    assert found("freight costs") == ["memo"]


def test_an_edited_body_is_found_and_the_old_one_is_not():
    document = make_document("memo", "Revenue grew on strong smartphone demand.")
    document.body = "Revenue shrank as tablet demand collapsed."
    document.save()
    document_chunks_rebuild(document=document)
    assert found("tablet") == ["memo"]
    assert found("smartphone") == []


def test_a_classification_edit_reaches_search_without_a_rebuild():
    document = make_document("memo", "The canary phrase heliotrope appears here.")
    assert found("heliotrope", PUBLIC) == ["memo"]
    Document.objects.filter(pk=document.pk).update(classification="RESTRICTED")
    assert found("heliotrope", PUBLIC) == []
    document.classification = "INTERNAL"
    document.save()  # an admin edit saves the document the same way
    assert found("heliotrope", PUBLIC) == []
    assert found("heliotrope", VISIBLE) == ["memo"]


def test_a_deleted_document_leaves_the_index():
    document = make_document("memo", "Impairment of goodwill in the retail segment.")
    document.delete()
    assert found("goodwill impairment") == []
    assert not Chunk.objects.exists()


def test_a_raw_chunk_update_is_indexed():
    document = make_document("memo", "Dividends rose again.")
    Chunk.objects.filter(document=document).update(text="Buybacks replaced dividends entirely.")
    assert found("buybacks") == ["memo"]
    assert found("rose") == []


def test_a_raw_chunk_delete_leaves_the_index():
    document = make_document("memo", "Backlog reached a record.")
    Chunk.objects.filter(document=document).delete()
    assert found("backlog") == []


def test_a_rebuild_replaces_chunks_rather_than_adding_to_them():
    document = make_document("memo", "First paragraph about pensions.\n\nSecond about leases.")
    document_chunks_rebuild(document=document)
    hits = chunk_search(query="pensions", limit=10, classifications=ALL)
    assert len(hits) == 1


# --- any text is a safe query ------------------------------------------------------------------

HOSTILE = [
    "",
    "   ",
    '"',
    '""',
    "'",
    'revenue"',
    "(revenue",
    "revenue)",
    "((()))",
    "revenue AND",
    "AND OR NOT",
    "NOT revenue",
    "revenue OR",
    "NEAR(revenue margin, 2)",
    "revenue NEAR margin",
    "rev*",
    "*",
    "-revenue",
    "revenue -margin",
    "^revenue",
    "text:revenue",
    "title:revenue OR body:margin",
    "{revenue margin}",
    "[1 TO 5]",
    "revenue~2",
    "revenue^3",
    "a:b:c",
    "\\",
    "revenue\\",
    "%",
    "_",
    "%_%",
    "'; DROP TABLE askapp_chunk; --",
    "\x00",
    "revenue\x00margin",
    "📈📉💰",
    "revenue 📈 growth",
    "Umsatzrückgang im Geschäftsjahr",
    "营收下降的原因",
    "выручка снизилась",
    "ﬁscal",  # a ligature
    "e\u0301",  # a combining accent
    "the of and to in is what why how",
    "what is it?",
    "x" * 5000,
    " ".join(["revenue"] * 300),
    " ".join(f"word{i}" for i in range(300)),
    "@@ !! && || ~~",
    "$100 (3)% 1,234.5",
    "<script>alert(1)</script>",
]


@pytest.mark.parametrize("query", HOSTILE)
def test_hostile_queries_never_raise(query):
    make_document("memo", "Revenue and margin grew; text, title and body were fine.")
    hits = chunk_search(query=query, limit=5, classifications=ALL)
    assert isinstance(hits, list)
    assert len(hits) <= 5


def test_a_query_of_only_stop_words_returns_nothing():
    make_document("memo", "What is it, and why is it here?")
    assert found("what is it") == []


def test_nothing_matching_returns_an_empty_list():
    make_document("memo", "Revenue grew.")
    assert found("zeppelin") == []


def test_operators_are_searched_as_plain_words():
    make_document("memo", "Revenue and margin.")
    make_document("other", "Near the border, demand was not strong.")
    assert found("NOT") == []  # a stop word, not an operator that empties or inverts
    assert found("revenue OR zeppelin") == ["memo"]


# --- the classification allow-list -------------------------------------------------------------


def test_only_allowed_classifications_come_back():
    make_document("public", "Canary marmalade appears publicly.", classification="PUBLIC")
    make_document("internal", "Canary marmalade appears internally.", classification="INTERNAL")
    make_document("restricted", "Canary marmalade appears secretly.", classification="RESTRICTED")
    assert found("marmalade", PUBLIC) == ["public"]
    assert sorted(found("marmalade", VISIBLE)) == ["internal", "public"]
    assert found("marmalade", frozenset()) == []


def test_restricted_is_not_assumed_away():
    make_document("restricted", "Canary quince appears secretly.", classification="RESTRICTED")
    assert found("quince", frozenset({"RESTRICTED"})) == ["restricted"]


def test_an_unknown_classification_never_comes_back():
    document = make_document("odd", "Canary tamarind appears here.")
    Document.objects.filter(pk=document.pk).update(classification="SECRET")
    assert found("tamarind", ALL | {"SECRET"}) == []


def test_the_allow_list_holds_when_restricted_passages_outrank_the_rest():
    for i in range(30):
        make_document(f"r{i}", "Quince quince quince quince.", classification="RESTRICTED")
    make_document("public", "One quince in a long public memo about many other things.")
    assert found("quince", PUBLIC) == ["public"]


def test_entities_narrow_to_their_documents_and_to_documents_about_none():
    apple = EntityFactory(name="Apple")
    microsoft = EntityFactory(name="Microsoft")
    make_document("apple", "Services revenue grew.", entity=apple)
    make_document("microsoft", "Services revenue grew.", entity=microsoft)
    make_document("general", "Services revenue grew.")
    assert sorted(found("services revenue", entities=["Apple"])) == ["apple", "general"]
    assert sorted(found("services revenue")) == ["apple", "general", "microsoft"]


# --- ranking -----------------------------------------------------------------------------------

CORPUS = {
    "apple-2023": (
        "Apple's total net sales decreased 3% in fiscal 2023. The decline in revenue was driven "
        "by lower iPhone and Mac sales and the weakness of foreign currencies against the dollar."
    ),
    "apple-2021": (
        "Apple's net sales increased 33% in fiscal 2021, driven by growth in all categories."
    ),
    "opex": (
        "Operating expenses increased 14% because of higher research and development headcount "
        "and higher marketing spend; general and administrative expenses were flat."
    ),
    "returns": (
        "During the year the company returned $90 billion of cash to shareholders through "
        "share repurchases and dividends."
    ),
    "margin": "Gross margin improved on a favourable product mix and lower freight costs.",
    "tax": (
        "The effective tax rate fell to 14.7% owing to the foreign-derived intangible income "
        "deduction."
    ),
    "risk": (
        "Supply chain risks include single-source suppliers and concentration of manufacturing "
        "in Asia."
    ),
    "noise-1": "Revenue recognition policies were unchanged; the company adopted no new standards.",
    "noise-2": "Expenses for litigation were immaterial. Operating leases are described in note 7.",
    "noise-3": "Cash and cash equivalents are held mainly in the United States.",
}

RANKING = [
    ("Why did Apple's revenue decline in fiscal 2023?", "apple-2023"),
    ("What drove the increase in operating expenses?", "opex"),
    ("how much cash did the company return to shareholders", "returns"),
    ("Why did gross margin improve?", "margin"),
    ("What was the effective tax rate?", "tax"),
    ("What are the risks to the supply chain?", "risk"),
]


@pytest.mark.parametrize(("question", "expected"), RANKING)
def test_the_right_passage_ranks_first(question, expected):
    for key, body in CORPUS.items():
        make_document(key, body)
    assert found(question)[0] == expected


def test_scores_are_ordered_best_first():
    for key, body in CORPUS.items():
        make_document(key, body)
    hits = chunk_search(query="revenue cash expenses", limit=10, classifications=ALL)
    scores = [hit.score for hit in hits]
    assert scores == sorted(scores, reverse=True)
    assert len(hits) >= 3


def test_limit_is_respected():
    for i in range(15):
        make_document(f"d{i}", f"Revenue note number {i}.")
    assert len(found("revenue")) == 10
    assert chunk_search(query="revenue", limit=0, classifications=ALL) == []


# --- the tantivy accelerator (SQLite files only) -------------------------------------------------

sqlite_only = pytest.mark.skipif(
    connection.vendor != "sqlite", reason="the accelerator serves SQLite databases"
)


@pytest.fixture
def accelerator(tmp_path):
    pytest.importorskip("tantivy")
    return search.SearchAccelerator(tmp_path / "index", using="default")


def accelerated(accelerator, query: str, classifications=ALL, entities=None) -> list[str]:
    filters = Filters(tuple(sorted(classifications)), entities)
    hits = search._accelerated(accelerator, search.query_terms(query), 10, filters, "default")
    assert hits is not None, "the accelerator declined to answer"
    return [hit.title for hit in hits]


@sqlite_only
@pytest.mark.django_db(transaction=True)
def test_the_accelerator_follows_create_edit_and_delete(accelerator):
    document = make_document("memo", "Freight costs fell sharply.")
    assert accelerated(accelerator, "freight") == ["memo"]
    document.body = "Warehouse costs rose."
    document.save()
    document_chunks_rebuild(document=document)
    assert accelerated(accelerator, "freight") == []
    assert accelerated(accelerator, "warehouse") == ["memo"]
    Chunk.objects.filter(document=document).update(text="Tariffs bit.")
    assert accelerated(accelerator, "tariffs") == ["memo"]
    document.delete()
    assert accelerated(accelerator, "tariffs") == []


@sqlite_only
@pytest.mark.django_db(transaction=True)
def test_the_accelerator_follows_a_classification_edit(accelerator):
    document = make_document("memo", "Canary heliotrope.")
    assert accelerated(accelerator, "heliotrope", PUBLIC) == ["memo"]
    Document.objects.filter(pk=document.pk).update(classification="RESTRICTED")
    assert accelerated(accelerator, "heliotrope", PUBLIC) == []
    assert accelerated(accelerator, "heliotrope", frozenset({"RESTRICTED"})) == ["memo"]


@sqlite_only
@pytest.mark.django_db(transaction=True)
def test_a_stale_accelerator_never_returns_what_sql_filters_out(accelerator):
    document = make_document("memo", "Canary heliotrope.")
    assert accelerated(accelerator, "heliotrope", PUBLIC) == ["memo"]
    with transaction.atomic():  # inside a transaction the index does not catch up
        Document.objects.filter(pk=document.pk).update(classification="RESTRICTED")
        assert accelerator.sync() is False
        assert accelerated(accelerator, "heliotrope", PUBLIC) == []


@sqlite_only
@pytest.mark.django_db(transaction=True)
def test_a_second_process_index_catches_up_from_the_log(tmp_path):
    pytest.importorskip("tantivy")
    first = search.SearchAccelerator(tmp_path / "index")
    make_document("one", "Pension obligations.")
    assert accelerated(first, "pension") == ["one"]
    second = search.SearchAccelerator(tmp_path / "index")  # another process, same folder
    make_document("two", "Pension assets.")
    assert sorted(accelerated(second, "pension")) == ["one", "two"]
    assert sorted(accelerated(first, "pension")) == ["one", "two"]


@sqlite_only
@pytest.mark.django_db(transaction=True)
def test_the_accelerator_rebuilds_for_a_new_database(accelerator):
    make_document("memo", "Leases were renegotiated.")
    assert accelerated(accelerator, "leases") == ["memo"]
    with connection.cursor() as cursor:  # as if the database file were replaced
        cursor.execute("UPDATE askapp_search_state SET generation = 'other'")
    Chunk.objects.all().delete()
    with connection.cursor() as cursor:
        cursor.execute("DELETE FROM askapp_chunk_change")
        cursor.execute("DELETE FROM sqlite_sequence WHERE name = 'askapp_chunk_change'")
    make_document("new", "Leases again.")
    assert accelerated(accelerator, "leases") == ["new"]


@sqlite_only
@pytest.mark.django_db(transaction=True)
def test_hostile_queries_never_raise_in_the_accelerator(accelerator):
    make_document("memo", "Revenue and margin grew.")
    for query in HOSTILE:
        assert isinstance(accelerated(accelerator, query), list), query


@sqlite_only
@pytest.mark.django_db(transaction=True)
def test_the_accelerator_ranks_the_right_passage_first(accelerator):
    for key, body in CORPUS.items():
        make_document(key, body)
    for question, expected in RANKING:
        assert accelerated(accelerator, question)[0] == expected, question


@sqlite_only
@pytest.mark.django_db(transaction=True)
def test_the_accelerator_narrows_by_entity(accelerator):
    apple = EntityFactory(name="Apple")
    microsoft = EntityFactory(name="Microsoft")
    make_document("apple", "Services revenue grew.", entity=apple)
    make_document("microsoft", "Services revenue grew.", entity=microsoft)
    make_document("general", "Services revenue grew.")
    assert sorted(accelerated(accelerator, "services", entities=(apple.pk,))) == [
        "apple",
        "general",
    ]


@sqlite_only
@pytest.mark.django_db(transaction=True)
def test_a_large_backlog_is_applied_in_the_background_while_fts5_answers(accelerator, monkeypatch):
    monkeypatch.setattr(accelerator_module, "INLINE_BACKLOG", 0)
    make_document("memo", "Derivatives were marked to market.")
    filters = Filters(("PUBLIC",), None)
    assert accelerator.search(["derivatives"], 10, filters) is None  # FTS5 answers meanwhile
    accelerator._worker.join(timeout=30)
    assert accelerated(accelerator, "derivatives") == ["memo"]


def test_fts5_levels_drop_the_commonest_terms_first():
    assert _levels(1) == [1]
    assert _levels(3) == [3, 2, 1]
    assert _levels(9) == [9, 8, 7, 1]


def test_a_passage_missing_a_common_word_still_ranks_by_its_rare_ones():
    make_document("rare", "Heliotrope tariffs hit the quarter.")
    make_document("common", "The quarter was ordinary; the quarter ended.")
    assert found("heliotrope tariffs quarter zeppelin")[0] == "rare"


@sqlite_only
@pytest.mark.django_db(transaction=True)
def test_the_accelerator_filters_in_the_index_when_sql_leaves_too_few(accelerator):
    for i in range(40):
        make_document(f"r{i}", "Quince quince quince quince.", classification="RESTRICTED")
    make_document("public", "One quince in a long public memo about many other things.")
    assert accelerated(accelerator, "quince", PUBLIC) == ["public"]
