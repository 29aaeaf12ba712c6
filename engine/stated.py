"""Figures a document's sentence states: "rent was $310 million, $324 million and $318 million
for 2006, 2005 and 2004, respectively" holds three figures, each tied to its year.

`read_sentence(text)` finds, in one sentence, the amounts it states for periods and what they
are amounts of (the words before them: the subject). It reads the shapes reports write:

- parallel lists: "X was $A, $B and $C for Y1, Y2 and Y3(, respectively)", or the periods
  first: "X as of <date1> and <date2> were $A and $B, respectively";
- an amount beside its period: "X in 2015 was $A", "X was $A in 2015", "$A in 2015 compared
  with $B in 2014" (the second clause keeps the first one's subject);
- scales and signs: "$1.4 billion", "$(56) million", "-$5", "12.5%" (a percent repeated in
  brackets, "2.1% ( 2.1 % )", is read once).

It reads nothing it is unsure of: an amount that says how much something moved ("increased
$37.9 million", "an increase of $4.5") is a change, not the figure's level, and is left out;
so are amounts in brackets ("(16 percent of net sales)"), which qualify another figure, and
amounts with no currency, scale or percent ("1046 gwh"). Values stay as written with their
scale as the unit ("324", "million"), the way engine/tables.py reads a report's cells.

`stated_figure(passages, topic, period)` picks, among the sentences of the passages given,
the one figure for a topic and period, or None when no sentence states one, the subject does
not hold the whole topic, or sentences state different numbers for it (ADR 0041).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation

from engine.parser import STOP
from engine.passages import sentences
from engine.text import normalise_word
from engine.topic import Topic, root
from engine.types import Passage


def _plain(text: str) -> frozenset[str]:
    """A word list written as one string, the words as written (lower case)."""
    return frozenset(text.split())


_NUMBER = r"\d[\d,]*(?:\.\d+)?"
_SCALE = r"(?P<scale>thousand|million|mil-\s*lion|billion|trillion|bn|mn)\b"
_MONTHS = (
    "january|february|march|april|may|june|july|august|september|october|november|december"
    "|jan|feb|mar|apr|jun|jul|aug|sep|sept|oct|nov|dec"
)
_TOKEN = re.compile(
    rf"""
    (?P<money>
        (?P<sign>-\s*|\(\s*)?
        (?:[$€£¥]|usd|eur|gbp)\s*(?P<inner>-\s*|\(\s*)?(?P<amount>{_NUMBER})\s*\)?
        (?:\s*{_SCALE})?
    )
  | (?P<percent>(?P<psign>-\s*)?(?P<pnumber>{_NUMBER})\s*(?:%|percent\b|per\s+cent\b)
        (?:\s*\(\s*-?\s*(?P=pnumber)\s*%\s*\))?)
  | (?P<date>\b(?:{_MONTHS})\.?\s+(?:\d{{1,2}}\s*,?\s*)?(?P<dyear>(?:19|20)\d{{2}})\b)
  | (?P<fiscal>\b(?:fiscal|fy)\s*(?:year\s+)?(?P<fyear>(?:19|20)\d{{2}})\b)
  | (?P<year>(?<![\d.,$])(?P<yyear>(?:19|20)\d{{2}})(?![\d%a-z]|\.\d|\s*(?:%|percent\b)))
  | (?P<open>\()
  | (?P<close>\))
  | (?P<stop>;)
  | (?P<comma>,)
  | (?P<word>[^\W\d_]+(?:['’-][^\W\d_]+)*|\d[\d,.]*)
    """,
    re.IGNORECASE | re.VERBOSE,
)
_SCALES = {"thousand": "thousand", "million": "million", "billion": "billion",
           "trillion": "trillion", "bn": "billion", "mn": "million"}  # fmt: skip
PERCENT = "%"

# A clause after a comma starting so is about something else, or about the same thing at
# another time ("compared with $B in 2014"): it is read on its own.
_BREAKS = _plain(
    """which while whereas but compared versus primarily due reflecting including
    excluding partially partly offset resulting an a up down as or and"""
)
# A clause opening so says what the subject before it holds: the subject goes on.
_ASIDES = _plain("including")
# Clauses opening so state the same subject's figure for another period.
_SAME_SUBJECT = _plain("compared versus up down from against as and or")
# Words that may stand between an amount and its period ("$A for the year ended 2015").
_BETWEEN = _plain("""in for during at as of on the fiscal year years ended ending end respectively
    calendar""")
# Words that may stand between a period and its amount ("during 2015 was $A").
_LINKING = (
    _plain("""was were is are totaled totalled amounted to of approximately about
    approximated equaled equalled reached stood""")
    | _BETWEEN
)
_MOVED = frozenset(
    root(normalise_word(w))
    for w in _plain("""increase increased increases decrease decreased decreases rise rose risen
    grew grow growth decline declined declines fell fall drop dropped improvement improved
    gain gained up down higher lower change changed reduction reduced reduce by
    additional more less""")
)
_LIST_JOINERS = frozenset({"and", ","})
# Verbs a filing states a figure with ("we recorded X totaling $A"): not a qualifier of X.
_REPORTING = frozenset(
    root(normalise_word(w))
    for w in _plain("""record recorded recognize recognized report reported incur incurred have had
    pay paid receive received generate generated spend spent make made""")
)
_DETERMINERS = _plain("the our its their this these those a an")
_PREPOSITIONS = _plain("in of for from within under on at to by than with between among into")
_NEUTRAL = frozenset(root(normalise_word(w)) for w in _plain("total aggregate overall"))
_FILLER = frozenset(root(w) for w in STOP)
_STOP = re.compile(r"(?<!\b[a-z])[.!?]\s+(?=\S)")
_LOOKING_AHEAD = re.compile(
    r"\b(?:expects?|expected\s+to|anticipates?|anticipated|will|projects?|projected|"
    r"forecasts?|forecasted|plans\s+to|intends?\s+to)\b",
    re.IGNORECASE,
)
# A topic of one word ("revenue", "acquired") names too little to pick a sentence's figure.
MIN_TOPIC_TERMS = 2


@dataclass(frozen=True, slots=True)
class Stated:
    """A figure a sentence states: value as written, its scale or "%" as unit, the period it
    is for, and the words it is a figure of."""

    value: Decimal
    unit: str
    period: str
    subject: str
    start: int  # the sentence, in the text it was read from: text[start:end]
    end: int


@dataclass(frozen=True, slots=True)
class Found:
    """The figure a passage's sentence states for a topic and period."""

    stated: Stated
    passage: Passage
    label: str  # the subject's words that name the topic ("rental expense under leases")

    @property
    def sentence(self) -> str:
        return self.passage.text[self.stated.start : self.stated.end]


@dataclass(frozen=True, slots=True)
class _Item:
    kind: str  # amount, period, word, comma, stop
    text: str
    start: int
    end: int
    value: Decimal | None = None
    unit: str = ""
    period: str = ""


def read_text(text: str) -> list[Stated]:
    """The figures every sentence of a text states, with each sentence's place in it."""
    found: list[Stated] = []
    for start, end in _sentences(text):
        for stated in read_sentence(text[start:end]):
            found.append(_placed(stated, start, end))
    return found


def _sentences(text: str) -> Iterator[tuple[int, int]]:
    """Where each sentence stands in a text. Besides what engine/passages.py reads as
    sentences, a stop followed by a space ends one even before a lower-case word: filings
    converted to text often lose their capitals ("... respectively . future ...")."""
    for sentence in sentences(text):
        start = sentence.start
        for match in _STOP.finditer(sentence.text):
            end = sentence.start + match.start() + 1
            if text[start:end].strip():
                yield start, end
            start = sentence.start + match.end()
        if start < sentence.end:
            yield start, sentence.end


def read_sentence(text: str) -> list[Stated]:
    """The figures one sentence states, each for one period, with its subject. A sentence
    looking ahead ("the company expects to record amortization of $97.8 million ... for
    2005") states a projection, not a figure reported: it gives none (ADR 0050)."""
    found: list[Stated] = []
    if _LOOKING_AHEAD.search(text):
        return found
    subject: list[_Item] = []
    for clause in _clauses(_items(text)):
        opening = clause[0].text.lower() if clause and clause[0].kind == "word" else ""
        own = _subject(clause)
        if own and opening in _ASIDES and subject:
            subject = [*subject, *own]  # "X, including Y, was $A": still X
        elif own and (opening not in _SAME_SUBJECT or not subject):
            subject = own
        words = " ".join(item.text for item in subject)
        for value, unit, period in _pairs(clause):
            found.append(Stated(value, unit, period, words, 0, len(text)))
    return found


def stated_figure(
    passages: Iterable[Passage], topic: Topic, period: str, *, owner: str = ""
) -> Found | None:
    """The one figure the passages' sentences state for this topic and period; None when
    none does, or when they state different numbers for it. `owner`: the company's name,
    which may stand before the topic ("Kestrel's dock rental expense")."""
    named = frozenset(root(normalise_word(w)) for w in re.findall(r"\w+", owner))
    found = list(_candidates(passages, topic, period, named))
    values = {(f.stated.value, f.stated.unit) for f in found}
    return found[0] if len(values) == 1 else None


def _candidates(
    passages: Iterable[Passage], topic: Topic, period: str, named: frozenset[str]
) -> Iterator[Found]:
    if len(topic.terms) < MIN_TOPIC_TERMS:
        return
    for passage in passages:
        for stated in read_text(passage.text):
            if stated.period != period:
                continue
            label = about(stated.subject, topic, named)
            if label:
                yield Found(stated, passage, label)


def about(subject: str, topic: Topic, named: frozenset[str] = frozenset()) -> str:
    """The words of a subject that name the whole topic: the shortest run of them holding
    every topic word, the last such run ("rental expense under operating leases"); "" when
    the subject lacks a topic word, or qualifies the run with a word of its own just before
    it ("service revenue" is not "revenue")."""
    tokens = re.findall(r"[^\W\d_]+(?:['’][^\W\d_]+)*", subject)
    roots = [root(normalise_word(t)) for t in tokens]
    if topic.coverage(frozenset(roots)) < 1.0:
        return ""
    window = _shortest_run(roots, frozenset(topic.terms))
    if window is None:
        return ""
    first, last = window
    before = roots[first - 1] if first else ""
    if before and before not in _FILLER | _NEUTRAL | _REPORTING | named:
        return ""
    if _part_of(roots[:first]):
        return ""
    return " ".join(tokens[first : last + 1])


def _part_of(before: Sequence[str]) -> bool:
    """ "Included in our gross benefits are $A": a run after a preposition (past words such
    as "our", "total") names what the figure is part of or about, not the figure."""
    for word in reversed(before):
        if word in _DETERMINERS or word in _NEUTRAL:
            continue
        return word in _PREPOSITIONS
    return False


def _shortest_run(roots: Sequence[str], wanted: frozenset[str]) -> tuple[int, int] | None:
    """(first, last) of the shortest run of words holding every wanted word; of equals, the
    last (nearest the figure)."""
    best: tuple[int, int] | None = None
    for last in range(len(roots)):
        if roots[last] not in wanted:
            continue
        seen: set[str] = set()
        for first in range(last, -1, -1):
            if roots[first] in wanted:
                seen.add(roots[first])
            if seen == wanted:
                if best is None or last - first <= best[1] - best[0]:
                    best = (first, last)
                break
    return best


# -- reading ------------------------------------------------------------------------------


def _items(text: str) -> list[_Item]:
    items: list[_Item] = []
    depth = 0
    for match in _TOKEN.finditer(text):
        kind = match.lastgroup or "word"
        if kind == "open":
            depth += 1
            continue
        if kind == "close":
            depth = max(depth - 1, 0)
            continue
        if depth:
            continue  # an aside in brackets qualifies another figure
        item = _item(match, kind)
        if item is not None:
            items.append(item)
    return items


def _item(match: re.Match[str], kind: str) -> _Item | None:
    start, end, text = match.start(), match.end(), match.group()
    if kind == "money":
        value = _decimal(match.group("amount"))
        if value is None:
            return None
        if match.group("sign") or match.group("inner"):
            value = -value
        scale = (match.group("scale") or "").lower().replace("-", "").replace(" ", "")
        return _Item("amount", text, start, end, value, _SCALES.get(scale, ""))
    if kind == "percent":
        value = _decimal(match.group("pnumber"))
        if value is None:
            return None
        return _Item("amount", text, start, end, -value if match.group("psign") else value,
                     PERCENT)  # fmt: skip
    if kind in ("date", "fiscal", "year"):
        year = match.group("dyear") or match.group("fyear") or match.group("yyear")
        return _Item("period", text, start, end, period=f"FY{year}")
    return _Item(kind, text, start, end)


def _clauses(items: list[_Item]) -> Iterator[list[_Item]]:
    """The sentence cut at semicolons, and at commas before a word opening another clause."""
    clause: list[_Item] = []
    for index, item in enumerate(items):
        after = items[index + 1] if index + 1 < len(items) else None
        breaking = item.kind == "stop" or (
            item.kind == "comma"
            and after is not None
            and after.kind == "word"
            and after.text.lower() in _BREAKS
            and not _continues_list(items, index)
        )
        if breaking:
            if clause:
                yield clause
            clause = []
        elif item.kind != "comma" or clause:
            clause.append(item)
    if clause:
        yield clause


def _continues_list(items: list[_Item], index: int) -> bool:
    """ "$A , $B , and $C": the comma before "and" goes on with a list of amounts or periods."""
    if index == 0 or index + 2 >= len(items):
        return False
    before, after = items[index - 1], items[index + 2]
    joined = items[index + 1].text.lower() == "and"
    return joined and before.kind == after.kind and before.kind in ("amount", "period")


def _subject(clause: list[_Item]) -> list[_Item]:
    """The words before the clause's first amount (periods and their small words left out)."""
    words = []
    for item in clause:
        if item.kind == "amount":
            break
        if item.kind == "word":
            words.append(item)
    return words


def _pairs(clause: list[_Item]) -> Iterator[tuple[Decimal, str, str]]:
    amounts = [i for i, item in enumerate(clause) if item.kind == "amount" and _level(clause, i)]
    money_lists = _lists(clause, "amount")
    period_lists = _lists(clause, "period")
    long_money = [run for run in money_lists if len(run) >= 2]
    long_periods = [run for run in period_lists if len(run) >= 2]
    if len(long_money) == 1 and len(long_periods) == 1:
        run, dates = long_money[0], long_periods[0]
        if len(run) == len(dates) and all(i in amounts for i in run):
            for i, d in zip(run, dates, strict=True):
                yield _value(clause[i]), clause[i].unit, clause[d].period
        return
    if long_money or long_periods:
        return  # lists that do not pair up one to one: which is which is not said
    periods = [i for i, item in enumerate(clause) if item.kind == "period"]
    for i in amounts:
        period = _beside(clause, i)
        if period is None and len(amounts) == 1 and len(periods) == 1:
            period = periods[0]
        if period is not None:
            yield _value(clause[i]), clause[i].unit, clause[period].period


def _lists(clause: list[_Item], kind: str) -> list[list[int]]:
    """Runs of items of one kind joined by commas and "and": "2006 , 2005 and 2004"."""
    runs: list[list[int]] = []
    run: list[int] = []
    gap: list[str] = []
    for index, item in enumerate(clause):
        if item.kind == kind:
            if run and not (gap and set(gap) <= _LIST_JOINERS):
                runs.append(run)
                run = []
            run.append(index)
            gap = []
        elif run:
            gap.append(item.text.lower())
            if not set(gap) <= _LIST_JOINERS:
                runs.append(run)
                run, gap = [], []
    if run:
        runs.append(run)
    return runs


def _beside(clause: list[_Item], index: int) -> int | None:
    """The period right after an amount ("$A in 2015"), or right before it ("during 2015
    was $A"), with only small words between."""
    for step, allowed in ((1, _BETWEEN), (-1, _LINKING)):
        position = index + step
        while 0 <= position < len(clause):
            item = clause[position]
            if item.kind == "period":
                return position
            if item.kind != "word" or item.text.lower() not in allowed:
                break
            position += step
    return None


def _level(clause: list[_Item], index: int) -> bool:
    """Whether an amount states a level, not how much something moved: "increased $37.9
    million", "an increase of $4.5", "by $12" are changes; "increased to $A" is a level."""
    before = [item for item in clause[max(index - 3, 0) : index] if item.kind == "word"]
    if not before:
        return True
    if before[-1].text.lower() in ("to", "from") or before[-1].text.lower() in ("was", "were"):
        return True
    moved = {root(normalise_word(item.text)) for item in before}
    return moved.isdisjoint(_MOVED)


def _value(item: _Item) -> Decimal:
    assert item.value is not None
    return item.value


def _decimal(text: str) -> Decimal | None:
    try:
        return Decimal(text.replace(",", ""))
    except InvalidOperation:
        return None


def _placed(stated: Stated, start: int, end: int) -> Stated:
    return Stated(stated.value, stated.unit, stated.period, stated.subject, start, end)
