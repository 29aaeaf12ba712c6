"""Scoring an answer against a public gold answer, and the tables the reports print.

Every answer is one of: correct (its figure equals the gold answer at the gold's precision, or
it contains the gold span), wrong (it states a figure that differs: the product's worst
failure), refused (not found, clarify, blocked or error) or other (words we cannot score).
ConvFinQA is scored in its own terms (engine/evaluate/convfinqa.py).
"""

from __future__ import annotations

import json
import re
from collections import Counter, defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from typing import Any

from engine.evaluate.split import TUNE
from engine.grounding import Mention, figures_in
from engine.types import Answer

OUTCOMES = ("correct", "wrong", "refused", "other")
_NUMBER = re.compile(r"-?\(?\$?\d[\d,]*(?:\.\d+)?\)?")


@dataclass(frozen=True, slots=True)
class Scored:
    kind: str
    question: str
    outcome: str
    gold: str
    given: str
    part: str = TUNE  # tune or held-out (engine/evaluate/split.py)
    tags: tuple[str, ...] = ()  # further rows of the report it counts in ("split train")


_MULTIPLIERS = {"": 1, "thousand": 10**3, "million": 10**6, "billion": 10**9, "percent": 1}


def score(
    answer: Answer, gold: Any, answer_type: str, *, scale: str = "", wants_clarify: bool = False
) -> str:
    if wants_clarify:
        return "correct" if answer.status == "clarify" else _unexpected(answer)
    if answer.status in ("not_found", "clarify", "blocked", "error"):
        return "refused"
    golds = _gold_numbers(gold, scale)
    if len(golds) > 1 and answer.figures:
        found = [f for f in answer.figures if f.kind == "fact"]
        hits = all(any(_matches(f.value, f.unit, g) for f in found) for g in golds)
        return "correct" if hits else "wrong"
    main = _main_figure(answer)
    if main is not None:
        if not golds:
            return _winner_matches(answer, gold) or _span_states(answer, gold) or "wrong"
        value, unit = main
        if any(_matches(value, unit, g) for g in golds):
            return "correct"
        if _magnitude_convention(answer, value, unit, golds):
            return "correct"
        trend = answer.intent.get("operation") == "trend"
        return "other" if trend else "wrong"
    if answer_type in ("span", "multi-span") and _contains(answer.text, gold):
        return "correct"
    if golds and any(_close_in_text(answer.text, g) for g in golds):
        return "correct"
    return "other"


def _unexpected(answer: Answer) -> str:
    return "wrong" if answer.figures else "other"


def _magnitude_convention(
    answer: Answer, value: Decimal, unit: str, golds: list[tuple[Decimal, int, str]]
) -> bool:
    """TAT-QA's gold drops the parentheses of figures filed as negatives, and states a
    decrease as a positive amount. askapp keeps signs as filed, so an answer equal in
    magnitude is scored correct when every fact it used is negative or it was asked for a
    decrease."""
    facts = [f for f in answer.figures if f.kind == "fact"]
    all_negative = bool(facts) and all(f.value < 0 for f in facts)
    asked_decrease = bool(_DECREASE.search(str(answer.intent.get("question", ""))))
    if not (all_negative or asked_decrease):
        return False
    return any(_matches(-value, unit, g) for g in golds)


_DECREASE = re.compile(r"\b(decrease|decline|drop|fall|fell|reduction|lower)", re.IGNORECASE)


def _main_figure(answer: Answer) -> tuple[Decimal, str] | None:
    computed = [f for f in answer.figures if f.kind == "computed"]
    if computed:
        return computed[0].value, computed[0].unit
    if len(answer.figures) == 1:
        return answer.figures[0].value, answer.figures[0].unit
    return None


def _matches(value: Decimal, unit: str, gold: tuple[Decimal, int, str]) -> bool:
    """Equal at the gold answer's precision, read in the same scale or converted to it."""
    number, places, scale = gold
    if _close(value, (number, places)):
        return True
    ours = _MULTIPLIERS.get(unit)
    theirs = _MULTIPLIERS.get(scale)
    if ours is None or not theirs or ours == theirs:
        return False
    if unit == "" and scale not in ("", "percent"):
        # The table's scale was not written where we could read it: allow its usual scales.
        return any(_close(value * m / theirs, (number, places)) for m in (10**3, 10**6))
    return _close(value * ours / theirs, (number, places))


