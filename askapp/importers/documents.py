"""Importing documents: Markdown or text files with a small header, or JSONL (one a line).

A Markdown or text file starts with `name: value` lines, then a blank line, then the text
(the header may also sit between two `---` lines):

    title: Apple FY2023 revenue note
    classification: INTERNAL
    entity: Apple
    period: FY2023
    source: Analyst desk, 2023-11-06

`title` is required; `classification`, `entity`, `period`, `source` and `key` are optional.
A JSONL line holds the same fields, with the body in `text`. A document is stored under its
`key` (by default derived from the title), so importing it again updates it.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO

from django.utils.text import slugify

from askapp.importers.base import (
    ImportFailure,
    ImportReport,
    Invalid,
    Progress,
    Write,
    check_fields,
    import_transaction,
    known_fields,
    open_text,
    parse_classification,
    parse_period,
)
from askapp.importers.names import entity_names
from askapp.models import Classification, Document
from askapp.services.knowledge import document_upsert

TEXT_SUFFIXES = (".md", ".markdown", ".txt")
JSONL_SUFFIXES = (".jsonl",)
SUFFIXES = TEXT_SUFFIXES + JSONL_SUFFIXES
OPTIONAL_FIELDS = ("classification", "entity", "period", "source", "key")
_FENCE = "---"


@dataclass(frozen=True, slots=True)
class DocumentInput:
    line: int
    key: str
    title: str
    body: str
    classification: str
    entity: str
    period: str
    source: str


def import_documents(
    path: str,
    *,
    classification: str = Classification.PUBLIC,
    dry_run: bool = False,
    keys_seen: dict[str, tuple[str, int]] | None = None,
    progress_every: int = 10_000,
    write_progress: Write | None = None,
) -> ImportReport:
    """Import one file of documents: all of it, or (at the first bad record) none of it.

    `classification` applies to documents that name none. `keys_seen` carries keys across
    the files of one command, so two files cannot silently overwrite each other.
    """
    if not path.lower().endswith(SUFFIXES):
        raise ImportFailure(path, None, f"unsupported file type (expected {', '.join(SUFFIXES)})")
    report = ImportReport(path=path, noun="documents", dry_run=dry_run)
    progress = Progress(path, every=progress_every, write=write_progress)
    keys = {} if keys_seen is None else keys_seen
    with open_text(path) as handle, import_transaction(dry_run=dry_run):
        entities = entity_names()
        records = _jsonl(handle, report) if path.lower().endswith(JSONL_SUFFIXES) else _text(handle)
        line = 1
        try:
            for count, (line, fields) in enumerate(records, start=1):
                document = _document_input(line, fields, default_classification=classification)
                _claim_key(keys, document, path)
                entity = entities.resolve(document.entity) if document.entity else None
                check_fields(_unsaved(document), exclude=["entity"])
                _, created = document_upsert(
                    key=document.key,
                    title=document.title,
                    body=document.body,
                    classification=document.classification,
                    entity=entity,
                    period=document.period,
                    source=document.source,
                )
                report.created += created
                report.updated += not created
                progress.tick(count)
        except Invalid as exc:
            raise ImportFailure(path, exc.line or line, str(exc)) from None
    if entities.created:
        report.notes.append(f"new entities: {', '.join(entities.created)}")
    return report


def document_files(path: str) -> list[str]:
    """The file itself, or every document file under a directory, in a stable order."""
    root = Path(path)
    if not root.is_dir():
        return [path]
    return sorted(str(p) for p in root.rglob("*") if p.is_file() and p.suffix.lower() in SUFFIXES)


def _jsonl(handle: IO[str], report: ImportReport) -> Iterator[tuple[int, dict[str, str]]]:
    ignored: set[str] = set()
    for line, text in enumerate(handle, start=1):
        if not text.strip():
            continue
        try:
            record = json.loads(text)
        except json.JSONDecodeError as exc:
            raise Invalid(f"not valid JSON: {exc.msg} (column {exc.colno})", line=line) from None
        if not isinstance(record, dict):
            raise Invalid("expected a JSON object", line=line)
        try:
            extra = known_fields(
                list(record), required=("title", "text"), optional=OPTIONAL_FIELDS, noun="field"
            )
        except Invalid as exc:
            raise Invalid(str(exc), line=line) from None
        ignored.update(extra)
        yield line, _strings({k: v for k, v in record.items() if k not in extra}, line=line)
    if ignored:
        report.notes.append(f"ignored fields: {', '.join(sorted(ignored))}")


def _strings(record: dict[str, object], *, line: int) -> dict[str, str]:
    """The record's fields as text; null reads as empty, any other non-string is an error."""
    strings: dict[str, str] = {}
    for name, value in record.items():
        if value is not None and not isinstance(value, str):
            raise Invalid(f"field '{name}' must be a string", line=line)
        strings[name] = value or ""
    return strings


