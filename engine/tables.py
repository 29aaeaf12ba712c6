"""Reading report tables into facts: metric labels down the side, periods across the top.

Real tables are untidy: headers span several rows, section rows ("Deferred tax assets:") head
the lines under them, negatives are written "(1,234)", the scale sits in a header ("in
millions"), percent cells are percents and dashes mean nothing. This reads them faithfully and
never guesses a period: a column without a year keeps its heading in the metric's name
("Capital leases Total") and has no period.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from decimal import Decimal, InvalidOperation
from itertools import pairwise

_YEAR = re.compile(r"(?<!\d)(?:fy\s*)?((?:19|20)\d{2})(?!\d)", re.IGNORECASE)
_SHORT_FY = re.compile(r"\bfy\s*'?(\d{2})\b", re.IGNORECASE)
_NUMBER = re.compile(r"^\(?-?[$€£¥]?\s*\(?-?\d[\d,]*(?:\.\d+)?\)?\s*%?\)?$")
_SCALES = (
    ("in billions", "billion"),
    ("in millions", "million"),
    ("in thousands", "thousand"),
    ("$m", "million"),
    ("$'000", "thousand"),
    ("£m", "million"),
    ("€m", "million"),
    ("'000", "thousand"),
    ("000s", "thousand"),
    ("(thous.)", "thousand"),
    ("millions", "million"),
    ("thousands", "thousand"),
    ("billions", "billion"),
)
_SPACED_DIGITS = re.compile(r"(?<=\d) (?=\d)")
_GENERIC = {"total", "other", "subtotal", "net", "balance", "total net", "others", "all other"}
# Footnote marks: "(1)", a closing "(a)", or a digit glued to the last word ("activities1").
_NOTE_MARK = re.compile(r"\s*\(\s*\d\s*\)|\s*\(\s*\w\s*\)$|(?<=[a-z]{3})\d$")


@dataclass(frozen=True, slots=True)
class TableFact:
    metric: str
    period: str
    value: Decimal
    unit: str
    aliases: tuple[str, ...] = ()


def parse_number(cell: str) -> tuple[Decimal, bool] | None:
    """The value of a cell and whether it is a percent; None for blanks, dashes and text."""
    text = cell.strip().replace(" ", "").replace("\u2009", "")
    if not text:
        return None
    if not _NUMBER.match(text):
        return _printed_twice(text)
    negative = ("(" in text and text.endswith(")")) or "-" in text[:3]
    percent = "%" in text
    digits = re.sub(r"[^\d.]", "", text)
    try:
        value = Decimal(digits)
    except InvalidOperation:
        return None
    return (-value if negative else value), percent


# A figure followed by its magnitude in brackets: "-1,716 ( 1,716 )", "3.1% ( 3.1 % )".
_TWICE = re.compile(r"^(.+?)\((.+)\)$")


def _printed_twice(text: str) -> tuple[Decimal, bool] | None:
    """Some extractions print a cell's figure twice, signed and then its magnitude in
    brackets ("$ -7,066 ( 7,066 )"): the cell is the signed figure. Both halves must read as
    figures of one magnitude; anything else is text."""
    twice = _TWICE.match(text)
    if twice is None:
        return None
    first, second = (parse_number(half) for half in twice.groups())
    if first is None or second is None or abs(first[0]) != abs(second[0]):
        return None
    return first


def _heading_cells(row: Sequence[str]) -> Sequence[str]:
    """The cells of a row that may state the table's scale: all of a heading row, and none
    of a line's label ("Passengers carried (thousands)" beside its figures): that scale is
    the line's own, not every line's."""
    figures = [parse_number(cell) for cell in row[1:]]
    if any(f is not None and not f[1] and not _year_like(f[0]) for f in figures):
        return row[1:]
    return row


def _year_like(value: Decimal) -> bool:
    return value == value.to_integral_value() and 1900 <= value <= 2100


def table_scale(rows: Sequence[Sequence[str]], context: str = "") -> str:
    """The scale word a table's figures are written in ("million"), or ""."""
    header = " ".join(" ".join(_heading_cells(row)) for row in rows[:4])
    if stated := _stated_scale(header):
        return stated
    lowered = context.lower()
    for needle, scale in _SCALES[:3]:
        if needle in lowered:
            return scale
    return ""


def _stated_scale(text: str) -> str:
    lowered = text.lower()
    return next((scale for needle, scale in _SCALES if needle in lowered), "")


def _column_scales(columns: Sequence[str], periods: Sequence[str | None], scale: str) -> list[str]:
    """The scale of each column's figures. Where the columns name what they hold, not a
    period ("Shares (in thousands)", "Weighted average price"), a scale in one heading is that
    column's own: the price beside the shares is not in thousands."""
    own = [_stated_scale(column) for column in columns]
    if any(periods) or not any(own[1:]):
        return [scale] * len(columns)
    return own


