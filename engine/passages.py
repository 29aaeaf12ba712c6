"""The text of a passage as a reader and a model should see it, cut into sentences.

Documents reach the knowledge base as their authors' text: filings bring page footers ("Apple
Inc. | 2024 Form 10-K | 22"), tables flattened into runs of numbers, bullets split from their
items. `clean` keeps the prose and says where a table was; `sentences` finds the sentences of
a clean text with their offsets, and `is_prose` tells a sentence worth quoting from a heading,
a table's caption or a bullet without a verb.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import NamedTuple

TABLE_NOTE = "[table not shown]"
_SPACES = re.compile(r"[ \t\u00a0\u2009\u202f]+")
_PARAGRAPH = re.compile(r"\n\s*\n")
_BULLET = re.compile(r"^[•●▪◦·\-–*]\s*")
_LONE_BULLET = re.compile(r"^[•●▪◦·]$")
_NUMBER = re.compile(r"\(?\$?\d[\d,]*(?:\.\d+)?\)?\s?%?")
_FOOTNOTE = re.compile(r"^\(\d{1,2}\)")
# A sentence ends at . ! ? followed by a space and a capital, a digit or a quote, or glued to
# the next sentence's first word ("in 2023.We continue"), or at a line break; "U.S." and
# "$1.5" do not end one.
_SENTENCE_END = re.compile(
    r"(?<!\b[A-Z])(?<!\d\.\d)[.!?](?=\s+[A-Z0-9“\"(•])|(?<=[a-z0-9)])[.!?](?=[A-Z][a-z])|\n+"
)
_YEAR = re.compile(r"(?<![\d$])(?<!\d[,.])(?:FY\s?)?((?:19|20)\d{2})(?!\d|[,.]\d|%)|\bFY(\d{2})\b")
_VERBS = frozenset(
    word
    for line in (
        "is are was were be been being has have had do does did will would can could may might",
        "must shall should include includes included consist consists reflect reflects",
        "represent represents remain remains continue continues rose fell grew drove led made",
        "kept stood began became paid sold spent held took gave came went saw built won lost",
        "cut set met ran reached say says said expect expects plan plans generate generates",
        "offer offers provide provides add adds added apply applies affect affects require",
        "requires result results show shows set sets present presents summarize summarizes",
        "summarise summarises compare compares list lists describe describes contain contains",
    )
    for word in line.split()
)


def clean(text: str) -> str:
    """Prose lines kept as written (bullets rejoined to their items, spaces made plain); page
    footers dropped; a run of table rows and their labels replaced by one TABLE_NOTE line."""
    lines = _joined_bullets(_unwrapped(text))
    kept: list[str] = []
    table = False
    for line in lines:
        if not line:
            continue
        if _footer(line):
            continue
        if _table_row(line):
            while kept and _label(kept[-1]):
                kept.pop()  # the row's label ("iPhone (1)") or the table's caption
            if not table:
                kept.append(TABLE_NOTE)
            table = True
            continue
        if table and _label(line):
            continue  # a label between rows of the same table
        table = False
        kept.append(line)
    return "\n\n".join(kept)


def _unwrapped(text: str) -> list[str]:
    """The text's lines with hard wraps undone: inside a paragraph, a line that goes on in
    lower case, or that stops mid-sentence at some length, continues the line before."""
    lines: list[str] = []
    for paragraph in _PARAGRAPH.split(text):
        start = len(lines)
        for raw in paragraph.splitlines():
            line = _SPACES.sub(" ", raw).strip()
            if not line:
                continue
            previous = lines[-1] if len(lines) > start else ""
            if previous and (line[:1].islower() or _unfinished(previous)):
                lines[-1] = f"{previous} {line}"
            else:
                lines.append(line)
    return lines


def _unfinished(line: str) -> bool:
    return len(line) > 50 and not line.endswith((".", "!", "?", ":", ";")) and "|" not in line


def _joined_bullets(lines: list[str]) -> list[str]:
    """A bullet alone on its line belongs to the next line with text."""
    joined: list[str] = []
    pending = ""
    for line in lines:
        if _LONE_BULLET.match(line):
            pending = line
        elif pending and line:
            joined.append(f"{pending} {line}")
            pending = ""
        else:
            joined.append(_BULLET.sub("• ", line, count=1) if line[:1] in "•●▪◦" else line)
    return joined


def _footer(line: str) -> bool:
    return line.count("|") >= 2 and len(line) < 120


def _table_row(line: str) -> bool:
    """A flattened table row: short, no full stop, mostly numbers ("Mac29,984 2 %29,357")."""
    if len(line) > 160 or line.rstrip().endswith((".", "!", "?")):
        return False
    digits = sum(c.isdigit() for c in line)
    letters = sum(c.isalpha() for c in line)
    return len(_NUMBER.findall(line)) >= 3 and digits >= letters * 0.6


def _label(line: str) -> bool:
    """A short line that names rather than says: a heading, a row label, a caption."""
    if line == TABLE_NOTE:
        return False
    if line.endswith(":"):
        return True
    return len(line.split()) <= 6 and not line.endswith((".", "!", "?", ";"))


class Sentence(NamedTuple):
    start: int
    end: int
    text: str


def sentences(text: str) -> list[Sentence]:
    """The sentences of a text, with where each stands in it (the text[start:end] is exactly
    the sentence, trimmed of spaces)."""
    found: list[Sentence] = []
    start = 0
    for match in _SENTENCE_END.finditer(text):
        end = match.start() + (0 if match.group().startswith("\n") else 1)
        _add(found, text, start, end)
        start = match.end()
    _add(found, text, start, len(text))
    return found


def _add(found: list[Sentence], text: str, start: int, end: int) -> None:
    piece = text[start:end]
    stripped = piece.strip()
    if stripped:
        begin = start + len(piece) - len(piece.lstrip())
        found.append(Sentence(begin, begin + len(stripped), stripped))


def is_prose(sentence: str) -> bool:
    """A sentence to quote: not a heading, a table's leftover, a footer or a bullet without
    a verb. (A table's caption stays when its table is not in the text: clean() drops the
    captions of the tables it removes.)"""
    body = _BULLET.sub("", sentence).strip()
    tokens = body.split()
    if len(tokens) < 4 or "|" in body or body == TABLE_NOTE:
        return False
    letters = sum(1 for token in tokens if any(c.isalpha() for c in token))
    if letters < 0.6 * len(tokens):
        return False
    ends = body.endswith((".", "!", "?", ";"))
    bullet = body != sentence.strip()
    if bullet or not ends:
        return has_verb(body)
    return True


def is_item(sentence: str) -> bool:
    """A bullet of a list, verb or not: "•Third generation of AirPods."."""
    body = _BULLET.sub("", sentence).strip()
    return body != sentence.strip() and len(body.split()) >= 2 and any(c.isalpha() for c in body)


def quotable(sentence: str) -> str:
    """The sentence as an answer quotes it: without a bullet or a footnote mark in front."""
    return _FOOTNOTE.sub("", _BULLET.sub("", sentence.strip())).strip()


def has_verb(sentence: str) -> bool:
    for word in re.findall(r"[a-z]+", sentence.lower()):
        if word in _VERBS or (len(word) > 4 and word.endswith("ed")):
            return True
    return False


def years(text: str) -> set[int]:
    """The years a text names: 2023, FY2023, FY 2023, FY23."""
    found = set()
    for match in _YEAR.finditer(text):
        if match.group(1):
            found.add(int(match.group(1)))
        else:
            found.add(2000 + int(match.group(2)))
    return found


def cited_pieces(text: str, spans: Sequence[tuple[int, int]]) -> list[tuple[int, int, bool]]:
    """(start, end, cited) pieces covering `text` in order, cited where a span says an answer
    quotes it; spans that do not fit the text (a damaged record) are ignored, not trusted."""
    pieces: list[tuple[int, int, bool]] = []
    position = 0
    for start, end in sorted(s for s in spans if 0 <= s[0] < s[1] <= len(text)):
        start = max(start, position)
        if start >= end:
            continue
        if start > position:
            pieces.append((position, start, False))
        pieces.append((start, end, True))
        position = end
    if position < len(text) or not pieces:
        pieces.append((position, len(text), False))
    return pieces
