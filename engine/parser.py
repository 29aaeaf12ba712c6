"""Deterministic intent parsing of the current question only.

The parser links words to the store's vocabulary (entity and metric names with aliases), reads
periods, and decides what kind of question it is. It never sees history or assistant text:
`parse(question)` takes one string. Linking weights words by how few metric labels hold them,
so the rare words of a long label ("exercise" in "weighted average exercise price per share")
decide, and when two labels tie it reports an ambiguity instead of guessing.
"""

from __future__ import annotations

import math
import re
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import cast

from engine import arithmetic
from engine.cache import PerVocabulary
from engine.intent import Ambiguity, Intent, Kind, Operation
from engine.text import TOKEN, normalise_word, words
from engine.timeframe import TimeFrame, expand_range, read_timeframe
from engine.types import Vocabulary


def _lexicon(text: str) -> frozenset[str]:
    """Lexicon words in the same normalised form the question's tokens take."""
    return frozenset(normalise_word(w) for w in text.split())


# Words that carry no metric meaning in a question.
STOP = _lexicon(
    """
    a an the of in on at for to from by with and or as is are was were be been being am
    did do does done has have had what whats which who whom whose when where how much many
    it its it's this that these those there their they them we our us i me my you your
    amount value figure number company companies group firm business entity organisation
    organization state stated disclose disclosed show shown
    year fiscal fy period quarter during between over than then please tell give about
    respective respectively both each all end ended ending date dated as of at
    january february march april may june july august september october november december
    jan feb mar apr jun jul aug sep sept oct nov dec
    approximately approx roughly around just only also so any some
    get got can could would should will shall let know see find look up
    like level figure
    """
)
# Words that never tell two line items apart. Smaller than STOP on purpose: "state" in
# "State income tax" or "total" in "Total assets" are part of what a label means.
LABEL_STOP = _lexicon(
    """a an the of in on at for to from by with and or as its their our
    year years fiscal fy period quarter ended ending"""
)
# Label words a question may leave out without changing which line item it means.
SOFT = _lexicon("total consolidated reported overall aggregate group net")

PERCENT = _lexicon("percent percentage % pct")
CHANGE = _lexicon(
    """change changed difference differ increase increased decrease decreased increment
    decline declined rise rose fall fell drop dropped grow grew gain gained variance
    movement move moved shrink shrank"""
)
GROWTH = _lexicon("growth cagr")
RATIO = _lexicon("ratio proportion divided quotient multiple")
AVERAGE = _lexicon("average mean avg")
SUM = _lexicon("sum combined total altogether together aggregate add")
SUM_FOLLOW_UP = _lexicon("sum combined altogether together")
HIGHER = _lexicon(
    """higher highest larger largest greater greatest bigger biggest more most exceed
    exceeded maximum max top"""
)
LOWER = _lexicon("lower lowest smaller smallest less least fewer minimum min bottom")
WHICH = _lexicon("which when compare compared versus vs whether")
TREND = _lexicon(
    "trend trending evolve evolved evolution develop developed trajectory history historical"
)
NARRATIVE = _lexicon(
    """why explain explanation describe description discuss discussion summarize summarise
    summary reason driver drove drive driven factor impact affect affected cause caused
    outlook strategy risk consist consisted mean meaning define definition say said mention
    mentioned according comment commentary highlight note purpose include included includes
    represent represents policy policies recognise recognize recognised recognized happen
    happened led"""
)
UNSUPPORTED = _lexicon(
    """forecast predict prediction projection will next future expect expected
    recommend recommendation buy sell invest"""
)
AGGREGATES = frozenset({"sum", "average", "trend", "higher", "lower"})
COUNTING = _lexicon("year time period quarter")
OPERATION_WORDS = PERCENT | CHANGE | GROWTH | RATIO | AVERAGE | SUM | HIGHER | LOWER | TREND
NOT_CONTENT = STOP | OPERATION_WORDS | NARRATIVE | frozenset({"$", "&", "%"})
CHANGE_OR_GROWTH = CHANGE | GROWTH
HIGHER_OR_LOWER = HIGHER | LOWER
ABSOLUTE = _lexicon("absolute point points")
THRESHOLD = _lexicon("above below exceed exceeded exceeding")
_TICKER_MAX = 5
_POSSESSIVE = re.compile(r"['’]s?$")