def read_table(
    rows: Sequence[Sequence[str]], *, scale: str = "", caption: str = "", dated: str = ""
) -> list[TableFact]:
    """Facts of a table. `caption` is what the sentence announcing the table names
    (`table_caption`): the subject of a roll-forward, whose closing balance it is, and the
    series of a single column of figures by period headed only by its scale. `dated` is the
    period that sentence gives the whole table (`table_date`): a table that no heading and no
    line dates holds figures of that period."""
    blocks = _blocks(rows)
    if len(blocks) > 1:
        # Tables stacked on one page, each under its own dated heading: read each alone.
        facts = _unique([fact for block in blocks for fact in _read_block(block, scale, "")])
    else:
        facts = _read_block(rows, scale, caption)
    if not dated or any(f.period for f in facts):
        return facts  # a table that dates any figure itself dates them all
    return [replace(f, period=dated) for f in facts]


# The sentence that announces a table: "the minimum payments ... are as follows :", "the
# following table summarizes the activity in our reserve :", "the table below presents X".
# The announcing verb is any one word after the table's own name ("summarizes", "presents",
# "sets forth"); the subject runs to the colon, past which the table's headings may follow.
_TABLE = r"(?:table|chart|schedule)s?"
_TABLE_NAMED = rf"(?:the\s+)?(?:following\s+{_TABLE}|{_TABLE}\s+below)"
_ANNOUNCES = (
    re.compile(r"^(?P<subject>.+?)\s+(?:is|are|was|were)\s+(?:approximately\s+)?as\s+follows"),
    re.compile(rf"\b{_TABLE_NAMED}\s+\w+(?:\s+forth)?\s+(?P<subject>[^:]+?)\s*(?::|$)"),
    re.compile(r"\bthe\s+following\s+(?:is|are)\s+(?P<subject>[^:]+?)\s*:\s*$"),
    # "X consisted of the following", "X included the following (in millions):" but not
    # "X had the following impact", whose subject is not what the table holds.
    re.compile(r"^(?P<subject>.+?)\s+\w+\s+(?:of\s+)?the\s+following\b(?!\s+\w)"),
    # "X is summarized below", "X are presented as follows".
    re.compile(r"^(?P<subject>.+?)\s+(?:is|are|was|were)\s+\w+\s+(?:below|as\s+follows)"),
    # A title of its own over the table, "revenue by category ( dollars in thousands ) :": a
    # few words and a colon, no verb.
    re.compile(r"^(?P<subject>(?:[\w&'-]+\s+){0,5}[\w&'-]+(?:\s*\([^()]*\))?)\s*:$"),
)
_DETERMINERS = {"the", "our", "its", "their", "these", "such", "a", "an"}
# Words that end a noun phrase: what follows qualifies it ("payments under leases").
_PHRASE_ENDS = {"for", "under", "at", "as", "of", "in", "on", "with", "by", "from", "to", "during",
                "excluding", "including", "that", "which", "(", ",", ":"}  # fmt: skip
_PREPOSITIONS = _PHRASE_ENDS - {"(", ",", ":"}
# What a sentence calls the table itself; "reconciliation of X", "activity in X" name X.
_ABOUT_WORDS = {"summary", "reconciliation", "activity", "changes", "rollforward", "composition",
                "disaggregation"}  # fmt: skip
_TABLE_WORDS = _ABOUT_WORDS | {"table", "results", "components", "following", "details",
                               "breakdown", "notes", "list", "information"}  # fmt: skip
_AMOUNT_HEADS = {"amount", "amounts", "balance", "balances", "value", "values"}
_CLAUSE_WORDS = {"if", "when", "is", "are", "was", "were", "be", "been", "we", "it"}
# "the beginning and ending amounts of X": the moments of a roll-forward, not its subject.
_MOMENTS = re.compile(r"^(?:(?:the|our)\s+)?beginning\s+and\s+ending\s+\w+\s+of\s+")


def table_caption(text_before: str) -> str:
    """The series a table's announcing sentence names ("the annual debt maturities ( ... )
    for the next five years are as follows :" -> "annual debt maturities"), or "". Only
    such a sentence, the last before the table, names it: anything else is not guessed."""
    announced = table_subject(text_before)
    return _subject(announced) if announced else ""


# A year the announcing sentence dates the table by: "as of december 31 , 2014", "closed
# during 2003", "for the year ended june 30, 2019", "at year-end 2012". A year after "since",
# "from", "through" or "until" bounds a span; it dates nothing.
_DATED_BY = re.compile(
    r"\b(?:as\s+(?:of|at)|at|during|in|for|on|ended|ending|end)\b(?:\s+(?!since|from|through|"
    r"until|to)[\w.,-]+){0,4}?\s+((?:19|20)\d{2})\b"
)
_ANNOUNCING = re.compile(r"\b(?:follow(?:s|ing)|below|table|chart|schedule)\b")


