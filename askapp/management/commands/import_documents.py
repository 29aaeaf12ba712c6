"""manage.py import_documents PATH...: Markdown, text or JSONL documents."""

from __future__ import annotations

from argparse import ArgumentParser
from collections.abc import Iterable
from typing import Any

from askapp.importers import ImportReport, document_files, import_documents
from askapp.management.importing import ImportCommand, classification_argument
from askapp.search import search_index_sync


class Command(ImportCommand):
    help = (
        "Import documents: Markdown or text files that start with a header (title, "
        "classification, entity, period, source, key), or JSONL with the fields title, text, "
        "classification, entity, period, source, key. A directory means every such file in it."
    )
    file_help = "files or directories; each file is imported whole or not at all"

    def add_arguments(self, parser: ArgumentParser) -> None:
        super().add_arguments(parser)
        classification_argument(parser, what="documents")

    def handle(self, *args: Any, **options: Any) -> None:
        self.keys_seen: dict[str, tuple[str, int]] = {}
        super().handle(*args, **options)
        if not options["dry_run"]:
            search_index_sync()  # a large import is indexed now, not by the next question

    def files(self, paths: list[str]) -> Iterable[str]:
        return [file for path in paths for file in document_files(path)]

    def import_file(self, path: str, options: dict[str, Any]) -> ImportReport:
        return import_documents(
            path,
            classification=options["classification"],
            dry_run=options["dry_run"],
            keys_seen=self.keys_seen,
            progress_every=options["progress_every"],
            write_progress=self.write_progress,
        )