@dataclass(frozen=True, slots=True)
class _Label:
    metric: str
    keys: frozenset[str]
    weight: float


class IntentParser:
    """Parses one question against one vocabulary. Build once per vocabulary version."""

    def __init__(self, vocabulary: Vocabulary) -> None:
        self.vocabulary = vocabulary
        self._entity_keys = _entity_index(vocabulary)
        self._labels, self._labels_by_word, self._metric_words = _metric_index(vocabulary)
        self._keys_of_metric: dict[str, frozenset[str]] = {}
        for label in self._labels:
            known = self._keys_of_metric.get(label.metric, frozenset())
            self._keys_of_metric[label.metric] = known | label.keys
        self._single_entity = vocabulary.entities[0].name if len(vocabulary.entities) == 1 else None

    def parse(self, question: str) -> Intent:
        text = question.strip()
        texts = TOKEN.findall(text)
        norms = list(map(normalise_word, texts))
        frame = read_timeframe(text)
        used = _period_mask(text, texts, frame)
        entities = self._link_entities(texts, norms, used)
        topic = _topic(texts, norms, used)
        grammar = arithmetic.read(norms, used)
        metrics, ambiguous, metric_spans = self._link_metrics(norms, used)
        leftover: list[str] = []
        loose: list[str] = []
        for word, norm, taken in zip(texts, norms, used, strict=True):
            if not taken:
                leftover.append(norm)
                if norm not in NOT_CONTENT and not norm[0].isdigit():
                    loose.append(word)
        seen = frozenset(leftover)
        families = _operations(leftover, seen)
        operation = cast(Operation | None, grammar.operation) or _operation(
            seen, families, frame, len(entities), len(metrics)
        )
        periods = frame.periods
        if frame.is_range and operation in AGGREGATES:
            periods = expand_range(periods[0], periods[-1])
        counts = (len(entities), len(metrics), len(periods))
        kind = _kind(seen, leftover, families, bool(loose), operation, counts, ambiguous)
        if grammar.referent and operation and kind == "narrative" and seen.isdisjoint(NARRATIVE):
            # "that change in relation to this 2005 exercise price": the session checks the
            # unlinked words against the metric of the result it finds.
            kind = "comparison"
        return Intent(
            question=text,
            kind=kind,
            operation=operation if kind == "comparison" else None,
            entities=entities,
            metrics=metrics,
            periods=periods
            if operation in (None, "ratio", "percent_of")
            else tuple(sorted(periods)),
            period_range=frame.is_range,
            relative_last=frame.relative_last,
            ambiguous=ambiguous,
            qualifiers=_qualifiers(texts, norms, used, metric_spans, self._metric_keys(metrics))
            if metric_spans
            else (),
            loose=tuple(dict.fromkeys(loose)),
            follow_up=not loose and not metrics,
            topic=topic,
            referent=grammar.referent,
            referent_first=grammar.referent_first,
            constants=grammar.constants,
            nested=grammar.nested,
            asks_value=grammar.value,
            points_back=grammar.points_back,
        )

    def _metric_keys(self, metrics: tuple[str, ...]) -> frozenset[str]:
        return frozenset().union(*(self._keys_of_metric[m] for m in metrics))

    # -- entities -------------------------------------------------------------------------
    def _link_entities(
        self, texts: Sequence[str], norms: Sequence[str], used: list[bool]
    ) -> tuple[str, ...]:
        found: list[str] = []
        keys = self._entity_keys
        i = 0
        while i < len(norms):
            if norms[i] not in keys:  # the common case, checked without a call
                i += 1
                continue
            match = self._entity_at(texts, norms, used, i)
            if match is None:
                i += 1
                continue
            name, length = match
            for j in range(i, i + length):
                used[j] = True
            if name not in found:
                found.append(name)
            i += length
        return tuple(found)

    def _entity_at(
        self, texts: Sequence[str], norms: Sequence[str], used: list[bool], i: int
    ) -> tuple[str, int] | None:
        for key, name, exact in self._entity_keys.get(norms[i], ()):
            length = len(key)
            if tuple(norms[i : i + length]) != key or any(used[i : i + length]):
                continue
            written = " ".join(_POSSESSIVE.sub("", t) for t in texts[i : i + length])
            if exact is None or written == exact:
                return name, length
        return None

    # -- metrics --------------------------------------------------------------------------
    def _link_metrics(
        self, norms: Sequence[str], used: list[bool]
    ) -> tuple[tuple[str, ...], tuple[Ambiguity, ...], list[tuple[int, int]]]:
        positions: dict[str, list[int]] = {}
        by_word = self._labels_by_word
        candidates: set[int] = set()
        for i, norm in enumerate(norms):
            if not used[i] and norm in by_word:
                positions.setdefault(norm, []).append(i)
                candidates.update(by_word[norm])
        held = set(positions)
        labels = self._labels
        full = [labels[c] for c in candidates if labels[c].keys <= held]
        if full:
            return self._take_full(full, positions, used)
        return self._take_partial(candidates, positions, used)

    def _take_full(
        self, full: list[_Label], positions: dict[str, list[int]], used: list[bool]
    ) -> tuple[tuple[str, ...], tuple[Ambiguity, ...], list[tuple[int, int]]]:
        full.sort(key=_longest_first)
        metrics: list[str] = []
        spans: list[tuple[int, int]] = []
        ambiguous: list[Ambiguity] = []
        taken: list[_Label] = []
        for label in full:
            if label.metric in metrics:
                continue
            rival = next((t for t in taken if t.keys == label.keys), None)
            if rival is not None:
                ambiguous.append(Ambiguity("metric", (rival.metric, label.metric)))
                continue
            if any(label.keys <= t.keys for t in taken):
                continue  # every word of it belongs to a longer label already taken
            spot = _claim(label.keys, positions, used)
            if spot is None:
                continue
            taken.append(label)
            metrics.append(label.metric)
            spans.append(spot)
        if ambiguous:
            return (), tuple(_merge(ambiguous)), spans
        in_question_order = sorted(zip(spans, metrics, strict=True))
        return tuple(m for _, m in in_question_order), (), [s for s, _ in in_question_order]

    def _take_partial(
        self, candidates: set[int], positions: dict[str, list[int]], used: list[bool]
    ) -> tuple[tuple[str, ...], tuple[Ambiguity, ...], list[tuple[int, int]]]:
        """No label is named in full. One label holding every metric word, missing only soft
        words ("total"), is taken; several labels holding them are a question back."""
        question_words = {w for w in positions if w in self._metric_words}
        if not question_words:
            return (), (), []
        holders = [self._labels[c] for c in candidates if question_words <= self._labels[c].keys]
        names = sorted({label.metric for label in holders})
        if len(names) == 1 and all(label.keys - question_words <= SOFT for label in holders):
            spot = _claim(frozenset(question_words), positions, used)
            return (names[0],), (), [spot] if spot else []
        if 1 <= len(names) <= 6:
            for word in question_words:
                for i in positions[word]:
                    used[i] = True
            return (), (Ambiguity("metric", tuple(names)),), []
        return (), (), []