def table_date(text_before: str) -> str:
    """The one period the sentence announcing a table dates it by ("our fleet, as of december
    31 , 2014, was as follows :" -> "FY2014"), or "". The announcing sentence is the last
    before the table, or the one before it when the table's own headings were printed as a
    last sentence of their own; a sentence naming two years dates nothing."""
    sentences = _sentences(text_before)[-2:]
    announcing = [s for s in sentences if _ANNOUNCING.search(s)]
    if not announcing:
        return ""
    sentence = announcing[-1]
    years = {int(y) for y in _YEAR.findall(sentence)}
    dated = {int(y) for y in _DATED_BY.findall(sentence)}
    return f"FY{dated.pop()}" if len(years) == 1 and len(dated) == 1 else ""


def _sentences(text: str) -> list[str]:
    return [
        s.strip(" .").lower()
        for s in re.split(r"(?<=\.)\s+|\s+\.\s*", text.strip())
        if re.search(r"\w", s)
    ]


def table_subject(text_before: str) -> str:
    """What the sentence announcing a table says the table is of, qualifiers and all ("the
    operating results of our lending segment"), or "" when the last sentence before the
    table announces nothing."""
    sentences = [
        s for s in re.split(r"(?<=\.)\s+|\s+\.\s*", text_before.strip()) if re.search(r"\w", s)
    ]
    last = sentences[-1].strip(" .").lower() if sentences else ""
    match = next((m for m in (p.search(last) for p in _ANNOUNCES) if m), None)
    return _from_determiner(match["subject"]) if match else ""


def _from_determiner(text: str) -> str:
    """A subject from its first determiner that no preposition governs: words before it
    are a page's running header glued to the sentence ("... notes to financial statements
    the annual debt maturities"), and "of the company" qualifies, it does not start."""
    words = text.replace("(", " ( ").replace(",", " , ").split()
    start = next(
        (i for i, w in enumerate(words)
         if w in _DETERMINERS and (i == 0 or words[i - 1] not in _PREPOSITIONS)),
        0,
    )  # fmt: skip
    return " ".join(words[start:])


def _subject(text: str) -> str:
    """The noun phrase a sentence's subject starts with, past a leading determiner; the
    thing a "reconciliation of" or an "activity in" is about."""
    words = text.replace("(", " ( ").replace(",", " , ").split()
    stop = next((i for i, w in enumerate(words) if w in _PHRASE_ENDS), len(words))
    lead = next((i for i, w in enumerate(words[:stop]) if w in _DETERMINERS), -1)
    phrase = words[lead + 1 : stop]
    if len(phrase) == 1 and phrase[0] in _ABOUT_WORDS:
        rest = " ".join(words[stop + 1 :]) if words[stop : stop + 1] in (["of"], ["in"]) else ""
        return _subject(_MOMENTS.sub("", rest)) if rest else ""
    if phrase[-1:] and phrase[-1] in _AMOUNT_HEADS and words[stop : stop + 1] == ["of"]:
        # "the carrying amount of goodwill": an amount of something names that thing.
        return _subject(" ".join(words[stop + 1 :])) or " ".join(phrase)
    if not 1 <= len(phrase) <= 6 or any(c.isdigit() for w in phrase for c in w):
        return ""
    if _CLAUSE_WORDS & set(phrase) or _TABLE_WORDS & set(phrase[:1]):
        return ""  # "if no cash is repaid", "the following": names no series
    return " ".join(phrase)


def _blocks(rows: Sequence[Sequence[str]]) -> list[Sequence[Sequence[str]]]:
    """The table cut where a heading naming a period comes again below the first figures
    ("As of December 31, 2018" over a second block of lines)."""
    cuts = [0]
    seen_values = False
    for index, row in enumerate(rows):
        values = any(_is_value(cell) for cell in row[1:])
        heading = not (row and row[0].strip()) and not values
        if heading and seen_values and any(_period(cell) for cell in row[1:]):
            cuts.append(index)
            seen_values = False
        seen_values = seen_values or values
    return [rows[a:b] for a, b in pairwise([*cuts, len(rows)])]


