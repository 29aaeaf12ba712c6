"""Choosing, from every row of a companyfacts document, the one figure per metric and period.

- **Annual figures**: rows of annual reports (10-K, 20-F, 40-F and their amendments) whose
  duration is a fiscal year, or instants (balances) at a fiscal year end. Named `FY2024` by the
  company's fiscal calendar (askapp/importers/fiscal.py), from the row's own dates.
- **Quarters** (`quarters=True`): also three-month rows of 10-Q reports, named `FY2024 Q3`.
- **The latest filing wins**: a period reported by several filings (each 10-K restates earlier
  years) takes the value of the one filed last, so restatements and stock splits show. When
  one filing reports a period under two alternatives of a metric, the preferred one wins.
- Concepts the map does not cover, units it does not expect and rows that are no fiscal year
  (or quarter) are skipped and counted; `all_concepts=True` imports unmapped concepts too,
  each as a metric named by its XBRL label.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from askapp.importers.base import Invalid, parse_period
from askapp.importers.concept_map import ConceptMap, Target
from askapp.importers.fiscal import AnnualEnd, FiscalCalendar, is_fiscal_year, is_quarter
from askapp.importers.xbrl import CompanyFacts, Concept, Row

ANNUAL_FORMS = frozenset({"10-K", "10-K/A", "10-KT", "10-KT/A", "20-F", "20-F/A", "40-F", "40-F/A"})
QUARTERLY_FORMS = frozenset({"10-Q", "10-Q/A"})
UNMAPPED_RANK = 1_000_000  # an unmapped concept never outranks a mapped alternative
_WORD_START = re.compile(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])")
LISTED = 3  # names listed in a note before "and N more"


@dataclass(frozen=True, slots=True)
class Chosen:
    metric: str
    period: str
    unit: str  # as askapp writes it: USD, USD/share, shares
    row: Row


@dataclass
class Selection:
    calendar: FiscalCalendar
    facts: list[Chosen] = field(default_factory=list)
    unmapped: dict[str, int] = field(default_factory=dict)  # concept -> rows
    unexpected_units: Counter[str] = field(default_factory=Counter)  # "concept in UNIT"
    not_periods: int = 0
    set_aside: int = 0

    def notes(self, *, quarters: bool) -> list[str]:
        notes = [self.calendar.describe()]
        if self.unmapped:
            rows = sum(self.unmapped.values())
            notes.append(
                f"skipped {_count(len(self.unmapped), 'concept')} the concept map does not "
                f"cover ({_count(rows, 'row')}: {_listed(self.unmapped)}); --all-concepts "
                "imports them under their XBRL labels"
            )
        if self.unexpected_units:
            listed = {f"{name} ({count:,})": count for name, count in self.unexpected_units.items()}
            notes.append(
                f"skipped {_count(self.unexpected_units.total(), 'row')} in units the concept "
                f"map does not expect: {_listed(listed)}"
            )
        if self.not_periods:
            what = "fiscal years or 10-Q quarters" if quarters else "fiscal years"
            hint = "" if quarters else " (--quarters adds 10-Q quarters)"
            notes.append(
                f"skipped {_count(self.not_periods, 'row')} of periods other than {what}{hint}"
            )
        if self.set_aside:
            notes.append(
                f"set aside {_count(self.set_aside, 'row')} for periods that a later filing "
                "(or a preferred concept) also reports"
            )
        return notes


def select_facts(
    company: CompanyFacts,
    concept_map: ConceptMap,
    *,
    same_metric: Callable[[str], str],
    all_concepts: bool = False,
    quarters: bool = False,
) -> Selection:
    """One row per (metric, period): the latest filing's, the preferred concept's on a tie.

    `same_metric(name)` says which names are one metric (a name and its alias): the key two
    alternatives must share to compete for one period.
    """
    calendar = FiscalCalendar.learn(_annual_ends(company.concepts))
    if calendar is None:
        raise Invalid(
            "holds no annual report (10-K, 20-F or 40-F) covering a fiscal year, so its "
            "fiscal calendar cannot be told"
        )
    selection = Selection(calendar=calendar)
    labels = _LabelTargets(concept_map, same_metric) if all_concepts else None
    best: dict[tuple[str, str], tuple[tuple[object, ...], Chosen]] = {}
    for concept in company.concepts:
        targets = concept_map.targets(concept.taxonomy, concept.name)
        if targets is None and labels is not None:
            targets = labels.targets(concept)
        if targets is None:
            selection.unmapped[concept.qualified] = len(concept.rows)
            continue
        for row in concept.rows:
            chosen, rank = _candidate(row, concept, targets, selection, quarters=quarters)
            if chosen is None:
                continue
            key = (same_metric(chosen.metric), chosen.period)
            if key in best:
                selection.set_aside += 1
                if rank <= best[key][0]:
                    continue
            best[key] = (rank, chosen)
    selection.facts = [chosen for _, chosen in best.values()]
    return selection


def _candidate(
    row: Row,
    concept: Concept,
    targets: dict[str, Target],
    selection: Selection,
    *,
    quarters: bool,
) -> tuple[Chosen | None, tuple[object, ...]]:
    target = targets.get(row.unit)
    if target is None:
        selection.unexpected_units[f"{concept.qualified} in {row.unit}"] += 1
        return None, ()
    period = _period(row, selection.calendar, quarters=quarters)
    if period is None:
        selection.not_periods += 1
        return None, ()
    chosen = Chosen(metric=target.metric, period=period, unit=stored_unit(row.unit), row=row)
    return chosen, (row.filed, row.accession, -target.rank)


def _period(row: Row, calendar: FiscalCalendar, *, quarters: bool) -> str | None:
    if row.form in ANNUAL_FORMS and (row.start is None or is_fiscal_year(row.start, row.end)):
        year = calendar.year_ending(row.end)
        return _named(row, f"FY{year}") if year is not None else None
    if quarters and row.form in QUARTERLY_FORMS and row.start and is_quarter(row.start, row.end):
        quarter = calendar.quarter_ending(row.end)
        return _named(row, f"FY{quarter[0]} Q{quarter[1]}") if quarter else None
    return None


def _named(row: Row, text: str) -> str:
    """The period through the one normaliser every import uses (it also bounds the year)."""
    try:
        return parse_period(text)
    except Invalid as exc:
        raise Invalid(f"{row.where}: end {row.end} gives {exc}") from None


def _annual_ends(concepts: Iterable[Concept]) -> list[AnnualEnd]:
    """The end of each annual report's own latest fiscal year, with the report's `fy`."""
    latest: dict[str, Row] = {}
    for concept in concepts:
        for row in concept.rows:
            if row.form not in ANNUAL_FORMS or row.start is None:
                continue
            if not is_fiscal_year(row.start, row.end):
                continue
            known = latest.get(row.accession)
            if known is None or row.end > known.end:
                latest[row.accession] = row
    return [AnnualEnd(end=row.end, fy=row.fy) for row in latest.values()]


def stored_unit(unit: str) -> str:
    """The SEC's `USD/shares` is askapp's `USD/share`; other units are kept as written."""
    return unit[: -len("s")] if unit.endswith("/shares") else unit


class _LabelTargets:
    """Metrics for concepts the map does not cover, named by their XBRL label (or their
    concept name spelt out), never merging into a mapped metric or into each other."""

    def __init__(self, concept_map: ConceptMap, same_metric: Callable[[str], str]) -> None:
        self.same_metric = same_metric
        self.taken = {same_metric(metric) for metric in concept_map.metrics}

    def targets(self, concept: Concept) -> dict[str, Target]:
        name = concept.label or _WORD_START.sub(" ", concept.name)
        if self.same_metric(name) in self.taken:
            name = f"{name} ({concept.qualified})"
        units = sorted({row.unit for row in concept.rows})
        targets = {}
        for unit in units:
            metric = f"{name} ({unit})" if len(units) > 1 else name
            self.taken.add(self.same_metric(metric))
            targets[unit] = Target(metric=metric, rank=UNMAPPED_RANK)
        return targets


def _count(number: int, noun: str) -> str:
    return f"{number:,} {noun}{'' if number == 1 else 's'}"


def _listed(counts: dict[str, int]) -> str:
    names = sorted(counts, key=lambda name: (-counts[name], name))
    shown = ", ".join(names[:LISTED])
    return shown if len(names) <= LISTED else f"{shown} and {len(names) - LISTED:,} more"