def _longest_first(label: _Label) -> tuple[int, float, str]:
    return -len(label.keys), -label.weight, label.metric


def _claim(
    keys: frozenset[str], positions: dict[str, list[int]], used: list[bool]
) -> tuple[int, int] | None:
    """Mark the label's words as used, choosing the tightest cluster when a word repeats."""
    spots = [positions.get(key) for key in keys]
    if all(spot is not None and len(spot) == 1 for spot in spots):
        # The usual case, each word once in the question: no cluster to choose.
        chosen = [spot[0] for spot in spots]  # type: ignore[index]
        if all(used[i] for i in chosen):
            return None
        for i in chosen:
            used[i] = True
        return min(chosen), max(chosen)
    free = {key: [i for i in positions.get(key, ()) if not used[i]] for key in keys}
    if not any(free.values()):
        return None
    # Words shared with a label already taken ("net sales" in "APAC and EMEA net sales")
    # may serve both, but the label's own distinguishing word must be free.
    free = {key: found or positions.get(key, []) for key, found in free.items()}
    if not all(free.values()):
        return None
    anchor_key = min(free, key=lambda k: len(free[k]))
    best: list[int] = []
    for anchor in free[anchor_key]:
        chosen = [min(free[k], key=lambda i: abs(i - anchor)) for k in keys]
        if not best or max(chosen) - min(chosen) < max(best) - min(best):
            best = chosen
    for i in best:
        used[i] = True
    return min(best), max(best)