def _text(handle: IO[str]) -> Iterator[tuple[int, dict[str, str]]]:
    """The one document a Markdown or text file holds: header fields, then the body."""
    lines = handle.read().splitlines()
    fenced = bool(lines) and lines[0].strip() == _FENCE
    start = 1 if fenced else 0
    end = _header_end(lines, start, fenced=fenced)
    fields: dict[str, str] = {}
    for number in range(start, end):
        name, value = _header_field(lines[number], line=number + 1)
        if name in fields:
            raise Invalid(f"header field '{name}' appears twice", line=number + 1)
        fields[name] = value
    if "title" not in fields:
        raise Invalid("document header has no 'title'", line=1)
    body_from = end + 1 if fenced else end
    fields["text"] = "\n".join(lines[body_from:])
    yield 1, fields


def _header_end(lines: list[str], start: int, *, fenced: bool) -> int:
    closing = _FENCE if fenced else ""
    for number in range(start, len(lines)):
        if lines[number].strip() == closing:
            return number
    if fenced:
        raise Invalid("document header opened with '---' is never closed", line=1)
    return len(lines)


def _header_field(text: str, *, line: int) -> tuple[str, str]:
    name, colon, value = text.partition(":")
    name = name.strip().lower()
    if not colon or not name or " " in name:
        raise Invalid(
            f"header line '{text.strip()}' is not 'name: value' "
            "(a document starts with a header: title, classification, entity, period, source)",
            line=line,
        )
    if name not in ("title", *OPTIONAL_FIELDS):
        expected = ", ".join(("title", *OPTIONAL_FIELDS))
        raise Invalid(f"unknown header field '{name}' (expected {expected})", line=line)
    return name, value.strip()


def _document_input(
    line: int, fields: dict[str, str], *, default_classification: str
) -> DocumentInput:
    title = " ".join(fields.get("title", "").split())
    body = fields.get("text", "").strip()
    if not title:
        raise Invalid("title is empty", line=line)
    if not body:
        raise Invalid("document has no text", line=line)
    period = fields.get("period", "").strip()
    try:
        return DocumentInput(
            line=line,
            key=fields.get("key", "").strip() or _key_from(title),
            title=title,
            body=body,
            classification=parse_classification(
                fields.get("classification", ""), default=default_classification
            ),
            entity=fields.get("entity", ""),
            period=parse_period(period) if period else "",
            source=fields.get("source", "").strip(),
        )
    except Invalid as exc:
        raise Invalid(str(exc), line=line) from None


def _key_from(title: str) -> str:
    key = slugify(title, allow_unicode=True)[:300]
    if not key:
        raise Invalid(f"cannot derive a key from the title '{title}': give the document a key")
    return key


def _claim_key(keys: dict[str, tuple[str, int]], document: DocumentInput, path: str) -> None:
    first = keys.setdefault(document.key, (path, document.line))
    if first != (path, document.line):
        where = f"line {first[1]}" if first[0] == path else f"{first[0]}:{first[1]}"
        raise Invalid(f"duplicate document key '{document.key}' (first on {where})")


def _unsaved(document: DocumentInput) -> Document:
    return Document(
        key=document.key,
        title=document.title,
        body=document.body,
        classification=document.classification,
        period=document.period,
        source=document.source,
    )
