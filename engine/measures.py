"""Measures an analyst asks for by name that a knowledge base holds as two figures.

A margin is a profit over revenue; free cash flow is operating cash flow less capital
expenditure; a return is net income over what earned it. When the asker may see both figures
and the knowledge base holds no line item of that name itself, the parser may link the name
(`with_measures`), and the answer computes it from the two facts (`expand`): each figure
cited, the computed one with its formula, and a note saying what the measure is. Nothing
here is a held figure, so nothing here is ever offered as one.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass, replace

from engine.intent import Intent, Operation
from engine.text import normalise_word, words
from engine.timeframe import expand_range, period_sort_key
from engine.types import Term, Vocabulary


@dataclass(frozen=True, slots=True)
class Measure:
    name: str
    aliases: tuple[str, ...]
    operation: Operation  # "percent_of": part over whole; "difference": first less second
    operands: tuple[str, str]  # the metrics it is computed from, as the vocabulary names them
    says: str  # what it is, in the answer's note

    @property
    def names(self) -> tuple[str, ...]:
        return (self.name, *self.aliases)


MEASURES = (
    Measure("Gross margin", ("gross profit margin",), "percent_of", ("Gross profit", "Revenue"),
            "gross margin is gross profit as a percentage of revenue"),
    Measure("Operating margin", ("operating profit margin", "operating income margin"),
            "percent_of", ("Operating income", "Revenue"),
            "operating margin is operating income as a percentage of revenue"),
    Measure("Net margin", ("net profit margin", "profit margin", "net income margin"),
            "percent_of", ("Net income", "Revenue"),
            "net margin is net income as a percentage of revenue"),
    Measure("Free cash flow", ("FCF",), "difference",
            ("Operating cash flow", "Capital expenditure"),
            "free cash flow is operating cash flow less capital expenditure"),
    Measure("Return on assets", ("ROA",), "percent_of", ("Net income", "Total assets"),
            "return on assets is net income as a percentage of total assets at the year end"),
    Measure("Return on equity", ("ROE",), "percent_of", ("Net income", "Stockholders' equity"),
            "return on equity is net income as a percentage of stockholders' equity at the "
            "year end"),
)  # fmt: skip


def measures_in(vocabulary: Vocabulary) -> tuple[Measure, ...]:
    """The measures whose two figures the vocabulary holds, each with its operands as the
    vocabulary names them (a report's "Net revenues" is the revenue of a margin), and that no
    line item of its own is called (a report's "Gross margin" row is that row, not our
    formula)."""
    metrics = [t.name for t in vocabulary.metrics]
    taken = {name.casefold() for t in vocabulary.metrics for name in (t.name, *t.aliases)}
    found = []
    for measure in MEASURES:
        if any(n.casefold() in taken for n in measure.names):
            continue
        held = tuple(_held_as(operand, metrics) for operand in measure.operands)
        if any(held) and not all(held):
            # One figure is a line of its own ("Operating income"): the other may be the
            # table's total ("Total revenue"), the whole that figure is of.
            held = tuple(
                h or _held_as(o, metrics, leads=_TOTAL)
                for h, o in zip(held, measure.operands, strict=True)
            )
        if all(held):
            found.append(replace(measure, operands=held))  # type: ignore[arg-type]
    return tuple(found)


# What a report may also call an operand: revenue is often "sales".
_ALSO_SAID = {"revenue": ("sales",)}
# "Net revenues" is the revenue. A "Total revenue" line is taken only beside a line of its own
# for the other figure: a table that totals both holds parts of each (segments, regions), and a
# margin asked in a conversation about one part is that part's, which the measure would not
# compute.
_LEADS = ("net",)
_TOTAL = ("net", "total")


def _held_as(operand: str, metrics: list[str], leads: tuple[str, ...] = _LEADS) -> str | None:
    """The one metric that is the operand: named so exactly, else the one whose words are the
    operand's, in the singular, perhaps after "net" ("Net revenues", "Net sales" for revenue).
    An operand that itself starts so ("Net income") is matched only in its own words. None
    when no metric, or more than one, is it."""
    if operand in metrics:
        return operand
    said = _singular(operand)
    forms = {said, *(_singular(w) for w in _ALSO_SAID.get(" ".join(said), ()))}
    loose = said[0] not in _LEADS
    matches = []
    for metric in metrics:
        own = _singular(metric)
        while loose and len(own) > 1 and own[0] in leads:
            own = own[1:]
        if own in forms:
            matches.append(metric)
    return matches[0] if len(matches) == 1 else None


def _singular(name: str) -> tuple[str, ...]:
    return tuple(words(name))  # lower case, plurals folded: "Net revenues" as "net revenue"


@dataclass(frozen=True, slots=True)
class Linkable:
    """The vocabulary the parser links against (the asker's, with the measures it allows),
    and the names of those measures."""

    vocabulary: Vocabulary
    measures: frozenset[str]
    found: tuple[Measure, ...] = ()  # those measures, their operands as the vocabulary names them


_CACHE: OrderedDict[str, Linkable] = OrderedDict()
_LOCK = threading.Lock()


def with_measures(vocabulary: Vocabulary) -> Linkable:
    """The asker's vocabulary with the measures it allows, worked out once per version."""
    if vocabulary.version:
        with _LOCK:
            if vocabulary.version in _CACHE:
                return _CACHE[vocabulary.version]
    found = measures_in(vocabulary)
    linkable = Linkable(vocabulary, frozenset())
    if found:
        terms = tuple(Term(m.name, m.aliases) for m in found)
        version = f"{vocabulary.version}+measures" if vocabulary.version else ""
        extended = replace(vocabulary, metrics=(*vocabulary.metrics, *terms), version=version)
        linkable = Linkable(extended, frozenset(m.name for m in found), found)
    if vocabulary.version:
        with _LOCK:
            _CACHE[vocabulary.version] = linkable
            while len(_CACHE) > 64:
                _CACHE.popitem(last=False)
    return linkable


def held_with(held: frozenset[str], found: tuple[Measure, ...]) -> frozenset[str]:
    """A company's held metrics, with the allowed measures both of whose figures it holds."""
    return held | {m.name for m in found if set(m.operands) <= held}


def not_offered(intent: Intent, allowed: frozenset[str]) -> Intent:
    """A question back offers held figures only: a measure whose name merely shares a word
    ("income" in "net income margin") is no choice."""
    if not allowed or not intent.ambiguous:
        return intent
    kept = []
    for ambiguity in intent.ambiguous:
        choices = tuple(c for c in ambiguity.choices if c not in allowed)
        if choices:
            kept.append(replace(ambiguity, choices=choices))
    return intent.with_(ambiguous=tuple(kept))


def of_the_line(word: str, line: str, found: tuple[Measure, ...]) -> str | None:
    """ "And its margin?" right after operating income: the one allowed measure a word of
    whose names is this word and whose part is the line the conversation is on (net income
    is the part of a margin and of two returns: "its return" names none of them)."""
    said = normalise_word(word)
    named = [
        m.name
        for m in found
        if m.operands[0] == line and any(said in words(name) for name in m.names)
    ]
    return named[0] if len(named) == 1 else None


def worked_out(intent: Intent, word: str, found: tuple[Measure, ...]) -> str | None:
    """ "How has that margin changed since 2020?" right after a margin: the allowed measure
    the last answer worked out (its two figures, its operation), when this word is of its
    names."""
    said = normalise_word(word)
    named = [
        m.name
        for m in found
        if m.operands == intent.metrics
        and m.operation == intent.operation
        and any(said in words(name) for name in m.names)
    ]
    return named[0] if len(named) == 1 else None


def measure_of(intent: Intent, found: tuple[Measure, ...]) -> Measure | None:
    """The measure a question asks for, among those its vocabulary allows."""
    by_name = {m.name: m for m in found}
    return next((by_name[m] for m in intent.metrics if m in by_name), None)


def expand(intent: Intent, measure: Measure | None) -> Intent | None:
    """A question for a measure as the computation of its two figures: in each period asked
    (every year of a range). None when it asks more of the measure than its value (a change
    in a margin, a margin beside another figure): the engine says so instead of guessing."""
    if measure is None or not intent.structured:
        return intent  # "what explains the gross margin": a question for the documents
    if len(intent.metrics) != 1 or intent.operation not in (None, "trend"):
        return None
    periods = intent.periods
    if intent.period_range and len(periods) >= 2:
        periods = expand_range(periods[0], periods[-1])
    return intent.with_(
        metrics=measure.operands, operation=measure.operation, kind="comparison", periods=periods
    )


# Changes of a measure the engine works out in two steps: the measure in each period, then
# the change between the two results.
CHANGES = ("difference", "percent_change")


def expand_change(intent: Intent, measure: Measure | None) -> Intent | None:
    """A change in a measure between two periods ("how did operating margin change from 2022
    to 2023?", "gross margin in 2023 vs 2022") as its first step: the measure in each of the
    two periods. None for any other question, or any other number of periods."""
    if measure is None or not intent.structured:
        return None
    if len(intent.metrics) != 1:
        return None
    periods = tuple(sorted(set(intent.periods), key=period_sort_key))
    if intent.operation not in CHANGES or len(periods) != 2:
        return None
    return intent.with_(
        metrics=measure.operands, operation=measure.operation, kind="comparison", periods=periods
    )


def cannot_expand(measure: Measure) -> str:
    first, second = measure.operands
    return (
        f"{measure.name} is not held as a figure: {measure.says}. I can give it for each "
        f"period you name, or the change in {first} or {second}."
    )
