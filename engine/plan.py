"""From an understood question to the facts its answer needs, or to a question asked back.

A plan names every (entity, metric, period) the answer rests on. When a slot is missing and
nothing can fill it, or the question could mean two things, the plan is a reply instead:
`clarify` asking for exactly what is missing, or `not_found` when the knowledge base cannot
hold the answer. A wrong figure is worse than a question back. Either reply offers what is
held nearby as choices, each a whole next question (engine/nearby.py).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Literal

from engine import nearby
from engine.intent import Intent, Operation
from engine.nearby import MAX_CHOICES, PERIOD_CHOICES, Asker
from engine.parser import LINE_ITEM_WORDS, SUM, asks_which_company, parser_for
from engine.store import KnowledgeStore
from engine.tables import MONTH_NAMES
from engine.text import TOKEN, lexicon, normalise_word, stem
from engine.timeframe import expand_range, period_sort_key
from engine.types import Choice, Fact, Holding, Vocabulary, showable

Held = Mapping[tuple[str, str], Sequence[str]]  # (entity, metric) -> periods held, oldest first


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
    held: Held = field(default_factory=dict)  # what the asker may see of each series asked
    # The operation between the two series in each period on its own: the first step of a
    # change in a measure that is one figure less another (free cash flow, ADR 0075).
    each_period: bool = False


@dataclass(frozen=True, slots=True)
class Reply:
    status: Literal["clarify", "not_found"]
    text: str
    choices: tuple[Choice, ...] = ()
    slot: str = ""


@dataclass(frozen=True, slots=True)
class _Asking:
    """What a reply needs to offer what is held nearby."""

    store: KnowledgeStore
    vocabulary: Vocabulary
    clearance: frozenset[str]
    asker: Asker

    def holdings(self, *, entity: str | None = None, metric: str | None = None) -> list[Holding]:
        return nearby.visible(self.store.holdings(entity=entity, metric=metric), self.clearance)


def make_plan(
    intent: Intent,
    store: KnowledgeStore,
    vocabulary: Vocabulary,
    clearance: frozenset[str],
    *,
    parse: Callable[[str], Intent],
) -> Plan | Reply:
    """`parse` reads a question as the engine does: nearby choices are checked with it."""
    asking = _Asking(store, vocabulary, clearance, asker_for(parse, vocabulary))
    intent = _later_date_first(_settled_by_dates(intent, asking))
    intent = _whole_of_part(intent, asking)
    intent = _across_companies(intent, asking)
    early = _unclear(intent, asking)
    if early is not None:
        return early
    entities = intent.entities or (vocabulary.entities[0].name,)
    held = {(e, m): _held_periods(store, e, m, clearance) for e in entities for m in intent.metrics}
    return _with_periods(intent.with_(entities=entities), held, asking)


def settled_lines(
    intent: Intent,
    store: KnowledgeStore,
    vocabulary: Vocabulary,
    clearance: frozenset[str],
    *,
    parse: Callable[[str], Intent],
) -> Intent:
    """The lines asked back settled as `make_plan` settles them (one series read from
    columns dated within one year, ADR 0055): a computation over named operands (a constant,
    an earlier result) asks back no line a lookup would not."""
    asking = _Asking(store, vocabulary, clearance, asker_for(parse, vocabulary))
    return _settled_by_dates(intent, asking)


def _across_companies(intent: Intent, asking: _Asking) -> Intent:
    """ "Which company had the highest revenue in FY2023?": with no company named or carried,
    the highest (or lowest) of one line in one period is taken across every company the
    knowledge base holds that figure for, as the asker may see it. A company whose figure
    the asker may not see is not among them, and is not named."""
    if intent.entities or len(intent.periods) != 1 or not asks_which_company(intent):
        return intent
    (metric,), (period,) = intent.metrics, intent.periods
    seen = {h.entity for h in asking.holdings(metric=metric) if h.period == period}
    holding = tuple(sorted(seen & {e.name for e in asking.vocabulary.entities}))
    return intent.with_(entities=holding) if len(holding) > 1 else intent


def _page_says(asking: _Asking, entity: str, whole: str, words: Sequence[str]) -> bool:
    """Words the question gives the total ("the total dividend") that no line holds: the
    page the Total line was read from must use them, or "total revenue" could be answered
    with a table's total assets. A line with no page of its own is not taken."""
    facts = asking.store.find_facts(entity=entity, metric=whole)
    pages = {f.document_id or f.source for f in facts} - {""}
    if len(pages) != 1:
        return False
    passages = asking.store.document_passages(pages.pop(), classifications=asking.clearance)
    said = {stem(normalise_word(w)) for p in passages for w in TOKEN.findall(p.text.lower())}
    return all(stem(normalise_word(w)) in said for w in words)


