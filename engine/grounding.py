"""Grounding narrative text: every figure a sentence states must be written in a passage it cites.

Sentences are checked one at a time, as they complete, so a stream never sends an ungrounded
figure. Citation markers are renumbered to the order passages are first cited, so `[1]` is
always the first entry of the answer's sources.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field

from engine.types import Passage

_CITATION = re.compile(r"\s*\[(\d{1,3})\]")
_FIGURE = re.compile(
    r"(?<![\w.])[$€£¥]?\s?(?P<number>\d[\d,]*(?:\.\d+)?)(?![\d])"
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
class Figure:
    number: str
    qualifier: str  # "%", a scale word, or ""


def figures_in(text: str) -> list[Figure]:
    stripped = _CITATION.sub(" ", text)
    found = []
    for match in _FIGURE.finditer(stripped):
        number = match.group("number").replace(",", "")
        if "." in number:
            number = number.rstrip("0").rstrip(".")
        qualifier = (
            "%"
            if match.group("percent")
            else _SCALE_WORDS.get((match.group("scale") or "").lower(), "")
        )
        found.append(Figure(number, qualifier))
    return found


def _held(figure: Figure, held: set[Figure]) -> bool:
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
    _figures: list[set[Figure]] = field(default_factory=list)
    _extra: set[Figure] = field(default_factory=set)

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
        for ref in refs:
            if ref not in self.cited:
                self.cited.append(ref)
        body = _CITATION.sub("", text).rstrip()
        marks = "".join(f"[{self.cited.index(r) + 1}]" for r in dict.fromkeys(refs))
        return _place_marks(body, marks)

    def cited_passages(self) -> list[Passage]:
        return [self.passages[i] for i in self.cited]

    def _passages_holding(self, stated: list[Figure]) -> list[int]:
        return [i for i, held in enumerate(self._figures) if all(_held(f, held) for f in stated)]


_CITATION_NUMBER = re.compile(r"\[(\d{1,3})\]")


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
