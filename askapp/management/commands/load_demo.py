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
from askapp.search import search_index_sync

DEMO_DIR = settings.BASE_DIR / "data" / "demo"


class Command(BaseCommand):
    help = (
        "Load the demo knowledge base from data/demo/ (entities, metrics, facts, documents). "
        "Every import updates rows it loaded before, so running it twice changes nothing."
    )

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument("--dry-run", action="store_true", help="check the files only")

    def handle(self, *args: Any, dry_run: bool = False, verbosity: int = 1, **options: Any) -> None:
        try:
            reports = self._load(dry_run=dry_run)
        except ImportFailure as exc:
            raise CommandError(str(exc)) from None
        if not dry_run:
            search_index_sync()  # so the first questions are ranked by the accelerator
        for report in reports if verbosity > 1 else ():
            self.stdout.write(report.summary())
        if verbosity > 0:
            self.stdout.write(self._total(reports, dry_run=dry_run))

    def _load(self, *, dry_run: bool) -> list[ImportReport]:
        reports = [
            import_entities(str(DEMO_DIR / "entities.csv"), dry_run=dry_run),
            import_metrics(str(DEMO_DIR / "metrics.csv"), dry_run=dry_run),
            import_facts(str(DEMO_DIR / "facts.csv"), dry_run=dry_run),
        ]
        keys_seen: dict[str, tuple[str, int]] = {}
        for path in [str(DEMO_DIR / "docs.jsonl"), *document_files(str(DEMO_DIR / "documents"))]:
            reports.append(import_documents(path, dry_run=dry_run, keys_seen=keys_seen))
        return reports

    @staticmethod
    def _total(reports: list[ImportReport], *, dry_run: bool) -> str:
        totals: dict[str, int] = {}
        for report in reports:
            totals[report.noun] = totals.get(report.noun, 0) + report.created + report.updated
        counts = ", ".join(f"{count} {noun}" for noun, count in totals.items())
        return f"Demo data {'checked' if dry_run else 'loaded'} from {DEMO_DIR}: {counts}"