def _read_block(rows: Sequence[Sequence[str]], scale: str, caption: str) -> list[TableFact]:
    body_start = _body_start(rows)
    columns = _column_labels(rows[:body_start], width=max(len(r) for r in rows))
    periods = _beside_their_year([_period(label) for label in columns], columns)
    qualifiers = _qualifiers(columns, periods)
    scales = _column_scales(columns, periods, scale)
    for index in _years_own_columns(periods):
        qualifiers[index] = ""
    lines = _lines(rows[body_start:])
    sections_of: dict[str, set[str]] = {}
    for label, section, _ in lines:
        sections_of.setdefault(label, set()).add(section)
    dated_lines = not any(periods)  # no column names a year: the lines may
    # What names each column's metric when the lines are periods: its heading without the
    # dates, else its heading without the scale ("U.S." is not a date word here).
    headings = [q or _unscaled(c) for q, c in zip(qualifiers, columns, strict=True)]
    down_the_side = dated_lines and _value_columns(lines) == 1
    if down_the_side:
        qualifiers = [""] * len(qualifiers)  # one column of values: its heading tells nothing
        headings = [_series_name(h, caption) for h in headings]
    bare_lines = _period_lines(lines) if dated_lines else set()
    closing = _closing_line(lines) if caption else None
    steps_in = _bridged_period(lines) if down_the_side else None
    moved_in = _roll_forward_years(lines) if dated_lines and not down_the_side else {}
    # A roll-forward's balances, each its year's: one line by year ("Balance severance").
    rolled = {at for at, (label, _, _) in enumerate(lines) if moved_in and _period(label)}
    balance = _balance_name(lines[0][0], closing) if closing else ""
    title = _dated_title(rows[:body_start], periods)
    facts: list[TableFact] = []
    for at, (label, section, values) in enumerate(lines):
        name = _line_name(label, section, len(sections_of[label]) > 1)
        # A line may say its own scale ("Free cash flow ( in thousands )"), and an amount per
        # share is never in the table's thousands or millions ("in millions, except per share").
        own_scale = _bracketed_scale(label)
        if own_scale:
            name = _unscaled(name) or name
        per_share = bool(_PER_SHARE.search(label))
        quarter = _quarter_of_year(label, section) if dated_lines else None
        own = (quarter or _period(label) or steps_in or moved_in.get(at)) if dated_lines else None
        bare = label in bare_lines or quarter is not None
        if own is not None:
            name = _without_year(name)
        if balance and label in (lines[0][0], closing):
            name = balance
        if at in rolled:
            name = _TRAILING_AT.sub("", _without_year(name, keep=False)) or name
        for index, parsed in enumerate(values, start=1):
            period = periods[index] if index < len(periods) else None
            period = period or own or ("" if down_the_side else None)
            if parsed is None or (period is None and not qualifiers[index]):
                continue
            value, percent = parsed
            per_share_here = per_share or _per_share_column(headings, index)
            if bare and index < len(headings) and headings[index]:
                # A line that is only its period ("2031") in a table whose metrics run
                # across the top: the column's heading is the metric, the line its period.
                metric = headings[index]
            elif qualifiers[index]:
                metric = f"{name} {qualifiers[index]}".strip()
            else:
                metric = name
            alias = f"{section} {metric}" if section and section not in metric else ""
            if title and not alias and label.lower().rstrip(":") == "total":
                # "Total" under a title over every year ("Net Undeveloped Acres Expiring
                # Year Ended December 31, 2015"): the total of what the title names.
                alias = f"{metric} {title}"
            # A roll-forward's closing balance is what its subject amounts to at that date.
            named = caption if label == closing else ""
            if at in rolled and caption:
                # Each column's balance is what the subject amounts to in that column.
                named = f"{caption} {qualifiers[index]}".strip()
            facts.append(
                TableFact(
                    metric=metric,
                    period=period or "",
                    value=value,
                    unit=_unit(percent, per_share_here, own_scale, scales, index, scale),
                    aliases=tuple(a for a in (alias, named) if a),
                )
            )
    return _unique(facts)


_BRACKETED_SCALE = re.compile(r"\(\s*(?:in\s+)?(thousands|millions|billions)\s*\)", re.IGNORECASE)
_PER_SHARE = re.compile(r"\bper\s+(?:\w+\s+){0,2}share\b", re.IGNORECASE)


def _bracketed_scale(label: str) -> str:
    found = _BRACKETED_SCALE.search(label)
    return found.group(1).lower().removesuffix("s") if found else ""


def _unit(
    percent: bool, per_share: bool, own: str, scales: Sequence[str], index: int, scale: str
) -> str:
    """A figure's unit: a percent; else the line's own scale, none for an amount per share,
    else its column's scale (the table's)."""
    if percent:
        return "%"
    if own or per_share:
        return own
    return scales[index] if index < len(scales) else scale


def _dated_title(header: Sequence[Sequence[str]], periods: Sequence[str | None]) -> str:
    """The words of one heading printed over every value column ("Net Undeveloped Acres
    Expiring Year Ended December 31," over "2015", "2016", "2017"), its dates gone, when
    each column names a different period; else "". It names what every figure is of."""
    dated = [p for p in periods[1:] if p is not None]
    if len(dated) < 2 or len(set(dated)) != len(dated) or len(dated) != len(periods) - 1:
        return ""  # two or more columns, each of its own period
    spanning = [
        next(c for c in row[1:] if c.strip())
        for row in header
        if sum(1 for c in row[1:] if c.strip()) == 1
    ]
    if len(spanning) != 1:
        return ""
    rest = " ".join(_DATE_WORDS.sub(" ", _YEAR.sub(" ", _unmarked(spanning[0]))).split())
    rest = rest.strip(" ,:-").lower()
    return rest if any(ch.isalpha() for ch in rest) else ""


