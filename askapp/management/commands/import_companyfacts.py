"""manage.py import_companyfacts FILE... | --cik CIK...: a company's reported figures from SEC
XBRL companyfacts documents, read from files or fetched from EDGAR."""

from __future__ import annotations

from argparse import ArgumentParser
from dataclasses import replace
from typing import Any

from django.conf import settings
from django.core.management.base import CommandError

from askapp.importers import (
    CompanyFactsOptions,
    ConceptMap,
    ImportFailure,
    ImportReport,
    import_companyfacts,
)
from askapp.importers.edgar import EdgarClient, EdgarError
from askapp.importers.xbrl import parse_cik
from askapp.management.importing import ImportCommand


class Command(ImportCommand):
    help = (
        "Import a company's annual reported figures from SEC XBRL companyfacts JSON: files, "
        "or --cik to fetch them from EDGAR (needs ASKAPP_SEC_USER_AGENT). Concepts become "
        "metrics through the shipped concept map and any --map files."
    )
    file_help = "companyfacts JSON files; each is imported whole or not at all"
    files_nargs = "*"

    def add_arguments(self, parser: ArgumentParser) -> None:
        super().add_arguments(parser)
        parser.add_argument(
            "--cik",
            nargs="+",
            action="extend",
            default=[],
            metavar="CIK",
            help="fetch these companies' companyfacts from EDGAR (320193 or CIK0000320193)",
        )
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
        ciks = [self._cik(text) for text in options["cik"]]
        sources = len(options["paths"]) + len(ciks)
        if not sources:
            raise CommandError("name a companyfacts FILE or give --cik CIK")
        if sources > 1 and (options["entity"] or options["alias"]):
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
        client = self._client() if ciks else None  # refuse before importing anything
        super().handle(*args, **options)
        if client is not None:
            with client:
                for cik in ciks:
                    self._fetch_and_import(client, cik, options)

    def import_file(self, path: str, options: dict[str, Any]) -> ImportReport:
        return import_companyfacts(
            path,
            options=self.import_options,
            dry_run=options["dry_run"],
            progress_every=options["progress_every"],
            write_progress=self.write_progress,
        )

    def _fetch_and_import(self, client: EdgarClient, cik: int, options: dict[str, Any]) -> None:
        url = client.companyfacts_url(cik)
        self.write_progress(f"fetching {url}")
        try:
            text = client.companyfacts(cik)
            tickers = client.tickers(cik)
        except EdgarError as exc:
            raise CommandError(str(exc)) from None
        fetched = replace(self.import_options, aliases=(*tickers, *self.import_options.aliases))
        try:
            report = import_companyfacts(
                url,
                options=fetched,
                text=text,
                dry_run=options["dry_run"],
                progress_every=options["progress_every"],
                write_progress=self.write_progress,
            )
        except ImportFailure as exc:
            raise CommandError(str(exc)) from None
        self.stdout.write(report.summary())

    @staticmethod
    def _cik(text: str) -> int:
        cik = parse_cik(text)
        if cik is None:
            raise CommandError(f"--cik {text}: not a CIK (expected e.g. 320193 or CIK0000320193)")
        return cik

    @staticmethod
    def _client() -> EdgarClient:
        if not settings.ASKAPP_SEC_USER_AGENT:
            raise CommandError(
                "ASKAPP_SEC_USER_AGENT is not set: the SEC requires every request to name who "
                "is asking and a contact e-mail address. Set it, e.g. "
                "ASKAPP_SEC_USER_AGENT='Example Corp analyst@example.com', and run again"
            )
        try:
            return EdgarClient(
                user_agent=settings.ASKAPP_SEC_USER_AGENT, base_url=settings.ASKAPP_SEC_BASE_URL
            )
        except EdgarError as exc:
            raise CommandError(str(exc)) from None