def _within(asking: _Asking, entity: str, part: str, whole: str, periods: Sequence[str]) -> bool:
    """Whether `whole` can be the whole of `part`: read from the same page (not a "Total" of
    another table), held wherever the part is asked, and in each of those periods non-zero,
    of the part's sign and no smaller (a line larger than its Total is a misread cell or
    another measure). Only figures the asker may see count."""
    asked = periods or None

    def seen(metric: str) -> list[Fact]:
        found = asking.store.find_facts(entity=entity, metric=metric, periods=asked)
        return [f for f in found if showable(f.classification, asking.clearance)]

    wholes, parts = seen(whole), seen(part)
    if {f.document_id or f.source for f in wholes} != {f.document_id or f.source for f in parts}:
        return False  # a "Total" of another table (a knowledge base of many pages)
    by_period = {f.period: f.value for f in wholes}
    if not parts or {f.period for f in parts} - set(by_period):
        return False
    return all(
        by_period[f.period] != 0
        and f.value * by_period[f.period] >= 0
        and abs(f.value) <= abs(by_period[f.period])
        for f in parts
    )


_TOTAL = normalise_word("total")


def figure_unread(
    intent: Intent,
    store: KnowledgeStore,
    vocabulary: Vocabulary,
    clearance: frozenset[str],
    *,
    parse: Callable[[str], Intent],
) -> Reply:
    """A question asking for a number whose figure or calculation could not be read is asked
    back, naming what is not held, with the figures that are as choices. It is never answered
    by quoting passages (ADR 0040): their numbers are not the one asked for."""
    asking = _Asking(store, vocabulary, clearance, asker_for(parse, vocabulary))
    unread = " ".join(intent.loose)
    if intent.metrics and intent.entities:
        targets = (
            (_lookup(intent.entities[0], m, intent.periods[-1] if intent.periods else ""), m)
            for m in intent.metrics
        )
        choices = asking.asker.choices(targets, limit=MAX_CHOICES)
        written = _as_written(intent.question, intent.loose)
        unheld = f": nothing is held for “{written}”" if written else ""
        text = (
            f"The knowledge base holds {_or(intent.metrics)}, but not a figure that answers "
            f"this as asked{unheld}. Which figure do you mean?"
        )
    else:
        choices = _figures(intent, asking)
        named = f" for “{unread}”" if unread else " that answers this"
        text = f"The knowledge base holds no figure{named}."
        if choices:
            text += " Which figure do you mean?"
    return Reply("clarify" if choices else "not_found", text, choices, "metric")


def _as_written(question: str, loose: Sequence[str]) -> str:
    """The words no line holds as the question wrote them ("SG&A", not the token "SG")."""
    chunks = [c.strip("?!.,;:()\"'“”") for c in question.split()]
    said = [next((c for c in chunks if c.lower().startswith(word.lower())), word) for word in loose]
    return " ".join(dict.fromkeys(said))


def asker_for(parse: Callable[[str], Intent], vocabulary: Vocabulary) -> Asker:
    return Asker(parse=parse, normal=_read_range, metrics=vocabulary.metrics)


def _unclear(intent: Intent, asking: _Asking) -> Reply | None:
    asker = asking.asker
    if intent.ambiguous:
        names = intent.ambiguous[0].choices
        targets = ((intent.with_(metrics=(*intent.metrics, m), ambiguous=()), m) for m in names)
        choices = asker.choices(targets, bare=True, limit=len(names))
        return Reply("clarify", f"Which figure do you mean: {_or(names)}?", choices, "metric")
    if not intent.entities and len(asking.vocabulary.entities) != 1:
        return Reply("clarify", "Which company do you mean?", _companies(intent, asking), "entity")
    if not intent.metrics:
        return Reply("clarify", "Which figure do you mean?", _figures(intent, asking), "metric")
    if intent.qualifiers:
        metric = intent.metrics[0]
        words = " ".join(intent.qualifiers)
        choice = asker.choice(intent.with_(qualifiers=()), metric, bare=True)
        return Reply(
            "clarify",
            f"The knowledge base holds {metric} as a whole, not a separate figure for "
            f"“{words}”. Do you mean {metric}?",
            (choice,) if choice else (),
            "metric",
        )
    return None


# A date without its year, as a table keeps it to tell apart two columns of one year
# ("Ferries January 1", "Ferries December 31", engine/tables.py).
_DAY = re.compile(rf"\b(?:{MONTH_NAMES})\b\.?(?:\s*\d{{1,2}}\b)?", re.IGNORECASE)