def _series_name(heading: str, caption: str) -> str:
    """The name of a table's one series of figures by period: its heading's words without
    the scale; a heading that is only its scale ("( in thousands )") names nothing, and the
    sentence announcing the table names the series."""
    return heading or caption


_OPENING = re.compile(r"\b(?:beginning|opening|start)\b|\bjan(?:uary)?\.?\s*1\b")
_CLOSING = re.compile(r"\b(?:end|ending|closing)\b|\bdec(?:ember)?\.?\s*31\b")
_MOMENT_WORDS = {"beginning", "opening", "start", "end", "ending", "closing", "of", "the", "at",
                 "as", "year", "period", "fiscal", ","}  # fmt: skip


def _closing_line(lines: Sequence[tuple[str, str, Sequence[object]]]) -> str | None:
    """The last line of a roll-forward (its first line the opening balance, its last the
    closing one, named alike but for the moment: "Balance at January 1" ... "Balance at
    December 31"), else None."""
    if len(lines) < 3:
        return None
    first, last = lines[0][0].lower(), lines[-1][0].lower()
    if not (_OPENING.search(first) and _CLOSING.search(last)) and not _dated_apart(first, last):
        return None
    shared = _moment_free(first)
    # Lines that are nothing but their dates ("2041" ... "2045") are periods, not balances.
    return lines[-1][0] if shared and shared == _moment_free(last) else None


def _dated_apart(first: str, last: str) -> bool:
    """Whether the first line is dated a year before the last ("Balance at September 30,
    2011" ... "Balance at September 28, 2012"): a balance at one year's end and at the
    next's, whatever day each year ends on."""
    opening, closing = _period(first), _period(last)
    return opening is not None and closing is not None and opening < closing


_TRAILING_AT = re.compile(r"\s+(?:at|on|as\s+(?:of|at))$", re.IGNORECASE)


def _balance_name(first: str, last: str) -> str:
    """One name for a roll-forward's two balances dated on different days of their years
    ("Balance at September 30, 2011", "Balance at September 28, 2012" -> "Balance"), so
    that they are one series by year; "" when their names without the year already agree."""
    if _without_year(first) == _without_year(last) or not _dated_apart(first, last):
        return ""
    opening = _TRAILING_AT.sub("", _without_year(first, keep=False))
    closing = _TRAILING_AT.sub("", _without_year(last, keep=False))
    return opening if opening.lower() == closing.lower() else ""


def _bridged_period(lines: Sequence[tuple[str, str, Sequence[object]]]) -> str | None:
    """The period a bridge's steps fall in: a column of figures that opens on one year's
    line and closes on the next's ("2007 net revenue" ... "2008 net revenue"), every line
    between undated, shows what moved the figure during the closing year, so each step is a
    figure of that year ("the 2008 rider revenue"). None for any other table."""
    if len(lines) < 3:
        return None
    first, last = lines[0][0], lines[-1][0]
    opening, closing = _period(first), _period(last)
    if opening is None or closing is None or opening >= closing:
        return None
    if _without_year(first).lower() != _without_year(last).lower():
        return None
    if any(_period(label) is not None for label, _, _ in lines[1:-1]):
        return None
    return closing


def _roll_forward_years(lines: Sequence[tuple[str, str, Sequence[object]]]) -> dict[int, str]:
    """The year each movement of a roll-forward over several years falls in, by line: its
    balances dated in the lines ("Balance at December 31, 2018" ... "Balance at December 31,
    2020", alike but for the year, one year apart) and the undated lines between two of them
    ("Acquisitions", "Impairment") what moved the balance during the later one's year. A
    movement named in two years ("Charges") is then a figure of each. Empty for any other
    table."""
    dated = [(at, _period(label)) for at, (label, _, _) in enumerate(lines) if _period(label)]
    names = {_without_year(lines[at][0]).lower() for at, _ in dated}
    years = [int(str(period)[-4:]) for _, period in dated]
    apart = all(later - earlier == 1 for earlier, later in pairwise(years))
    if len(dated) < 3 or len(names) != 1 or not apart:
        return {}
    moved: dict[int, str] = {}
    for (start, _), (end, closing) in pairwise(dated):
        moved.update({at: str(closing) for at in range(start + 1, end)})
    return moved


def _moment_free(label: str) -> list[str]:
    """A line's words but those naming its moment: what an opening and a closing share."""
    words = _DATE_WORDS.sub(" ", _YEAR.sub(" ", label.replace(",", " , "))).split()
    return [w for w in words if w not in _MOMENT_WORDS]


