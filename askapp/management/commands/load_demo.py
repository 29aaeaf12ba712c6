"""manage.py load_demo: the demo knowledge base shipped in data/demo/. Safe to run again."""

from __future__ import annotations

from argparse import ArgumentParser
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from askapp.importers import (
    ImportFailure,
    ImportReport,
    document_files,
    import_documents,
    import_entities,
    import_facts,
    import_metrics,
)

DEMO_DIR = settings.BASE_DIR / "data" / "demo"


class Command(BaseCommand):
    help = (
        "Load the demo knowledge base from data/demo/ (entities, metrics, facts, documents). "
        "Every import updates rows it loaded before, so running it twice changes nothing."
    )

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument("--dry-run", action="store_true", help="check the files only")

    def handle(self, *args: Any, dry_run: bool = False, **options: Any) -> None:
        try:
            self._load(dry_run=dry_run)
        except ImportFailure as exc:
            raise CommandError(str(exc)) from None

    def _load(self, *, dry_run: bool) -> None:
        self._show(import_entities(str(DEMO_DIR / "entities.csv"), dry_run=dry_run))
        self._show(import_metrics(str(DEMO_DIR / "metrics.csv"), dry_run=dry_run))
        facts = str(DEMO_DIR / "facts.csv")
        self._show(import_facts(facts, dry_run=dry_run, write_progress=self.stderr.write))
        keys_seen: dict[str, tuple[str, int]] = {}
        for path in [str(DEMO_DIR / "docs.jsonl"), *document_files(str(DEMO_DIR / "documents"))]:
            self._show(import_documents(path, dry_run=dry_run, keys_seen=keys_seen))

    def _show(self, report: ImportReport) -> None:
        self.stdout.write(report.summary())