def _span_states(answer: Answer, gold: Any) -> str | None:
    """A figure read from a document's sentence, asked of a gold that is the sentence itself
    (a text span): correct when the span states that very figure, with its scale or percent
    ("$95.1 million" for 95.1 million)."""
    if len(answer.figures) != 1 or not any(s.kind == "passage" for s in answer.sources):
        return None
    figure = answer.figures[0]
    number = format(figure.value.normalize(), "f")
    qualifier = "%" if figure.unit == "%" else figure.unit
    spans = gold if isinstance(gold, list) else [gold]
    stated = {m for span in spans for m in figures_in(str(span))}
    return "correct" if Mention(number, qualifier) in stated else None


def _winner_matches(answer: Answer, gold: Any) -> str | None:
    spans = gold if isinstance(gold, list) else [gold]
    if answer.intent.get("operation") in ("higher", "lower") and answer.figures:
        winner = answer.figures[0]
        period = (winner.period or "").replace("FY", "")
        if any(str(s).strip() in (period, winner.entity) for s in spans):
            return "correct"
    return None


_GOLD = re.compile(
    r"^(?P<number>-?\(?-?[$£€¥]?\s?\(?\d[\d,]*(?:\.\d+)?\)?)\s*(?P<unit>%|percent|thousand|million|billion)?"
    r"(?:\s+\w+){0,3}$",
    re.IGNORECASE,
)


def _gold_numbers(gold: Any, scale: str = "") -> list[tuple[Decimal, int, str]]:
    """Numbers a gold answer states, with their decimal places and the scale they are in."""
    items = gold if isinstance(gold, list) else [gold]
    numbers = []
    for item in items:
        text = str(item).strip()
        match = _GOLD.match(text)
        if isinstance(item, (int, float)) or match:
            raw = match.group("number") if match else text
            value = parse_decimal(raw)
            if value is None:
                continue
            unit = ((match.group("unit") or "") if match else "").lower()
            unit = "percent" if unit in ("%", "percent") else unit or scale
            places = len(raw.split(".")[1].rstrip(")")) if "." in raw else 0
            numbers.append((value, places, unit))
    return numbers


def parse_decimal(text: str) -> Decimal | None:
    negative = text.startswith("(") or text.startswith("-")
    digits = re.sub(r"[^\d.]", "", text)
    try:
        value = Decimal(digits)
    except InvalidOperation:
        return None
    return -value if negative else value


def _close(ours: Decimal, gold: tuple[Decimal, int]) -> bool:
    value, places = gold
    tolerance = Decimal("0.5") * Decimal(10) ** -places + Decimal("1e-9")
    return abs(ours - value) <= tolerance


def _close_in_text(text: str, gold: tuple[Decimal, int, str]) -> bool:
    for match in _NUMBER.finditer(text):
        value = parse_decimal(match.group())
        if value is not None and _close(value, gold[:2]):
            return True
    return False


def _contains(text: str, gold: Any) -> bool:
    spans = gold if isinstance(gold, list) else [gold]
    lowered = _squash(text)
    return all(_squash(str(span)) in lowered for span in spans if str(span).strip())


def _squash(text: str) -> str:
    return re.sub(r"\W+", " ", text.lower()).strip()


def scored(
    kind: str,
    question: str,
    outcome: str,
    gold: Any,
    answer: Answer,
    *,
    part: str,
    tags: tuple[str, ...] = (),
) -> Scored:
    shown = answer.text if not answer.figures else f"{answer.text} {{{answer.figures[-1].value}}}"
    gold_text = json.dumps(gold, ensure_ascii=False)
    return Scored(kind, question, outcome, gold_text, shown[:300], part=part, tags=tags)


def table(
    results: Sequence[Scored],
    *,
    outcomes: Sequence[str] = OUTCOMES,
    rows: Callable[[Scored], Sequence[str]] = lambda r: (r.kind,),
    title: str = "question type",
) -> str:
    """A Markdown table of outcome counts: one row per label `rows` gives a result (a result
    may count in several rows), and a last row for all."""
    counts: dict[str, Counter[str]] = defaultdict(Counter)
    order: list[str] = []
    for result in results:
        for label in rows(result):
            if label not in counts:
                order.append(label)
            counts[label][result.outcome] += 1
        counts["all"][result.outcome] += 1
    width = max(len(title), *(len(k) for k in counts)) + 2
    lines = [f"| {title:<{width}}| total | " + " | ".join(outcomes) + " |"]
    rule = "|".join("-" * (len(o) + 1) + ":" for o in outcomes)
    lines.append("|" + "-" * (width + 1) + "|------:|" + rule + "|")
    for label in [*sorted(order), "all"]:
        row = counts[label]
        cells = " | ".join(f"{row[o]:>{len(o)}}" for o in outcomes)
        lines.append(f"| {label:<{width}}| {sum(row.values()):>5} | {cells} |")
    return "\n".join(lines)
