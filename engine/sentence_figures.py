"""A number question answered from a figure a document's sentence states (ADR 0041).

When the facts hold no figure for what is asked, a passage may: "rent expense was $310
million, $324 million and $318 million for 2006, 2005 and 2004, respectively" answers "what
was the rent expense in 2005?". `from_sentences` reads the passages the narrative pipeline
selected (so RESTRICTED passages never come near it: both exits already removed them) and
answers only when exactly one number is stated for the asked company, topic and period:

- a lookup: one period, the figure itself (role "fact", its source the passage, with the
  sentence's span cited);
- a change: two periods, both figures read, and the later minus the earlier computed by the
  arithmetic grammar (engine/arithmetic.py), with both figures cited.

The answer text is rendered from the figures, as a structured answer is; the sentence is
shown through the cited span. Anything less certain (no sentence, a subject that does not
hold the whole topic, two sentences stating different numbers) gives None: the caller keeps
its own answer (asked back, or not found).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from itertools import pairwise

from engine.arithmetic import PERCENT_WORDS, Operand, combine
from engine.intent import Intent
from engine.numbers import format_value
from engine.parser import DOES, EXPLAINING, PROSE_OPENINGS, figure_asked
from engine.stated import MIN_TOPIC_TERMS, PERCENT, Found, stated_figure
from engine.text import TOKEN, normalise_word
from engine.timeframe import period_sort_key
from engine.topic import Topic, intent_topic, is_change
from engine.types import Figure, Passage, Source


@dataclass(frozen=True, slots=True)
class FromSentences:
    """An answer read from sentences: its text, figures and sources, and the words that
    named the figure (what a follow-up carries as its metric)."""

    text: str
    figures: tuple[Figure, ...]
    sources: tuple[Source, ...]
    label: str


def may_read(intent: Intent) -> bool:
    """Whether a question asks for a figure a sentence could state: a level for one period
    or a change between two, of one company, in words that do not ask for prose."""
    if len(intent.entities) != 1 or intent.referent or intent.constants or intent.nested:
        return False
    if _asks_prose(intent.question) or _SEVERAL.search(intent.question):
        return False  # prose, or several figures at once ("the respective ... at June 30 and")
    operation = operation_asked(intent)
    if operation is None:
        asked = figure_asked(intent.question)
        return len(intent.periods) == 1 and asked in (None, "amount", "percent")
    return operation in _CHANGES and len(intent.periods) == 2


_CHANGES = ("difference", "percent_change")
_SEVERAL = re.compile(r"\brespective(?:ly)?\b", re.IGNORECASE)


def operation_asked(intent: Intent) -> str | None:
    """The operation read, or for a question the parser gave to the documents (its words
    naming no figure held) a change between its two periods, when it asks one in so many
    words ("what was the change in harbour fees from 2020 to 2021?", "what was the percent
    change ...?")."""
    if intent.operation is not None or len(intent.periods) != 2:
        return intent.operation
    norms = {normalise_word(t) for t in TOKEN.findall(intent.question)}
    if norms.isdisjoint(_CHANGE):
        return None
    asked = figure_asked(intent.question)
    return {"change": "difference", "percent": "percent_change"}.get(asked or "")


_CHANGE = frozenset(
    normalise_word(w) for w in ("change", "difference", "variation", "increase", "decrease")
)


def from_sentences(intent: Intent, passages: Sequence[Passage]) -> FromSentences | None:
    """The answer the passages' sentences give, or None when they do not give one surely."""
    entity = intent.entities[0]
    mine = [p for p in passages if p.entity == entity]
    topic = reading_topic(intent)
    operation = operation_asked(intent)
    wants_percent = operation is None and figure_asked(intent.question) == "percent"
    found = []
    scale = _scale_asked(intent.question)
    for period in sorted(intent.periods, key=period_sort_key):
        figure = stated_figure(mine, topic, period, owner=entity)
        if figure is None or (wants_percent and figure.stated.unit != PERCENT):
            return None
        found.append(_in_scale(figure, scale) if scale else figure)
    if operation is None and len(found) == 1:
        return _lookup(entity, found[0])
    if operation in _CHANGES and len(found) == 2:
        return _change(entity, found[0], found[1], operation)
    return None


def reading_topic(intent: Intent) -> Topic:
    """What the figure must be about: the question's own words but the scale it asks the
    answer in ("in millions") and its words of change; for a follow-up naming too little
    of its own ("and in 2014?", "what was the net change?"), the figure it carried."""
    own = _own_topic(intent)
    if len(own.terms) >= MIN_TOPIC_TERMS or not intent.metrics:
        return own
    return intent_topic(w for m in intent.metrics for w in TOKEN.findall(m))


def leans_on_metric(intent: Intent) -> bool:
    """Whether the figure to read is named by the metric carried, not the question's words."""
    return len(_own_topic(intent).terms) < MIN_TOPIC_TERMS and bool(intent.metrics)


def names_a_figure(intent: Intent) -> bool:
    """Whether a question named a figure in words of its own."""
    return len(_own_topic(intent).terms) >= MIN_TOPIC_TERMS


def _own_topic(intent: Intent) -> Topic:
    kept = (
        w
        for w in intent.topic
        if normalise_word(w)
        not in _SCALE_WORDS | _OPERATION_WORDS | _POINTING_WORDS | PERCENT_WORDS
    )
    topic = intent_topic(kept)
    topic = Topic(
        tuple(t for t in topic.terms if not is_change(t)),
        tuple(w for t, w in zip(topic.terms, topic.written, strict=True) if not is_change(t)),
    )
    return topic


_OPERATION_WORDS = frozenset(normalise_word(w) for w in ("net", "difference", "variation"))
# Words that say which time or which mention is meant, not what the figure is: "and in the
# previous year", "the value for 2016 again", "that specific value".
_POINTING_WORDS = frozenset(
    normalise_word(w)
    for w in ("again", "specific", "previous", "precedent", "preceding", "prior", "same")
)
_SCALE_WORDS = frozenset(normalise_word(w) for w in ("thousands", "millions", "billions"))
_SCALES = {"thousand": 3, "million": 6, "billion": 9}
_ASKED_SCALE = re.compile(r"\bin\s+(thousand|million|billion)s\b", re.IGNORECASE)


def _scale_asked(question: str) -> str:
    """The scale a question asks its answer in ("in millions"), or ""."""
    match = _ASKED_SCALE.search(question)
    return match.group(1).lower() if match else ""


def _in_scale(found: Found, scale: str) -> Found:
    """The figure written in the scale asked: 1.1 billion asked in millions is 1,100 million.
    The same amount, so still the sentence's figure; a figure without a scale stays as read."""
    stated = found.stated
    if stated.unit not in _SCALES or stated.unit == scale:
        return found
    shift = _SCALES[stated.unit] - _SCALES[scale]
    value = stated.value.scaleb(shift).normalize()
    return replace(found, stated=replace(stated, value=value, unit=scale))


def _lookup(entity: str, found: Found) -> FromSentences:
    figure, source, cite = _fact(entity, found, 1)
    text = (
        f"{entity}'s {found.label} in {found.stated.period} was {figure.display} {cite}, "
        "as the document states."
    )
    return FromSentences(text, (figure,), (source,), found.label)


def _change(entity: str, first: Found, second: Found, operation: str) -> FromSentences | None:
    """The later figure minus the earlier (or that as a percent of the earlier), both read
    from sentences and both cited. A percent change of percentages (points or relative?) or
    from a base not above zero is not taken: what it would mean is not certain."""
    same = first.passage.id == second.passage.id
    earlier, source, cite = _fact(entity, first, 1)
    later, other, other_cite = _fact(entity, second, 1 if same else 2)
    percent = operation == "percent_change"
    if percent and (earlier.unit == PERCENT or earlier.value <= 0):
        return None
    operands = [_operand(later), _operand(earlier)]
    change = combine(operation, operands[::-1] if percent else operands)
    if change is None:
        return None
    periods = f"{first.stated.period} to {second.stated.period}"
    change = replace(change, label=f"{entity} {first.label} {change.role} {periods}",
                     entity=entity, metric=first.label)  # fmt: skip
    sources = (_merged(source, other),) if same else (source, other)
    text = (
        f"{entity}'s {first.label} went from {earlier.display} in {first.stated.period} "
        f"{cite} to {later.display} in {second.stated.period} {other_cite}, as the document "
        f"states: {_movement(change)}."
    )
    return FromSentences(text, (earlier, later, change), sources, first.label)


def _operand(figure: Figure) -> Operand:
    return Operand(figure.label, figure.value, figure.unit, figure.sources)


def _movement(change: Figure) -> str:
    if change.value == 0:
        return "no change"
    word = "an increase" if change.value > 0 else "a decrease"
    return f"{word} of {change.display.replace('-', '', 1)}"


def _fact(entity: str, found: Found, number: int) -> tuple[Figure, Source, str]:
    stated, passage = found.stated, found.passage
    figure = Figure(
        label=f"{entity} {found.label} {stated.period}",
        value=stated.value,
        unit=stated.unit,
        kind="fact",
        sources=(passage.id,),
        display=format_value(stated.value, stated.unit),
        entity=entity,
        metric=found.label,
        period=stated.period,
        role="fact",
    )
    source = Source.from_passage(passage, spans=((stated.start, stated.end),))
    return figure, source, f"[{number}]"


def _merged(first: Source, second: Source) -> Source:
    """One passage cited for two sentences (or twice for one): one source, every span."""
    return replace(first, spans=tuple(sorted({*first.spans, *second.spans})))


def _asks_prose(question: str) -> bool:
    """Why, how (but how much or many), describe, "what does ... mean", openings asking for a
    time, a name or a yes or no: an account in prose, not a figure."""
    norms = [normalise_word(t) for t in TOKEN.findall(question)]
    if not norms or not EXPLAINING.isdisjoint(norms):
        return True
    if norms[0] in PROSE_OPENINGS or (norms[0] == "what" and norms[1:2] and norms[1] in DOES):
        return True
    manner = any(a == "how" and b not in ("much", "many") for a, b in pairwise(norms))
    return manner or norms[-1] in ("to", "of", "as", "for", "on", "by")
