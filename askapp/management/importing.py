"""What the import commands share: file arguments, --dry-run, progress on stderr, and turning
an import failure into a CommandError that reads `file:line: what is wrong`."""

from __future__ import annotations

from argparse import ArgumentParser
from collections.abc import Iterable
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from askapp.importers import ImportFailure, ImportReport


class ImportCommand(BaseCommand):
    file_help = "files to import; each is imported whole or not at all"
    files_nargs = "+"  # "*" for a command that can import from elsewhere than files

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument("paths", nargs=self.files_nargs, metavar="FILE", help=self.file_help)
        parser.add_argument(
            "--dry-run", action="store_true", help="check the files completely, change nothing"
        )
        parser.add_argument(
            "--progress-every",
            type=int,
            default=10_000,
            metavar="ROWS",
            help="print a progress line on stderr every ROWS rows (default 10000; 0 for none)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        for path in self.files(options["paths"]):
            try:
                report = self.import_file(path, options)
            except ImportFailure as exc:
                raise CommandError(str(exc)) from None
            self.stdout.write(report.summary())

    def files(self, paths: list[str]) -> Iterable[str]:
        return paths

    def import_file(self, path: str, options: dict[str, Any]) -> ImportReport:
        raise NotImplementedError

    def write_progress(self, text: str) -> None:
        self.stderr.write(text)


def classification_argument(parser: ArgumentParser, *, what: str) -> None:
    parser.add_argument(
        "--classification",
        type=str.upper,
        choices=("PUBLIC", "INTERNAL", "RESTRICTED"),
        default="PUBLIC",
        help=f"classification of {what} that name none (default PUBLIC)",
    )