def _merge(ambiguous: list[Ambiguity]) -> list[Ambiguity]:
    names: list[str] = []
    for item in ambiguous:
        names.extend(n for n in item.choices if n not in names)
    return [Ambiguity("metric", tuple(names))]


def _period_mask(text: str, texts: Sequence[str], frame: TimeFrame) -> list[bool]:
    """Which words the periods were read from (they are not metric or entity words)."""
    mask = [False] * len(texts)
    for low, high in frame.spans:
        # Count words instead of walking them: the words before the span, then its own.
        first = len(TOKEN.findall(text, 0, low))
        count = len(TOKEN.findall(text, low, high))
        mask[first : first + count] = [True] * count
    return mask


def _topic(texts: Sequence[str], norms: Sequence[str], named: list[bool]) -> tuple[str, ...]:
    """The words outside company names and periods, as written: what passages must be about."""
    kept = (t for t, n, taken in zip(texts, norms, named, strict=True) if not taken)
    return tuple(dict.fromkeys(t for t in kept if normalise_word(t) not in STOP))


def _is_content(word: str) -> bool:
    return word not in NOT_CONTENT and not word[0].isdigit()


def _operations(leftover: list[str], seen: frozenset[str]) -> set[str]:
    """The families of arithmetic a question asks for; more than one is a compound question."""
    families = set()
    if not seen.isdisjoint(RATIO) or (
        not seen.isdisjoint(PERCENT) and "of" in seen and _percent_of(leftover)
    ):
        families.add("ratio")
    if not seen.isdisjoint(AVERAGE):
        families.add("average")
    if not seen.isdisjoint(CHANGE_OR_GROWTH) or (
        "how" in seen and "much" in seen and not seen.isdisjoint(HIGHER_OR_LOWER)
    ):
        families.add("change")
    return families


def _operation(
    seen: frozenset[str],
    families: set[str],
    frame: TimeFrame,
    n_entities: int,
    n_metrics: int,
) -> Operation | None:
    percent = not seen.isdisjoint(PERCENT)
    if "ratio" in families:
        return "percent_of" if percent else "ratio"
    if "average" in families:
        return "average"
    if not seen.isdisjoint(GROWTH) or (
        not seen.isdisjoint(CHANGE) and percent and seen.isdisjoint(ABSOLUTE)
    ):
        return "percent_change"
    if "change" in families:
        return "difference"
    if not seen.isdisjoint(HIGHER_OR_LOWER) and not seen.isdisjoint(WHICH):
        return "higher" if not seen.isdisjoint(HIGHER) else "lower"
    if percent:
        return "percent_change"
    many = len(frame.periods) > 1 or n_entities > 1 or n_metrics > 1
    if not seen.isdisjoint(SUM) and many:
        return "sum"
    if not seen.isdisjoint(SUM_FOLLOW_UP) and not frame.periods and not n_metrics:
        return "sum"  # "what is the sum?": of the figures the conversation carries
    if not seen.isdisjoint(TREND) or (frame.relative_last or 0) > 1:
        return "trend"
    # A bare range ("revenue from 2021 to 2023") names no operation: the plan lists it as a
    # trend, while a follow-up may still take the operation of the question it continues.
    return None


def _percent_of(leftover: list[str]) -> bool:
    return any(
        word in PERCENT and i + 1 < len(leftover) and leftover[i + 1] == "of"
        for i, word in enumerate(leftover)
    )


