"""manage.py import_companyfacts FILE...: a company's reported figures from SEC XBRL
companyfacts documents."""

from __future__ import annotations

from argparse import ArgumentParser
from typing import Any

from django.core.management.base import CommandError

from askapp.importers import (
    CompanyFactsOptions,
    ConceptMap,
    ImportFailure,
    ImportReport,
    import_companyfacts,
)
from askapp.management.importing import ImportCommand


class Command(ImportCommand):
    help = (
        "Import a company's annual reported figures from SEC XBRL companyfacts JSON files. "
        "Concepts become metrics through the shipped concept map and any --map files."
    )
    file_help = "companyfacts JSON files; each is imported whole or not at all"

    def add_arguments(self, parser: ArgumentParser) -> None:
        super().add_arguments(parser)
        parser.add_argument(
            "--map",
            action="append",
            default=[],
            metavar="FILE",
            help="a concept map CSV (metric,taxonomy,concept,unit) preferred over the shipped one",
        )
        parser.add_argument(
            "--all-concepts",
            action="store_true",
            help="also import concepts no map covers, each as a metric named by its XBRL label",
        )
        parser.add_argument(
            "--quarters",
            action="store_true",
            help="also import the three-month quarters of 10-Q reports (FY2024 Q3)",
        )
        parser.add_argument("--entity", help="the entity's name, when it is not the SEC's")
        parser.add_argument(
            "--alias",
            action="append",
            default=[],
            help="another name or ticker for the entity (repeat for several)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        if len(options["paths"]) > 1 and (options["entity"] or options["alias"]):
            raise CommandError("--entity and --alias apply to one company: import one at a time")
        try:
            self.import_options = CompanyFactsOptions(
                concept_map=ConceptMap.load(options["map"]),
                all_concepts=options["all_concepts"],
                quarters=options["quarters"],
                entity=options["entity"],
                aliases=tuple(options["alias"]),
            )
        except ImportFailure as exc:
            raise CommandError(str(exc)) from None
        super().handle(*args, **options)

    def import_file(self, path: str, options: dict[str, Any]) -> ImportReport:
        return import_companyfacts(
            path,
            options=self.import_options,
            dry_run=options["dry_run"],
            progress_every=options["progress_every"],
            write_progress=self.write_progress,
        )
