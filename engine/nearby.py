"""What the knowledge base holds near a question it cannot answer as asked, as next questions.

A not-found answer or a question asked back offers choices: the company's periods for the
asked metric (the nearest first), its metrics for the asked period, or the companies that
hold the metric. Each choice asks a whole question, written from the intent with one slot
changed (`phrase`), and is kept only when the parser reads it back as that very intent, so a
button never asks something the engine would understand differently. A choice that cannot be
written that way is either left out, or (for a question asked back) kept as the bare reply a
conversation's session completes, as it would complete the same words typed.

Only what the asker may see is offered: every holding passes the same clearance allow-list as
the facts an answer may cite, so a choice never points at a figure the asker could not get.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from engine.intent import LOOSE_WORDS_FOR_NARRATIVE, Intent
from engine.timeframe import expand_range, period_sort_key
from engine.types import Choice, Holding, Term, showable

MAX_CHOICES = 8
PERIOD_CHOICES = 6
PAIR_CHOICES = 4


@dataclass(frozen=True, slots=True)
class Asker:
    """Writes next questions and checks them: `parse` reads a question as the engine would,
    `normal` brings an intent to the form plans compare (a range read as a trend, say)."""

    parse: Callable[[str], Intent]
    normal: Callable[[Intent], Intent]
    metrics: Sequence[Term] = ()  # the vocabulary's metrics, for another way to name one

    def choice(self, target: Intent, label: str, *, bare: bool = False) -> Choice | None:
        """A choice asking `target` as a whole question; with `bare`, the label alone when no
        whole question reads back as meant (None otherwise)."""
        for question in self._questions(target):
            if self._reads_as(question, target):
                return Choice(label, question)
        return Choice(label, label) if bare else None

    def choices(
        self, targets: Iterable[tuple[Intent, str]], *, bare: bool = False, limit: int
    ) -> tuple[Choice, ...]:
        made = (self.choice(target, label, bare=bare) for target, label in targets)
        return tuple(c for c in made if c is not None)[:limit]

    def _questions(self, target: Intent) -> Iterable[str]:
        """The target phrased with each metric's name, then with its aliases in turn (a label
        such as "Net change in fair value" reads as the change of another line; an alias may
        not)."""
        seen: set[str] = set()
        for names in self._namings(target.metrics):
            question = phrase(target.with_(metrics=names))
            if question is not None and question not in seen:
                seen.add(question)
                yield question

    def _namings(self, metrics: tuple[str, ...]) -> Iterable[tuple[str, ...]]:
        yield metrics
        aliases = {t.name: t.aliases for t in self.metrics}
        for index, metric in enumerate(metrics):
            for alias in aliases.get(metric, ()):
                yield (*metrics[:index], alias, *metrics[index + 1 :])

    def _reads_as(self, question: str, target: Intent) -> bool:
        read = self.parse(question)
        if read.ambiguous or read.qualifiers or read.follow_up or read.relative_last:
            return False
        if not read.structured or len(read.loose) >= LOOSE_WORDS_FOR_NARRATIVE:
            return False
        return _slots(self.normal(read)) == _slots(self.normal(target))


def _slots(intent: Intent) -> tuple[object, ...]:
    ordered = intent.operation in ("ratio", "percent_of")  # numerator, then denominator
    metrics = intent.metrics if ordered else tuple(sorted(intent.metrics))
    periods = tuple(sorted(set(intent.periods), key=period_sort_key))
    return intent.operation, tuple(sorted(intent.entities)), metrics, periods


# --- writing a question from an intent ---------------------------------------------------------


def phrase(intent: Intent) -> str | None:
    """The intent as one plain question in the words the parser reads best, or None for a
    shape this does not write (the caller then checks what it wrote by parsing it back)."""
    if not intent.entities or not intent.metrics:
        return None
    subject = _subject(intent.entities, intent.metrics)
    periods = tuple(sorted(intent.periods, key=period_sort_key))
    operation = intent.operation
    if operation is None:
        verb = "were" if len(intent.entities) * len(intent.metrics) > 1 else "was"
        return f"What {verb} {subject}{_in(periods)}?"
    if operation in ("difference", "percent_change") and len(periods) == 2:
        what = "change" if operation == "difference" else "percent change"
        return f"What was the {what} in {subject} from {periods[0]} to {periods[1]}?"
    if operation in ("trend", "sum", "average") and _is_span(periods):
        span = f"from {periods[0]} to {periods[-1]}"
        if operation == "trend":
            return f"What was {subject} {span}?"
        return f"What was the {operation} of {subject} {span}?"
    if operation in ("higher", "lower") and len(intent.entities) > 1 and len(periods) == 1:
        owners = _or([f"{entity}'s" for entity in intent.entities])
        return f"Which was {operation} in {periods[0]}, {owners} {_and(intent.metrics)}?"
    if operation == "ratio" and len(intent.metrics) == 2 and len(intent.entities) == 1:
        (entity,) = intent.entities
        first, second = intent.metrics
        return f"What was the ratio of {entity}'s {first} to {entity}'s {second}{_in(periods)}?"
    return None


def _subject(entities: Sequence[str], metrics: Sequence[str]) -> str:
    owners = [f"{entity}'s" for entity in entities]
    return f"{_and(owners)} {_and(metrics)}"


def _in(periods: Sequence[str]) -> str:
    return f" in {_and(periods)}" if periods else ""


def _is_span(periods: Sequence[str]) -> bool:
    return len(periods) >= 2 and tuple(periods) == expand_range(periods[0], periods[-1])


def _and(names: Sequence[str]) -> str:
    return _joined(names, "and")


def _or(names: Sequence[str]) -> str:
    return _joined(names, "or")


def _joined(names: Sequence[str], word: str) -> str:
    names = list(names)
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + f" {word} " + names[-1]


# --- what is held near a slot ------------------------------------------------------------------


def visible(holdings: Iterable[Holding], clearance: frozenset[str]) -> list[Holding]:
    """The holdings the asker may be told about: the facts' own allow-list."""
    return [h for h in holdings if showable(h.classification, clearance)]