def _settled_by_dates(intent: Intent, asking: _Asking) -> Intent:
    """Lines that differ only by a date ("X", "X January 1", "X December 31") are one series
    read from columns dated within one year: the question's own months name the dated lines
    it means (ADR 0055), else the one line that holds every asked period is the one meant.
    Lines that differ in any other word are still asked back."""
    if len(intent.ambiguous) != 1 or len(intent.entities) > 1:
        return intent
    choices = intent.ambiguous[0].choices
    entity = (intent.entities or (asking.vocabulary.entities[0].name,))[0]
    if len(choices) < 2:
        # One line asked back is a line named only in part: still asked, unless it is the
        # only figure the company holds at all (a table of one series by date).
        held = {h.metric for h in asking.holdings(entity=entity)}
        if choices and held == set(choices) and not intent.loose:
            return intent.with_(metrics=(*intent.metrics, *choices), ambiguous=())
        return intent
    asked = set(intent.periods)

    def holds_asked(metric: str) -> bool:
        return asked <= set(_held_periods(asking.store, entity, metric, asking.clearance))

    by_month = _named_by_months(intent, choices)
    if by_month and all(holds_asked(m) for m in by_month):
        return intent.with_(metrics=(*intent.metrics, *by_month), ambiguous=())
    summed = _summed_across_columns(intent, choices, asking, entity)
    if summed is not intent or not intent.periods:
        return summed
    holding = [c for c in choices if holds_asked(c)]
    if len(holding) == 1 and _only_by_period(holding[0], choices, asking, entity):
        return intent.with_(metrics=(*intent.metrics, holding[0]), ambiguous=())
    undated = {_undated(c) for c in choices}
    if len(undated) != 1:
        return intent
    if len(holding) != 1:
        return intent
    return intent.with_(metrics=(*intent.metrics, holding[0]), ambiguous=())


_SHARES = ("percent_of", "ratio")


def _only_by_period(line: str, choices: Sequence[str], asking: _Asking, entity: str) -> bool:
    """ "The term loan balance at the end of 2021" over the loan's line by year and the same
    line in an undated column of another measure ("interest rate", a percent beside amounts):
    a question naming a period asks the line by year. An undated column in the line's own
    unit (a "Total" column of a maturity table) may be what is asked: still asked back."""

    def held(metric: str) -> list[Fact]:
        found = asking.store.find_facts(entity=entity, metric=metric)
        return [f for f in found if showable(f.classification, asking.clearance)]

    units = {f.unit for f in held(line)}
    for other in (c for c in choices if c != line):
        facts = held(other)
        if not other.startswith(f"{line} ") or any(f.period for f in facts):
            return False
        if not facts or {f.unit for f in facts} & units:
            return False
    return True


def _label_words(label: str) -> frozenset[str]:
    return frozenset(normalise_word(t) for t in TOKEN.findall(label))


def _whole_of_part(intent: Intent, asking: _Asking) -> Intent:
    """A share asked of one line and "the total" ("what percentage of the total is the first
    quarter", "tier 2 capital in relation to the total one") links one line, the part; the
    whole it is set against is that line's total, the one line held that is either

    - named like the part with its own label's head replaced by "Total", the table's Total
      line read in the part's column ("Fully integrated Asia" -> "Total Asia", "first
      quarter" -> "Total"), for a part that is not itself a total; or
    - named "total" and otherwise only by words of the part ("Total capital" for "Total tier
      2 capital"), when the part is named in full, every word of its line said, and at most
      one period is asked.

    Only when no earlier result, constant or nested step is the other operand, the whole is
    read from the part's page and holds it wherever it is asked (`_within`), and words the
    question gives the total are said on that page (`_page_says`). Else the question is
    still asked back."""
    if (
        intent.operation not in _SHARES
        or len(intent.metrics) != 1
        or len(intent.entities) > 1
        or intent.referent
        or intent.constants
        or intent.nested
    ):
        return intent
    asked = _label_words(intent.question)
    said = asked & LINE_ITEM_WORDS
    part = intent.metrics[0]
    entity = (intent.entities or (asking.vocabulary.entities[0].name,))[0]
    held = {h.metric for h in asking.holdings(entity=entity)} - {part}
    if _TOTAL not in said:
        column = _column_without_total(intent, part, held, asking, entity)
        return intent.with_(metrics=(part, *column), nested="sum") if column else intent
    row = _month_row_of_total(intent.question, part, held)
    if row is not None:
        # The one line linked is the Total; the part is the month's row in its column.
        if _within(asking, entity, row, part, intent.periods):
            return intent.with_(metrics=(row, part))
        return intent
    whole = _total_of_column(part, held) or _total_of_line(intent, part, said, held)
    if whole is None or not _within(asking, entity, part, whole, intent.periods):
        return intent
    if intent.loose and not _page_says(asking, entity, whole, intent.loose):
        return intent
    return intent.with_(metrics=(part, whole))