def _period_lines(lines: Sequence[tuple[str, str, Sequence[object]]]) -> set[str]:
    """Lines that are nothing but a period ("2031", "december 31 2031"), each a different
    one: the table's metrics run across the top. Two such lines of one year (months of a
    year) are not periods of their own."""
    periods = {label: _period(label) for label, _, _ in lines}
    bare = [label for label, period in periods.items()
            if period is not None and not _without_year(label, keep=False)]  # fmt: skip
    if len({periods[label] for label in bare}) != len(bare):
        return set()
    return set(bare)


def _value_columns(lines: Sequence[tuple[str, str, Sequence[object]]]) -> int:
    """How many columns hold a value in some line."""
    used = {i for _, _, values in lines for i, v in enumerate(values) if v is not None}
    return len(used)


def _without_year(label: str, *, keep: bool = True) -> str:
    """A line label with the year it names taken out: "2015 net revenue" -> "net revenue".
    A label that is nothing but its year stays whole, unless `keep` is false ("")."""
    bare = _GLUED_DAY_YEAR.sub(" ", _YEAR.sub(" ", label))
    bare = _DATE_WORDS.sub(" ", bare) if not keep else bare
    bare = " ".join(bare.split()).strip(" ,:-")
    return bare or (label if keep else "")


_QUARTER_LINE = re.compile(
    r"^(?:(first|second|third|fourth)\s+(?:fiscal\s+)?quarter|q([1-4]))$", re.I
)
_QUARTERS = {"first": 1, "second": 2, "third": 3, "fourth": 4}


def _quarter_of_year(label: str, section: str) -> str | None:
    """ "Fourth quarter" under a row that is only a year ("2021"): that year's quarter
    ("FY2021 Q4"), as "the fourth quarter of 2021" is read in a question. Quarterly data set
    out as a block of quarter lines per year, the measures across the top."""
    match = _QUARTER_LINE.match(label.strip())
    year = _period(section) if section else None
    if match is None or year is None or _without_year(section, keep=False):
        return None
    number = _QUARTERS[match.group(1).lower()] if match.group(1) else int(match.group(2))
    return f"{year} Q{number}"


def _per_share_column(headings: Sequence[str], index: int) -> bool:
    """A column of amounts per share ("diluted earnings per share") takes none of the table's
    thousands or millions, as a line per share does not."""
    return index < len(headings) and bool(_PER_SHARE.search(headings[index]))


def _lines(
    rows: Sequence[Sequence[str]],
) -> list[tuple[str, str, list[tuple[Decimal, bool] | None]]]:
    """(label, section, values) for each line; a label-only row heads the lines under it."""
    lines = []
    section = ""
    for row in rows:
        label = _clean_label(row[0] if row else "")
        values = [parse_number(cell) for cell in row[1:]]
        if label and not any(values) and _nil_line(row[1:]):
            # A line printed with dashes holds nothing and heads nothing: the lines under
            # it are no longer those of a heading above it.
            section = ""
            continue
        if label and not any(values):
            section = label.rstrip(":").strip()
        elif label:
            lines.append((label, section, values))
    return lines


# A cell that says a line holds nothing there: a dash of any length, "n/a", "nm".
_NIL = re.compile(r"^\$?\s*(?:[—–-]+|n/?a|nm)\s*$", re.IGNORECASE)


def _nil_line(cells: Sequence[str]) -> bool:
    """Whether a row's figures are all printed as nothing ("—"): a line of the table with no
    figure, not a heading over the lines below it (a heading's cells are blank)."""
    printed = [cell.strip() for cell in cells if cell.strip()]
    return bool(printed) and all(_NIL.match(cell) for cell in printed)


def _line_name(label: str, section: str, repeated: bool) -> str:
    """A line's metric name. "Total" under "Revenue:" means "Total Revenue"; a label met in
    two sections ("Federal" under Current and under Deferred) is named with its section."""
    if section and label.lower().rstrip(":") in _GENERIC:
        return f"{label} {section}"
    if section and repeated:
        return f"{section} {label}"
    return label


def _unique(facts: list[TableFact]) -> list[TableFact]:
    """A (metric, period) met twice cannot be told apart: keep neither rather than guess."""
    seen: dict[tuple[str, str], int] = {}
    for fact in facts:
        seen[(fact.metric, fact.period)] = seen.get((fact.metric, fact.period), 0) + 1
    return [f for f in facts if seen[(f.metric, f.period)] == 1]


def _body_start(rows: Sequence[Sequence[str]]) -> int:
    for index, row in enumerate(rows):
        label = row[0].strip() if row else ""
        if label and any(_is_value(cell) for cell in row[1:]):
            while index > 0 and _section_row(rows[index - 1]):
                index -= 1  # a section heading right above the first line belongs to the body
            return index
    return len(rows)


