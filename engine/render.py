"""Structured answers, written deterministically from the facts the tools returned.

Whatever a provider wrote is ignored here: the text, the figures and the sources come from the
plan and the evidence only. A fact the plan needs but the tools did not return is a miss.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from decimal import Decimal
from itertools import pairwise

from engine.arithmetic import Operand, asked_scale, combine, restated
from engine.calc import PERCENT_UNIT, compound_growth, compute
from engine.numbers import format_value
from engine.parser import DOWNWARD, HIGHER, LOWER, SAID_IN_POINTS, UPWARD, WITHOUT_DIRECTION
from engine.plan import Plan, Slot
from engine.text import lexicon, words
from engine.timeframe import period_sort_key
from engine.types import Carried, Choice, Fact, Figure, Source, Status


@dataclass(frozen=True, slots=True)
class Rendered:
    status: Status
    text: str
    figures: tuple[Figure, ...] = ()
    sources: tuple[Source, ...] = ()
    choices: tuple[Choice, ...] = ()
    missing: tuple[Slot, ...] = ()  # not_found: the figures the knowledge base lacks


class _Citations:
    """Numbers sources in order of first use, so [1] is the first fact the text mentions."""

    def __init__(self) -> None:
        self.sources: list[Source] = []
        self.figures: list[Figure] = []

    def cite(self, fact: Fact) -> str:
        ids = [s.id for s in self.sources]
        if fact.id not in ids:
            self.sources.append(Source.from_fact(fact))
            self.figures.append(_fact_figure(fact))
            ids.append(fact.id)
        return f"[{ids.index(fact.id) + 1}]"

    def computed(
        self, label: str, value: Decimal, unit: str, facts: Sequence[Fact], role: str = ""
    ) -> str:
        shown = format_value(value, unit)
        operation = {"change": "difference", "percent change": "percent_change",
                     "share": "percent_of"}.get(role, role)  # fmt: skip
        formula = ""
        if operation and len(facts) >= 2:
            operands = [_operand(f) for f in facts]
            if operation == "difference":
                operands = operands[::-1]  # a change is the later (or second) minus the first
            made = combine(operation, operands)
            formula = made.formula if made is not None else ""
        metrics = {f.metric for f in facts}
        self.figures.append(
            Figure(
                label,
                value,
                unit,
                "computed",
                tuple(f.id for f in facts),
                display=shown,
                metric=metrics.pop() if len(metrics) == 1 else None,
                role=role,
                formula=formula,
            )
        )
        return shown

    def add(self, figure: Figure) -> str:
        self.figures.append(figure)
        return figure.display


def render(
    plan: Plan,
    evidence: Mapping[str, Fact],
    results: Sequence[Carried] = (),
    deductions: frozenset[tuple[str, str]] = frozenset(),
) -> Rendered:
    """`results`: earlier answers' figures the session carried as operands. `deductions`:
    the (entity, metric) lines printed negative in every period held ("( 212 )", "( 18 )")."""
    by_slot = {(f.entity, f.metric, f.period): f for f in evidence.values()}
    found = [(slot, by_slot.get((slot.entity, slot.metric, slot.period))) for slot in plan.slots]
    if plan.operation is None:
        return _lookups(plan, found)
    facts = [fact for _, fact in found if fact is not None]
    missing = [slot for slot, fact in found if fact is None]
    if missing:
        return Rendered("not_found", _missing_sentence(missing), missing=tuple(missing))
    if results or plan.intent.constants or plan.intent.nested:
        return _grammar(plan, facts, results)
    if not facts:
        return Rendered("not_found", _missing_sentence(plan.slots), missing=plan.slots)
    if plan.operation in _TWO_FIGURES and len({f.id for f in facts}) < 2:
        # One figure where two are set against each other: never "X and X cannot be combined".
        return Rendered(
            "clarify", f"Which figure should I set {_label(facts[0])} against? Name it."
        )
    if plan.operation == "percent_of":
        return _ratio(plan, facts, deductions)
    return _OPERATIONS[plan.operation](plan, facts)


def _operand(fact: Fact) -> Operand:
    return Operand(_label(fact), fact.value, fact.unit, (fact.id,))


def _grammar(plan: Plan, facts: list[Fact], results: Sequence[Carried]) -> Rendered:
    """A computation the arithmetic grammar read: earlier results, facts and constants."""
    intent, notes = plan.intent, _Citations()
    operation = plan.operation or ""
    shown: dict[str, str] = {}
    for fact in facts:
        shown[fact.id] = notes.cite(fact)
    if intent.nested:
        return _nested(plan, facts, notes)
    if operation == "restate":
        return _restated(intent.question, results, notes)
    if operation in ("higher", "lower") and not facts and not intent.constants:
        return _higher_of_results(plan, results, notes)
    given = [
        Operand.of_figure(r.figure, f"from your question {r.from_turn}")
        for r in results
        if r.figure is not None
    ]
    named = [_operand(f) for f in facts]
    operands = [*given, *named] if intent.referent_first else [*named, *given]
    operands += [Operand.constant(c) for c in intent.constants]
    if len(operands) != 2:
        return Rendered(
            "clarify",
            "Which two figures should I combine? Name the figure to take with "
            + (given[0].label if given else "it")
            + ".",
        )
    figure = combine(operation, operands)
    if figure is None:
        return Rendered("not_found", "These figures cannot be combined that way "
                        "(different units, or a zero base).")  # fmt: skip
    written = _written(operation, operands, shown)
    display = notes.add(figure)
    if operation == "difference" and all(o.unit == PERCENT_UNIT for o in operands):
        display = _as_points(display)  # two percents differ by points, not by a percent
    sentence = f"The {figure.role} is {display}: {written}."
    return _done(notes, [sentence], plan.note)


def _higher_of_results(plan: Plan, results: Sequence[Carried], notes: _Citations) -> Rendered:
    """ "Which is higher?" after two answers that each worked out one result of a kind (two
    companies' margins): the higher (or lower) of those results, each said with what it was
    worked out from and the question that gave it."""
    given = [(r, r.figure) for r in results if r.figure is not None]
    if len(given) != 2 or given[0][1].unit != given[1][1].unit:
        return Rendered("clarify", "Which two figures should I compare? Name them.")
    pick = max if plan.operation == "higher" else min
    winner = pick(given, key=lambda pair: pair[1].value)
    other = given[1] if winner is given[0] else given[0]

    def said(pair: tuple[Carried, Figure]) -> str:
        result, figure = pair
        return f"{notes.add(figure)} ({figure.label}, from your question {result.from_turn})"

    word = "higher" if plan.operation == "higher" else "lower"
    if winner[1].value == other[1].value:
        sentence = f"The two are equal: {said(winner)} and {said(other)}."
    else:
        role = winner[1].role_or_kind
        sentence = f"Of the two {role}s, {said(winner)} is the {word}, against {said(other)}."
    return _done(notes, [sentence], plan.note)


def _restated(question: str, results: Sequence[Carried], notes: _Citations) -> Rendered:
    """An earlier result written again in the scale the question asks ("that in millions")."""
    scale = asked_scale(question)
    given = [(r, r.figure) for r in results if r.figure is not None]
    if len(given) != 1 or scale is None:
        return Rendered("clarify", "Which figure do you mean?")
    result, old = given[0]
    figure = restated(old, scale)
    if figure is None:
        return Rendered("clarify", "Which figure do you mean?")
    notes.add(figure)
    sentence = (f"The {figure.role} from your question {result.from_turn}, {old.display}, "
                f"is {figure.display}.")  # fmt: skip
    return _done(notes, [sentence], "")


def change_between(rendered: Rendered, operation: str) -> Rendered:
    """The second step of a change in a measure: the two results the first step computed,
    one a period, set against each other (the later less the earlier), cited through them."""
    by_source = {s.id: s.period for s in rendered.sources}

    def period_of(figure: Figure) -> str:
        periods = {by_source.get(source) for source in figure.sources}
        return str(periods.pop() or "") if len(periods) == 1 else ""

    results = sorted(
        ((period_of(f), f) for f in rendered.figures if f.kind == "computed"),
        key=lambda pair: period_sort_key(pair[0]),
    )
    if len(results) != 2 or not all(p for p, _ in results) or results[0][0] == results[1][0]:
        return Rendered("clarify", "Which two periods should I compare the measure between?")
    (early, older), (late, newer) = results
    operands = [Operand.of_figure(older, f"in {early}"), Operand.of_figure(newer, f"in {late}")]
    if operation == "difference":
        operands.reverse()  # a change is the later less the earlier
    figure = combine(operation, operands)
    if figure is None:
        return Rendered("not_found", "These figures cannot be combined that way "
                        "(different units, or a zero base).")  # fmt: skip
    shown = figure.display
    if operation == "difference" and figure.unit == PERCENT_UNIT:
        shown = _as_points(shown)
    moved = _movement(figure.value, shown) if operation == "difference" else ""
    sentence = (
        f"From {early} to {late} it went from {older.display} to "
        f"{newer.display}: {moved or f'a {figure.role} of {shown}'}."
    )
    return replace(rendered, text=f"{rendered.text} {sentence}",
                   figures=(*rendered.figures, figure))  # fmt: skip


def _nested(plan: Plan, facts: list[Fact], notes: _Citations) -> Rendered:
    """One nested step: the change between two periods, then that change against the base
    (the earlier period's figure)."""
    if plan.intent.nested == "sum":
        return _share_of_a_column(plan, facts, notes)
    ordered = sorted(facts, key=lambda f: plan.intent.periods.index(f.period))
    if len(ordered) != 2 or len({(f.entity, f.metric) for f in ordered}) != 1:
        return Rendered("clarify", "Which figure's change, and against which base?")
    first, second = ordered
    # "X in 2015 less X in 2016" (nested "reverse"): the base is the minuend, as written.
    reverse = plan.intent.nested == "reverse"
    pair = [first, second] if reverse else [second, first]
    inner = combine("difference", [_operand(f) for f in pair])
    outer = (
        combine(plan.operation or "", [Operand.of_figure(inner, "above"), _operand(first)])
        if inner
        else None
    )
    if inner is None or outer is None:
        return _cannot_combine(first, second)
    notes.add(inner)
    notes.add(outer)
    if reverse:
        sentence = (
            f"{_label(first)} ({format_value(first.value, first.unit)} {notes.cite(first)}) "
            f"less its {second.period} figure ({format_value(second.value, second.unit)} "
            f"{notes.cite(second)}) is {inner.display}, which is {outer.display} of the "
            f"{first.period} figure."
        )
    else:
        sentence = (
            f"{_pair_sentence(notes, first, second)}: a change of {inner.display}, which is "
            f"{outer.display} of the {first.period} figure."
        )
    return _done(notes, [sentence], plan.note)


def _share_of_a_column(plan: Plan, facts: list[Fact], notes: _Citations) -> Rendered:
    """A part set against its column added up (plan._column_without_total): the sum of
    every row, then the part over that sum, in one period."""
    part = [f for f in facts if f.metric == plan.intent.metrics[0]]
    if len(part) != 1 or len({f.period for f in facts}) != 1:
        return Rendered("clarify", "Which figure should I set it against, in which period?")
    whole = combine("sum", [_operand(f) for f in facts])
    outer = (
        combine(plan.operation or "", [_operand(part[0]), Operand.of_figure(whole, "above")])
        if whole
        else None
    )
    if whole is None or outer is None:
        return Rendered("not_found", "These figures cannot be combined that way "
                        "(different units, or a zero base).")  # fmt: skip
    cited = "; ".join(
        f"{_label(f)}: {format_value(f.value, f.unit)} {notes.cite(f)}" for f in facts
    )
    notes.add(whole)
    notes.add(outer)
    sentence = (
        f"Set against its column added up ({cited}), a sum of {whole.display}, "
        f"{_label(part[0])} is {outer.display}."
    )
    return _done(notes, [sentence], plan.note)


_SIGNS = {"difference": " minus ", "ratio": " divided by ", "percent_of": " divided by ",
          "sum": " plus ", "product": " times "}  # fmt: skip


def _written(operation: str, operands: Sequence[Operand], shown: Mapping[str, str]) -> str:
    parts = []
    for operand in operands:
        value = format_value(operand.value, operand.unit) if operand.unit else str(operand.value)
        if operand.role == "constant":
            parts.append(value)
        elif operand.role == "fact" and operand.sources[0] in shown:
            parts.append(f"{operand.label} ({value} {shown[operand.sources[0]]})")
        else:
            parts.append(f"{operand.label} ({value})")
    return _SIGNS.get(operation, " and ").join(parts)


def _lookups(plan: Plan, found: list[tuple[Slot, Fact | None]]) -> Rendered:
    notes = _Citations()
    sentences = [
        f"{_label(fact)} was {format_value(fact.value, fact.unit)} {notes.cite(fact)}."
        for _, fact in found
        if fact is not None
    ]
    missing = [slot for slot, fact in found if fact is None]
    if not sentences:
        return Rendered("not_found", _missing_sentence(missing), missing=tuple(missing))
    if missing:
        sentences.append(_missing_sentence(missing))
    return _done(notes, sentences, plan.note)


def _change(plan: Plan, facts: list[Fact]) -> Rendered:
    if plan.each_period:
        return _difference_each_period(plan, facts)
    notes = _Citations()
    if len({(f.entity, f.metric) for f in facts}) > 1 and len({f.period for f in facts}) > 1:
        # Several figures over several periods: which pair changes is not said.
        return Rendered("clarify", "Which figure's change do you mean, and between which periods?")
    first, second = _pair(plan, facts)
    percent = plan.operation == "percent_change"
    if percent and plan.intent.compounded:
        return _compounded(plan, first, second)
    doubt = _percent_doubt(plan, first, second) if percent else None
    if doubt is not None:
        return doubt
    across = first.period == second.period  # two companies or line items: first minus second
    # "How much lower was A than B?" asks the gap below B: B less A.
    below = across and not percent and _asks_below(plan.intent.question)
    operands = [second, first] if across and not below else [first, second]
    if across and not percent and WITHOUT_DIRECTION & set(words(plan.intent.question)):
        # "The spread between the high and the low": a gap has no direction, the larger less
        # the smaller, whichever was named first.
        operands.sort(key=lambda f: f.value)
    deducted = across and not percent and operands[0].value < 0 < operands[1].value
    if deducted:
        # "Total debt less the current portion", "how much did the provision exceed
        # write-offs": a line printed as a deduction ("( 150 )") is taken off by its amount;
        # its sign says it is taken off, and subtracting the sign too would add it back.
        operands[0] = replace(operands[0], value=-operands[0].value)
    result = compute("percent_change" if percent else "difference", operands)
    if result is None:
        return _cannot_combine(first, second)
    value, unit = result
    if not percent and unit != PERCENT_UNIT and _in_points_asked(plan.intent.question):
        # A change "in percentage points" is one between two rates: between two amounts it
        # answers another question than the one asked.
        return Rendered(
            "clarify",
            f"{_label(first)} and {_label(second)} are no rates: between which two "
            "percentages should I count the change in points?",
        )
    opening = _pair_sentence(notes, first, second)
    role = "percent change" if percent else "change"
    change = notes.computed(_change_label(first, second, percent), value, unit, operands, role)
    if not percent and unit == PERCENT_UNIT:
        change = _in_points(plan, notes, change, value, (first, second))
    if below:
        size = change.replace("-", "", 1)
        gap = f"is lower by {size}" if value >= 0 else f"is not lower but higher, by {size}"
        gap = f"{_label(first)} {gap}"
        return _done(notes, [f"{opening}: {gap}."], plan.note)
    if across and deducted:
        amount = format_value(operands[0].value, operands[0].unit)
        taken = f"{_label(operands[0])} taken off as the {amount} it deducts"
        return _done(notes, [f"{opening}: a difference of {change} ({taken})."], plan.note)
    if across:
        return _done(notes, [f"{opening}: a difference of {change}."], plan.note)
    # A cost in brackets grows as its figure falls: the movement is said in the line's terms.
    negative = _shown_negative(first, second)
    own = -value if negative else value
    movement = _own_movement(value, change) if negative else _movement(value, change)
    return _done(notes, [f"{_yes_or_no(plan, own)}{opening}: {movement}."], plan.note)


def _compounded(plan: Plan, first: Fact, last: Fact) -> Rendered:
    """ "What was the CAGR from FY2019 to FY2023?": the yearly rate that grows the first
    year's figure into the last's, over the years between them."""
    years = _years_between(first.period, last.period)
    if first.entity != last.entity or first.metric != last.metric or not years:
        return Rendered("clarify", "Between which two years should I work out the compound "
                        "growth rate? Name the first and the last.")  # fmt: skip
    rate = compound_growth(first.value, last.value, years)
    if rate is None or first.unit != last.unit:
        return Rendered(
            "not_found",
            f"{_label(first)} and {_label(last)} have no compound growth rate: it is worked "
            "out only between two figures above zero, in one unit.",
        )
    notes = _Citations()
    opening = _pair_sentence(notes, first, last)
    shown = format_value(rate, PERCENT_UNIT)
    ratio = f"{_operand(last).written()} ÷ {_operand(first).written()}"
    notes.add(
        Figure(
            f"{_label(first)} to {last.period}, compound annual growth",
            rate,
            PERCENT_UNIT,
            "computed",
            (first.id, last.id),
            display=shown,
            metric=first.metric,
            role="compound annual growth rate",
            formula=f"(({ratio}) ^ (1 / {years}) − 1) × 100",
        )
    )
    span = "1 year" if years == 1 else f"{years} years"
    return _done(
        notes, [f"{opening}: a compound annual growth rate of {shown} over {span}."], plan.note
    )


def _years_between(first: str, last: str) -> int:
    """The whole years from one fiscal year to a later one ("FY2019" to "FY2023": 4); 0 when
    either is no year (a quarter, no period) or the second is not later."""
    (a, quarter_a), (b, quarter_b) = period_sort_key(first), period_sort_key(last)
    if quarter_a or quarter_b or not (a and b):
        return 0
    return max(b - a, 0)


_BASIS_POINTS = re.compile(r"\bbasis\s+points?\b|\bbps?\b", re.I)


def _in_points_asked(question: str) -> bool:
    return bool(SAID_IN_POINTS.search(question) or _BASIS_POINTS.search(question))


def _as_points(shown: str) -> str:
    """A change between two percents, said in percentage points ("0.25 percentage points")."""
    return f"{shown.removesuffix('%')} percentage points"


def _in_points(
    plan: Plan, notes: _Citations, shown: str, value: Decimal, facts: tuple[Fact, Fact]
) -> str:
    """A change between two rates is counted in percentage points ("0.25 percentage points"),
    not as a percent of anything; asked "in basis points", in hundredths of a point, as a
    figure of its own (the one the answer stands on)."""
    if _BASIS_POINTS.search(plan.intent.question):
        label = f"{_change_label(facts[0], facts[1], False)} in basis points"
        return notes.computed(label, value * 100, "basis points", facts)
    return _as_points(shown)


def _yes_or_no(plan: Plan, moved: Decimal) -> str:
    """ "Did it rise?": "Yes: " or "No: " before the movement, against the way asked; nothing
    for a question that asks no way, or asks by how much ("by more than 5%")."""
    said = words(plan.intent.question)
    while said and said[0] in _LEADING:
        said = said[1:]
    if not said or said[0] not in _YES_NO or set(said) & _MEASURED or "%" in plan.intent.question:
        return ""
    up, down = bool(set(said) & UPWARD), bool(set(said) & DOWNWARD)
    if up == down:
        return ""
    return "Yes: " if (moved > 0 if up else moved < 0) else "No: "


def _shown_negative(first: Fact, second: Fact) -> bool:
    """A cost or an outflow written as a negative (in brackets) in both periods: its size is
    what rises or falls. Its head word says so, the last word before the label's first "of",
    "in", "by", bracket or comma: "Cost of sales", "Net cash used in ...", "Income tax
    expense", but not "Net income (loss)" or "Net cash provided by (used in) ..."."""
    if first.value >= 0 or second.value >= 0 or first.metric != second.metric:
        return False
    head = _HEAD_END.split(first.metric, maxsplit=1)[0]
    said = words(head)
    return bool(said) and said[-1] in _OUTFLOW


def _own_movement(value: Decimal, shown: str) -> str:
    size = shown.replace("-", "", 1)
    if value < 0:
        return f"shown as a negative, it grew by {size} (the figure itself fell by {size})"
    if value > 0:
        return f"shown as a negative, it shrank by {size} (the figure itself rose by {size})"
    return "no change"


def _difference_each_period(plan: Plan, facts: list[Fact]) -> Rendered:
    """The plan's first series less its second, one difference a period (free cash flow in
    each year, before the change between them)."""
    pairs = _pairs_by_period(plan, facts)
    if pairs is None:
        return _cannot_combine(facts[0], facts[-1])
    notes, sentences = _Citations(), []
    for first, second in pairs:
        result = compute("difference", [second, first])
        if result is None:
            return _cannot_combine(first, second)
        value, unit = result
        opening = _pair_sentence(notes, first, second)
        label = _change_label(first, second, False)
        shown = notes.computed(label, value, unit, [second, first], "difference")
        sentences.append(f"{opening}: a difference of {shown}.")
    return _done(notes, sentences, plan.note)


def _asks_below(question: str) -> bool:
    """ "How much lower / less / smaller / fewer": a gap asked in the downward direction (and
    no upward word beside it, as in "how much more or less"), in the parser's own words."""
    said = set(words(question))
    return "how" in said and bool(said & LOWER) and not said & HIGHER


def _ratio(
    plan: Plan, facts: list[Fact], deductions: frozenset[tuple[str, str]] = frozenset()
) -> Rendered:
    """One figure over another; over several periods, one ratio a period ("net income as a
    percentage of revenue in FY2022 and FY2023"), never one period's part over another's whole."""
    notes = _Citations()
    pairs = _pairs_by_period(plan, facts)
    if pairs is None:
        return _cannot_combine(facts[0], facts[-1])
    what = "share" if plan.operation == "percent_of" else "ratio"
    sentences = []
    for first, second in pairs:
        # "Impairment charges as a percent of revenue": a part whose line is printed as a
        # deduction in every period ("( 212 )", "( 18 )") is a share of a positive whole by its
        # amount; its sign only says that it is taken off, as in a difference across two lines
        # (`_change`). A line negative in one period only ("net income ( loss )") keeps it.
        deducted = (
            plan.operation == "percent_of"
            and (first.entity, first.metric) in deductions
            and first.value < 0 < second.value
        )
        part = replace(first, value=-first.value) if deducted else first
        result = compute("ratio", [part, second])
        if result is None:
            return _cannot_combine(first, second)
        value, unit = result
        if plan.operation == "percent_of":
            value, unit = value * 100, PERCENT_UNIT
        shown = notes.computed(
            f"{_label(first)} / {_label(second)}", value, unit, (part, second), what
        )
        amount = f", taken by the {format_value(part.value, part.unit)} it deducts" * deducted
        sentences.append(
            f"The {what} of {_label(first)} ({format_value(first.value, first.unit)} "
            f"{notes.cite(first)}{amount}) to {_label(second)} "
            f"({format_value(second.value, second.unit)} {notes.cite(second)}) is {shown}."
        )
    return _done(notes, sentences, plan.note)


def _pairs_by_period(plan: Plan, facts: list[Fact]) -> list[tuple[Fact, Fact]] | None:
    """(part, whole) in each period, the part being the plan's first series; None unless
    the facts are two series with both held in every period."""
    if len(facts) == 2:
        return [(facts[0], facts[1])]
    series = list(dict.fromkeys((slot.entity, slot.metric) for slot in plan.slots))
    periods = list(dict.fromkeys(slot.period for slot in plan.slots))
    held = {(f.entity, f.metric, f.period): f for f in facts}
    if len(series) != 2:
        return None
    pairs = []
    for period in periods:
        part, whole = (held.get((*one, period)) for one in series)
        if part is None or whole is None:
            return None
        pairs.append((part, whole))
    return pairs


def _aggregate(plan: Plan, facts: list[Fact]) -> Rendered:
    notes = _Citations()
    operation = plan.operation or "sum"
    if len(facts) < 2:
        return Rendered("clarify", f"Over which periods should I take the {operation}?")
    spread = {(f.entity, f.metric) for f in facts}
    if operation == "average" and len(spread) > 1 and len({f.period for f in facts}) > 1:
        return Rendered(
            "clarify",
            "Average across several figures and several periods at once is ambiguous: "
            "which figure, or which single period?",
        )
    result = compute(operation, facts)
    if result is None:
        return _cannot_combine(facts[0], facts[-1])
    value, unit = result
    parts = "; ".join(
        f"{_label(f)}: {format_value(f.value, f.unit)} {notes.cite(f)}" for f in facts
    )
    word = "sum" if operation == "sum" else "average"
    shown = notes.computed(f"{word} of {len(facts)} facts", value, unit, facts, word)
    return _done(notes, [f"The {word} is {shown} ({parts})."], plan.note)


def _extreme(plan: Plan, facts: list[Fact]) -> Rendered:
    if plan.intent.of_changes:
        return _largest_step_of(plan, facts)
    notes = _Citations()
    if len({f.unit for f in facts}) != 1 or len(facts) < 2:
        return _cannot_combine(facts[0], facts[-1])
    highest = plan.operation == "higher"
    ranked = sorted(facts, key=lambda f: f.value, reverse=highest)
    winner, others = ranked[0], ranked[1:]
    word = "highest" if highest else "lowest"
    if len(facts) == 2:
        word = "higher" if highest else "lower"
    lead = (
        f"{_label(winner)} is the {word}: {format_value(winner.value, winner.unit)} "
        f"{notes.cite(winner)}"
    )
    rest = "; ".join(
        f"{_label(f)}: {format_value(f.value, f.unit)} {notes.cite(f)}" for f in others
    )
    return _done(notes, [f"{lead} (against {rest})."], plan.note)


def _largest_step_of(plan: Plan, facts: list[Fact]) -> Rendered:
    """ "Which year had the biggest increase?": each year's change from the year before it
    (in percent, when a percent change was asked), the largest (or smallest) named, the
    others beside it. One series, three or more periods."""
    series = sorted(facts, key=lambda f: period_sort_key(f.period))
    if len({(f.entity, f.metric) for f in series}) != 1 or len(series) < 3:
        return Rendered(
            "clarify", "Over which years should I compare the yearly changes? Name three or more."
        )
    percent = plan.intent.of_changes == "percent_change"
    role = "percent change" if percent else "change"
    notes = _Citations()
    for fact in series:
        notes.cite(fact)
    steps: list[tuple[Decimal, str, Fact, Fact]] = []
    for before, after in pairwise(series):
        result = compute(plan.intent.of_changes, [before, after])
        if result is None:
            return _cannot_combine(before, after)
        value, unit = result
        label = _change_label(before, after, percent)
        shown = notes.computed(label, value, unit, (before, after), role)
        steps.append((value, shown, before, after))
    highest = plan.operation == "higher"
    (_, shown, before, after), *others = sorted(steps, key=lambda s: s[0], reverse=highest)
    word = "largest" if highest else "smallest"
    if set(words(plan.intent.question)) & (DOWNWARD - LOWER):
        word = "smallest fall" if highest else "largest fall"  # the most negative change
    rest = "; ".join(f"{b.period} to {a.period}: {s}" for _, s, b, a in others)
    first = series[0]
    moved = (
        f"from {format_value(before.value, before.unit)} in {before.period} {notes.cite(before)} "
        f"to {format_value(after.value, after.unit)} {notes.cite(after)}"
    )
    sentence = (
        f"Of the yearly changes in {first.entity}'s {first.metric}, {after.period}'s was the "
        f"{word}: {shown}, {moved} (against {rest})."
    )
    return _done(notes, [sentence], plan.note)


def _trend(plan: Plan, facts: list[Fact]) -> Rendered:
    notes = _Citations()
    facts = sorted(facts, key=lambda f: (f.entity, f.metric, f.period))
    if len(facts) == 1:
        # One period of the range held: said as a lookup is ("X in FY2021 was ..."); the
        # plan's note names the periods it does not hold.
        (fact,) = facts
        said = f"{_label(fact)} was {format_value(fact.value, fact.unit)} {notes.cite(fact)}."
        return _done(notes, [said], plan.note)
    series = "; ".join(
        f"{f.period}: {format_value(f.value, f.unit)} {notes.cite(f)}" for f in facts
    )
    first, last = facts[0], facts[-1]
    span = f"{first.period} to {last.period}" if first.period != last.period else first.period
    sentences = [f"{first.entity}'s {first.metric}, {span}: {series}."]
    if len(facts) > 1 and len({(f.entity, f.metric) for f in facts}) == 1:
        change = compute("difference", [first, last])
        percent = compute("percent_change", [first, last])
        if change is not None:
            shown = notes.computed(
                _change_label(first, last, False), *change, (first, last), "change"
            )
            overall = f"Over the period: {_movement(change[0], shown)}"
            if percent is not None:
                pct = notes.computed(
                    _change_label(first, last, True), *percent, (first, last), "percent change"
                )
                overall += f" ({pct})"
            sentences.append(overall + ".")
    return _done(notes, sentences, plan.note)


_TWO_FIGURES = frozenset({"ratio", "percent_of", "higher", "lower"})
_OPERATIONS: dict[str, Callable[[Plan, list[Fact]], Rendered]] = {
    "difference": _change,
    "percent_change": _change,
    "ratio": _ratio,
    "percent_of": _ratio,
    "sum": _aggregate,
    "average": _aggregate,
    "higher": _extreme,
    "lower": _extreme,
    "trend": _trend,
    "product": lambda plan, facts: _grammar(plan, facts, ()),
}


POINTS_CHOICE = "the change in percentage points"
RELATIVE_CHOICE = "the relative change in percent"
AMOUNT_CHOICE = "the change in amount"


def _percent_doubt(plan: Plan, first: Fact, second: Fact) -> Rendered | None:
    """A percent change that could honestly mean two things is asked back, not guessed."""
    relative = "relative" in plan.intent.question.lower()
    if first.unit == PERCENT_UNIT and not relative:
        return Rendered(
            "clarify",
            f"{_label(first)} and {_label(second)} are percentages: do you mean the change in "
            "percentage points or the relative change in percent?",
            choices=_replies(POINTS_CHOICE, RELATIVE_CHOICE),
        )
    if first.value < 0:
        return Rendered(
            "clarify",
            f"{_label(first)} is negative, so a percent change from it would mislead. "
            "Do you mean the change in amount?",
            choices=_replies(AMOUNT_CHOICE),
        )
    return None


def _replies(*words: str) -> tuple[Choice, ...]:
    """Replies the conversation's session completes (the operation it carries)."""
    return tuple(Choice(word, word) for word in words)


def _pair(plan: Plan, facts: list[Fact]) -> tuple[Fact, Fact]:
    if len({f.period for f in facts}) > 1:
        ordered = sorted(facts, key=lambda f: plan.intent.periods.index(f.period))
        return ordered[0], ordered[-1]
    return facts[0], facts[-1]  # across entities or metrics: first named against second


def _pair_sentence(notes: _Citations, first: Fact, second: Fact) -> str:
    if first.period != second.period and (first.entity, first.metric) == (
        second.entity,
        second.metric,
    ):
        return (
            f"{first.entity}'s {first.metric} went from {format_value(first.value, first.unit)} "
            f"in {first.period} {notes.cite(first)} to {format_value(second.value, second.unit)}"
            f" in {second.period} {notes.cite(second)}"
        )
    return (
        f"{_label(first)} was {format_value(first.value, first.unit)} {notes.cite(first)}"
        f" and {_label(second)} was {format_value(second.value, second.unit)} {notes.cite(second)}"
    )


_LEADING = lexicon("and so but then")
_YES_NO = lexicon("did does do has have had was were is are")
_MEASURED = lexicon("by than above below exceed exceeded least")
_OUTFLOW = lexicon(
    "cost costs expense expenses expenditure expenditures purchase purchases payment payments "
    "repayment repayments paid used outflow outflows loss losses charge charges spending"
)
_HEAD_END = re.compile(r"\s+(?:of|in|on|by|for|from|to)\s+|[(,]", re.I)


def _movement(value: Decimal, shown: str) -> str:
    if value > 0:
        return f"an increase of {shown.replace('-', '', 1)}"
    if value < 0:
        return f"a decrease of {shown.replace('-', '', 1)}"
    return "no change"


def _change_label(first: Fact, second: Fact, percent: bool) -> str:
    kind = "percent change" if percent else "change"
    if first.period != second.period:
        return f"{first.entity} {first.metric} {kind} {first.period} to {second.period}"
    return f"{kind}: {_label(second)} vs {_label(first)}"


def _label(fact: Fact) -> str:
    when = f" in {fact.period}" if fact.period else ""
    return f"{fact.entity}'s {fact.metric}{when}"


def _missing_sentence(slots: Sequence[Slot]) -> str:
    parts = [f"{s.entity}'s {s.metric} in {s.period}" for s in slots]
    listed = ", ".join(parts[:-1]) + " or " + parts[-1] if len(parts) > 1 else parts[0]
    return f"The knowledge base holds no figure for {listed}."


def _cannot_combine(first: Fact, second: Fact) -> Rendered:
    return Rendered(
        "not_found",
        f"{_label(first)} and {_label(second)} cannot be combined that way "
        "(different units, or a zero base).",
    )


def _done(notes: _Citations, sentences: list[str], note: str) -> Rendered:
    if note:
        sentences.append(f"({note[0].upper()}{note[1:]}.)")
    return Rendered("found", " ".join(sentences), tuple(notes.figures), tuple(notes.sources))


def _fact_figure(fact: Fact) -> Figure:
    return Figure(
        label=f"{fact.entity} {fact.metric} {fact.period}",
        value=fact.value,
        unit=fact.unit,
        kind="fact",
        sources=(fact.id,),
        display=format_value(fact.value, fact.unit),
        role="fact",
        entity=fact.entity,
        metric=fact.metric,
        period=fact.period,
    )