# Words of a column whose lines do not add up to a whole: a rate, a price, an average.
_NOT_ADDED = lexicon("average rate price per ratio percent percentage weighted margin")
# Words of a row that is itself a sum or a part of another row.
_NOT_A_ROW = lexicon("total subtotal net less excluding including which")


def _column_without_total(
    intent: Intent, part: str, held: set[str], asking: _Asking, entity: str
) -> tuple[str, ...]:
    """ "What portion of the owned facilities are in europe?" over a table of facilities by
    region (rows) and tenure (columns) with no Total line: the part is one row read in one
    column ("europe owned"); the whole the question names is that column, every row of it
    added up. Taken only when the question names the part's row and its column (no other
    line), the column holds at least three rows of the part's page, none of them a total
    or a part of another row, no Total line is held in it, its lines are amounts to add
    (no rate, price or average) of one unit and one sign, held in every asked period.
    Else nothing: the question is asked back as before."""
    words = part.split()
    asked = _label_words(intent.question)
    for cut in range(1, len(words)):
        head, column = " ".join(words[:cut]), " ".join(words[cut:])
        if not (_label_words(head) <= asked and _label_words(column) <= asked):
            continue
        if _label_words(column) & _NOT_ADDED:
            return ()
        suffix = f" {column.casefold()}"
        rows = [m for m in held if m.casefold().endswith(suffix)]
        heads = [m[: -len(suffix)] for m in rows]
        if any(normalise_word(w) == _TOTAL for h in heads for w in TOKEN.findall(h)):
            return ()
        if len(rows) < 2 or any(_label_words(h) & _NOT_A_ROW for h in [head, *heads]):
            return ()
        if any(_label_words(h) & _label_words(column) for h in [head, *heads]):
            return ()
        if not _adds_up(asking, entity, [part, *rows], intent.periods):
            return ()
        return tuple(sorted(rows))
    return ()


def _adds_up(asking: _Asking, entity: str, lines: Sequence[str], periods: Sequence[str]) -> bool:
    """Lines of one page, one unit and one sign (none zero), each held in every asked
    period, as the asker may see them."""
    asked = periods or None
    found = [
        [f for f in asking.store.find_facts(entity=entity, metric=m, periods=asked)
         if showable(f.classification, asking.clearance)]
        for m in lines
    ]  # fmt: skip
    if any(not facts for facts in found):
        return False
    facts = [f for group in found for f in group]
    wanted = set(periods) if periods else {facts[0].period}
    if any({f.period for f in group} != wanted for group in found):
        return False
    if len({f.document_id or f.source for f in facts}) != 1 or len({f.unit for f in facts}) != 1:
        return False
    return all(f.value > 0 for f in facts) or all(f.value < 0 for f in facts)


# A month the question names as a row, not as a date: "in november", not "december 31, 2015".
_ROW_MONTH = re.compile(rf"\b(?!may\b)(?:{MONTH_NAMES})\b\.?(?!\s*\d)", re.IGNORECASE)


def _month_row_of_total(question: str, total: str, held: set[str]) -> str | None:
    """ "The percent of the total shares purchased in november": the one line linked is a
    table's Total line read in a column ("Total Shares purchased"), and the question names
    one month, not as a date. The part is the one row dated in that month alone, read in the
    same column ("Nov. 1 through Nov. 30 Shares purchased"); none or several: None."""
    words = total.split()
    if len(words) < 2 or normalise_word(words[0]) != _TOTAL:
        return None
    months = {_month_of(m.group(0)) for m in _ROW_MONTH.finditer(question)}
    if len(months) != 1:
        return None
    column = " ".join(words[1:]).casefold()
    rows = []
    for metric in held:
        head = metric.casefold().removesuffix(column)
        if head == metric.casefold() or not head.endswith(" "):
            continue
        dated = {_month_of(m.group(0).split()[0]) for m in _DAY.finditer(head)}
        if dated == months:
            rows.append(metric)
    return rows[0] if len(rows) == 1 else None


def _total_of_column(part: str, held: set[str]) -> str | None:
    """The Total line in the part's column: "Total" followed by the part's last words, the
    longest such name first ("Total Approximate Number of Vehicles" before "Total")."""
    words = part.lower().split()
    if not words or normalise_word(words[0]) == _TOTAL:
        return None
    by_words = {tuple(m.lower().split()): m for m in held}
    named = (by_words.get(("total", *words[cut:])) for cut in range(1, len(words) + 1))
    return next((m for m in named if m is not None), None)