def _section_row(row: Sequence[str]) -> bool:
    return bool(row and row[0].strip()) and not any(cell.strip() for cell in row[1:])


def _is_value(cell: str) -> bool:
    parsed = parse_number(cell)
    if parsed is None:
        return False
    text = cell.strip()
    return not (text.isdigit() and len(text) == 4 and text[:2] in ("19", "20"))


def _column_labels(header: Sequence[Sequence[str]], *, width: int) -> list[str]:
    labels = [""] * width
    for row in _spread_over_blocks(header, width):
        # "2 0 1 8" is how some extracted tables spell a year.
        filled = [_unmarked(_SPACED_DIGITS.sub("", c)) for c in row] + [""] * (width - len(row))
        cells = [c.strip() for c in filled[1:]]
        if sum(1 for c in cells if c) == 1 and width > 2:
            # One heading over every value column ("As of March 29, 2019"): it spans them all.
            title = next(c for c in cells if c)
            labels = [labels[0]] + [f"{label} {title}".strip() for label in labels[1:]]
            continue
        carry = ""
        for index in range(1, width):
            cell = filled[index].strip()
            if cell:
                carry = cell
            elif _spans(row, index):
                cell = carry
            if cell:
                labels[index] = f"{labels[index]} {cell}".strip()
    return labels


