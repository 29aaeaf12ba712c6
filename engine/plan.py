"""From an understood question to the facts its answer needs, or to a question asked back.

A plan names every (entity, metric, period) the answer rests on. When a slot is missing and
nothing can fill it, or the question could mean two things, the plan is a reply instead:
`clarify` asking for exactly what is missing, or `not_found` when the knowledge base cannot
hold the answer. A wrong figure is worse than a question back.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from engine.intent import Intent, Operation
from engine.store import KnowledgeStore
from engine.timeframe import expand_range, period_sort_key
from engine.types import Vocabulary, showable

MAX_CHOICES = 8
PERIOD_CHOICES = 6


@dataclass(frozen=True, slots=True)
class Slot:
    entity: str
    metric: str
    period: str


@dataclass(frozen=True, slots=True)
class Plan:
    intent: Intent
    operation: Operation | None
    slots: tuple[Slot, ...]
    note: str = ""  # how a period was chosen, said in the answer ("all 3 periods held")


@dataclass(frozen=True, slots=True)
class Reply:
    status: Literal["clarify", "not_found"]
    text: str
    choices: tuple[str, ...] = ()
    slot: str = ""


def make_plan(
    intent: Intent, store: KnowledgeStore, vocabulary: Vocabulary, clearance: frozenset[str]
) -> Plan | Reply:
    early = _unclear(intent, vocabulary)
    if early is not None:
        return early
    entities = intent.entities or (vocabulary.entities[0].name,)
    held = {(e, m): _held_periods(store, e, m, clearance) for e in entities for m in intent.metrics}
    return _with_periods(intent.with_(entities=entities), held)


def _unclear(intent: Intent, vocabulary: Vocabulary) -> Reply | None:
    if intent.ambiguous:
        choices = intent.ambiguous[0].choices
        return Reply("clarify", f"Which figure do you mean: {_or(choices)}?", choices, "metric")
    if not intent.entities and len(vocabulary.entities) != 1:
        names = tuple(t.name for t in vocabulary.entities)
        choices = names if len(names) <= MAX_CHOICES else ()
        return Reply("clarify", "Which company do you mean?", choices, "entity")
    if not intent.metrics:
        names = tuple(t.name for t in vocabulary.metrics)
        choices = names if len(names) <= MAX_CHOICES else ()
        return Reply("clarify", "Which figure do you mean?", choices, "metric")
    if intent.qualifiers:
        metric = intent.metrics[0]
        words = " ".join(intent.qualifiers)
        return Reply(
            "clarify",
            f"The knowledge base holds {metric} as a whole, not a separate figure for "
            f"“{words}”. Do you mean {metric}?",
            (metric,),
            "metric",
        )
    return None


def _held_periods(
    store: KnowledgeStore, entity: str, metric: str, clearance: frozenset[str]
) -> list[str]:
    facts = store.find_facts(entity=entity, metric=metric)
    periods = {f.period for f in facts if showable(f.classification, clearance)}
    return sorted(periods, key=period_sort_key)


def _with_periods(intent: Intent, held: dict[tuple[str, str], list[str]]) -> Plan | Reply:
    intent = _read_range(intent)
    operation = intent.operation
    every = sorted({p for periods in held.values() for p in periods}, key=period_sort_key)
    if not every:
        return Reply("not_found", _none_held(intent))
    if intent.relative_last:
        periods = tuple(every[-intent.relative_last :])
        return _plan(intent, periods, f"the last {len(periods)} periods held")
    if operation in ("difference", "percent_change"):
        return _change_periods(intent, every)
    single = len(intent.entities) * len(intent.metrics) < 2 or not intent.periods
    if operation in ("sum", "average") and len(intent.periods) <= 1 and single:
        choices = tuple(reversed(every[-PERIOD_CHOICES:]))
        return Reply("clarify", f"Over which periods should I take the {operation}?", choices)
    if operation in ("sum", "average", "trend", "higher", "lower") and not intent.periods:
        if operation in ("higher", "lower") and len(intent.entities) > 1:
            return _ask_period(intent, every)
        return _plan(intent, tuple(every), f"all {len(every)} periods held")
    if not intent.periods:
        if every == [""]:  # figures that belong to no period (a table's "Total" column)
            return _plan(intent, ("",))
        return _ask_period(intent, every)
    return _plan(intent, intent.periods)


AGGREGATES = ("sum", "average", "trend", "higher", "lower")


def _read_range(intent: Intent) -> Intent:
    """ "From 2017 to 2019" means every year between for an aggregate, and on its own (one
    series, no operation named or carried) it asks for the trend."""
    if not intent.period_range or len(intent.periods) < 2:
        return intent
    first, last = sorted(intent.periods, key=period_sort_key)[:: len(intent.periods) - 1]
    one_series = len(intent.entities) * len(intent.metrics) == 1
    if intent.operation is None and one_series and "respectively" not in intent.question.lower():
        intent = intent.with_(kind="comparison", operation="trend")
    if intent.operation in AGGREGATES:
        intent = intent.with_(periods=expand_range(first, last))
    return intent


def _change_periods(intent: Intent, every: list[str]) -> Plan | Reply:
    periods = sorted(intent.periods, key=period_sort_key)
    cross = len(intent.entities) > 1 or len(intent.metrics) > 1
    if len(periods) >= 2:
        return _plan(intent, (periods[0], periods[-1]))
    if len(periods) == 1 and cross:
        return _plan(intent, tuple(periods))
    if len(periods) == 1:
        earlier = [p for p in every if period_sort_key(p) < period_sort_key(periods[0])]
        if not earlier:
            return Reply(
                "not_found",
                f"The knowledge base holds no period before {periods[0]} to compare with.",
            )
        return _plan(
            intent, (earlier[-1], periods[0]), f"{earlier[-1]} is the previous period held"
        )
    if cross:
        return _ask_period(intent, every)
    choices = tuple(reversed(every[-PERIOD_CHOICES:]))
    return Reply("clarify", "Which two periods should I compare?", choices, "period")


def _ask_period(intent: Intent, every: list[str]) -> Reply:
    choices = tuple(reversed([p for p in every if p][-PERIOD_CHOICES:]))
    return Reply("clarify", "Which period do you mean?", choices, "period")


def _plan(intent: Intent, periods: Sequence[str], note: str = "") -> Plan:
    if intent.operation in ("ratio", "percent_of"):
        intent = intent.with_(metrics=_denominator_last(intent.metrics))
    slots = tuple(
        Slot(entity, metric, period)
        for entity in intent.entities
        for metric in intent.metrics
        for period in periods
    )
    return Plan(intent=intent.with_(periods=tuple(periods)), operation=intent.operation,
                slots=slots, note=note)  # fmt: skip


def _denominator_last(metrics: tuple[str, ...]) -> tuple[str, ...]:
    """In a share of a whole, the total is the denominator whichever way the question ran."""
    totals = [m for m in metrics if "total" in m.lower().split()]
    if len(metrics) == 2 and len(totals) == 1:
        return (*(m for m in metrics if m not in totals), totals[0])
    return metrics


def _none_held(intent: Intent) -> str:
    what = " or ".join(intent.metrics)
    return f"The knowledge base holds no {what} for {_or(intent.entities)}."


def _or(names: Sequence[str]) -> str:
    names = list(names)
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " or " + names[-1]