def _total_of_line(intent: Intent, part: str, said: frozenset[str], held: set[str]) -> str | None:
    """The one line named by a total word and otherwise only by the part's own words, the
    closest such name first, when the question names the part in full in one period."""
    own = _label_words(part)
    if len(intent.periods) > 1 or not own <= _label_words(intent.question):
        return None
    wholes: dict[int, list[str]] = {}
    for metric in held:
        keys = _label_words(metric)
        if keys & said and keys - said <= own and keys - said != own:
            wholes.setdefault(len(keys - said), []).append(metric)
    closest = wholes[max(wholes)] if wholes else []
    return closest[0] if len(closest) == 1 else None


def _summed_across_columns(
    intent: Intent, choices: Sequence[str], asking: _Asking, entity: str
) -> Intent:
    """ "The total X" where X is one line read only in columns that are not periods
    ("Amortization U.K.", "Amortization U.S.", "Amortization Other") and no column totals
    it: the total asked is the sum of its columns. With a Total column, or a plain line of
    that name, the question is still asked back."""
    if intent.operation is not None or SUM.isdisjoint(
        normalise_word(t) for t in TOKEN.findall(intent.question)
    ):
        return intent
    split = [c.split() for c in choices]
    width = min(len(w) for w in split) - 1
    while width > 0 and any(w[:width] != split[0][:width] for w in split):
        width -= 1
    if width == 0:
        return intent
    line = " ".join(split[0][:width])
    words = {normalise_word(w) for c in split for w in c}  # neither the line nor a column
    held = {h.metric for h in asking.holdings(entity=entity)}
    columns = {m for m in held if m.startswith(line + " ")}
    if line in held or not words.isdisjoint(SUM) or columns != set(choices):
        return intent  # a Total column, or a column not offered, is not summed over
    asked = set(intent.periods)
    for choice in choices:
        if not asked <= set(_held_periods(asking.store, entity, choice, asking.clearance)):
            return intent
    return intent.with_(
        metrics=(*intent.metrics, *choices), ambiguous=(), operation="sum", kind="comparison"
    )


def _later_date_first(intent: Intent) -> Intent:
    """A change between one line's figures at two dates of a year ("net income between the
    quarters ended January 26 and April 27") is the later less the earlier, in whichever
    order the question names them; "the difference between" them keeps the question's."""
    if intent.operation not in ("difference", "percent_change") or len(intent.metrics) != 2:
        return intent
    if {"difference", "differences"} & set(intent.question.lower().split()):
        return intent
    if len({_undated(m) for m in intent.metrics}) != 1:
        return intent
    moments = [_moment(m) for m in intent.metrics]
    if None in moments or moments[0] == moments[1]:
        return intent
    ordered = sorted(intent.metrics, key=lambda m: _moment(m) or (0, 0), reverse=True)
    return intent.with_(metrics=tuple(ordered))


def _moment(label: str) -> tuple[int, int] | None:
    """The month and day a line's label names ("Net income April 27" -> (4, 27)), if one."""
    found = [m.group(0) for m in _DAY.finditer(label)]
    if len(found) != 1:
        return None
    day = re.search(r"\d{1,2}", found[0])
    return _month_of(found[0].split()[0]), int(day.group(0)) if day else 0


def _undated(label: str) -> str:
    return " ".join(_DAY.sub(" ", label).casefold().split())


# A month the question names: "from jan 2008 to dec 2008", "as of june 30". "May" is a month
# only before a day or a year, else it is the verb.
_ASKED_MONTH = re.compile(rf"\b(?:(?!may\b)(?:{MONTH_NAMES})|may(?=\.?\s*\d))\b\.?", re.IGNORECASE)


def _month_of(word: str) -> int:
    return _MONTHS.index(word.casefold().rstrip(".")[:3]) + 1


_MONTHS = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")


def _named_by_months(intent: Intent, choices: Sequence[str]) -> tuple[str, ...]:
    """The dated lines of one series whose months the question names, one line for each
    month ("Balance—January 1" and "Balance—December 31" for "from jan to dec"); later date
    first for a change, as two lines of one period are subtracted first minus second. Any
    month named that picks no line, or picks two, settles nothing."""
    months = {_month_of(m.group(0)) for m in _ASKED_MONTH.finditer(intent.question)}
    if not months:
        return ()
    dated = {c: {_month_of(m.group(0).split()[0]) for m in _DAY.finditer(c)} for c in choices}
    picked = [c for c, held in dated.items() if held and held <= months]
    if len(picked) != len(months) or len({_undated(c) for c in picked}) != 1:
        return ()
    if len({min(dated[c]) for c in picked}) != len(picked):
        return ()
    later_first = intent.operation in ("difference", "percent_change")
    return tuple(sorted(picked, key=lambda c: min(dated[c]), reverse=later_first))