def _spread_over_blocks(header: Sequence[Sequence[str]], width: int) -> list[list[str]]:
    """Header rows with each heading of a row spread over the columns it stands above, when
    extraction packed them to the left: a row of n headings ("December 31, 2018", "December
    31, 2017") over a row that repeats one block of sub-headings n times ("Trading assets",
    "Loans", "Trading assets", "Loans") heads one block each. Any other header is kept as
    printed."""
    rows = [list(row) for row in header]
    for upper, lower in pairwise(rows):
        tops = [c.strip() for c in upper[1:]]
        count = sum(1 for c in tops if c)
        subs = [c.strip() for c in lower[1:]] + [""] * (width - len(lower))
        if count < 2 or not all(tops[:count]) or any(tops[count:]) or not all(subs):
            continue
        block, rest = divmod(width - 1, count)
        if rest or block < 2 or len(set(subs[:block])) != block:
            continue
        if any(subs[i * block : (i + 1) * block] != subs[:block] for i in range(count)):
            continue
        spread = [upper[0]] + [tops[i // block] for i in range(width - 1)]
        upper[:] = spread
    return rows


def _spans(row: Sequence[str], index: int) -> bool:
    """An empty header cell sits under a spanning heading when its row has gaps between years."""
    years = [i for i, cell in enumerate(row) if _YEAR.search(cell or "")]
    return len(years) >= 2 and any(y < index for y in years) and years[1] - years[0] > 1


# Dates as column headings: "12/31/05", "12/14" (month and two-digit year), and a day glued
# to its year by text extraction ("december 312008").
_SLASH_DATE = re.compile(r"(?<![\d/])(?:\d{1,2}/){1,2}(\d{2})(?![\d/])")
_GLUED_DAY = re.compile(
    r"\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\s*\.?\s*[0-3]?\d((?:19|20)\d{2})\b",
    re.IGNORECASE,
)


def _period(label: str) -> str | None:
    years = {int(y) for y in _YEAR.findall(label)}
    years |= {2000 + int(y) for y in _SHORT_FY.findall(label)}
    years |= {_century(int(y)) for y in _SLASH_DATE.findall(label)}
    years |= {int(y) for y in _GLUED_DAY.findall(label)}
    if len(years) != 1:
        return None
    return f"FY{years.pop()}"


_GLUED_DAY_YEAR = re.compile(r"(?<=\s[0-3]\d)(?:19|20)\d{2}\b|(?<=\s\d)(?:19|20)\d{2}\b")


_EMPTY_BRACKETS = re.compile(r"\(\s*\)")


def _century(year: int) -> int:
    return 2000 + year if year < 70 else 1900 + year


# A month's name, whole or cut short as tables print it ("dec.", "sept"); plan.py reads a
# line's date with it too.
MONTH_NAMES = (
    r"jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?"
    r"|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?"
)
_DATE_WORDS = re.compile(
    r"\b(?:as\s+(?:of|at)|(?:fiscal\s+)?years?\s+ended|for\s+the\s+years?|ended|ending|"
    rf"fiscal(?:\s+year)?|year|{MONTH_NAMES}|\d{{1,2}}(?:st|nd|rd|th)?)\b"
    r"|\(\s*(?:in\s+)?(?:thousands|millions|billions|000s|000's)\s*\)"
    r"|\bin\s+(?:thousands|millions|billions)\b"
    r"|\bu\.s\.\s*(?=[$€£¥]|dollars?\b)|[$€£¥]|\b(?:usd|eur|gbp|rmb|dollars?)\b|\b(?:thousands|millions|billions)\b",
    re.IGNORECASE,
)


def _beside_their_year(periods: list[str | None], columns: Sequence[str]) -> list[str | None]:
    """ "2019 | % of total | 2018 | % of total": a column of no period right after each year's
    column, headed alike every time, is of that year (the amount's share, its change). Only
    when every year's column is followed by one such column, and there are two years or more."""
    years = [i for i, p in enumerate(periods) if p is not None]
    after = [i + 1 for i in years]
    if len(years) < 2 or any(i >= len(periods) or periods[i] is not None for i in after):
        return periods
    headings = {" ".join(columns[i].lower().split()) for i in after}
    if len(headings) != 1 or not next(iter(headings)):
        return periods
    paired = list(periods)
    for i in after:
        paired[i] = periods[i - 1]
    return paired


def _qualifiers(columns: list[str], periods: list[str | None]) -> list[str]:
    """Words that tell apart columns of the same period (Men / Women, As reported /
    Adjustments), or that name a column without a period (Total); else ""."""
    result = [""] * len(columns)
    for index, period in enumerate(periods):
        twins = [i for i, p in enumerate(periods) if p == period]
        if period is None or len(twins) > 1:
            heading = _GLUED_DAY_YEAR.sub(" ", columns[index])  # "november 172011"
            words = _DATE_WORDS.sub(" ", _YEAR.sub(" ", heading))
            words = _EMPTY_BRACKETS.sub(" ", words)  # "( in millions )" once its words go
            result[index] = " ".join(words.split()).strip(" ,:-")
            if not result[index] and period is not None:
                # Two columns of one year told apart only by their dates ("December 31,
                # 2018", "January 1, 2018"): the date without its year tells them apart.
                dated = _EMPTY_BRACKETS.sub(" ", _SCALE_WORDS.sub(" ", _YEAR.sub(" ", heading)))
                result[index] = " ".join(dated.split()).strip(" ,:-$")
    return result


def _years_own_columns(periods: Sequence[str | None]) -> list[int]:
    """Columns that hold a year's own figure where that year heads several columns.

    Columns with no period ("change", "% change") close the comparisons printed before
    them, so they cut the columns into groups. A group whose columns are each of another
    year sets years side by side; one whose columns share a year sets parts of that year
    side by side (a quarter beside the one before). A year that heads several columns
    but only one group of years is, in that group, the year as a whole: "three months
    ended Dec. 28, 2013 | Sept. 28, 2013 | change | Dec. 28, 2013 | Dec. 29, 2012 |
    change" holds 2013's own figure in its fourth column. Any other table: none."""
    groups: list[list[int]] = [[]]
    for index, period in enumerate(periods[1:], start=1):
        if period is None:
            groups.append([])
        else:
            groups[-1].append(index)
    if sum(1 for group in groups if group) < 2:
        return []  # nothing cuts the columns: which ones are compared is not printed
    yearly = [g for g in groups if len(g) > 1 and len({periods[i] for i in g}) == len(g)]
    own = []
    for period in {p for p in periods[1:] if p is not None}:
        twins = [i for i, p in enumerate(periods) if p == period]
        in_years = [i for g in yearly for i in g if periods[i] == period]
        if len(twins) > 1 and len(in_years) == 1:
            own.append(in_years[0])
    return own


def _unscaled(heading: str) -> str:
    return " ".join(_EMPTY_BRACKETS.sub(" ", _SCALE_WORDS.sub(" ", heading)).split()).strip(" ,:-")


_SCALE_WORDS = re.compile(
    r"\(\s*(?:in\s+)?(?:thousands|millions|billions|000s|000's)\s*\)"
    r"|\bin\s+(?:thousands|millions|billions)\b"
    r"|[$€£¥]|\b(?:usd|eur|gbp|rmb|dollars?)\b",
    re.IGNORECASE,
)


# Markup a page's extraction kept in a cell: a superscript is a footnote's mark, not a word
# of the line's name ("Goodwill<sup>(1)</sup>"); other tags ("<i>", "</b>") only style it.
_SUPERSCRIPT = re.compile(r"<sup>.*?</sup>", re.IGNORECASE | re.DOTALL)
_TAG = re.compile(r"</?[a-z]+\s*/?>", re.IGNORECASE)


def _unmarked(cell: str) -> str:
    """A cell's text without the markup around it: a question names "developed product
    technology", never the "sup" of the footnote mark printed beside it."""
    if "<" not in cell:
        return cell
    return " ".join(_TAG.sub(" ", _SUPERSCRIPT.sub(" ", cell)).split())


def _clean_label(label: str) -> str:
    return _NOTE_MARK.sub("", _unmarked(label.replace("\n", " "))).strip()