def _kind(
    seen: frozenset[str],
    leftover: list[str],
    families: set[str],
    has_content: bool,
    operation: Operation | None,
    counts: tuple[int, int, int],
    ambiguous: tuple[Ambiguity, ...],
) -> Kind:
    n_entities, n_metrics, n_periods = counts
    if (not seen.isdisjoint(UNSUPPORTED) and not n_periods) or _counts_periods(leftover, seen):
        return "unsupported"
    threshold = ("than" in seen and not seen.isdisjoint(HIGHER_OR_LOWER)) or not seen.isdisjoint(
        THRESHOLD
    )
    if threshold and any(w[0].isdigit() for w in leftover):
        return "unsupported"  # "in which years was it above 150 million": a filter, not a lookup
    if len(families) > 1 and (n_metrics or ambiguous):
        return "unsupported"  # composed arithmetic ("difference between two averages")
    if _narrative(seen, operation):
        return "narrative"
    if not n_metrics and not ambiguous and has_content:
        return "narrative"
    if operation is not None:
        return "comparison"
    if n_entities > 1 or n_metrics > 1 or n_periods > 1:
        return "multi"
    return "lookup"


def _counts_periods(leftover: list[str], seen: frozenset[str]) -> bool:
    """ "How many years ..." asks to count periods, which the engine does not do."""
    if "many" not in seen:
        return False
    return any(
        leftover[i] == "how"
        and leftover[i + 1] == "many"
        and set(leftover[i + 2 : i + 5]) & COUNTING
        for i in range(len(leftover) - 1)
    )


def _narrative(seen: frozenset[str], operation: Operation | None) -> bool:
    if not seen.isdisjoint(NARRATIVE):
        return True
    if "how" in seen and "much" not in seen and "many" not in seen:
        return operation is None
    return False


def _qualifiers(
    texts: Sequence[str],
    norms: Sequence[str],
    used: list[bool],
    spans: list[tuple[int, int]],
    metric_keys: frozenset[str],
) -> tuple[str, ...]:
    """Unlinked words right beside a linked metric ("services revenue"): the question may
    mean a narrower line item than the one we hold, so the engine must not answer blindly."""
    found: list[str] = []
    for start, end in spans:
        for step in (-1, 1):
            i = start - 1 if step < 0 else end + 1
            while 0 <= i < len(norms) and norms[i] in STOP and abs(i - start) <= 3:
                i += step
            if 0 <= i < len(norms) and not used[i]:
                word = norms[i]
                if _is_content(word) and word not in metric_keys and len(word) > 1:
                    found.append(texts[i])
    return tuple(dict.fromkeys(found))


EntityKey = tuple[tuple[str, ...], str, str | None]


def _entity_index(vocabulary: Vocabulary) -> dict[str, list[EntityKey]]:
    """Entity names and aliases by their first word, longest first, so one dictionary look-up
    per question word finds every name that could start there."""
    keys: dict[str, list[EntityKey]] = defaultdict(list)
    for term in vocabulary.entities:
        for label in (term.name, *term.aliases):
            key = tuple(words(label))
            if not key:
                continue
            # A short all-capitals alias is a ticker: "SNOW" and "BA" must not match "snow".
            ticker = label.isupper() and label.isalpha() and len(label) <= _TICKER_MAX
            entry = (key, term.name, label if ticker else None)
            if entry not in keys[key[0]]:
                keys[key[0]].append(entry)
    for entries in keys.values():
        entries.sort(key=lambda entry: -len(entry[0]))
    return dict(keys)


def _metric_index(
    vocabulary: Vocabulary,
) -> tuple[list[_Label], dict[str, list[int]], frozenset[str]]:
    raw: list[tuple[str, frozenset[str]]] = []
    for term in vocabulary.metrics:
        for label in dict.fromkeys((term.name, *term.aliases)):
            keys = frozenset(w for w in words(label) if w not in LABEL_STOP)
            if keys:
                raw.append((term.name, keys))
    frequency: dict[str, int] = defaultdict(int)
    for _, keys in raw:
        for word in keys:
            frequency[word] += 1
    count = max(len(raw), 1)
    idf = {w: math.log(1 + count / n) for w, n in frequency.items()}
    labels = [
        _Label(
            metric=metric,
            keys=keys,
            weight=sum(idf[w] for w in keys),
        )
        for metric, keys in raw
    ]
    by_word: dict[str, list[int]] = defaultdict(list)
    for index, item in enumerate(labels):
        for word in item.keys:
            by_word[word].append(index)
    return labels, dict(by_word), frozenset(frequency)


parser_for = PerVocabulary(IntentParser)
"""A parser for this vocabulary, built once per vocabulary version and reused."""