def _companies(intent: Intent, asking: _Asking) -> tuple[Choice, ...]:
    """The companies holding the asked figure in the asked periods (every company, when the
    question names no figure and there are few enough to list)."""
    if intent.metrics:
        names = _holders(intent, asking)
    else:
        names = [t.name for t in asking.vocabulary.entities]
        if len(names) > MAX_CHOICES:
            return ()
    targets = ((intent.with_(entities=(name,)), name) for name in names)
    return asking.asker.choices(targets, bare=True, limit=MAX_CHOICES)


def _holders(intent: Intent, asking: _Asking) -> list[str]:
    """The companies that hold every asked figure in every asked period (in some period,
    when none is asked)."""
    held: dict[str, set[tuple[str, str]]] = {}
    for metric in intent.metrics:
        for holding in asking.holdings(metric=metric):
            held.setdefault(holding.entity, set()).add((holding.metric, holding.period))
    wanted = [(m, p) for m in intent.metrics for p in intent.periods]
    return sorted(
        entity
        for entity, pairs in held.items()
        if set(wanted) <= pairs and set(intent.metrics) <= {m for m, _ in pairs}
    )


def _figures(intent: Intent, asking: _Asking) -> tuple[Choice, ...]:
    """The figures the company holds in the asked periods (in any, when none is asked)."""
    if not intent.entities:
        return ()
    metrics = _metrics_held(asking.holdings(entity=intent.entities[0]), intent.periods)
    targets = ((intent.with_(metrics=(m,)), m) for m in metrics)
    return asking.asker.choices(targets, bare=True, limit=MAX_CHOICES)


def _metrics_held(holdings: Iterable[Holding], periods: Sequence[str]) -> list[str]:
    by_metric: dict[str, set[str]] = {}
    for held in holdings:
        by_metric.setdefault(held.metric, set()).add(held.period)
    return sorted(m for m, held in by_metric.items() if set(periods) <= held)


def _held_periods(
    store: KnowledgeStore, entity: str, metric: str, clearance: frozenset[str]
) -> list[str]:
    facts = store.find_facts(entity=entity, metric=metric)
    periods = {f.period for f in facts if showable(f.classification, clearance)}
    return sorted(periods, key=period_sort_key)


def _with_periods(intent: Intent, held: Held, asking: _Asking) -> Plan | Reply:
    intent = _read_range(intent)
    operation = intent.operation
    every = sorted({p for periods in held.values() for p in periods}, key=period_sort_key)
    if not every:
        return Reply("not_found", _none_held(intent), _other_figures(intent, asking))
    if intent.count and not intent.periods and intent.count == len(every):
        # "Over the three years" with three held and none named before: the years held.
        intent = intent.with_(periods=tuple(every), period_range=True)
        return _with_periods(intent, held, asking)
    if intent.relative_last:
        periods = tuple(every[-intent.relative_last :])
        if operation in ("difference", "percent_change") and len(periods) == 1:
            # "the increase in the current year": from the period before it, not from itself.
            return _change_periods(intent.with_(periods=periods), every, held, asking)
        return _plan(intent, periods, held, _last_held(len(periods)))
    if operation in ("difference", "percent_change"):
        return _change_periods(intent, every, held, asking)
    if operation == "trend" and intent.period_range and intent.periods:
        return _range_held(intent, held)
    single = len(intent.entities) * len(intent.metrics) < 2 or not intent.periods
    if operation in ("sum", "average") and len(intent.periods) <= 1 and single:
        spans = nearby.recent_spans(every)
        targets = ((intent.with_(periods=s, period_range=True), _span(s)) for s in spans)
        choices = asking.asker.choices(targets, limit=PERIOD_CHOICES)
        return Reply("clarify", f"Over which periods should I take the {operation}?", choices)
    if operation in ("sum", "average", "trend", "higher", "lower") and not intent.periods:
        if operation in ("higher", "lower") and len(intent.entities) > 1:
            return _ask_period(intent, held, asking)
        return _plan(intent, tuple(every), held, _all_held(len(every)))
    if not intent.periods:
        if every == [""]:  # figures that belong to no period (a table's "Total" column)
            return _plan(intent, ("",), held)
        if len(every) == 1 and list(asking.vocabulary.periods) == every:
            # The knowledge base holds one period in all (a page whose table is of one date):
            # there is no other to choose.
            return _plan(intent, tuple(every), held, _all_held(1))
        return _ask_period(intent, held, asking)
    return _plan(intent, intent.periods, held)


