"""manage.py import_documents: Markdown with a header, JSONL, atomic files, exact errors."""

from __future__ import annotations

import json
from collections.abc import Callable

import pytest

from askapp import search
from askapp.models import Chunk, Document, Entity
from askapp.services.knowledge import document_upsert
from tests.askapp.commands import failure, run
from tests.factories import EntityFactory

pytestmark = pytest.mark.django_db
WriteFile = Callable[[str, str], str]

NOTE = """
    title: Apple revenue note
    classification: INTERNAL
    entity: Apple
    period: fiscal 2023
    source: Analyst desk

    Revenue fell because Mac demand was weak.

    Services kept growing.
    """


def _jsonl(*records: dict[str, str]) -> str:
    return "".join(json.dumps(record) + "\n" for record in records)


@pytest.fixture
def stored_document() -> Document:
    """A document stored before the import under test: a failed import must leave it alone."""
    document, _ = document_upsert(
        key="stored", title="Stored note", body="Kept as it was.", classification="PUBLIC"
    )
    return document


def _assert_only(document: Document) -> None:
    assert list(Document.objects.all()) == [document]
    assert [c.text for c in Chunk.objects.all()] == ["Kept as it was."]
    assert not Entity.objects.exists()


def test_a_markdown_note_is_stored_with_its_header_and_chunked(write_file: WriteFile) -> None:
    path = write_file("note.md", NOTE)
    output = run("import_documents", path)
    document = Document.objects.get()
    assert document.key == "apple-revenue-note"
    assert (document.title, document.classification, document.period, document.source) == (
        "Apple revenue note",
        "INTERNAL",
        "FY2023",
        "Analyst desk",
    )
    assert document.entity == Entity.objects.get(name="Apple")
    assert document.body == "Revenue fell because Mac demand was weak.\n\nServices kept growing."
    assert document.chunks.count() >= 1
    assert "Services kept growing." in document.chunks.last().text
    assert f"{path}: imported 1 documents (1 new, 0 updated)" in output.stdout


def test_a_header_between_fences_reads_the_same(write_file: WriteFile) -> None:
    path = write_file("note.md", "---\ntitle: Fenced\nkey: fenced-1\n---\nBody text.\n")
    run("import_documents", path)
    document = Document.objects.get()
    assert (document.key, document.title, document.body) == ("fenced-1", "Fenced", "Body text.")
    assert document.classification == "PUBLIC"


def test_reimporting_an_edited_note_updates_it_and_its_chunks(write_file: WriteFile) -> None:
    path = write_file("note.md", NOTE)
    run("import_documents", path)
    write_file("note.md", NOTE.replace("Services kept growing.", "Wearables shrank."))
    output = run("import_documents", path)
    document = Document.objects.get()
    assert "Wearables shrank." in document.body
    texts = " ".join(Chunk.objects.values_list("text", flat=True))
    assert "Wearables shrank." in texts and "Services kept growing." not in texts
    assert f"{path}: imported 1 documents (0 new, 1 updated)" in output.stdout


def test_jsonl_records_import_with_defaults_and_ignore_unrelated_fields(
    write_file: WriteFile,
) -> None:
    path = write_file(
        "docs.jsonl",
        _jsonl(
            {"title": "MD&A 2023", "text": "Sales rose.", "period": "FY23", "origin": "crawl"},
            {"title": "Memo", "text": "Costs fell.", "classification": "RESTRICTED", "key": "m"},
        ),
    )
    output = run("import_documents", path, "--classification", "INTERNAL")
    documents = {d.key: d for d in Document.objects.all()}
    assert documents["mda-2023"].classification == "INTERNAL"
    assert documents["mda-2023"].period == "FY2023"
    assert documents["m"].classification == "RESTRICTED"
    assert f"{path}: ignored fields: origin" in output.stdout


def test_a_directory_imports_every_document_file_in_it(write_file: WriteFile) -> None:
    write_file("notes/a.md", "title: A\n\nFirst.\n")
    write_file("notes/sub/b.txt", "title: B\n\nSecond.\n")
    write_file("notes/readme.pdf", "not a document")
    path = write_file("notes/c.jsonl", _jsonl({"title": "C", "text": "Third."}))
    run("import_documents", path.rsplit("/", 1)[0])
    assert sorted(Document.objects.values_list("title", flat=True)) == ["A", "B", "C"]


def test_dry_run_keeps_nothing(write_file: WriteFile, stored_document: Document) -> None:
    path = write_file("note.md", NOTE)
    output = run("import_documents", path, "--dry-run")
    assert f"{path}: would import 1 documents (1 new, 0 updated)" in output.stdout
    _assert_only(stored_document)


