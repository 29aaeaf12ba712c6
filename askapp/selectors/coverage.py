"""What the knowledge base holds, as the viewer may see it: the coverage table and the landing
page's example questions.

Everything here counts only facts within the viewer's clearance (RESTRICTED never, INTERNAL
only with clearance): a company or metric the viewer may not see is neither shown nor counted.
The questions offered (a coverage cell's, an example's) are written by the engine and read
back by its parser before they are offered, as a not-found answer's choices are.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from django.db.models import Count

from askapp.engine_setup import the_engine
from askapp.models import Document, Fact
from engine import SHOWABLE, Intent, Vocabulary, lookup_intent, period_sort_key, question_for

LEVELS = 4  # shades of a held cell, beside the empty one


def allowed(clearance: frozenset[str]) -> list[str]:
    return sorted(clearance & SHOWABLE)


# --- the coverage table -------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Cell:
    period: str
    count: int  # how many of the row's figures are held in this period (0: none)
    level: int  # 0 (nothing held) to LEVELS (everything held)
    question: str = ""  # a company's table: the question asking for this figure


@dataclass(frozen=True, slots=True)
class Row:
    name: str  # the company (overview) or the metric (one company's table)
    cells: tuple[Cell, ...]
    held: int  # cells with anything held


@dataclass(frozen=True, slots=True)
class Coverage:
    """Companies by period (cells count the metrics held), or with `company`, that company's
    metrics by period (cells are held or not, each with the question that asks for it)."""

    periods: tuple[str, ...]
    rows: tuple[Row, ...]
    metrics: int  # metrics the viewer may see anywhere
    facts: int
    company: str = ""


def coverage(*, clearance: frozenset[str], company: str = "") -> Coverage | None:
    """The table for the viewer, or None when `company` names no company they may see."""
    facts = Fact.objects.filter(classification__in=allowed(clearance))
    metrics = facts.values("metric").distinct().count()
    if company:
        return _company(facts.filter(entity__name=company), company, metrics)
    counts = facts.values_list("entity__name", "period").annotate(n=Count("metric", distinct=True))
    by_entity: dict[str, dict[str, int]] = defaultdict(dict)
    total = 0
    for entity, period, count in counts.order_by():
        by_entity[entity][period] = count
        total += count
    periods = _periods(p for held in by_entity.values() for p in held)
    rows = tuple(_row(name, periods, by_entity[name], top=metrics) for name in sorted(by_entity))
    return Coverage(periods=periods, rows=rows, metrics=metrics, facts=total)


def _company(facts: object, company: str, metrics: int) -> Coverage | None:
    held: dict[str, set[str]] = defaultdict(set)
    for metric, period in facts.values_list("metric__name", "period").order_by():  # type: ignore[attr-defined]
        held[metric].add(period)
    if not held:
        return None
    periods = _periods(p for ps in held.values() for p in ps)
    vocabulary = the_engine().store.vocabulary()
    rows = []
    for metric in sorted(held):
        cells = tuple(
            Cell(
                period=period,
                count=int(period in held[metric]),
                level=LEVELS if period in held[metric] else 0,
                question=_ask(vocabulary, company, metric, period)
                if period in held[metric]
                else "",
            )
            for period in periods
        )
        rows.append(Row(name=metric, cells=cells, held=len(held[metric])))
    count = sum(len(ps) for ps in held.values())
    return Coverage(
        periods=periods, rows=tuple(rows), metrics=metrics, facts=count, company=company
    )


def _row(name: str, periods: Sequence[str], held: dict[str, int], *, top: int) -> Row:
    cells = tuple(
        Cell(period=p, count=held.get(p, 0), level=_level(held.get(p, 0), top)) for p in periods
    )
    return Row(name=name, cells=cells, held=sum(1 for c in cells if c.count))


def _level(count: int, top: int) -> int:
    if count <= 0 or top <= 0:
        return 0
    return max(1, min(LEVELS, -(-count * LEVELS // top)))


def _periods(periods: Iterable[str]) -> tuple[str, ...]:
    return tuple(sorted({p for p in periods if p}, key=period_sort_key))


def _ask(vocabulary: Vocabulary, entity: str, metric: str, period: str) -> str:
    return question_for(lookup_intent(entity, metric, period), vocabulary) or ""


# --- example questions --------------------------------------------------------------------------

EXAMPLES = 5


def examples(*, clearance: frozenset[str]) -> list[str]:
    """Questions the knowledge base answers for this viewer, chosen from what it holds: a
    figure, two companies compared, a trend, a change, and what a document says."""
    series = _series(clearance)
    vocabulary = the_engine().store.vocabulary()
    chosen: list[str] = []
    for intent in _structured_examples(series, vocabulary):
        question = question_for(intent, vocabulary)
        if question and question not in chosen:
            chosen.append(question)
    document = _document_example(clearance)
    if document:
        chosen.append(document)
    return chosen[:EXAMPLES]


Series = dict[tuple[str, str], list[str]]  # (entity, metric) -> fiscal years held, oldest first


def _series(clearance: frozenset[str]) -> Series:
    rows = Fact.objects.filter(classification__in=allowed(clearance)).values_list(
        "entity__name", "metric__name", "period"
    )
    series: Series = defaultdict(list)
    for entity, metric, period in rows.order_by():
        if period.startswith("FY") and " " not in period:
            series[(entity, metric)].append(period)
    for periods in series.values():
        periods.sort(key=period_sort_key)
    return series


def _structured_examples(series: Series, vocabulary: Vocabulary) -> list[Intent]:
    """A lookup of the most widely held metric, a comparison of two companies holding it in
    the same year, a three-year trend, and a change in the next most widely held metric, each
    about another company where the knowledge base allows."""
    if not series:
        return []
    ranked = _metrics_by_reach(series, vocabulary)
    first = ranked[0]
    holders = sorted(
        (entity for entity, metric in series if metric == first),
        key=lambda e: (-len(series[(e, first)]), e),
    )
    used: list[str] = []
    picks: list[Intent] = []
    lead = holders[0]
    picks.append(lookup_intent(lead, first, series[(lead, first)][-1]))
    used.append(lead)
    rival = _rival(series, first, lead, holders)
    if rival:
        common = sorted(
            set(series[(lead, first)]) & set(series[(rival, first)]), key=period_sort_key
        )
        picks.append(
            _intent(
                entities=(lead, rival), metrics=(first,), periods=(common[-1],), operation="higher"
            )
        )
        used.append(rival)
    trend = _unused(holders, used, lambda e: _run(series[(e, first)]) >= 3)
    if trend:
        years = series[(trend, first)][-3:]
        picks.append(
            _intent(
                entities=(trend,),
                metrics=(first,),
                periods=tuple(years),
                operation="trend",
                period_range=True,
            )
        )
        used.append(trend)
    if len(ranked) > 1:
        second = ranked[1]
        others = sorted(e for e, m in series if m == second)
        change = _unused(others, used, lambda e: _run(series[(e, second)]) >= 2)
        if change:
            pair = tuple(series[(change, second)][-2:])
            picks.append(
                _intent(
                    entities=(change,),
                    metrics=(second,),
                    periods=pair,
                    operation="difference",
                    period_range=True,
                )
            )
    return picks


def _metrics_by_reach(series: Series, vocabulary: Vocabulary) -> list[str]:
    """Metrics held by the most companies first; among equals, the one with the most names
    (the figure people ask about in the most ways), then by name."""
    reach: dict[str, int] = defaultdict(int)
    for _, metric in series:
        reach[metric] += 1
    names = {t.name: len(t.aliases) for t in vocabulary.metrics}
    return sorted(reach, key=lambda m: (-reach[m], -names.get(m, 0), m))


def _rival(series: Series, metric: str, lead: str, holders: Sequence[str]) -> str | None:
    best, overlap = None, 0
    for entity in holders:
        if entity == lead:
            continue
        shared = len(set(series[(lead, metric)]) & set(series[(entity, metric)]))
        if shared > overlap:
            best, overlap = entity, shared
    return best


def _unused(candidates: Sequence[str], used: Sequence[str], fits: object) -> str | None:
    ordered = [c for c in candidates if c not in used] + [c for c in candidates if c in used]
    return next((c for c in ordered if fits(c)), None)  # type: ignore[operator]


def _run(periods: Sequence[str]) -> int:
    """How many years end the series without a gap."""
    years = [period_sort_key(p)[0] for p in periods]
    run = 1 if years else 0
    for before, after in zip(reversed(years[:-1]), reversed(years[1:]), strict=True):
        if after - before != 1:
            break
        run += 1
    return run


def _intent(**slots: object) -> Intent:
    kind = "comparison" if slots.get("operation") else "lookup"
    return Intent(question="", kind=kind, **slots)  # type: ignore[arg-type]


def _document_example(clearance: frozenset[str]) -> str:
    """What a document says, asked in the words of its title (the newest document the viewer
    may read that names its company and no figure in its title)."""
    documents = (
        Document.objects.filter(classification__in=allowed(clearance), entity__isnull=False)
        .select_related("entity")
        .order_by("-pk")
        .only("title", "entity__name")
    )
    for document in documents[:50]:
        name = document.entity.name  # type: ignore[union-attr]
        title = document.title
        if name not in title or any(c.isdigit() for c in title):
            continue
        topic = title.replace(f"{name}'s", "").replace(name, "").strip(" :–-")
        if len(topic.split()) >= 2:
            return f"What did {name} say about {topic[0].lower()}{topic[1:]}?"
    return ""