def _range_held(intent: Intent, held: Held) -> Plan:
    """A range asked of a series: the periods held in it, naming those that are not (ADR
    0040). With none held, the plan asks for them all and the answer says none is held."""
    series = [set(periods) for periods in held.values()]
    kept = tuple(p for p in intent.periods if all(p in s for s in series))
    missing = [p for p in intent.periods if p not in kept]
    if not kept or not missing:
        return _plan(intent, intent.periods, held)
    return _plan(intent, kept, held, f"the knowledge base holds no figure for {_or(missing)}")


def _last_held(count: int) -> str:
    return "the last period held" if count == 1 else f"the last {count} periods held"


def _all_held(count: int) -> str:
    return "the only period held" if count == 1 else f"all {count} periods held"


def _span(periods: Sequence[str]) -> str:
    return f"{periods[0]} to {periods[-1]}"


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


def _change_periods(intent: Intent, every: list[str], held: Held, asking: _Asking) -> Plan | Reply:
    periods = sorted(intent.periods, key=period_sort_key)
    cross = len(intent.entities) > 1 or len(intent.metrics) > 1
    if len(periods) >= 2:
        return _plan(intent, (periods[0], periods[-1]), held)
    if len(periods) == 1 and cross:
        return _plan(intent, tuple(periods), held)
    if len(periods) == 1:
        earlier = [p for p in every if period_sort_key(p) < period_sort_key(periods[0])]
        if not earlier:
            return _nothing_before(intent, periods[0], every, asking)
        note = f"{earlier[-1]} is the previous period held"
        return _plan(intent, (earlier[-1], periods[0]), held, note)
    if cross:
        return _ask_period(intent, held, asking)
    pairs = nearby.recent_pairs(every)
    targets = ((intent.with_(periods=pair, period_range=True), _span(pair)) for pair in pairs)
    choices = asking.asker.choices(targets, limit=PERIOD_CHOICES)
    return Reply("clarify", "Which two periods should I compare?", choices, "period")


def _nothing_before(intent: Intent, period: str, every: list[str], asking: _Asking) -> Reply:
    """A change from the previous period, asked of the first period held: offer the change
    to the next one instead."""
    later = [p for p in every if period_sort_key(p) > period_sort_key(period)]
    pairs = [(period, p) for p in later[:1]]
    targets = ((intent.with_(periods=pair), _span(pair)) for pair in pairs)
    return Reply(
        "not_found",
        f"The knowledge base holds no period before {period} to compare with.",
        asking.asker.choices(targets, limit=1),
    )


def _ask_period(intent: Intent, held: Held, asking: _Asking) -> Reply:
    """Which period: those held for every figure asked (for any, when none is held for all)."""
    series = [set(periods) for periods in held.values()]
    every = set.intersection(*series) or set.union(*series)
    periods = nearby.newest_first(every)[:PERIOD_CHOICES]
    targets = ((intent.with_(periods=(p,)), p) for p in periods)
    choices = asking.asker.choices(targets, bare=True, limit=PERIOD_CHOICES)
    return Reply("clarify", "Which period do you mean?", choices, "period")


def _plan(intent: Intent, periods: Sequence[str], held: Held, note: str = "") -> Plan:
    if intent.operation == "percent_of":
        # A share's whole is its total; a ratio keeps the order asked ("assets over equity").
        intent = intent.with_(metrics=_denominator_last(intent.metrics))
    slots = tuple(
        Slot(entity, metric, period)
        for entity in intent.entities
        for metric in intent.metrics
        for period in periods
    )
    return Plan(intent=intent.with_(periods=tuple(periods)), operation=intent.operation,
                slots=slots, note=note, held=held)  # fmt: skip


def _denominator_last(metrics: tuple[str, ...]) -> tuple[str, ...]:
    """In a share of a whole, the total is the denominator whichever way the question ran."""
    totals = [m for m in metrics if "total" in m.lower().split()]
    if len(metrics) == 2 and len(totals) == 1:
        return (*(m for m in metrics if m not in totals), totals[0])
    return metrics


def _none_held(intent: Intent) -> str:
    what = " or ".join(intent.metrics)
    return f"The knowledge base holds no {what} for {_or(intent.entities)}."