@pytest.mark.parametrize(
    ("name", "text", "message"),
    [
        pytest.param(
            "note.md",
            "classification: PUBLIC\n\nNo title here.\n",
            "1: document header has no 'title'",
            id="header missing title",
        ),
        pytest.param(
            "note.md",
            "# Apple note\n\nText.\n",
            "1: header line '# Apple note' is not 'name: value' "
            "(a document starts with a header: title, classification, entity, period, source)",
            id="no header",
        ),
        pytest.param(
            "note.md",
            "title: Note\nclasification: RESTRICTED\n\nText.\n",
            "2: unknown header field 'clasification' "
            "(expected title, classification, entity, period, source, key)",
            id="misspelt header field",
        ),
        pytest.param(
            "note.md",
            "title: Note\nclassification: SECRET\n\nText.\n",
            "1: unknown classification 'SECRET' (expected PUBLIC, INTERNAL, RESTRICTED)",
            id="unknown classification",
        ),
        pytest.param(
            "note.md",
            "title: Note\nperiod: banana\n\nText.\n",
            "1: 'banana' is not a period (expected e.g. FY2023 or FY2023 Q3)",
            id="bad period",
        ),
        pytest.param("note.md", "title: Note\n\n\n", "1: document has no text", id="empty body"),
        pytest.param(
            "note.md",
            "---\ntitle: Note\n\nText.\n",
            "1: document header opened with '---' is never closed",
            id="unclosed fence",
        ),
        pytest.param(
            "docs.jsonl",
            _jsonl({"title": "A", "text": "a"}) + '{"title": "B" "text": "b"}\n',
            "2: not valid JSON: Expecting ',' delimiter (column 15)",
            id="malformed JSONL line",
        ),
        pytest.param(
            "docs.jsonl",
            _jsonl({"title": "A", "text": "a"}) + '["B", "b"]\n',
            "2: expected a JSON object",
            id="JSONL line not an object",
        ),
        pytest.param(
            "docs.jsonl",
            _jsonl({"title": "A", "text": "a", "key": "k"}, {"title": "B", "text": "b"})
            + _jsonl({"title": "C", "text": "c", "key": "k"}),
            "3: duplicate document key 'k' (first on line 1)",
            id="duplicate key inside the file",
        ),
        pytest.param(
            "docs.jsonl",
            _jsonl({"title": "A", "text": "a"}, {"title": "A", "text": "again"}),
            "2: duplicate document key 'a' (first on line 1)",
            id="duplicate derived key",
        ),
        pytest.param(
            "docs.jsonl",
            _jsonl({"title": "A", "text": "a"}, {"text": "b"}),
            "2: missing field 'title' "
            "(expected title, text, classification, entity, period, source, key)",
            id="JSONL missing title",
        ),
        pytest.param(
            "docs.jsonl",
            _jsonl({"title": "A", "text": "a", "clasification": "RESTRICTED"}),
            "1: unknown field 'clasification' (did you mean 'classification'?)",
            id="misspelt JSONL field",
        ),
        pytest.param(
            "docs.jsonl",
            '{"title": "A", "text": "a", "period": 2023}\n',
            "1: field 'period' must be a string",
            id="JSONL number for text",
        ),
    ],
)
def test_a_bad_file_stops_at_its_first_bad_line_and_keeps_nothing(
    write_file: WriteFile, stored_document: Document, name: str, text: str, message: str
) -> None:
    path = write_file(name, text)
    assert failure("import_documents", path) == f"{path}:{message}"
    _assert_only(stored_document)


def test_an_unsupported_file_type_is_refused(write_file: WriteFile) -> None:
    path = write_file("report.pdf", "%PDF")
    message = failure("import_documents", path)
    assert message == f"{path}: unsupported file type (expected .md, .markdown, .txt, .jsonl)"


def test_two_files_of_one_import_cannot_share_a_key(write_file: WriteFile) -> None:
    first = write_file("a.md", "title: Same\n\nOne.\n")
    second = write_file("b.md", "title: Same\n\nTwo.\n")
    assert failure("import_documents", first, second) == (
        f"{second}:1: duplicate document key 'same' (first on {first}:1)"
    )
    assert Document.objects.get().body == "One."


def test_a_known_entity_is_linked_by_alias(write_file: WriteFile) -> None:
    apple = EntityFactory(name="Apple", aliases=["AAPL"])
    run("import_documents", write_file("note.md", "title: N\nentity: aapl\n\nText.\n"))
    assert Document.objects.get().entity == apple
    assert Entity.objects.count() == 1


def test_deleting_a_document_deletes_its_chunks(write_file: WriteFile) -> None:
    run("import_documents", write_file("note.md", NOTE))
    assert Chunk.objects.exists()
    Document.objects.get().delete()
    assert not Chunk.objects.exists()


def _found(words: str) -> list[str]:
    hits = search.chunk_search(query=words, limit=5, classifications=frozenset({"PUBLIC"}))
    return [hit.text for hit in hits]


def test_full_text_search_follows_import_reimport_and_delete(write_file: WriteFile) -> None:
    path = write_file("note.md", "title: Harvest note\n\nRevenue grew on pistachio sales.\n")
    run("import_documents", path)
    assert _found("pistachio") == ["Revenue grew on pistachio sales."]
    write_file("note.md", "title: Harvest note\n\nRevenue fell on almond sales.\n")
    run("import_documents", path)
    assert _found("pistachio") == []
    assert _found("almond") == ["Revenue fell on almond sales."]
    Document.objects.get().delete()
    assert _found("almond") == []
