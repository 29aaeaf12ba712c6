"""manage.py import_entities FILE...: entity names and their aliases."""

from __future__ import annotations

from typing import Any

from askapp.importers import ImportReport, import_entities
from askapp.management.importing import ImportCommand


class Command(ImportCommand):
    help = "Import entities from a CSV with the columns entity,aliases (aliases split by |)."

    def import_file(self, path: str, options: dict[str, Any]) -> ImportReport:
        return import_entities(path, dry_run=options["dry_run"])
