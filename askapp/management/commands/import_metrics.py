"""manage.py import_metrics FILE...: metric names and their aliases."""

from __future__ import annotations

from typing import Any

from askapp.importers import ImportReport, import_metrics
from askapp.management.importing import ImportCommand


class Command(ImportCommand):
    help = "Import metrics from a CSV with the columns metric,aliases (aliases split by |)."

    def import_file(self, path: str, options: dict[str, Any]) -> ImportReport:
        return import_metrics(path, dry_run=options["dry_run"])
