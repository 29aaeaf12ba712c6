"""Periods named in a question: FY2023, fiscal 2023, FY23, 2023, ranges and relative spans.

A number is a period only where it reads as a year (1900-2100) or carries a fiscal marker;
1320, 999 and 1,320 never become periods.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from engine.periods import full_year

_NUMBER_WORDS = {
    "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
    "eight": 8, "nine": 9, "ten": 10,
}  # fmt: skip
_QUARTER_WORDS = {"first": 1, "second": 2, "third": 3, "fourth": 4}

_YEAR = r"(?:19|20)\d{2}"
# A month and, optionally, a day before a slashed year: "12/", "12/31/".
_MONTH_DAY = r"(?:0?[1-9]|1[0-2])/(?:(?:0?[1-9]|[12]\d|3[01])/)?"
_PERIOD = re.compile(
    # A date written with slashes ("12/14", "12/31/05") is the year a table reads from a
    # column headed so (engine/tables.py), month first.
    # The lookahead lets the scan skip, with one test, every position where no period can
    # start (the alternatives below begin with a digit or with q, f, s or t).
    rf"""
    (?=[0-9qfst])
    (?:
    (?P<quarter>\bq(?P<qn>[1-4])\s*(?:of\s+)?(?:fy\s*'?|fiscal\s+(?:year\s+)?)?(?P<qy>{_YEAR}|\d{{2}})\b)
  | (?P<quarter_words>\b(?P<qw>first|second|third|fourth)\s+quarter\s+(?:of\s+)?
        (?:fy\s*'?|fiscal\s+(?:year\s+)?)?(?P<qwy>{_YEAR})\b)
  | (?P<fy>\bfy\s*'?(?P<fyy>{_YEAR}|\d{{2}})\b)
  | (?P<fiscal>\bfiscal\s+(?:year\s+)?(?P<fisy>{_YEAR}|\d{{2}})\b)
  | (?P<slash>(?<![\d/.,$]){_MONTH_DAY}(?P<sy>{_YEAR}|\d{{2}})(?![\d/%]|[.,]\d))
  | (?P<year>(?<![\d$£€.,])(?P<yy>{_YEAR})(?![\d%]|[.,]\d|\s*(?:%|percent\b)))
    )
    """,
    re.IGNORECASE | re.VERBOSE,
)
_RANGE_JOINERS = re.compile(
    r"^\s*(?:-|–|—|to|through|thru|until|till|and|vs\.?|versus)\s*$", re.IGNORECASE
)
_RANGE_OPENERS = re.compile(r"(?:from|between)\s*$", re.IGNORECASE)
_RELATIVE = re.compile(
    r"\b(?:last|past|previous|prior|recent)\s+(?P<n>\d{1,2}|two|three|four|five|six|seven|eight|nine|ten)"
    r"\s+(?:fiscal\s+)?years?\b",
    re.IGNORECASE,
)
# "The two previous years, from 2013 to 2014": as many years as the question names, said
# again as a count; the years named are the ones meant, the count adds none.
_SEQUENCE = r"(?:last|past|previous|prior|preceding|recent|following|subsequent)"
_COUNT = r"two|three|four|five|six|seven|eight|nine|ten"
_COUNTED_BESIDE = re.compile(
    rf"\b(?:(?P<n>{_COUNT})\s+{_SEQUENCE}|{_SEQUENCE}\s+(?P<m>{_COUNT}))"
    r"\s+(?:fiscal\s+)?years\b",
    re.IGNORECASE,
)
_LATEST = re.compile(
    r"\b(?:latest|most\s+recent|newest|last|current)\s+(?:fiscal\s+)?(?:year|period)\b",
    re.IGNORECASE,
)
# "The latest total assets", "its most recent revenue": the word alone says the last period
# held, as "the latest year" does ("last" and "current" alone name other things: "last two",
# "current assets").
_LATEST_WORD = re.compile(r"\b(?:latest|most\s+recent|newest)\b", re.IGNORECASE)
_YEAR_BEFORE = re.compile(
    r"\b(?:the\s+)?(?:year\s+(?:before|prior)|prior\s+year|previous\s+year|preceding\s+year)\b",
    re.IGNORECASE,
)
# A year counted from the one the conversation is on: "in the year before", "the previous year
# of this period", "the following year". Anchored ("of that date"), a year named beside it is
# the same year said again ("the precedent year of that date, in 2005"), not a second one.
_STEP = re.compile(
    r"\b(?:the\s+)?(?:year\s+(?P<b>before|after|prior)|(?P<w>prior|previous|preceding|precedent"
    r"|following|subsequent)\s+year)"
    r"(?P<anchor>\s+(?:of|to|before|after|from)\s+(?:this|that|the|those)\s+(?:same\s+)?"
    r"(?:period|date|year|time))?\b",
    re.IGNORECASE,
)
# Years counted from the conversation's: "two years earlier", "a year later", "3 years
# before". ("Ago" counts from today, not from the year the conversation is on.)
_STEPS = re.compile(
    r"\b(?P<n>an?|one|two|three|four|five|six|seven|eight|nine|ten|\d{1,2})\s+(?:fiscal\s+)?"
    r"years?\s+(?P<d>earlier|before|prior|later|after|on)\b",
    re.IGNORECASE,
)
# A year named just before: "the year and prior year" lists two; a sentence-opening "and
# the year before?" does not.
_LISTED = re.compile(r"\b(?:year|years|period|\d{4})\s+(?:and|or|to|through)\s*$", re.IGNORECASE)
_LISTED_AFTER = re.compile(r"\s*(?:and|or|to|through|versus|vs)\b", re.IGNORECASE)
# "In the previous year, in 2006": the year named right after says which year that is.
_APPOSITION = re.compile(r"\s*,\s*(?:in|of|for)?\s*(?:fiscal\s+|fy\s*)?\d{4}\b", re.IGNORECASE)
_LATER = frozenset({"after", "following", "subsequent"})


class TimeFrame(NamedTuple):
    periods: tuple[str, ...] = ()
    is_range: bool = False  # "from 2021 to 2023": every period between the ends is meant
    relative_last: int | None = None  # "over the last three years", resolved against held data
    spans: tuple[tuple[int, int], ...] = ()  # character spans the periods were read from
    # A year counted from the conversation's period when the question names none: -1 for
    # "the year before", +1 for "the following year" (engine/session.py resolves it).
    step: int = 0


def fiscal_year(year: int) -> str:
    return f"FY{year}"


def _period_of(match: re.Match[str]) -> str | None:
    form = match.lastgroup  # the outer group that matched: one look-up, not five
    if form == "quarter_words":
        year = full_year(match.group("qwy"))
        return f"FY{year} Q{_QUARTER_WORDS[match.group('qw').lower()]}" if year else None
    if form == "quarter":
        year = full_year(match.group("qy"))
        return f"FY{year} Q{match.group('qn')}" if year else None
    year = full_year(match.group(_YEAR_GROUP[form or "year"]))
    return fiscal_year(year) if year else None


_YEAR_GROUP = {"fy": "fyy", "fiscal": "fisy", "year": "yy", "slash": "sy"}


_NO_TIME = TimeFrame()
_TIME_WORD = re.compile(r"year|period|quarter|fy|fiscal|latest|recent|newest")
_DIGIT = re.compile(r"\d")


def read_timeframe(question: str) -> TimeFrame:
    lowered = question.lower()
    if not _DIGIT.search(question) and not _TIME_WORD.search(lowered):
        return _NO_TIME  # most follow-ups and narrative questions name no time at all
    found: list[tuple[str, int, int]] = []
    for match in _PERIOD.finditer(question):
        period = _period_of(match)
        if period:
            found.append((period, match.start(), match.end()))
    spans = [(start, end) for _, start, end in found]
    periods = list(dict.fromkeys(p for p, _, _ in found))
    relative = _relative(question, spans) if _mentions_spans(question) else None
    if relative is not None and not periods:
        return TimeFrame(relative_last=relative[0], spans=(relative[1],))
    is_range = len(found) == 2 and _is_range(question, found)
    counted = _COUNTED_BESIDE.search(question)
    count = _NUMBER_WORDS[(counted.group("n") or counted.group("m")).lower()] if counted else 0
    if counted and count == _years_named(periods, is_range):
        spans.append(counted.span())
    stepped = _step(question, periods)
    if stepped is not None:
        step, span = stepped
        return TimeFrame(periods=tuple(periods), spans=(*spans, span), step=step)
    if len(periods) == 1 and "year" in lowered and (before := _YEAR_BEFORE.search(question)):
        year = int(periods[0][2:6])
        periods = [*periods, fiscal_year(year - 1)]
        spans.append(before.span())
    return TimeFrame(periods=tuple(periods), is_range=is_range, spans=tuple(spans))


def _years_named(periods: list[str], is_range: bool) -> int:
    """How many years the named periods cover: every year of a range, else each one."""
    if is_range and len(periods) == 2:
        return len(expand_range(periods[0], periods[1]))
    return len(periods)


def _step(question: str, periods: list[str]) -> tuple[int, tuple[int, int]] | None:
    """A year counted from the conversation's: with no year named, or anchored on "this
    period" beside the year it names. "Revenue in 2019 and the year before" is two years, read
    below."""
    if not periods and (counted := _STEPS.search(question)):
        raw = counted.group("n").lower()
        count = int(raw) if raw.isdigit() else _NUMBER_WORDS.get(raw, 1)  # "a", "an", "one"
        later = counted.group("d").lower() in ("later", "after", "on")
        return (count if later else -count), counted.span()
    match = _STEP.search(question)
    said_again = bool(match and _APPOSITION.match(question[match.end() :]))
    if match is None or (periods and not (match.group("anchor") or said_again)):
        return None
    if _LISTED.search(question[: match.start()]) or _LISTED_AFTER.match(question[match.end() :]):
        return None  # "in the year and prior year": years of a list, not one counted back
    word = (match.group("b") or match.group("w")).lower()
    return (0 if periods else (1 if word in _LATER else -1)), match.span()


def _mentions_spans(question: str) -> bool:
    lowered = question.lower()
    return "year" in lowered or "period" in lowered or bool(_LATEST_WORD.search(question))


def _relative(question: str, spans: list[tuple[int, int]]) -> tuple[int, tuple[int, int]] | None:
    if match := _RELATIVE.search(question):
        raw = match.group("n").lower()
        count = int(raw) if raw.isdigit() else _NUMBER_WORDS[raw]
        return (count, match.span()) if 1 <= count <= 50 else None
    if match := _LATEST.search(question) or _LATEST_WORD.search(question):
        return 1, match.span()
    return None


def _is_range(question: str, found: list[tuple[str, int, int]]) -> bool:
    (_, _, first_end), (_, second_start, _) = found
    between = question[first_end:second_start]
    if not _RANGE_JOINERS.match(between):
        return False
    if between.strip().lower() in {"and", "vs", "vs.", "versus"}:
        # "between 2019 and 2021" is a span; "in 2019 and 2021" names two years only.
        start = found[0][1]
        return bool(_RANGE_OPENERS.search(question[:start]))
    return True


def expand_range(first: str, last: str) -> tuple[str, ...]:
    """Every fiscal year from one end to the other, oldest first (quarters are not expanded)."""
    if " " in first or " " in last:
        return tuple(sorted({first, last}))
    low, high = sorted((int(first[2:]), int(last[2:])))
    return tuple(fiscal_year(y) for y in range(low, high + 1))


def period_sort_key(period: str) -> tuple[int, int]:
    year = int(period[2:6]) if period[2:6].isdigit() else 0
    quarter = int(period[-1]) if " Q" in period else 0
    return year, quarter