def _other_figures(intent: Intent, asking: _Asking) -> tuple[Choice, ...]:
    """Nothing of the asked figure is held for the company: the figures it holds in the
    asked periods (or, holding none then, in its nearest period), else the companies that
    hold the asked figure."""
    entity = intent.entities[0]
    holdings = asking.holdings(entity=entity)
    if not holdings:
        targets = ((intent.with_(entities=(e,)), e) for e in _holders(intent, asking))
        return asking.asker.choices(targets, limit=MAX_CHOICES)
    metrics = _metrics_held(holdings, intent.periods)
    if metrics:
        targets = ((intent.with_(entities=(entity,), metrics=(m,)), m) for m in metrics)
        return asking.asker.choices(targets, limit=MAX_CHOICES)
    asked = intent.periods[-1] if intent.periods else ""
    (period,) = nearby.nearest({h.period for h in holdings}, asked, 1) or ("",)
    lookups = (
        (_lookup(entity, m, period), f"{m}, {period}") for m in _metrics_held(holdings, (period,))
    )
    return asking.asker.choices(lookups, limit=MAX_CHOICES)


def _lookup(entity: str, metric: str, period: str) -> Intent:
    return Intent(question="", kind="lookup", entities=(entity,), metrics=(metric,),
                  periods=(period,) if period else ())  # fmt: skip


def _or(names: Sequence[str]) -> str:
    names = list(names)
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " or " + names[-1]


def held_instead(plan: Plan, missing: Sequence[Slot], asker: Asker) -> tuple[Choice, ...]:
    """A figure the plan needs is not held: the same question about the periods held nearest
    to the missing one (a lookup of that figure, or the calculation with that period
    swapped), keeping only questions whose every figure is held for the asker."""
    slot = missing[0]
    series = plan.held.get((slot.entity, slot.metric), ())
    intent = plan.intent
    targets: list[tuple[Intent, str]] = []
    if plan.operation is None:
        for period in nearby.nearest(series, slot.period, PERIOD_CHOICES):
            targets.append((_lookup(slot.entity, slot.metric, period), period))
    elif plan.operation in AGGREGATES and intent.period_range:
        span = tuple(p for p in intent.periods if _fully_held(plan, intent.with_(periods=(p,))))
        if len(span) >= 2 and span != intent.periods:
            targets.append((intent.with_(periods=span), _span(span)))
    else:
        for period in nearby.nearest(series, slot.period, PERIOD_CHOICES):
            periods = tuple(period if p == slot.period else p for p in intent.periods)
            if len(set(periods)) == len(periods):
                label = _span(periods) if len(periods) == 2 else period
                targets.append((intent.with_(periods=periods), label))
    held = [(target, label) for target, label in targets if _fully_held(plan, target)]
    return asker.choices(held, limit=PERIOD_CHOICES)


def _fully_held(plan: Plan, target: Intent) -> bool:
    return all(
        period in plan.held.get((entity, metric), ())
        for entity in target.entities
        for metric in target.metrics
        for period in target.periods
    )


def question_for(intent: Intent, vocabulary: Vocabulary) -> str | None:
    """A whole question the engine reads as `intent`, in the words nearby choices use, or
    None when none can be written (for callers that offer questions of their own)."""
    choice = asker_for(parser_for(vocabulary).parse, vocabulary).choice(intent, "")
    return choice.question if choice else None


def lookup_intent(entity: str, metric: str, period: str = "") -> Intent:
    """One figure, as the parser would understand a question asking for it."""
    return _lookup(entity, metric, period)


def operand_plan(
    intent: Intent,
    vocabulary: Vocabulary,
    store: KnowledgeStore | None = None,
    clearance: frozenset[str] = frozenset(),
    within: frozenset[str] = frozenset(),
) -> Plan:
    """A computation over named operands (engine/arithmetic.py): the facts are exactly the
    metrics and periods the question names or the session carried for it, nothing chosen;
    earlier results and constants come beside them. With no company named, the one the
    knowledge base holds (the caller asks which when it holds several). A figure named with
    no period is taken in the one period it is held in, when that is no period at all (a
    table's amount column) or one of the periods the earlier result was worked out over
    (`within`: a change from 2007 to 2008 and an item of that change held for 2008 only);
    otherwise it has no slot and the answer asks."""
    only = (vocabulary.entities[0].name,) if len(vocabulary.entities) == 1 else ()
    entities = intent.entities or only
    if store is not None and intent.metrics and not intent.periods:
        held = {p for e in entities for m in intent.metrics
                for p in _held_periods(store, e, m, clearance)}  # fmt: skip
        if len(held) == 1 and held <= within | {""}:
            intent = intent.with_(periods=tuple(held))
    if intent.paired and len(intent.periods) == len(intent.metrics):
        # Each figure in its own period, as the question named them.
        pairs = tuple(zip(intent.metrics, intent.periods, strict=True))
        slots = tuple(Slot(e, m, p) for e in entities for m, p in pairs)
    else:
        slots = tuple(
            Slot(e, m, p) for e in entities for m in intent.metrics for p in intent.periods
        )
    return Plan(intent=intent.with_(entities=entities), operation=intent.operation, slots=slots)
