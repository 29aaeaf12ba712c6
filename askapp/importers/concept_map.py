"""Which XBRL concepts become which metrics: a table, not code.

`concept_map.csv` beside this module is the shipped map; `--map FILE` adds a user's own, in the
same columns:

    metric,taxonomy,concept,unit
    Revenue,us-gaap,Revenues,USD
    Revenue,us-gaap,RevenueFromContractWithCustomerExcludingAssessedTax,USD

A row maps one concept, in one unit as the SEC writes it (`USD`, `USD/shares`, `shares`), to a
metric. A metric may have several rows, its alternatives, in order of preference: when one
filing reports a period under two of them, the first row wins. A user's rows come before the
shipped ones (so they are preferred), and a concept a user's file maps is no longer mapped by
the shipped file, so a user can send it to another metric.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from askapp.importers.base import (
    ImportFailure,
    Invalid,
    csv_records,
    known_fields,
    open_text,
)

SHIPPED = Path(__file__).with_name("concept_map.csv")
COLUMNS = ("metric", "taxonomy", "concept", "unit")


@dataclass(frozen=True, slots=True)
class Target:
    """Where a concept in one unit goes: its metric, and its rank among that metric's
    alternatives (lower is preferred)."""

    metric: str
    rank: int


@dataclass(frozen=True, slots=True)
class _Entry:
    metric: str
    taxonomy: str
    concept: str
    unit: str


class ConceptMap:
    def __init__(self, entries: Sequence[_Entry]) -> None:
        self._targets: dict[tuple[str, str], dict[str, Target]] = {}
        for rank, entry in enumerate(entries):
            units = self._targets.setdefault((entry.taxonomy, entry.concept), {})
            units.setdefault(entry.unit, Target(metric=entry.metric, rank=rank))
        self.metrics = tuple(dict.fromkeys(entry.metric for entry in entries))

    @classmethod
    def load(cls, extra: Sequence[str] = ()) -> ConceptMap:
        """The shipped map under the users' files (named first, preferred first)."""
        user = [entry for path in extra for entry in _read(path)]
        remapped = {(entry.taxonomy, entry.concept) for entry in user}
        shipped = [e for e in _read(str(SHIPPED)) if (e.taxonomy, e.concept) not in remapped]
        return cls([*user, *shipped])

    def targets(self, taxonomy: str, concept: str) -> dict[str, Target] | None:
        """The units this concept is mapped in, each with its target; None when unmapped."""
        return self._targets.get((taxonomy, concept))


def _read(path: str) -> list[_Entry]:
    entries: list[_Entry] = []
    first_line: dict[tuple[str, str, str], int] = {}
    line = 1
    with open_text(path) as handle:
        try:
            records = csv_records(handle)
            line, header = next(records, (1, []))
            names = [cell.strip().lower() for cell in header]
            known_fields(names, required=COLUMNS, optional=(), noun="column")
            for line, cells in records:
                entry = _entry(dict(zip(names, cells, strict=False)), len(cells), len(names))
                key = (entry.taxonomy, entry.concept, entry.unit)
                if key in first_line:
                    raise Invalid(
                        f"{entry.taxonomy}:{entry.concept} in {entry.unit} is mapped twice "
                        f"(first on line {first_line[key]})"
                    )
                first_line[key] = line
                entries.append(entry)
        except Invalid as exc:
            raise ImportFailure(path, exc.line or line, str(exc)) from None
    return entries


def _entry(row: dict[str, str], cells: int, columns: int) -> _Entry:
    if cells != columns:
        raise Invalid(f"has {cells} cells but the header has {columns}")
    values = {column: " ".join(row[column].split()) for column in COLUMNS}
    empty = [column for column in COLUMNS if not values[column]]
    if empty:
        raise Invalid(f"{empty[0]} is empty")
    return _Entry(**values)
