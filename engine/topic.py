"""What a question is about, and how much of it a passage or a sentence covers.

A question's topic is what remains of it after the company, the period and the words that
only frame a question ("why", "what did ... say about", "drove"). Words that say a figure
moved are a concept, a rise ("grow", "higher"), a fall ("dip", "declined") or a change either
way, matched by any word of it (or one of no direction: "changed") and weighed half: "What drove
Apple's services growth?" is about services first.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from engine.parser import NARRATIVE, STOP
from engine.text import TOKEN, normalise_word, words
from engine.timeframe import read_timeframe


def root(word: str) -> str:
    """A normalised word without its verb or noun ending, for matching a question's words
    with a text's: "completed" and "complete", "generation" and "generated" meet."""
    for ending in ("ions", "ion", "ing", "ed", "e"):
        if word.endswith(ending) and len(word) - len(ending) >= 4:
            return word[: -len(ending)]
    return word


def _lexicon(text: str) -> frozenset[str]:
    return frozenset(root(normalise_word(w)) for w in text.split())


# Words that say a figure moved, by direction: "dip" is not answered by "recovered".
RISE_WORDS = _lexicon(
    """increase increased increasing rise rose risen rising grow grew grown growing growth
    grows jump jumped surge surged climb climbed gain gained higher improve improved
    improvement recover recovered recovery expand expanded expansion rebound rebounded
    doubled tripled turnaround up"""
)
FALL_WORDS = _lexicon(
    """decrease decreased decreasing fall fell fallen falling decline declined declining drop
    dropped dip dipped slow slowed slowdown lower narrow narrowed shrink shrank contract
    contracted down"""
)
CHANGE_WORDS = (
    RISE_WORDS | FALL_WORDS | _lexicon("change changed changes changing swing swung widen widened")
)
CHANGE = "~change"  # a change either way ("change", "swing", "move")
RISE = "~rise"
FALL = "~fall"
_MATCHED_BY = {
    CHANGE: CHANGE_WORDS,
    RISE: CHANGE_WORDS - FALL_WORDS,
    FALL: CHANGE_WORDS - RISE_WORDS,
}


def is_change(term: str) -> bool:
    return term in _MATCHED_BY


# Words that say what kind of answer is wanted, not what it is about.
FRAME = (
    _lexicon(" ".join(NARRATIVE))
    - _lexicon(
        """risk outlook strategy impact affect affected policy policies represent include
        consist mean define definition purpose"""
    )
) | _lexicon(
    """main key major primary principal biggest largest important behind lead leading
        report reported reports highlight highlighted describe described explain explained
        discuss discussed tell told note noted cite cited give given spend respect regard
        regarding concern concerning anything something thing things way ways much well
        doing going get make made provide provided information detail details despite
        although though while whether due rationale"""
)
_CHANGE_WEIGHT = 0.5
# Words that make what follows them its opposite ("non-vested", "not included").
NEGATING = _lexicon("non not no without excluding except")


@dataclass(frozen=True, slots=True)
class Topic:
    """Topic terms (normalised words, and CHANGE) with the words the question wrote them as."""

    terms: tuple[str, ...]
    written: tuple[str, ...]

    @classmethod
    def of(cls, question_words: Iterable[tuple[str, str]]) -> Topic:
        """From (as written, normalised) pairs of the words left once names and periods are
        taken out."""
        terms: dict[str, str] = {}
        for written, norm in question_words:
            if len(norm) < 2 or norm in STOP or not norm.isalpha():
                continue  # numbers and codes ("F19", "10-K") are not what a passage is about
            norm = root(norm)
            if norm in FRAME:
                continue
            terms.setdefault(_concept(norm), written)
        return cls(tuple(terms), tuple(terms.values()))

    def __bool__(self) -> bool:
        return bool(self.terms)

    def weight(self, term: str) -> float:
        return _CHANGE_WEIGHT if is_change(term) else 1.0

    def held(self, text_words: frozenset[str]) -> tuple[str, ...]:
        """The terms a text holds, given its normalised words."""
        return tuple(t for t in self.terms if _holds(t, text_words))

    def coverage(self, text_words: frozenset[str]) -> float:
        """The share of the topic's weight a text holds; 1.0 for a question with no topic."""
        total = sum(self.weight(t) for t in self.terms)
        if not total:
            return 1.0
        return sum(self.weight(t) for t in self.held(text_words)) / total

    def negation_missing(self, text_words: frozenset[str]) -> bool:
        """Whether the text lacks a word of the topic that turns the rest into its opposite:
        a text on "vested shares" or the "consumer provision" is not about "non-vested
        shares" or the "non-consumer provision", however much else it shares (ADR 0053)."""
        return any(t in NEGATING and not _holds(t, text_words) for t in self.terms)

    def missing(self, text_words: frozenset[str]) -> tuple[str, ...]:
        """The words of the question, as written, whose terms the text lacks."""
        return tuple(
            written
            for term, written in zip(self.terms, self.written, strict=True)
            if not _holds(term, text_words)
        )


def _concept(word: str) -> str:
    if word in RISE_WORDS:
        return RISE
    if word in FALL_WORDS:
        return FALL
    return CHANGE if word in CHANGE_WORDS else word


def _holds(term: str, text_words: frozenset[str]) -> bool:
    if is_change(term):
        return not text_words.isdisjoint(_MATCHED_BY[term])
    return term in text_words


def text_words(text: str) -> frozenset[str]:
    return frozenset(root(w) for w in words(text))


def question_topic(question: str, *, names: Iterable[str] = ()) -> Topic:
    """The topic of a question read on its own: without the words of `names` (companies)
    and of the periods it names."""
    dropped = {w for name in names for w in words(name)}
    spans = read_timeframe(question).spans
    pairs = []
    for match in TOKEN.finditer(question):
        norm = normalise_word(match.group())
        if norm in dropped or any(low <= match.start() < high for low, high in spans):
            continue
        pairs.append((match.group(), norm))
    return Topic.of(pairs)


def joined_terms(question: str, topic: Topic) -> frozenset[str]:
    """The topic's words either side of an "and" ("cash from operating and investing
    activities", "interest and penalties"): the question names both, so a text naming one of
    them is about the one only, however much else it shares (ADR 0053)."""
    roots = [root(normalise_word(t)) for t in TOKEN.findall(question)]
    terms = frozenset(topic.terms)
    joined: set[str] = set()
    for before, word, after in zip(roots, roots[1:], roots[2:], strict=False):
        if word == "and" and before in terms and after in terms:
            joined.update((before, after))
    return frozenset(joined)


def intent_topic(topic_words: Iterable[str]) -> Topic:
    """The topic of a parsed question (Intent.topic: its words outside names and periods)."""
    return Topic.of((w, normalise_word(w)) for w in topic_words)
