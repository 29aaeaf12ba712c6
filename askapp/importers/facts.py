"""Importing facts from CSV: a long table (one fact a row) or a wide one (periods across).

The header decides: when every column after the first reads as a period, the table is wide
(metric labels down the first column, one fact per filled cell); otherwise it is long, with
the columns `entity, metric, period, value, unit, source` and optionally `classification`.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Protocol

from askapp.importers.base import (
    ImportFailure,
    ImportReport,
    Invalid,
    Progress,
    Write,
    check_fields,
    csv_records,
    import_transaction,
    known_fields,
    open_text,
    parse_classification,
    parse_period,
)
from askapp.importers.names import entity_names, metric_names
from askapp.importers.values import (
    PERCENT_UNIT,
    SCALES,
    parse_amount,
    scale_in_header,
    unit_for,
)
from askapp.models import Classification, Fact
from askapp.services.knowledge import facts_upsert
from engine import normalise_period

LONG_REQUIRED = ("entity", "metric", "period", "value", "unit", "source")
LONG_OPTIONAL = ("classification",)
BATCH_SIZE = 500


@dataclass(frozen=True, slots=True)
class FactOptions:
    """Command-line choices. `classification` is the default for rows that name none; the
    others describe a wide table, whose cells cannot say them."""

    classification: str = Classification.PUBLIC
    entity: str | None = None
    unit: str | None = None
    scale: str | None = None
    source: str | None = None


@dataclass(frozen=True, slots=True)
class FactInput:
    entity: str
    metric: str
    period: str
    value: Decimal
    unit: str
    classification: str
    source: str


class _Table(Protocol):
    def facts(self, cells: list[str]) -> Iterator[FactInput]: ...


def import_facts(
    path: str,
    *,
    options: FactOptions = FactOptions(),
    dry_run: bool = False,
    progress_every: int = 10_000,
    write_progress: Write | None = None,
) -> ImportReport:
    """Import one CSV file of facts: all of it, or (at the first bad row) none of it."""
    report = ImportReport(path=path, noun="facts", dry_run=dry_run)
    progress = Progress(path, every=progress_every, write=write_progress)
    line = 1
    with open_text(path) as handle, import_transaction(dry_run=dry_run):
        try:
            records = csv_records(handle)
            line, header = next(records, (1, []))
            table = _table(header, options, report)
            writer = FactWriter(report)
            for count, (line, cells) in enumerate(records, start=1):
                if len(cells) != len(header):
                    raise Invalid(f"has {len(cells)} cells but the header has {len(header)}")
                for fact in table.facts(cells):
                    writer.add(fact, where=f"line {line}")
                progress.tick(count)
            writer.finish()
        except Invalid as exc:
            raise ImportFailure(path, exc.line or line, str(exc)) from None
    return report


def _table(header: list[str], options: FactOptions, report: ImportReport) -> _Table:
    if not header:
        raise Invalid("the file is empty")
    if len(header) > 1 and all(normalise_period(cell) for cell in header[1:]):
        return _WideTable(header, options)
    return _LongTable(header, options, report)


class _LongTable:
    """One fact a row, every field in its own column."""

    def __init__(self, header: list[str], options: FactOptions, report: ImportReport) -> None:
        for flag in ("entity", "unit", "scale", "source"):
            if getattr(options, flag):
                raise Invalid(f"--{flag} is for wide tables only; a long table says it in each row")
        names = [cell.strip().lower() for cell in header]
        ignored = known_fields(names, required=LONG_REQUIRED, optional=LONG_OPTIONAL, noun="column")
        if ignored:
            report.notes.append(f"ignored columns: {', '.join(ignored)}")
        self.columns = {name: index for index, name in enumerate(names)}
        self.default_classification = options.classification

    def facts(self, cells: list[str]) -> Iterator[FactInput]:
        row = {name: cells[index] for name, index in self.columns.items()}
        amount = parse_amount(row["value"])
        source = row["source"].strip()
        if not source:
            raise Invalid("source is empty (every fact must say where it comes from)")
        yield FactInput(
            entity=row["entity"],
            metric=row["metric"],
            period=parse_period(row["period"]),
            value=amount.value,
            unit=unit_for(amount, row["unit"], raw=row["value"]),
            classification=parse_classification(
                row.get("classification", ""), default=self.default_classification
            ),
            source=source,
        )


class _WideTable:
    """Metric labels down the first column, periods across; the options say the rest."""

    def __init__(self, header: list[str], options: FactOptions) -> None:
        if not (options.entity and options.unit and options.source):
            missing = [
                f"--{flag}" for flag in ("entity", "unit", "source") if not getattr(options, flag)
            ]
            raise Invalid(f"a wide table needs {', '.join(missing)} (its cells cannot say them)")
        self.entity, self.unit, self.source = options.entity, options.unit, options.source
        self.classification = options.classification
        self.columns = _period_columns(header[1:])
        scale = _scale(header[0], options.scale)
        self.multiplier = SCALES[scale] if scale else Decimal(1)

    def facts(self, cells: list[str]) -> Iterator[FactInput]:
        label = cells[0]
        for (column, period), raw in zip(self.columns, cells[1:], strict=True):
            if not raw.strip():
                continue  # an empty cell holds no fact
            try:
                yield self._fact(label, period, raw)
            except Invalid as exc:
                raise Invalid(f"column '{column}': {exc}") from None

    def _fact(self, label: str, period: str, raw: str) -> FactInput:
        amount = parse_amount(raw)
        return FactInput(
            entity=self.entity,
            metric=label,
            period=period,
            # A percent row (a margin, a growth rate) is a ratio, not an amount in the
            # table's unit and scale.
            value=amount.value if amount.percent else amount.value * self.multiplier,
            unit=PERCENT_UNIT if amount.percent else unit_for(amount, self.unit, raw=raw),
            classification=self.classification,
            source=self.source,
        )


def _period_columns(cells: Sequence[str]) -> list[tuple[str, str]]:
    """(column heading, period) for each period column; two columns may not name one period."""
    heading_of: dict[str, str] = {}
    for cell in cells:
        period = parse_period(cell)
        if period in heading_of:
            raise Invalid(f"columns '{heading_of[period]}' and '{cell.strip()}' are both {period}")
        heading_of[period] = cell.strip()
    return [(heading, period) for period, heading in heading_of.items()]


def _scale(corner: str, chosen: str | None) -> str | None:
    stated = scale_in_header(corner)
    if chosen and stated and chosen != stated:
        raise Invalid(f"--scale {chosen} contradicts the header '{corner.strip()}'")
    return chosen or stated


class FactWriter:
    """Resolves names, checks each fact against the model, refuses a repeated key, and writes
    in batches (one statement per batch, not one per row). Every fact importer writes
    through it; `where` names a fact's place in its file (`line 12`, a JSON path)."""

    def __init__(self, report: ImportReport) -> None:
        self.report = report
        self.entities = entity_names()
        self.metrics = metric_names()
        self.first_seen: dict[tuple[int, int, str], str] = {}
        self.batch: list[Fact] = []
        self.count_before = Fact.objects.count()

    def add(self, item: FactInput, *, where: str) -> None:
        fact = Fact(
            entity=self.entities.resolve(item.entity),
            metric=self.metrics.resolve(item.metric),
            period=item.period,
            value=item.value,
            unit=item.unit,
            classification=item.classification,
            source=item.source,
        )
        check_fields(fact, exclude=["entity", "metric", "source_document"])
        key = (fact.entity_id, fact.metric_id, fact.period)
        if key in self.first_seen:
            raise Invalid(
                f"duplicate fact {fact.entity} / {fact.metric} / {fact.period} "
                f"(first on {self.first_seen[key]})"
            )
        self.first_seen[key] = where
        self.batch.append(fact)
        if len(self.batch) >= BATCH_SIZE:
            self._flush()

    def finish(self) -> None:
        self._flush()
        created = Fact.objects.count() - self.count_before
        self.report.created, self.report.updated = created, len(self.first_seen) - created
        for names in (self.entities, self.metrics):
            if names.created:
                self.report.notes.append(f"new {names.noun_plural}: {', '.join(names.created)}")

    def _flush(self) -> None:
        if self.batch:
            facts_upsert(facts=self.batch)
            self.batch = []
