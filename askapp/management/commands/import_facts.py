"""manage.py import_facts FILE...: facts from a long CSV or a wide table."""

from __future__ import annotations

from argparse import ArgumentParser
from typing import Any

from askapp.importers import FactOptions, ImportReport, import_facts
from askapp.importers.values import SCALES
from askapp.management.importing import ImportCommand, classification_argument


class Command(ImportCommand):
    help = (
        "Import facts. A long CSV has the columns entity,metric,period,value,unit,source and "
        "optionally classification. A wide table has metric labels down the first column and "
        "periods across the header; --entity, --unit and --source say what its cells cannot."
    )

    def add_arguments(self, parser: ArgumentParser) -> None:
        super().add_arguments(parser)
        classification_argument(parser, what="facts")
        wide = parser.add_argument_group("wide tables")
        wide.add_argument("--entity", help="the entity every figure belongs to")
        wide.add_argument("--unit", help="the unit of the figures, e.g. USD (percent cells: %%)")
        wide.add_argument("--source", help="the filing or table the figures come from")
        wide.add_argument(
            "--scale",
            choices=tuple(SCALES),
            help="multiply every figure but percents by this (or say '(in millions)' in the "
            "table's first cell)",
        )

    def import_file(self, path: str, options: dict[str, Any]) -> ImportReport:
        return import_facts(
            path,
            options=FactOptions(
                classification=options["classification"],
                entity=options["entity"],
                unit=options["unit"],
                scale=options["scale"],
                source=options["source"],
            ),
            dry_run=options["dry_run"],
            progress_every=options["progress_every"],
            write_progress=self.write_progress,
        )
