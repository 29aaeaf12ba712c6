"""Grounding narrative text: every figure a sentence states must be written in a passage it cites.

Sentences are checked one at a time, as they complete, so a stream never sends an ungrounded
figure. Citation markers are renumbered to the order passages are first cited, so `[1]` is
always the first entry of the answer's sources.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from itertools import pairwise

from engine.passages import sentences as passage_sentences
from engine.text import words
from engine.types import Passage, Source

_CITATION = re.compile(r"\s*\[(\d{1,3})\]")
_FIGURE = re.compile(
    # A number standing alone, or glued to a fiscal marker (FY2031, Q3): both are figures.
    r"(?:(?<=FY)|(?<=fy)|(?<=Fy)|(?<=\bQ)|(?<=\bq)|(?<![\w.]))"
    r"[$€£¥]?\s?(?P<number>\d[\d,]*(?:\.\d+)?)(?![\d])"
    r"(?:\s?(?P<percent>%|percent\b|per\s?cent\b)"
    r"|\s?(?P<scale>thousand|million|billion|trillion|bn|mn|m|b|k)\b)?",
    re.IGNORECASE,
)
_SCALE_WORDS = {
    "thousand": "thousand", "k": "thousand",
    "million": "million", "mn": "million", "m": "million",
    "billion": "billion", "bn": "billion", "b": "billion",
    "trillion": "trillion",
}  # fmt: skip
# A sentence ends at . ! ? (with any citations right after it) followed by space, or a newline.
_BOUNDARY = re.compile(r"(?<!\d\.\d)(?<![A-Z]\.[A-Z])[.!?](?:\s*\[\d{1,3}\])*(?=\s)|\n+")


@dataclass(frozen=True, slots=True)
class Mention:
    """A figure as a text writes it ("383.3 billion": number 383.3, qualifier billion), for
    checking that a sentence states only figures its passages state. Not an answer's Figure
    (engine.types), which is a value with its unit and sources."""

    number: str
    qualifier: str  # "%", a scale word, or ""


_UNITS = {
    "zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
    "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13,
    "fourteen": 14, "fifteen": 15, "sixteen": 16, "seventeen": 17, "eighteen": 18,
    "nineteen": 19, "twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60,
    "seventy": 70, "eighty": 80, "ninety": 90,
}  # fmt: skip
_WORD_SCALES = {"thousand": "thousand", "million": "million", "billion": "billion",
                "trillion": "trillion"}  # fmt: skip
_NUMBER_WORD = (
    r"(?:"
    + "|".join(sorted(_UNITS, key=len, reverse=True))
    + r"|hundred|thousand|million|billion|trillion)\b"
)
_NUMBER_WORDS = re.compile(
    rf"\b{_NUMBER_WORD}(?:[\s-]+(?:and[\s-]+)?{_NUMBER_WORD})*(?:\s+(?:percent|per\s?cent)\b)?",
    re.IGNORECASE,
)


def _spelled(text: str) -> list[Mention]:
    """Amounts written in words ("nine hundred eighty-seven billion"): a single small word
    ("one of the drivers") is not a figure, but a compound, a scale or a percent is."""
    found = []
    for match in _NUMBER_WORDS.finditer(text):
        words = re.findall(r"[a-z]+", match.group().lower())
        percent = words[-1] in ("percent", "cent")
        words = [w for w in words if w not in ("and", "percent", "per", "cent")]
        scale = words[-1] if words and words[-1] in _WORD_SCALES else ""
        if len(words) < 2 and not (percent and words):
            continue  # "one of the drivers", or the scale word of "$383.3 billion"
        value, current = 0, 0
        for word in words[:-1] if scale else words:
            if word == "hundred":
                current = max(current, 1) * 100
            elif word in _WORD_SCALES:
                value, current = (
                    value + max(current, 1) * 1000 ** (list(_WORD_SCALES).index(word) + 1),
                    0,
                )
            else:
                current += _UNITS[word]
        found.append(Mention(str(value + current), "%" if percent else scale))
    return found


def figure_spans(text: str) -> list[tuple[int, int, Mention]]:
    """Where each figure written in digits stands in `text` (for marking it), and how it reads.
    Years glued to nothing ("fiscal 2023") are periods here, not figures, so they are left out."""
    spans = []
    for match in _FIGURE.finditer(text):
        figure = _read(match)
        if not (figure.number.isdigit() and len(figure.number) == 4 and figure.number[:2] in
                ("19", "20") and not figure.qualifier):  # fmt: skip
            spans.append((match.start(), match.end(), figure))
    return spans


def _read(match: re.Match[str]) -> Mention:
    number = match.group("number").replace(",", "")
    if "." in number:
        number = number.rstrip("0").rstrip(".")
    scale = (match.group("scale") or "").lower()
    return Mention(number, "%" if match.group("percent") else _SCALE_WORDS.get(scale, ""))


def figures_in(text: str) -> list[Mention]:
    stripped = _CITATION.sub(" ", text)
    found = _spelled(stripped)
    found.extend(_read(match) for match in _FIGURE.finditer(stripped))
    return found


def _held(figure: Mention, held: set[Mention]) -> bool:
    if figure in held:
        return True
    if figure.qualifier:
        return False
    return any(h.number == figure.number for h in held)


@dataclass
class Grounder:
    """Checks sentences against the passages given to the model; remembers what was cited."""

    passages: Sequence[Passage]
    extra_figures: Iterable[str] = ()
    cited: list[int] = field(default_factory=list)  # passage indexes, in citation order
    spans: dict[int, list[tuple[int, int]]] = field(default_factory=dict)  # cited sentences
    _figures: list[set[Mention]] = field(default_factory=list)
    _extra: set[Mention] = field(default_factory=set)

    def __post_init__(self) -> None:
        self._figures = [set(figures_in(p.text)) for p in self.passages]
        self._extra = {f for text in self.extra_figures for f in figures_in(text)}

    def sentence(self, text: str) -> str | None:
        """The sentence with citations renumbered, or None when a figure is ungrounded."""
        stated = figures_in(text)
        refs = [int(n) - 1 for n in _CITATION_NUMBER.findall(text)]
        refs = [r for r in refs if 0 <= r < len(self.passages)]
        if not refs and stated:
            refs = self._passages_holding(stated)[:1]
        allowed = set(self._extra).union(*(self._figures[r] for r in refs))
        if any(not _held(f, allowed) for f in stated):
            return None
        body = _CITATION.sub("", text).rstrip()
        for ref in refs:
            if ref not in self.cited:
                self.cited.append(ref)
            span = cited_span(self.passages[ref].text, body)
            if span is not None and span not in self.spans.setdefault(ref, []):
                self.spans[ref].append(span)
        marks = "".join(f"[{self.cited.index(r) + 1}]" for r in dict.fromkeys(refs))
        return _place_marks(body, marks)

    def cited_passages(self) -> list[Passage]:
        return [self.passages[i] for i in self.cited]

    def cited_sources(self) -> tuple[Source, ...]:
        """The cited passages as sources, in citation order, each with its cited sentences."""
        return tuple(
            Source.from_passage(self.passages[i], spans=self.spans.get(i, ())) for i in self.cited
        )

    def _passages_holding(self, stated: list[Mention]) -> list[int]:
        return [i for i, held in enumerate(self._figures) if all(_held(f, held) for f in stated)]


_CITATION_NUMBER = re.compile(r"\[(\d{1,3})\]")


_CLOSE_ENOUGH = 0.6


def cited_span(passage: str, sentence: str) -> tuple[int, int] | None:
    """Where the sentence an answer cites stands in the passage: the quoted words themselves,
    or else the passage sentence sharing the most of its words (a model may paraphrase)."""
    core = sentence.strip().rstrip(".!?").strip()
    if not core:
        return None
    start = passage.find(core)
    if start >= 0:
        end = start + len(core)
        return start, end + 1 if passage[end : end + 1] in (".", "!", "?") else end
    said = set(words(core))
    best, best_share = None, 0.0
    for candidate in passage_sentences(passage):
        share = len(said & set(words(candidate.text))) / (len(said) or 1)
        if share > best_share:
            best, best_share = (candidate.start, candidate.end), share
    return best if best_share >= _CLOSE_ENOUGH else None


def cites(sentence: str) -> bool:
    return _CITATION_NUMBER.search(sentence) is not None


def _place_marks(body: str, marks: str) -> str:
    if not marks:
        return body
    end = body[-1:] if body[-1:] in ".!?" else ""
    core = body[: len(body) - len(end)].rstrip()
    return f"{core} {marks}{end or '.'}"


def sentences(deltas: Iterable[str]) -> Iterator[str]:
    """Whole sentences from a stream of text deltas, each as soon as it is complete."""
    buffer = ""
    for delta in deltas:
        buffer += delta
        while True:
            match = _BOUNDARY.search(buffer)
            if match is None:
                break
            sentence, buffer = buffer[: match.end()].strip(), buffer[match.end() :]
            if sentence:
                yield sentence
    if buffer.strip():
        yield buffer.strip()


_SHARE_OF = re.compile(r"\s*of\b", re.IGNORECASE)
_CHANGE_REACH = 4  # words a change word may stand before the amount it moved


def _moved(before: str, after: str) -> bool:
    """Whether a word of change says how an amount moved: just before it in its clause
    ("fell $4 million", "increased by $2 million to"), or right after it ("a $29.3 million
    increase in ...")."""
    clause = re.split(r"[,;:]", before)[-1]
    if _CHANGE_SAID.search(" ".join(clause.split()[-_CHANGE_REACH:])):
        return True
    return _CHANGE_SAID.match(" ".join(after.split()[:1])) is not None


_CHANGE_SAID = re.compile(
    r"\b(?:increas|decreas|declin|ris|rose|fell|fall|grew|grow|drop|chang|reduc|improv|gain)",
    re.IGNORECASE,
)


def states_figure(
    sentence: str, asked: str, years: Iterable[int], said: Iterable[str] = (), context: str = ""
) -> bool:
    """Whether a quoted sentence itself states the kind of number asked ("amount", "change",
    "percent", or "computed": then it must also say one of `said`, the question's own
    operation words, as "averaging 70.07" does) for the asked years: then the passage answers
    a question for a number (ADR 0040). A sentence naming no year is read in its passage,
    `context`, which must name an asked year."""
    wanted = set(years)
    if asked == "computed" and not says_operation(sentence, said):
        return False
    if wanted and not wanted & (_years_named(sentence) or _years_named(context)):
        return False
    if asked == "amount" and _NIL.search(sentence):
        return True  # "no impairment losses were recognized": the amount stated is nil
    text = _DAY.sub(" ", _CITATION.sub(" ", sentence))
    spans = figure_spans(text)
    if asked == "change":
        # "Fell $4 million", "a $2.1 million increase": the change word says how that
        # amount moved. Elsewhere in the sentence ("to improve products") it does not.
        spans = [s for s in spans if s[2].qualifier != "%" and _moved(text[: s[0]], text[s[1] :])]
    if asked == "amount":
        # "16 percent of net sales" is a share of net sales, not their amount (ADR 0053).
        spans = [s for s in spans if not (s[2].qualifier == "%" and _SHARE_OF.match(text[s[1] :]))]
    stated = [f for _, _, f in spans]
    if asked == "percent":
        stated = [f for f in stated if f.qualifier == "%"]
    return bool(stated)


def says_operation(sentence: str, said: Iterable[str]) -> bool:
    """Whether a sentence says one of the question's operation words itself, in any of its
    forms ("averaging" for "average", "represented" for "represent"), not another word that
    only begins alike ("related" is no "relation"), nor the "average" of "weighted average",
    which names a line item (ADR 0053)."""
    text = _WEIGHTED_AVERAGE.sub(" ", sentence.lower())
    return any(re.search(rf"\b{re.escape(_word_base(w))}(?:{_ENDINGS})?\b", text) for w in said)


def _word_base(word: str) -> str:
    """A word without the ending its other forms replace: "average" -> "averag"."""
    return word[:-1] if word.endswith("e") and len(word) > 4 else word


_ENDINGS = "e|es|s|d|ed|ing|ion|ions"
_WEIGHTED_AVERAGE = re.compile(r"\bweighted[\s-]+average", re.IGNORECASE)


def lists_amounts(sentence: str) -> bool:
    """Whether a sentence states amounts side by side ("$30 million and $36 million", "$2.2
    billion and $2.4 billion, respectively"): each is one figure, none is their total."""
    text = _DAY.sub(" ", _CITATION.sub(" ", sentence))
    spans = figure_spans(text)
    return any(_LIST_GAP.fullmatch(text[first[1] : second[0]]) for first, second in pairwise(spans))


_LIST_GAP = re.compile(r"\s*(?:,|and|,\s*and)\s*", re.IGNORECASE)


# The day of a date ("as of december 31, 2015") is part of the period, not a figure stated.
_DAY = re.compile(
    r"\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s+\d{1,2}\b"
    r"(?!\s*(?:%|percent|thousand|million|billion))",
    re.IGNORECASE,
)
# An amount stated as none: "had no accrued penalties", "no losses were recognized".
_NIL = re.compile(
    r"\b(?:had|has|have|recorded|recognized|recognised|there\s+were|there\s+was)\s+no\b"
    r"|\bno\s+(?:[\w-]+\s+){1,4}(?:was|were|has\s+been|have\s+been)\b",
    re.IGNORECASE,
)


def _years_named(text: str) -> set[int]:
    return {int(y) for y in re.findall(r"(?<!\d)((?:19|20)\d{2})(?!\d)", text)}