def nearest(periods: Iterable[str], period: str, count: int) -> list[str]:
    """Up to `count` of `periods` closest to `period` (the later first on a tie), newest first."""
    target = _position(period)
    ranked = sorted(
        {p for p in periods if p and p != period},
        key=lambda p: (abs(_position(p) - target), -_position(p)),
    )
    return sorted(ranked[:count], key=period_sort_key, reverse=True)


def _position(period: str) -> int:
    year, quarter = period_sort_key(period)
    return year * 5 + quarter


def newest_first(periods: Iterable[str]) -> list[str]:
    return sorted({p for p in periods if p}, key=period_sort_key, reverse=True)


def recent_pairs(periods: Sequence[str]) -> list[tuple[str, str]]:
    """Consecutive pairs of the newest periods held, newest first, then the whole span."""
    ordered = sorted({p for p in periods if p}, key=period_sort_key)
    pairs = [(ordered[i - 1], ordered[i]) for i in range(len(ordered) - 1, 0, -1)]
    pairs = pairs[: PAIR_CHOICES - 1]
    if len(ordered) > PAIR_CHOICES - 1:
        pairs.append((ordered[0], ordered[-1]))
    return pairs


def recent_spans(periods: Sequence[str]) -> list[tuple[str, ...]]:
    """Unbroken runs of years ending at the newest one held: the last 2, 3 and 5, and all."""
    held = set(periods)
    ordered = sorted((p for p in held if p), key=period_sort_key)
    spans: list[tuple[str, ...]] = []
    for size in (2, 3, 5, len(ordered)):
        if size < 2 or size > len(ordered):
            continue
        span = expand_range(ordered[-size], ordered[-1])
        if set(span) <= held and span not in spans:
            spans.append(span)
    return spans
