"""Deterministic intent parsing of the current question only.

The parser links words to the store's vocabulary (entity and metric names with aliases), reads
periods, and decides what kind of question it is. It never sees history or assistant text:
`parse(question)` takes one string. Linking weights words by how few metric labels hold them,
so the rare words of a long label ("exercise" in "weighted average exercise price per share")
decide, and when two labels tie it reports an ambiguity instead of guessing.
"""

from __future__ import annotations

import itertools
import math
import re
from collections import defaultdict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from itertools import dropwhile, pairwise
from typing import Literal, cast

from engine import arithmetic
from engine.cache import PerVocabulary
from engine.intent import Ambiguity, Intent, Kind, Operation
from engine.measures import MEASURES
from engine.text import TOKEN, lexicon, normalise_word, words
from engine.timeframe import TimeFrame, expand_range, read_timeframe
from engine.types import Term, Vocabulary

# Words that carry no metric meaning in a question.
STOP = lexicon(
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
    like level figure ok okay
    thousand thousands million millions billion billions dollar dollars
    concerning regarding considering throughout across
    again specific specifically
    """
)
# Measures computed from two figures (engine/measures.py) link only when named in full.
WHOLE_ONLY = frozenset(m.name for m in MEASURES)
# Words that never tell two line items apart. Smaller than STOP on purpose: "state" in
# "State income tax" or "total" in "Total assets" are part of what a label means.
LABEL_STOP = lexicon(
    """a an the of in on at for to from by with and or as its their our
    year years fiscal fy period quarter ended ending"""
)
# Label words a question may leave out without changing which line item it means.
SOFT = lexicon("total consolidated reported overall aggregate group net")

PERCENT = arithmetic.PERCENT_WORDS
CHANGE = lexicon(
    """change changed difference differ increase increased decrease decreased increment
    decline declined rise rose fall fell drop dropped grow grew grown gain gained variance
    movement move moved shrink shrank shrunk climb climbed jump jumped slip slipped
    improve improved worsen worsened widen widened narrow narrowed"""
)
GROWTH = lexicon("growth cagr roi")
RATIO = lexicon("ratio proportion divided quotient multiple")
AVERAGE = arithmetic.AVERAGE_WORDS
SUM = lexicon("sum summed combined total altogether together aggregate add cumulative cumulatively")
SUM_FOLLOW_UP = lexicon("sum summed combined altogether together add cumulative cumulatively")
HIGHER = lexicon(
    """higher highest larger largest greater greatest bigger biggest more most exceed
    exceeded maximum max top"""
)
LOWER = lexicon("lower lowest smaller smallest less least fewer minimum min bottom")
# Which way a question asks a figure moved ("did it rise?", "did costs go down?"): the
# comparison words above and the verbs of a movement.
UPWARD = HIGHER | lexicon(
    "increase increased rise rose risen grow grew grown climb climbed jump jumped gain gained "
    "expand expanded up"
)
DOWNWARD = LOWER | lexicon(
    "decrease decreased decline declined fall fell fallen drop dropped shrink shrank shrunk "
    "slip slipped contract contracted down"
)
WHICH = lexicon("which when compare compared versus vs whether")
TREND = lexicon(
    "trend trending evolve evolved evolution develop developed trajectory history historical"
)
NARRATIVE = lexicon(
    """why explain explanation describe description discuss discussion summarize summarise
    summary reason driver drove drive driven factor impact affect affected cause caused
    outlook strategy risk consist consisted mean meaning define definition say said mention
    mentioned according comment commentary highlight note purpose include included includes
    represent represents policy policies recognise recognize recognised recognized happen
    happened led"""
)
UNSUPPORTED = lexicon(
    """forecast predict prediction projection will next future expect expected
    recommend recommendation buy sell invest"""
)
AGGREGATES = frozenset({"sum", "average", "trend", "higher", "lower"})


# A growth rate compounded over the years ("the CAGR", "annualized growth"): worked out from
# the two years' figures as a yearly rate (ADR 0081); any other compounded figure ("the
# annualized return") is not answered.
COMPOUNDED = lexicon("cagr compound compounded annualized annualised")


# "Which company ...", "which of the companies ...", "who ...": the companies are the answer.
_WHICH_COMPANY = re.compile(
    r"\b(?:which|what)\s+(?:of\s+the\s+)?(?:company|companies|firm|firms)\b|^\s*who\b",
    re.IGNORECASE,
)


def asks_which_company(intent: Intent) -> bool:
    """Whether the question asks which company's figure is the highest or lowest of one
    line in one period: then no company is named, and none is carried."""
    return (
        intent.operation in ("higher", "lower")
        and len(intent.metrics) == 1
        and _WHICH_COMPANY.search(intent.question) is not None
    )


def unsupported_because(question: str) -> str:
    """Why a question read as unsupported is: "forecast" (a forecast or advice), "compounded"
    (a compound growth rate), or "composed" (a calculation in several steps, a filter)."""
    said = {normalise_word(w) for w in TOKEN.findall(question)}
    if not UNSUPPORTED.isdisjoint(said):
        return "forecast"
    return "compounded" if not COMPOUNDED.isdisjoint(said) else "composed"


COUNTING = lexicon("year time period quarter")
OPERATION_WORDS = PERCENT | CHANGE | GROWTH | RATIO | AVERAGE | SUM | HIGHER | LOWER | TREND
# Verbs a question may wrap a figure in ("how much did it earn in net income", "what share
# of revenue went to R&D"): they name no line item and narrow none.
PLAIN_VERBS = lexicon(
    """earn earned earns earning make made makes making spend spent spends spending
    go went goes come came comes bring brought brings generate generated generates
    report reported achieve achieved deliver delivered become becomes became hold holds
    see sees saw seen"""
)
# Words that set figures side by side; they name none ("how does that compare with 2023").
COMPARING = lexicon("compare compares compared comparison versus vs against")
# "Growth since 2021": from the named period to the one the conversation is on.
SINCE = lexicon("since")
# "Percentage points", "basis points": the unit a change is counted in (`_said_in_points`).
IN_POINTS = "~points"
# The same unit as the question wrote it, for what is read of the question's text after it
# is parsed (the session's results side by side, the answer's wording).
SAID_IN_POINTS = re.compile(r"\b(?:percentage|percent|basis|many)\s+points?\b", re.IGNORECASE)
# Of those, the verb of "how does that compare with 2023" is no content word; "as compared to"
# keeps counting as one, as it always has (two such words send a question to the documents).
NOT_CONTENT = (
    STOP
    | OPERATION_WORDS
    | NARRATIVE
    | PLAIN_VERBS
    | lexicon("compare compares versus vs")
    | SINCE
    | lexicon("terms")  # "in percentage terms", "in dollar terms": how, not what
    | COMPOUNDED  # "the compound growth": how the growth is taken, not of what
    | lexicon("absolute")  # "the absolute change": the change itself, not in percent
    | lexicon("yoy")  # "the YoY change": a change from the year before, as any change is
    | {IN_POINTS}
    | frozenset({"$", "&", "%"})
)
# Words that name an operation, or qualify one ("net change"): never alone a metric's link.
OPERATION_ONLY = OPERATION_WORDS | SOFT | lexicon("portion")
# Nouns that say a figure is asked, not which one ("the balance of X", "the performance value
# of X"): they narrow no line item, so beside a linked one they are neither a narrower
# figure (a qualifier) nor a word linked to nothing.
MEASURE_NOUNS = lexicon("amount value figure number level balance performance worth")
# Words that ask for a figure or a calculation without naming a line item: alone, they link
# only a label that adds nothing but soft words to them.
NAMING_NOTHING = (OPERATION_ONLY - SOFT) | MEASURE_NOUNS
# What a question asks of a company's or an index's own line (a stock performance table:
# "the price of Ball Corporation", "the return of the bank index"): that line's figure.
SECURITY_MEASURES = lexicon("price prices return returns stock cumulative shareholder")
# Label endings that name a company or an index rather than a measure.
NAME_ENDINGS = lexicon("corporation corp company inc incorporated plc ltd limited index composite")
CHANGE_OR_GROWTH = CHANGE | GROWTH
HIGHER_OR_LOWER = HIGHER | LOWER
SUPERLATIVES = lexicon("highest largest greatest biggest lowest smallest least peak")
ABSOLUTE = lexicon("absolute point points") | {IN_POINTS}
THRESHOLD = lexicon("above below exceed exceeded exceeding")
# Words that ask for a number: an amount, a change, a percent, a ratio, a count (ADR 0040).
AMOUNT = lexicon("""amount value number total balance price cost rate worth sum""")
# Nouns that name a figure without naming which: alone they link no line ("Par value").
GENERIC_NOUNS = lexicon("amount value figure number")
# Nouns a label's amount may be said by instead ("the amortization cost" of "amortization
# amount"); not "price" or "rate", which name figures of their own.
AMOUNT_HEADS = lexicon("amount value cost figure")
# What reports count in money or units: "what were net sales in 2014?" asks a number as
# surely as "what was the amount of ..." does (ADR 0050).
REPORTED_MEASURES = lexicon(
    """revenue revenues sales income expense expenses profit profits loss losses earnings
    assets liabilities cash debt dividends payments proceeds borrowings expenditures
    charges fees"""
)
# Words asking for names or for several figures at once ("what are the components of net
# revenue?", "... in 2019 and 2018 respectively?"): a measure named does not make these
# one number.
NAMING = lexicon(
    """component components item items segment segments category categories type types kind
    kinds year years excluded exclude considered respective respectively"""
)
# Words that ask for one figure set against another: a computed figure.
PART = lexicon(
    "portion fraction relation represent represents times difference minus plus multiplied"
)
# Words that name a line item as often as they ask for a sum ("total revenue", "the aggregate
# notional amount"): alone they do not make a question a calculation (ADR 0050).
LINE_ITEM_WORDS = lexicon("total aggregate")
# What a figure is computed by: a ratio, an average, a sum, a part. "Difference" asks for a
# change, which a sentence may state ("fell $4 million"), so it is read as a change.
COMPUTING = RATIO | AVERAGE | PART - lexicon("difference") | SUM - LINE_ITEM_WORDS
# A share of a whole asked for is a percent a sentence may state ("represented 49% of").
SHARE_OF = lexicon("proportion portion fraction")
# Words of a question that sets one figure against another: a share, a percentage, a ratio.
TWO_FIGURES = PERCENT | RATIO | SHARE_OF
# Words that put two figures into one: a product or a sum.
COMBINING = lexicon("times multiplied sum combined altogether together plus")
PRODUCT_OF = lexicon("product multiply")
NUMBER_ASKED = PERCENT | CHANGE | GROWTH | RATIO | AVERAGE | SUM | AMOUNT | PART
# Words that ask for an account in prose, even around a number ("why did revenue change?").
EXPLAINING = lexicon(
    """why explain explanation describe description discuss discussion summarize summarise
    summary reason reasons driver drivers drove cause caused outlook strategy risk policy
    policies consist consisted definition define meaning happen happened include included
    includes say said says mention mentioned comment commented"""
)
# A question opening so asks for a name, a time or a yes or no, not for a number.
PROSE_OPENINGS = lexicon("when which who where are is does do did has have")
DOES = lexicon("does do")  # "what does it represent": a meaning, not a number
_TICKER_MAX = 5
_POSSESSIVE = re.compile(r"['’]s?$")


@dataclass(frozen=True, slots=True)
class _Label:
    metric: str
    keys: frozenset[str]
    weight: float
    # Words only inside brackets ("(non-current)"): they qualify the name, a question may
    # leave them out. The head: the last word outside brackets ("equity" of "Stockholders'
    # equity").
    optional: frozenset[str] = frozenset()
    head: str = ""
    lead: str = ""  # the first word outside brackets: "balance" of "Balance at end of year"


@dataclass(frozen=True, slots=True)
class _Index:
    """Metric labels to link against: the whole vocabulary's, or one company's own."""

    labels: list[_Label]
    by_word: dict[str, list[int]]
    words: frozenset[str]
    idf: dict[str, float]

    def share(self, label: _Label, named: frozenset[str]) -> float:
        """How much of a label's weight the named words carry (rare words weigh most)."""
        # A day of the month said with the question's date ("as of December 31") names the
        # moment, not the line: it carries none of a label's weight toward a partial link.
        said = (w for w in label.keys & named if not (w.isdigit() and len(w) <= 2))
        return sum(self.idf[w] for w in said) / (label.weight or 1.0)


HeldBy = Callable[[str], frozenset[str]]
"""The metrics the knowledge base holds for a company (as the asker may see them)."""
_SCOPED_INDEXES = 64
MOST = 0.6  # the share of a label's weight a question must name to take it unnamed words


class IntentParser:
    """Parses one question against one vocabulary. Build once per vocabulary version."""

    def __init__(self, vocabulary: Vocabulary) -> None:
        self.vocabulary = vocabulary
        self._entity_keys = _entity_index(vocabulary)
        self._index = _metric_index(vocabulary.metrics)
        self._scoped: dict[frozenset[str], _Index] = {}
        # "debt to capital", "loan to value": the pairs a label names as one thing set to
        # another, whose "ratio" a question may add (`_a_lines_ratio`).
        self._pairs = _label_pairs(
            [label for term in vocabulary.metrics for label in (term.name, *term.aliases)]
        )
        self._keys_of_metric: dict[str, frozenset[str]] = {}
        self._labels_of_metric: dict[str, list[_Label]] = defaultdict(list)
        for label in self._index.labels:
            self._labels_of_metric[label.metric].append(label)
            known = self._keys_of_metric.get(label.metric, frozenset())
            self._keys_of_metric[label.metric] = known | label.keys
        self._subject_of_metric = {
            t.name: frozenset(words(t.subject)) - LABEL_STOP for t in vocabulary.metrics
        }
        self._single_entity = vocabulary.entities[0].name if len(vocabulary.entities) == 1 else None

    def parse(
        self, question: str, *, scope: str | None = None, held_by: HeldBy | None = None
    ) -> Intent:
        """`scope` is the conversation's company; with `held_by`, metric words link first
        against the metrics held for the one company the question names (else the scope's),
        and against the whole vocabulary only when none of those matches (ADR 0025)."""
        text = question.strip()
        texts = TOKEN.findall(text)
        norms = _in_the_labels_moment_words(list(map(normalise_word, texts)), self._index.words)
        norms = _all_said_as_total(norms, self._index.words)
        said = frozenset(norms)  # before words written apart are joined into a label's one
        frame = read_timeframe(text)
        used = _period_mask(text, texts, frame)
        frame = _years_naming_lines(frame, norms, used, self._index)
        before = list(used)
        entities = self._link_entities(texts, norms, used)
        named = frozenset(i for i, taken in enumerate(used) if taken and not before[i])
        topic = _topic(texts, norms, used)
        company = entities[0] if len(entities) == 1 else (scope if not entities else None)
        own = self._own_index(held_by(company)) if company and held_by else None
        _join_compounds(text, norms, used, self._index.words)
        _dotted_initials(text, texts, norms, self._index)
        _ampersand_initials(text, texts, norms, used, self._index)
        _moment_words(norms, used, self._index.words)
        _a_lines_ratio(norms, used, self._pairs)
        _the_two(norms, used)
        _in_terms(norms, used)
        _said_as_a_change(norms, used)
        _said_in_points(norms, used, self._index.words)
        _said_as_a_gap(norms, used, self._index.words)
        grammar = arithmetic.read(_averages_named(norms), used)
        count = arithmetic.counted(norms)
        unlinked = list(used)
        # A change or an average is taken over several periods; "the net change in 2022", one
        # period, can only be a line's own figure.
        several = len(frame.periods) != 1
        metrics, ambiguous, metric_spans = self._link_scoped(
            norms, used, own, several, said, split=grammar.whole_at
        )
        if count and all(
            norms[i] in OPERATION_ONLY for i, taken in enumerate(used) if taken and not unlinked[i]
        ):
            # "The average over those three years" asks of figures the conversation gave; its
            # operation word names no line item ("weighted-average shares").
            used[:] = unlinked
            metrics, ambiguous, metric_spans = (), (), []
        infix = _infix(norms, used, metric_spans) if not grammar.operation else None
        if infix is None and not grammar.operation and len(metrics) == 1:
            infix = _later_less_earlier(norms, before, used)
        operator_first = (
            _operator_first(norms, used, metric_spans)
            if infix is None and not grammar.operation and not grammar.referent
            else None
        )
        infix = infix or operator_first
        summed_lines = self._total_of_named(norms, metrics, metric_spans, grammar)
        if summed_lines:
            # "The total of ferry revenue and cargo revenue": "total of" is the sum asked,
            # not a "Total revenue" line named by it and the lines' shared word.
            kept = [(s, m) for s, m in zip(metric_spans, metrics, strict=True) if m in summed_lines]
            metric_spans, metrics = [s for s, _ in kept], tuple(m for _, m in kept)
            grammar = replace(grammar, operation="sum")
        own_period = _each_its_period(text, frame, metrics, metric_spans)
        metrics = _whole_last(metrics, metric_spans, grammar.whole_at)
        leftover: list[str] = []
        loose: list[str] = []
        table_named = False
        # A word of the one linked line item's labels, said again or in its other name
        # ("net income ... to net income"), is not a word linked to nothing. With several
        # line items linked, such a word may belong to a third one the question means.
        linked = self._metric_keys(metrics) if len(metrics) == 1 else frozenset()
        # Words of what the linked lines' one table is announced as ("the weighted-average
        # discount rate" of a table of plans): said of the whole table, they narrow no line,
        # however many of its lines are linked. A line named only by "amount" or "value" is
        # not named by them (ADR 0052 keeps "amount" a series' name; ADR 0054).
        subjects = {self._subject_of_metric.get(m, frozenset()) for m in metrics}
        subject = (
            subjects.pop()
            if len(subjects) == 1 and self._metric_keys(metrics) - GENERIC_NOUNS
            else frozenset()
        )
        generic = _generic_nouns(metrics) | subject
        if linked & AMOUNT_HEADS:
            linked |= AMOUNT_HEADS  # "the amortization cost" of "amortization amount"
        opening = _opening_comparison(norms)
        for at, (word, norm, taken) in enumerate(zip(texts, norms, used, strict=True)):
            if not taken:
                leftover.append(norm)
                if (
                    at != opening
                    and norm not in NOT_CONTENT
                    and not norm[0].isdigit()
                    and norm not in linked
                    and norm not in generic
                ):
                    loose.append(word)
        told = self._told_of(loose, own) if loose and not metrics and not ambiguous else None
        if told is not None:
            # "What is the coupon rate for 2041?" over a table announced as "coupon rate
            # assumptions": said of the whole table, the words name no line but the table's
            # one series, if it has one; else the question is about the figure on hand, as a
            # follow-up: that figure itself, not an operation carried from the turn before.
            loose, table_named, metrics = [], True, told
        keys = linked or self._metric_keys(metrics)
        qualifiers = (
            _qualifiers(texts, norms, used, metric_spans, keys | generic, named)
            if metric_spans
            else ()
        )
        if loose and metrics and all(self._keys_of_metric[m] <= STOP for m in metrics):
            # A line item named only by words that mean nothing on their own ("At end of
            # the year" in "transfers between 2018 year end and 2019 year end"), beside a
            # word no label holds: the question is about that word, not the line item.
            metrics, metric_spans, qualifiers = (), [], ()
        if (qualifiers or loose) and self._unnamed(metrics, norms):
            # A line item taken for words it only partly holds, with other words beside it
            # that no label holds: too much is guessed; ask which is meant.
            ambiguous, metrics, qualifiers = (Ambiguity("metric", metrics),), (), ()
        seen = frozenset(leftover) - _weighted_only(norms)
        families = _operations(leftover, seen)
        operation = (
            cast(Operation | None, grammar.operation)
            or infix
            or _operation(seen, families, frame, len(entities), len(metrics))
        )
        part_of_whole = () if infix else _how_much_of(norms, metrics, metric_spans, grammar)
        if part_of_whole:
            # "How much of total revenue was cargo revenue?": the line named right after
            # "how much of" is the whole, the other the part; one line alone is a lookup.
            metrics, operation = part_of_whole, "percent_of" if PERCENT & set(norms) else "ratio"
        if operation is None and _by_how_much(norms):
            operation = "difference"
        of_changes = _of_changes(seen, operation, len(entities), len(metrics))
        if of_changes:
            operation = _largest_step(seen)
        if operation is None and count and not seen.isdisjoint(SUM):
            operation = "sum"  # "the total for the three years"
        # Counted back ("over the last three years") reads as a trend unless a word asks one.
        unasked = operation is None or (operation == "trend" and seen.isdisjoint(TREND))
        if unasked and _total_over_a_span(norms, used, metrics, metric_spans):
            operation = "sum"  # "the total cost over the three years", of a "Total cost" line
        periods = frame.periods
        if frame.is_range and (
            operation in AGGREGATES or (operation in ("ratio", "percent_of") and len(metrics) == 2)
        ):
            periods = expand_range(periods[0], periods[-1])
        if grammar.nested:
            periods = _base_first(text, frame, grammar.whole_at, periods)
        paired = (
            bool(own_period)
            and operation in _TAKEN_IN_PAIRS
            and not (grammar.nested or grammar.referent or grammar.constants)
        )
        if paired:
            periods = tuple(own_period[m] for m in metrics)
        counts = (len(entities), len(metrics), len(periods))
        kind = _kind(seen, leftover, families, bool(loose), operation, counts, ambiguous)
        if (
            operation in ("ratio", "percent_of")
            and (len(periods) > 1 or count)
            and _outer(leftover, norms)
        ):
            kind = "unsupported"  # "the average proportion of X in 2018 and 2019": composed
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
            if operation in (None, "ratio", "percent_of") or paired
            else tuple(sorted(periods)),
            period_range=frame.is_range,
            relative_last=frame.relative_last,
            period_step=frame.step,
            ambiguous=ambiguous,
            qualifiers=qualifiers,
            loose=tuple(dict.fromkeys(loose)),
            follow_up=not loose and not metrics,
            topic=topic,
            referent=grammar.referent
            or ("result" if operator_first else _unnamed_part(norms, grammar, metrics, loose)),
            referent_first=grammar.referent_first,
            constants=grammar.constants,
            nested=grammar.nested,
            asks_value=grammar.value or (table_named and not operation),
            points_back=grammar.points_back
            + _against(seen, operation, frame, metrics, _from_a_period(norms, used)),
            pair=grammar.pair,
            count=count,
            again=grammar.again,
            compounded=operation == "percent_change" and not seen.isdisjoint(COMPOUNDED),
            paired=paired and kind == "comparison",
            of_changes=of_changes if kind == "comparison" else "",
        )

    def _total_of_named(
        self,
        norms: Sequence[str],
        metrics: tuple[str, ...],
        spans: Sequence[tuple[int, int]],
        grammar: arithmetic.Reading,
    ) -> tuple[str, ...]:
        """The lines summed when "total of" opens a list of two or more lines and the one
        other line linked starts on that "total" and has no word of its own beyond it (its
        other words are the listed lines'); else ()."""
        if grammar.operation or grammar.referent or grammar.constants or len(metrics) < 3:
            return ()
        at = next(
            (i for i in range(len(norms) - 1) if norms[i] == _TOTAL and norms[i + 1] == "of"),
            None,
        )
        if at is None or len(spans) != len(metrics):
            return ()
        opening = [m for s, m in zip(spans, metrics, strict=True) if s[0] == at]
        if len(opening) != 1:
            return ()
        listed = tuple(m for m in metrics if m != opening[0])
        if any(s[0] <= at + 1 for s, m in zip(spans, metrics, strict=True) if m in listed):
            return ()

        def words_of(metric: str) -> frozenset[str]:
            return frozenset(normalise_word(t) for t in TOKEN.findall(metric)) - LABEL_STOP

        theirs = frozenset().union(*(words_of(m) for m in listed))
        if not theirs or words_of(opening[0]) - {_TOTAL} - theirs:
            return ()
        return listed

    def _told_of(self, loose: Sequence[str], own: _Index | None) -> tuple[str, ...] | None:
        """What words no line holds name when the sentence announcing a table holds them
        all: the one line of the company's (or the vocabulary's) lines so announced, or no
        line at all when every one of its lines is (one table, said of every line); None
        when some lines are and others not (which table is meant is not told)."""
        asked = {normalise_word(word) for word in loose}
        metrics = {label.metric for label in (own or self._index).labels}
        told = sorted(m for m in metrics if asked <= self._subject_of_metric.get(m, frozenset()))
        if len(told) == 1:
            return (told[0],)
        return () if told and len(told) == len(metrics) else None

    def _unnamed(self, metrics: tuple[str, ...], norms: Sequence[str]) -> bool:
        """Whether a linked metric was taken although no label of it is named in full (but
        for soft and date words, and its bracketed ones: "Operating leases (in $000s)" is
        named by "operating leases", "Nonvested at December 31" by "nonvested")."""
        named = frozenset(norms)
        return any(
            not any(
                not label.keys - SOFT - named or _named_but_brackets(label, named)
                for label in labels
            )
            for labels in map(self._labels_of_metric.__getitem__, metrics)
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
    def _own_index(self, metrics: frozenset[str]) -> _Index | None:
        """The index of one company's own metrics, its words weighted among its own labels."""
        if not metrics:
            return None
        index = self._scoped.get(metrics)
        if index is None:
            if len(self._scoped) >= _SCOPED_INDEXES:
                self._scoped.pop(next(iter(self._scoped)))
            terms = [t for t in self.vocabulary.metrics if t.name in metrics]
            index = self._scoped[metrics] = _metric_index(terms)
        return index

    def _link_scoped(
        self,
        norms: Sequence[str],
        used: list[bool],
        own: _Index | None,
        several: bool = False,
        said: frozenset[str] = frozenset(),
        *,
        split: int = -1,
    ) -> tuple[tuple[str, ...], tuple[Ambiguity, ...], list[tuple[int, int]]]:
        if own is not None:
            trial = list(used)
            linked = self._link_metrics(norms, trial, own, several, said, split=split)
            if linked[0] or linked[1]:
                used[:] = trial
                return linked
        return self._link_metrics(norms, used, self._index, several, said, split=split)

    def _link_metrics(
        self,
        norms: Sequence[str],
        used: list[bool],
        index: _Index,
        several: bool = False,
        said: frozenset[str] = frozenset(),
        *,
        split: int = -1,
    ) -> tuple[tuple[str, ...], tuple[Ambiguity, ...], list[tuple[int, int]]]:
        """`split`: where the whole of a share is named ("R&D costs as a share of |revenue"):
        no label named in full takes words from both sides of it."""
        positions: dict[str, list[int]] = {}
        by_word = index.by_word
        candidates: set[int] = set()
        for i, norm in enumerate(norms):
            if not used[i] and norm in by_word:
                positions.setdefault(norm, []).append(i)
                candidates.update(by_word[norm])
        held = set(positions)
        labels = index.labels
        full = [labels[c] for c in candidates if labels[c].keys <= held
                and _on_one_side(labels[c].keys, positions, split)]  # fmt: skip
        # Operation words ("net change", "total", "average") do not link a label of their
        # own beside a line item the question names in other words: "the net change in X"
        # asks for a change in X, not also for a line "Net change" (ADR 0025).
        named = [label for label in full if not label.keys <= OPERATION_ONLY]
        named = _soft_word_over_another(named, positions)
        if full:
            taken = self._take_full(named or full, positions, used, norms)
            return self._also_in_part(taken, positions, used, index, norms)
        return self._take_partial(candidates, positions, used, index, norms, several, said)

    def _also_in_part(
        self,
        taken: tuple[tuple[str, ...], tuple[Ambiguity, ...], list[tuple[int, int]]],
        positions: dict[str, list[int]],
        used: list[bool],
        index: _Index,
        norms: Sequence[str],
    ) -> tuple[tuple[str, ...], tuple[Ambiguity, ...], list[tuple[int, int]]]:
        """One line named in full and a second named in part beside it, in a question that
        sets one figure against another ("net income as a portion of revenue" over "Revenue"
        and "Net income (loss)"): the words left free link the one line they alone name, as
        they would with no line named in full. A question asking for a reason or a single
        figure is not read for a second line.
        Anything less than one line, unambiguously, leaves the first link as it was."""
        metrics, ambiguous, spans = taken
        if ambiguous or len(metrics) != 1:
            return taken
        free = {w: [i for i in at if not used[i]] for w, at in positions.items()}
        free = {w: at for w, at in free.items() if at}
        content = frozenset(free) - OPERATION_ONLY - GENERIC_NOUNS
        if not content:
            return taken
        beside = _operator_between(spans[0], [i for w in content for i in free[w]], norms)
        # "The product of X and Y": the product word the grammar took (never "product
        # revenue", a line's own word) combines two figures as "times" does.
        combining = not set(norms).isdisjoint(COMBINING) or any(
            used[i] and n in PRODUCT_OF for i, n in enumerate(norms)
        )
        if set(norms).isdisjoint(TWO_FIGURES) and not beside and not combining:
            return taken
        candidates = {c for w in content for c in index.by_word[w]}
        trial = list(used)
        found = self._held_by_one(candidates, free, trial, index, content, norms, second=True)
        if combining and found is not None and _one_choice(found[1]):
            # "Fuel gallons consumed times the price": the one line that holds the free words,
            # though they name it only in part, is the other figure of the product or sum.
            at = [i for word in content for i in free[word]]  # taken by the question back
            found = (found[1][0].choices, (), [(min(at), max(at))])
        if found is None or found[1] or len(found[0]) != 1 or not found[2]:
            return taken
        if found[0][0] in metrics:
            return taken
        used[:] = trial
        pairs = sorted([*zip(spans, metrics, strict=True), (found[2][0], found[0][0])])
        return tuple(m for _, m in pairs), (), [s for s, _ in pairs]

    def _take_full(
        self,
        full: list[_Label],
        positions: dict[str, list[int]],
        used: list[bool],
        norms: Sequence[str],
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
            if any(label.keys <= t.keys for t in taken) and not _free_again(
                label.keys, positions, used
            ):
                # Every word of it belongs to a longer label already taken; unless the
                # question names it again on its own ("revenue less cost of revenue").
                continue
            if not _free_again(label.keys, positions, used) and any(
                other.metric == label.metric and _free_again(other.keys, positions, used)
                for other in full
            ):
                continue  # another name of it needs no word a figure already took
            spot = _claim(label.keys, positions, used, norms)
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
        self,
        candidates: set[int],
        positions: dict[str, list[int]],
        used: list[bool],
        index: _Index,
        norms: Sequence[str],
        several: bool = False,
        said: frozenset[str] = frozenset(),
    ) -> tuple[tuple[str, ...], tuple[Ambiguity, ...], list[tuple[int, int]]]:
        """No label is named in full. One label holding every metric word, missing only soft
        words ("total"), is taken; several labels holding them are a question back. When no
        label holds the operation words too ("the change in X"), the other words decide."""
        question_words = frozenset(w for w in positions if w in index.words)
        content = question_words - OPERATION_ONLY
        if not question_words or question_words <= GENERIC_NOUNS:
            return (), (), []  # "what was the value in 2009?": no word of a line's own
        if several and question_words <= CHANGE_OR_GROWTH | AVERAGE:
            # Only change or average words over several periods or none ("what is the net
            # change?", "its average for 2021 and 2022"): they name the calculation, and a line
            # whose label merely holds them ("changes in other assets", "weighted average
            # shares") is not meant. "Total" alone still names a "Total" line.
            return (), (), []
        if question_words <= NAMING_NOTHING:
            return _held_but_for_soft(candidates, positions, used, index, question_words, norms)
        found = self._held_by_one(
            candidates, positions, used, index, question_words, norms, said=said
        )
        if found is None and content and content != question_words:
            found = self._held_by_one(candidates, positions, used, index, content, norms, said=said)
        if (found is None or found[1]) and len(content) >= 2:
            # Two line items each named in part ("liabilities over assets"): each word group
            # one line item, or nothing.
            trial = list(used)
            each = self._each_in_part(candidates, positions, trial, index, content, norms)
            if each is not None:
                used[:] = trial
                return each
        return found or ((), (), [])

    def _each_in_part(
        self,
        candidates: set[int],
        positions: dict[str, list[int]],
        used: list[bool],
        index: _Index,
        content: frozenset[str],
        norms: Sequence[str],
    ) -> tuple[tuple[str, ...], tuple[Ambiguity, ...], list[tuple[int, int]]] | None:
        """Every content word taken, one at a time, by the one line item it alone names; or
        else each run of content words said together ("the effective rate less the statutory
        rate"), by the one line item that alone holds the run's words."""
        trial = list(used)
        linked = self._each_word(candidates, positions, trial, index, content, norms)
        if linked is None:
            trial = list(used)
            linked = self._each_run(candidates, positions, trial, index, content, norms)
        if linked is None:
            return None
        used[:] = trial
        metrics = [metric for _, metric in sorted(linked)]
        if len(set(metrics)) < 2:
            return None
        return tuple(metrics), (), [spot for spot, _ in sorted(linked)]

    def _each_word(
        self,
        candidates: set[int],
        positions: dict[str, list[int]],
        used: list[bool],
        index: _Index,
        content: frozenset[str],
        norms: Sequence[str],
    ) -> list[tuple[tuple[int, int], str]] | None:
        linked: list[tuple[tuple[int, int], str]] = []
        for word in sorted(content, key=lambda w: positions[w][0]):
            if any(used[i] for i in positions[word]):
                continue
            one = self._held_by_one(candidates, positions, used, index, frozenset({word}), norms)
            if one is None or one[1] or not one[0] or not one[2]:
                return None
            linked.append((one[2][0], one[0][0]))
        return linked

    def _each_run(
        self,
        candidates: set[int],
        positions: dict[str, list[int]],
        used: list[bool],
        index: _Index,
        content: frozenset[str],
        norms: Sequence[str],
    ) -> list[tuple[tuple[int, int], str]] | None:
        """Words said together name one line between them: a run held whole by one line
        item alone is that line, though it names it only in part (two lines set against each
        other are read so only when every run names its own)."""
        runs: list[list[int]] = []
        for i, norm in enumerate(norms):
            if norm not in content or used[i]:
                continue
            if runs and runs[-1][-1] == i - 1:
                runs[-1].append(i)
            else:
                runs.append([i])
        if len(runs) < 2:
            return None
        held: list[dict[str, frozenset[str]]] = []  # each run: its holders, and their rest
        for run in runs:
            keys = frozenset(norms[i] for i in run)
            held.append({index.labels[c].metric: index.labels[c].keys - keys
                         for c in candidates if keys <= index.labels[c].keys})  # fmt: skip
        # Lines set side by side are named alike but for the words said ("basic and
        # diluted" of "Basic earnings per share" and "Diluted earnings per share", beside a
        # "weighted average diluted shares" line): a run held by several is the one line
        # whose other words are those of the line another run names alone.
        alone = {frozenset(h.values()) for h in held if len(h) == 1}
        rests = {rest for group in alone for rest in group}
        linked: list[tuple[tuple[int, int], str]] = []
        for run, holders in zip(runs, held, strict=True):
            names = set(holders)
            if len(names) > 1 and len(rests) == 1:
                names = {name for name, rest in holders.items() if rest in rests}
            if len(names) != 1 or names & WHOLE_ONLY:
                return None
            for i in run:
                used[i] = True
            linked.append(((run[0], run[-1]), names.pop()))
        return linked

    def _held_by_one(
        self,
        candidates: set[int],
        positions: dict[str, list[int]],
        used: list[bool],
        index: _Index,
        question_words: frozenset[str],
        norms: Sequence[str],
        second: bool = False,
        said: frozenset[str] = frozenset(),
    ) -> tuple[tuple[str, ...], tuple[Ambiguity, ...], list[tuple[int, int]]] | None:
        holders = [
            index.labels[c]
            for c in candidates
            if question_words <= index.labels[c].keys and index.labels[c].metric not in WHOLE_ONLY
        ]
        names = sorted({label.metric for label in holders})
        scoped = index is not self._index
        # A year a label holds ("Reserve—December 31, 2031") that the question gave as its
        # period ("at december 31, 2031") is named too.
        said_years = frozenset(n for i, n in enumerate(norms) if used[i] and _YEARLIKE.match(n))
        # One line item holds every word: taken when what it adds is soft ("total"), only
        # bracketed ("(non-current)"), or weighs less than what was named ("net cash from
        # financing activities" for "net cash used for financing activities"); among one
        # company's own line items, also when the question names its head ("equity" for
        # "Stockholders' equity"). Else asked back, as a tie would be.
        if len(names) == 1 and (
            all(
                _named_but_brackets(label, question_words)
                or index.share(label, question_words | said_years) >= MOST
                for label in holders
            )
            or (scoped and any(_named_enough(label, question_words) for label in holders))
            or any(self._told_by_subject(label, question_words, said) for label in holders)
        ):
            spot = _claim(question_words, positions, used, norms)
            return (names[0],), (), [spot] if spot else []
        said = frozenset(norms)
        soft_head = _soft_head(norms, question_words, positions)
        whole = {
            label.metric
            for label in holders
            if label.keys - question_words
            and (
                label.keys - question_words <= said & SOFT
                or (label.keys - question_words <= SOFT and soft_head)
            )
        }
        if len(whole) == 1 and len(names) > 1:
            # Several lines hold the words, but one holds besides only a soft word the
            # question says elsewhere, as its operation's ("the net change in revenue" over
            # "Net revenue", "Rider revenue", "Base revenue"), or only soft words when the
            # question asks for the whole in a word of its own ("the total of inventories"
            # over "Inventories, net" and "Inventory step-up", ADR 0055): the others narrow
            # it by a word the question does not say.
            spot = _claim(question_words, positions, used, norms)
            return (whole.pop(),), (), [spot] if spot else []
        bracketed = {
            label.metric for label in holders if _named_but_brackets(label, question_words)
        }
        if second and len(bracketed) == 1 and len(names) > 1:
            # The second figure of a share, held by several lines, one of them besides only
            # in brackets ("Net income (loss)" among "Net income (loss) per share, basic"
            # and "..., diluted"): the others narrow it by words the question does not say.
            spot = _claim(question_words, positions, used, norms)
            return (bracketed.pop(),), (), [spot] if spot else []
        if 1 <= len(names) <= 6:
            for word in question_words:
                for i in positions[word]:
                    used[i] = True
            return (), (Ambiguity("metric", tuple(names)),), []
        return None

    def _told_by_subject(
        self, label: _Label, question_words: frozenset[str], said: frozenset[str]
    ) -> bool:
        """A line named but for words its table's announcing sentence says of every line
        ("Total harbour moorings" in a table announced as "harbour moorings berth count"),
        by a question that names the table in the sentence's other words ("the total berth
        count"): what it leaves out, the table says. A question that says no word of the
        sentence besides the line's own ("the total") is not read so."""
        subject = self._subject_of_metric.get(label.metric, frozenset())
        unsaid = label.keys - question_words - label.optional
        if not subject or not unsaid or not _only_soft(unsaid - subject):
            return False
        told = {w for w in said & subject - label.keys if _is_content(w) and w not in SOFT}
        return bool(told)


def _soft_head(
    norms: Sequence[str], question_words: frozenset[str], positions: dict[str, list[int]]
) -> bool:
    """Whether the question says a soft word as the figure itself, apart from the words
    that name the line ("the total of inventories", "inventories in total"), not as a word
    of the line's name ("total net revenue", which may name a Total line not held)."""
    named = {i for word in question_words for i in positions[word]}

    def names_the_line(at: int) -> bool:  # followed, past other soft words, by the name
        after = next((j for j in range(at + 1, len(norms)) if norms[j] not in SOFT), -1)
        return after in named

    return any(
        norm in SOFT and norm not in question_words and not names_the_line(i)
        for i, norm in enumerate(norms)
    )


def _held_but_for_soft(
    candidates: set[int],
    positions: dict[str, list[int]],
    used: list[bool],
    index: _Index,
    question_words: frozenset[str],
    norms: Sequence[str],
) -> tuple[tuple[str, ...], tuple[Ambiguity, ...], list[tuple[int, int]]]:
    """Operation words and measure nouns alone ("the percentage change", "its amount") take
    the one line item holding them when all it adds is soft and date words ("Balance at end
    of year"), else none, not even a question back about every label that happens to hold
    "change" or "amounts": the question is then about the figures on hand. Only lines that
    all start with the measure noun ("Balance at ...") are a choice to ask back."""
    holders = [index.labels[c] for c in candidates if question_words <= index.labels[c].keys]
    names = {label.metric for label in holders}
    if len(names) != 1 or not all(_only_soft(h.keys - question_words) for h in holders):
        leading = sorted({h.metric for h in holders if h.lead in question_words & MEASURE_NOUNS})
        if len(leading) >= 2:
            # "The balance" over "Balance at start of season" and "Balance at close of
            # season": lines that are balances of something, one of which is meant.
            _claim(question_words, positions, used, norms)
            return (), (Ambiguity("metric", tuple(leading)),), []
        return (), (), []
    spot = _claim(question_words, positions, used, norms)
    return (names.pop(),), (), [spot] if spot else []


def _generic_nouns(metrics: Sequence[str]) -> frozenset[str]:
    """Words that, beside these linked lines, ask for their figure and narrow nothing: the
    measure nouns, and for lines that each name a company or an index, what is asked of a
    security (its price, its return)."""
    if not metrics:
        # "What is the price in 2012?": of the security the conversation is on, which the
        # session checks (a price is not asked of a line that names no security).
        return SECURITY_MEASURES
    if all(names_a_security(m) for m in metrics):
        return MEASURE_NOUNS | SECURITY_MEASURES
    return MEASURE_NOUNS


def names_a_security(metric: str) -> bool:
    """A label ending as a company's or an index's name ("Ball Corporation", "KBW Bank
    Index", "Peer group"), footnote marks and brackets aside."""
    named = words(_BRACKETED.sub(" ", metric))
    return bool(named) and (named[-1] in NAME_ENDINGS or named[-2:] == ["peer", "group"])


def _named_enough(label: _Label, named: frozenset[str]) -> bool:
    """Among one company's own line items: its head named ("equity"), or all of it but
    soft and bracketed words ("long-term debt" for "Long-term debt (non-current)")."""
    return label.head in named or _only_soft(label.keys - named - label.optional)


def _named_but_brackets(label: _Label, named: frozenset[str]) -> bool:
    """A label named in full but for soft, date and bracketed words ("Operating leases (in
    $000s)" by "operating leases"). Its words outside brackets must name something of their
    own: "Total (approximates replacement cost)" is not named by "the total"."""
    outside = label.keys - label.optional
    return not _only_soft(outside) and _only_soft(outside - named)


def _free_again(keys: frozenset[str], positions: dict[str, list[int]], used: list[bool]) -> bool:
    return all(any(not used[i] for i in positions.get(key, ())) for key in keys)


def _only_soft(unnamed: frozenset[str]) -> bool:
    """Label words a question may leave out: soft ones ("total") and those of a date
    ("at year-end", "December 31": a day is one or two digits)."""
    return all(w in SOFT or w in STOP or (w.isdigit() and len(w) <= 2) for w in unnamed)


# Operations of two figures that may each be named with its own period.
_TAKEN_IN_PAIRS = ("sum", "difference", "ratio", "percent_of", "product")


def _each_its_period(
    text: str, frame: TimeFrame, metrics: Sequence[str], spans: Sequence[tuple[int, int]]
) -> dict[str, str]:
    """ "Ferry revenue in 2016 plus cargo revenue in 2015": two lines, each followed by its
    own period before the next line is named, the second's after it. Then each figure is
    taken in its period only, not in both. Any other shape (one period, a range, a period
    before the first line, two periods after one line) pairs nothing."""
    if len(metrics) != 2 or len(spans) != 2 or frame.is_range:
        return {}
    if len(frame.periods) != 2 or len(set(frame.periods)) != 2:
        return {}
    if len(frame.spans) != len(frame.periods):
        return {}
    starts = [m.start() for m in TOKEN.finditer(text)]
    if max(end for _, end in spans) >= len(starts):
        return {}
    (first, a), (second, b) = sorted(zip(spans, metrics, strict=True))
    first_end, second_start, second_end = starts[first[1]], starts[second[0]], starts[second[1]]
    between = [p for p, (at, _) in zip(frame.periods, frame.spans, strict=True)
               if first_end < at < second_start]  # fmt: skip
    after = [p for p, (at, _) in zip(frame.periods, frame.spans, strict=True) if at > second_end]
    if len(between) != 1 or len(after) != 1:
        return {}
    return {a: between[0], b: after[0]}


def _base_first(
    text: str, frame: TimeFrame, whole_at: int, periods: tuple[str, ...]
) -> tuple[str, ...]:
    """ "The increase in 2021 over 2020": a change taken against a base names the base after
    "over", whichever period it names first; the nested step reads its base first."""
    if whole_at < 0 or len(periods) != 2:
        return periods
    starts = [m.start() for m in TOKEN.finditer(text)]
    if whole_at >= len(starts):
        return periods
    if len(frame.spans) == len(frame.periods):
        spans = zip(frame.periods, frame.spans, strict=True)  # equal lengths, checked above
        after = [p for p, (start, _) in spans if start >= starts[whole_at]]
    else:
        # A period named twice ("X in 2016 minus X in 2015, divided by X in 2015"): the
        # years said after the phrase.
        after = list(dict.fromkeys(read_timeframe(text[starts[whole_at] :]).periods))
    if len(after) != 1 or after[0] not in periods:
        return periods
    return (after[0], *(p for p in periods if p != after[0]))


def _whole_last(
    metrics: tuple[str, ...], spans: list[tuple[int, int]], whole_at: int
) -> tuple[str, ...]:
    """Of two figures set against each other, the one named right after the denominator
    phrase is the whole ("what percentage of revenue was net income"): it goes last."""
    if whole_at < 0 or len(metrics) != 2 or len(spans) != 2:
        return metrics
    # Two figures may share the phrase's first word ("total" of a Total column): the one whose
    # words end first is the one named right there.
    after = [(start, end, m) for (start, end), m in zip(spans, metrics, strict=True)
             if start >= whole_at]  # fmt: skip
    if not after:
        return metrics
    whole = min(after)[2]
    return (*(m for m in metrics if m != whole), whole)


def _longest_first(label: _Label) -> tuple[int, float, str]:
    return -len(label.keys), -label.weight, label.metric


def _on_one_side(keys: frozenset[str], positions: dict[str, list[int]], split: int) -> bool:
    """Whether the question holds every word of a label before the split, or every word
    after it ("costs" of the part and "revenue" of the whole are no "cost of revenue")."""
    if split < 0:
        return True
    return all(any(i < split for i in positions[k]) for k in keys) or all(
        any(i >= split for i in positions[k]) for k in keys
    )


def _one_choice(ambiguous: tuple[Ambiguity, ...]) -> bool:
    return len(ambiguous) == 1 and len(ambiguous[0].choices) == 1


def _claim(
    keys: frozenset[str], positions: dict[str, list[int]], used: list[bool], norms: Sequence[str]
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
    best_key: tuple[int, int] = (0, 0)
    for anchor in free[anchor_key]:
        nearest = [_nearest(free[k], anchor) for k in keys]
        for chosen in itertools.product(*nearest):
            # The tightest cluster, and among equally tight ones the one with no other word
            # inside ("revenue less cost of revenue": cost of revenue is the last three).
            key = (max(chosen) - min(chosen), _intruders(chosen, norms))
            if not best or key < best_key:
                best, best_key = list(chosen), key
    for i in best:
        used[i] = True
    return min(best), max(best)


def _nearest(found: list[int], anchor: int) -> list[int]:
    closest = min(abs(i - anchor) for i in found)
    return [i for i in found if abs(i - anchor) == closest]


def _intruders(chosen: Sequence[int], norms: Sequence[str]) -> int:
    inside = set(range(min(chosen), max(chosen) + 1)) - set(chosen)
    return sum(1 for i in inside if norms[i] not in LABEL_STOP)


def _merge(ambiguous: list[Ambiguity]) -> list[Ambiguity]:
    names: list[str] = []
    for item in ambiguous:
        names.extend(n for n in item.choices if n not in names)
    return [Ambiguity("metric", tuple(names))]


def _join_compounds(
    text: str, norms: list[str], used: list[bool], label_words: frozenset[str]
) -> None:
    """Words a label writes as one: hyphenated ("non-vested" for "Nonvested"), or glued by
    the table's extraction ("cash provided" for "cashprovided", "visitors served on site"
    for "VisitorsServedOnSite", "kiosk and cafe" for "Kioskandcafe sales"). A run of two to
    four words is read as that one word (the longest run a label holds; the later parts
    marked as taken). Only a run the label holds letter for letter is joined, so no word is
    guessed; a hyphenated run whose parts are all label words stays apart."""
    spans = [m.span() for m in TOKEN.finditer(text)]
    i = 0
    while i < len(norms) - 1:
        runs = range(_LONGEST_GLUED, 1, -1)
        length = next((n for n in runs if _glued(text, spans, norms, used, label_words, i, n)), 0)
        if length:
            norms[i] = normalise_word("".join(text[a:b] for a, b in spans[i : i + length]))
            for j in range(i + 1, i + length):
                used[j] = True
        i += max(length, 1)


_LONGEST_GLUED = 4


def _glued(
    text: str,
    spans: Sequence[tuple[int, int]],
    norms: Sequence[str],
    used: Sequence[bool],
    label_words: frozenset[str],
    i: int,
    length: int,
) -> bool:
    """Whether the `length` words from the i-th are one word of a label, written apart."""
    if i + length > len(norms) or any(used[i : i + length]):
        return False
    gaps = [text[spans[j][1] : spans[j + 1][0]] for j in range(i, i + length - 1)]
    if any(gap not in ("-", " ") for gap in gaps):
        return False
    joined = normalise_word("".join(text[a:b] for a, b in spans[i : i + length]))
    if joined not in label_words:
        return False
    parts_held = set(norms[i : i + length]) <= label_words
    return "-" not in gaps or not parts_held


def _dotted_initials(text: str, texts: Sequence[str], norms: list[str], index: _Index) -> None:
    """Initials a question writes without their dots ("US", "uk", "ocf") where a label
    writes them with dots ("u.s . pension plans") or is the words they stand for ("United
    Kingdom", "Operating cash flow"): read as the label's dotted word. Initials that are
    also a common word or a label's word (the pronoun "us", "it") are read so only in
    capitals, joined by a hyphen to the word before ("non-us"), after "in", or followed by
    another word of a label that holds them ("us pension plans")."""
    spans = [m.span() for m in TOKEN.finditer(text)]
    for i, word in enumerate(texts):
        if not (2 <= len(word) <= 4 and word.isalpha()):
            continue
        dotted = ".".join(word.lower())
        holders = index.by_word.get(dotted)
        if not holders:
            continue
        hyphened = i > 0 and text[spans[i - 1][1] : spans[i][0]] == "-"
        following = norms[i + 1] if i + 1 < len(norms) else ""
        continues = any(following in index.labels[h].keys - {dotted} for h in holders)
        placed = i > 0 and norms[i - 1] == "in"  # "sales in us": a place, not the pronoun
        common = norms[i] in NOT_CONTENT or norms[i] in index.words
        if not common or word.isupper() or hyphened or continues or placed:
            norms[i] = dotted


# What may follow "the two" that points at figures: a verb or a preposition, not a noun.
_AFTER_THE_TWO = lexicon("is was were are did do does had has have")


# "Did it go up or down?": a motion verb before "up" or "down" says a change, as "rise" does.
_MOTION = lexicon("go goes going gone went move moves moved moving")
# "How big was the jump?": a size asked of a change or a figure names no line item.
_SIZE = lexicon("big large great sizable significant steep sharp")


def _said_as_a_change(norms: list[str], used: list[bool]) -> None:
    """Read "go up", "went down" as the change word they mean, and the size word of "how
    big" / "how large" as the "much" of "how much" (it asks a number, as that does)."""
    for i in range(1, len(norms)):
        if used[i]:
            continue
        if norms[i] in ("up", "down") and norms[i - 1] in _MOTION:
            norms[i] = _A_CHANGE
        elif norms[i] in ("up", "down") and i > 1 and norms[i - 2 : i] == [_A_CHANGE, "or"]:
            used[i] = True  # "go up or down": one change asked
        elif norms[i] in _SIZE and norms[i - 1] == "how":
            norms[i] = _MUCH  # "how large were total liabilities": how much, a figure asked


_A_CHANGE = normalise_word("change")
_MUCH = normalise_word("much")
_POINT = normalise_word("points")
# What a point is a point of: "percentage points", "basis points".
_POINTS_OF = lexicon("percentage percent basis")
_BASIS = normalise_word("basis")
# "By how many points did the combined ratio fall?": points counted, of a rate.
_COUNTING_POINTS = lexicon("many")


def _said_in_points(norms: list[str], used: list[bool], label_words: frozenset[str]) -> None:
    """ "By how many percentage points did it drop?": the unit a change in a rate is counted
    in, not a word of a line. Only with a change word beside it, and only when no line holds
    the word itself (a table of index points, a loyalty programme's points)."""
    if _POINT in label_words or set(norms).isdisjoint(CHANGE):
        return
    for i in range(1, len(norms)):
        if norms[i] == _POINT and norms[i - 1] in _POINTS_OF | _COUNTING_POINTS and not used[i]:
            norms[i] = IN_POINTS
            if norms[i - 1] == _BASIS:
                norms[i - 1] = IN_POINTS  # "basis" names no line either


# Nouns that ask the gap between two figures ("the spread between the two", "the swing from
# a loss to a profit") where no line is named by them: a bank's "interest rate spread" is.
# "The spread", "the gap" have no direction: the larger less the smaller (engine/render.py).
WITHOUT_DIRECTION = lexicon("spread gap")
_GAPS = WITHOUT_DIRECTION | lexicon("swing swung")
_DIFFERENCE = normalise_word("difference")


def _said_as_a_gap(norms: list[str], used: list[bool], label_words: frozenset[str]) -> None:
    """Read "spread" and "swing" as "difference" unless a line holds the word."""
    for i, norm in enumerate(norms):
        if norm in _GAPS and norm not in label_words and not used[i]:
            norms[i] = _DIFFERENCE


# The operations two results on hand are combined by ("the sum of these two changes"); an
# average or a ratio of them says too little of which figures or which way round.
_COMBINING_RESULTS = lexicon("difference sum")


def _in_terms(norms: list[str], used: list[bool]) -> None:
    """ "In dollar terms", "in absolute terms", "in percentage terms": how a figure is said,
    never a word of a line ("long-term debt" holds "term")."""
    for i in range(2, len(norms)):
        if norms[i] == _TERMS and norms[i - 2] == "in":
            used[i] = True


_TERMS = normalise_word("terms")


def _the_two(norms: list[str], used: list[bool]) -> None:
    """ "Which of the two was higher?", "the difference between those two": the count
    points at the figures on hand, as "both" and "them" do; it names no line item, and is
    no word a table leaves unsaid. Only before a verb ("of the two was"), or closing
    "between the two": before a noun ("the two segments") it counts that noun, and a
    question ending on "the two" otherwise may mean two figures of one answer. Before the
    noun of a result ("between these two changes", "the sum of those two totals") it points
    at two results on hand: such nouns name no line."""
    for i in range(1, len(norms)):
        following = norms[i + 1] if i + 1 < len(norms) else ""
        between = i > 1 and norms[i - 2] == "between"  # "the difference between the two"
        last = i + 2 >= len(norms)
        results = (
            following in arithmetic.ROLE_NOUNS and last and not _COMBINING_RESULTS.isdisjoint(norms)
        )
        if (
            norms[i] == "two"
            and norms[i - 1] in ("the", "these", "those")
            and not used[i]
            and (following in _AFTER_THE_TWO | COMPARING or (not following and between) or results)
        ):
            used[i] = True
            if results:
                # The results' own noun asks for no operation: "the sum of these two
                # changes" is a sum.
                used[i + 1] = True


def _ampersand_initials(
    text: str, texts: Sequence[str], norms: list[str], used: list[bool], index: _Index
) -> None:
    """Initials joined by an ampersand ("R&D", "sg&a", "P&L") where a label is the words
    they stand for ("Research and development", "Selling, general and administrative"):
    read as the label's initials, as `_dotted_initials` reads "US" (the label's "and" is no
    initial). The parts after the first are taken with it."""
    spans = [m.span() for m in TOKEN.finditer(text)]
    for i in range(len(texts) - 2):
        first, amp, last = texts[i : i + 3]
        glued = spans[i][1] == spans[i + 1][0] and spans[i + 1][1] == spans[i + 2][0]
        letters = f"{first}{last}"
        if amp != "&" or not glued or not letters.isalpha() or not 2 <= len(letters) <= 4:
            continue
        dotted = ".".join(letters.lower())
        if dotted in index.by_word and not any(used[i : i + 3]):
            norms[i] = dotted
            used[i + 1] = used[i + 2] = True


def _moment_words(norms: list[str], used: list[bool], label_words: frozenset[str]) -> None:
    """A question's word for a roll-forward's moment ("at the start of 2011") read as the
    one word the labels use for it ("Beginning stores", "Balance at opening"), when the
    labels use exactly one (OPENING_MOMENT and CLOSING_MOMENT, below, beside the reading of
    "<moment> of" that runs before it: `_in_the_labels_moment_words`)."""
    for moments in (OPENING_MOMENT, CLOSING_MOMENT):
        held = moments & label_words
        if len(held) != 1:
            continue
        (word,) = held
        for i, norm in enumerate(norms):
            if norm in moments and not used[i]:
                norms[i] = word


def _years_naming_lines(
    frame: TimeFrame, norms: Sequence[str], used: list[bool], index: _Index
) -> TimeFrame:
    """ "The notes due 2027", a line "4.10 % senior notes due 2027": a year said right after
    a word that a line holds together with that very year names the line, not the period
    asked ("in 2021" still is one). Its word is freed for linking and its period dropped."""
    naming: set[str] = set()
    for i in range(1, len(norms)):
        year, word = norms[i], norms[i - 1]
        if not (used[i] and _YEARLIKE.match(year)) or used[i - 1] or word in STOP:
            continue
        if word[0].isdigit():
            continue  # "december 31, 2031": the year of a date, which is the period asked
        if any(word in index.labels[c].keys for c in index.by_word.get(year, ())):
            used[i] = False
            naming.add(year)
    if not naming:
        return frame
    kept = [k for k, p in enumerate(frame.periods) if p[-4:] not in naming]
    spans = frame.spans
    if len(spans) == len(frame.periods):
        spans = tuple(spans[k] for k in kept)
    return frame._replace(periods=tuple(frame.periods[k] for k in kept), spans=spans)


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


def _opening_comparison(norms: Sequence[str]) -> int:
    """ "Compared with 2022?", "and compared to the prior year?": a follow-up that opens on
    "compared" sets the figure on hand against what it names; there the word is the
    comparison, not a content word (elsewhere "as compared to" still counts as one)."""
    at = 1 if norms[:1] == ["and"] else 0
    return at if norms[at : at + 1] == ["compared"] else -1


def _of_changes(
    seen: frozenset[str], operation: Operation | None, n_entities: int, n_metrics: int
) -> str:
    """ "Which year had the biggest increase?", "in which year did it grow the most?": the
    question asks which of a series' year-on-year changes is the largest or the smallest (a
    superlative and "which" beside a change word), not the change over the span."""
    if operation not in ("difference", "percent_change") or n_entities > 1 or n_metrics > 1:
        return ""
    if seen.isdisjoint(SUPERLATIVES | _MOST) or seen.isdisjoint(_WHICH_YEAR):
        return ""
    return operation


_MOST = lexicon("most")
_WHICH_YEAR = lexicon("which when")


def _largest_step(seen: frozenset[str]) -> Operation:
    """The end of the changes asked: the most (a rise, growth, a change) or the least; "the
    biggest decrease" is the most negative change, the lowest."""
    least = not seen.isdisjoint(LOWER)
    falling = not seen.isdisjoint(DOWNWARD - LOWER)
    return "lower" if least != falling else "higher"


def _names_a_period(frame: TimeFrame) -> bool:
    return bool(frame.periods or frame.step or frame.relative_last)


_THAN_OR = lexicon("than or")
_BY_HOW_MUCH = tuple(normalise_word(w) for w in ("by", "how", "much"))


_HOW_MUCH_OF = ("how", "much", "of")
_TOTAL = normalise_word("total")


def _how_much_of(
    norms: Sequence[str],
    metrics: tuple[str, ...],
    spans: Sequence[tuple[int, int]],
    grammar: arithmetic.Reading,
) -> tuple[str, ...]:
    """Part first, whole last, when a question opens on "how much of" and names two lines
    after it, and the grammar read no operation of its own; else ()."""
    if len(metrics) != 2 or len(spans) != 2 or grammar.operation or grammar.referent:
        return ()
    if grammar.constants or grammar.nested:
        return ()
    n = len(_HOW_MUCH_OF)
    at = next(
        (i for i in range(len(norms) - n + 1) if tuple(norms[i : i + n]) == _HOW_MUCH_OF), None
    )
    if at is None or any(start <= at + n - 1 for start, _ in spans):
        return ()
    (_, whole), (_, part) = sorted(zip(spans, metrics, strict=True))
    return (part, whole)


def _by_how_much(norms: Sequence[str]) -> bool:
    """ "By how much?", "by how much did it fall?": the size of the gap between figures."""
    n = len(_BY_HOW_MUCH)
    return any(tuple(norms[i : i + n]) == _BY_HOW_MUCH for i in range(len(norms) - n + 1))


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
        if percent and seen.isdisjoint(ABSOLUTE) and seen.isdisjoint(CHANGE_OR_GROWTH):
            # "How much greater was X than Y, in percent?": the gap over Y, as "by what
            # percent did X exceed Y" is read; in points, still the difference.
            return "percent_change"
        return "difference"
    if (
        not seen.isdisjoint(COMPARING)
        and n_entities <= 1
        and (
            (not n_metrics and (frame.periods or frame.step))
            or (n_metrics == 1 and len(frame.periods) == 2)
        )
    ):
        # "How does that compare with 2023?", "... with the year before?": the figure the
        # conversation is on, set against the named period: a change between the two.
        return "difference"
    if not seen.isdisjoint(COMPARING) and n_entities <= 1 and not n_metrics and not frame.periods:
        # "Compare them", "how do the two compare?": the figures on hand, set side by side.
        return "higher"
    if (
        not seen.isdisjoint(COMPARING)
        and n_entities == 0
        and n_metrics == 1
        and not _names_a_period(frame)
    ):
        # "How does that compare to its capex?": the figure on hand set beside the line named
        # (the session takes the line on hand with it).
        return "higher"
    # "The last two years" names several periods as surely as "2020 and 2021" does.
    periods = max(len(frame.periods), frame.relative_last or 0)
    many = periods > 1 or n_entities > 1 or n_metrics > 1
    if not seen.isdisjoint(HIGHER_OR_LOWER) and (
        not seen.isdisjoint(WHICH) or (not seen.isdisjoint(_THAN_OR) and many)
    ):
        # "which was larger", "was A greater than B?", "was it higher in 2022 or 2023?": the
        # comparison answers both.
        return "higher" if not seen.isdisjoint(HIGHER) else "lower"
    if not seen.isdisjoint(SUPERLATIVES) and n_metrics == 1 and n_entities <= 1 and not periods:
        # "What was the highest service revenue?": of the periods held, the one it peaked in.
        return "higher" if not seen.isdisjoint(HIGHER) else "lower"
    if not seen.isdisjoint(SUPERLATIVES) and not (n_metrics or n_entities or periods):
        # "And the lowest?": of the figures the conversation is on.
        return "higher" if not seen.isdisjoint(HIGHER) else "lower"
    if percent:
        return "percent_change"
    if not seen.isdisjoint(SUM) and many:
        return "sum"
    if not seen.isdisjoint(SUM_FOLLOW_UP) and not frame.periods and not n_metrics:
        return "sum"  # "what is the sum?": of the figures the conversation carries
    if not seen.isdisjoint(TREND) or (frame.relative_last or 0) > 1:
        return "trend"
    # A bare range ("revenue from 2021 to 2023") names no operation: the plan lists it as a
    # trend, while a follow-up may still take the operation of the question it continues.
    return None


# An operator word standing between two named figures: "operating cash flow less capital
# expenditure" is a difference, "total liabilities over total assets" a ratio.
INFIX: dict[str, Operation] = {
    **dict.fromkeys(lexicon("less minus"), "difference"),
    normalise_word("plus"): "sum",
    normalise_word("times"): "product",
    normalise_word("over"): "ratio",
    # "Debt to equity", "cash to total assets": one figure set to another is their ratio.
    normalise_word("to"): "ratio",
}


def _operator_between(span: tuple[int, int], at: Sequence[int], norms: Sequence[str]) -> bool:
    """Whether an operator word ("to", "over", "less", ...) stands between a line named in
    full and the words left free ("long-term debt to total assets"): one figure set against
    another, as a share word would say."""
    if not at:
        return False
    gap = range(span[1] + 1, min(at)) if min(at) > span[1] else range(max(at) + 1, span[0])
    return any(norms[i] in INFIX for i in gap)


def _infix(
    norms: Sequence[str], used: list[bool], spans: Sequence[tuple[int, int]]
) -> Operation | None:
    """The operation of one operator word between the first two linked figures, when the
    words between them are that word and filler only (a figure's company may stand there)."""
    if len(spans) != 2:
        return None
    # A label may take a word the other already holds ("net income to revenue": "Net
    # revenue" reaches back to "net"): what stands between is what follows the first to end.
    first, second = sorted(spans, key=lambda span: span[1])
    between = range(first[1] + 1, second[0] if second[0] > first[1] else second[1])
    operators = [norms[i] for i in between if not used[i] and norms[i] in INFIX]
    rest = [norms[i] for i in between if not used[i] and norms[i] not in INFIX]
    if any(word not in STOP for word in rest):
        return None
    opening = norms[spans[1][0]]
    if not operators and INFIX.get(opening) == "difference":
        # "Total debt less the current portion", the line being "Less current portion": the
        # line's own first word is the operator said between the two.
        return "difference"
    if len(operators) != 1:
        return None
    for i in between:
        if norms[i] == operators[0]:
            used[i] = True
    return INFIX[operators[0]]


# Of the operator words, those a follow-up may open on, the figure on hand before them ("less
# capex?", "over revenue?"); "to" and "times" open other questions ("to 2023?", "times
# interest earned").
_OPENING_OPERATORS = frozenset(INFIX) - lexicon("to times")


def _operator_first(
    norms: Sequence[str], used: list[bool], spans: Sequence[tuple[int, int]]
) -> Operation | None:
    """ "Less capital expenditure?", "and over revenue?": a question that opens on an operator
    word and then names one figure sets the figure on hand (the session's last result) against
    it; nothing but filler may stand before the operator, nor after the line but a period."""
    if len(spans) != 1:
        return None
    before = [i for i in range(spans[0][0]) if norms[i] not in _LEADING or norms[i] in INFIX]
    if len(before) != 1 or norms[before[0]] not in _OPENING_OPERATORS or used[before[0]]:
        return None
    used[before[0]] = True
    return INFIX[norms[before[0]]]


def _later_less_earlier(
    norms: Sequence[str], periods: list[bool], used: list[bool]
) -> Operation | None:
    """ "Net income in 2016 less net income in 2014": one line named in two years with "less"
    or "minus" between them is their difference. Only the later year first: the difference
    is read as a change from the earlier year, whose sign "2014 less 2016" would turn."""
    years = [i for i, taken in enumerate(periods) if taken and norms[i].isdigit()]
    operators = [i for i, n in enumerate(norms) if not used[i] and INFIX.get(n) == "difference"]
    if len(years) != 2 or len(operators) != 1 or not years[0] < operators[0] < years[1]:
        return None
    if operators[0] + 1 < len(norms) and norms[operators[0] + 1] == "than":
        return None  # "less than in 2023": which is lower, not a difference
    if int(norms[years[0]]) <= int(norms[years[1]]):
        return None
    used[operators[0]] = True
    return "difference"


# Words a question may open on before its whole: filler, and the denominator phrases' words
# ("as a share of"; "over" is read as one by the grammar on its own, "and over revenue?").
_LEADING = lexicon("and so then what whats what's is was it s over") | {
    w for phrase in arithmetic.DENOMINATOR for w in phrase
}


def _unnamed_part(
    norms: Sequence[str], grammar: arithmetic.Reading, metrics: tuple[str, ...], loose: list[str]
) -> str:
    """ "And as a percentage of the 2020 figure?": a question that opens on its denominator
    phrase names only the whole; the part is the result the conversation is on ("result",
    found by the session among its own answers). Words no figure took ("what portion of
    total assets is in cash") may be the part, unread: not a result then."""
    if grammar.whole_at <= 0 or grammar.pair or len(metrics) > 1 or loose:
        return ""
    verb = next((i for i in range(grammar.whole_at, len(norms)) if norms[i] in _COPULAS), -1)
    if verb > 0 and any(n not in NOT_CONTENT and not n[0].isdigit() for n in norms[verb + 1 :]):
        # "What portion of the 2019 balance was severance?": the part is named after the
        # verb, though a line took its word with the whole's; it is no earlier result.
        return ""
    return "result" if all(n in _LEADING for n in norms[: grammar.whole_at]) else ""


_COPULAS = lexicon("is was were are")


def _against(
    seen: frozenset[str],
    operation: Operation | None,
    frame: TimeFrame,
    metrics: tuple[str, ...],
    from_period: bool = False,
) -> tuple[str, ...]:
    """ "How does that compare with 2023?", "growth since 2021?", "the change from 2018?":
    the conversation's figure set against the one named period (a line named again beside
    it or not); the session adds the period the conversation is on."""
    stepped = bool(frame.step) and not frame.periods  # "the year before"
    if len(metrics) > 1 or not (len(frame.periods) == 1 or stepped):
        return ()
    if operation == "difference" and not seen.isdisjoint(COMPARING):
        return ("against",)
    since = from_period or not seen.isdisjoint(SINCE)
    if operation in ("difference", "percent_change") and since:
        return ("against",)
    if operation is None and since and not metrics:
        # "And from FY2020?" after a change: the change the conversation is on, from that
        # year to the one it ends in (the session carries the operation).
        return ("against",)
    return ()


def _from_a_period(norms: Sequence[str], used: list[bool]) -> bool:
    """ "From 2018", "from the 2014 value": "from" before the one period named says where a
    change starts, as "since" does; the change ends where the conversation is."""
    for i, norm in enumerate(norms[:-1]):
        at = i + 1
        while at < len(norms) - 1 and norms[at] in ("the", "fiscal", "fy", "year"):
            at += 1
        if norm == "from" and not used[i] and used[at] and norms[at][:1].isdigit():
            return True
    return False


_SHARE_NOUNS = lexicon("proportion percentage percent share ratio portion")


def _outer(leftover: list[str], norms: Sequence[str]) -> bool:
    """An aggregate over shares ("the average proportion", "the total percentage"): a
    second step the one-step share per period does not take."""
    if any(word in AVERAGE or word in SUM_FOLLOW_UP for word in leftover):
        return True
    return any(
        word == "total" and following in _SHARE_NOUNS
        for word, following in zip(norms, [*norms[1:], ""], strict=True)
    )


def _total_over_a_span(
    norms: Sequence[str],
    used: list[bool],
    metrics: tuple[str, ...],
    spans: Sequence[tuple[int, int]],
) -> bool:
    """ "The total cost over the three years": a line named with a sum word of its own
    ("Total cost"), asked over a span of periods, is summed over it; the sum word names the
    line and the operation at once. Over no span ("the total cost in 2011 and 2012") the
    line's figures are listed."""
    said = len(metrics) == 1 and len(spans) == 1 and norms[spans[0][0]] in SUM
    return said and arithmetic.over_a_span(norms, used)


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
    if not seen.isdisjoint(COMPOUNDED) and operation != "percent_change":
        return "unsupported"  # "the annualized return": compounded, but no growth between years
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
    named: frozenset[int],
) -> tuple[str, ...]:
    """Unlinked words right beside a linked metric ("services revenue"): the question may
    mean a narrower line item than the one we hold, so the engine must not answer blindly."""
    found: list[str] = []
    for start, end in spans:
        # One word set between the label's own words says another line: "net interest
        # income" is not "Net income". (Several words between are a phrase of the
        # question's own, "outstanding number of rights at end of period"; a word for the
        # amount itself, "gross cost of land", narrows nothing.)
        inside = [i for i in range(start + 1, end) if not used[i]]
        if len(inside) == 1:
            word = norms[inside[0]]
            plain = word in metric_keys or word in AMOUNT_HEADS | MEASURE_NOUNS
            if _is_content(word) and not plain and len(word) > 1:
                found.append(texts[inside[0]])
        for step in (-1, 1):
            i = start - 1 if step < 0 else end + 1
            # Past filler, a plain verb and the company's name: "revenue did Apple generate
            # from services" still asks for services revenue.
            while 0 <= i < len(norms) and (
                (norms[i] in STOP and abs(i - start) <= 3)
                or (
                    (norms[i] in PLAIN_VERBS or i in named or _describes(norms, i))
                    and abs(i - start) <= 5
                )
            ):
                i += step
            if 0 <= i < len(norms) and not used[i]:
                word = norms[i]
                narrows = word not in metric_keys | WHICH
                if _is_content(word) and narrows and len(word) > 1:
                    found.append(texts[i])
    return tuple(dict.fromkeys(found))


# Words that open a phrase a verb's participle governs: "cash provided by", "debt to be
# repaid in", "reserves due to".
_GOVERNED = lexicon("by in from to for under at on with into through within")
# Participles that do not end in -ed, and "due" ("due to", "due in 2019"), which is used so.
_PARTICIPLES = lexicon("paid repaid prepaid due held sold owed set")


def _describes(norms: Sequence[str], i: int) -> bool:
    """A participle with the phrase it governs after it ("the cash provided by operating
    activities", "the increase observed in net revenue"): a verb of a clause that says
    what the line is, not a word that names a narrower line. The phrase's own noun is
    still read ("debt secured by property" is narrowed by "property")."""
    word = norms[i]
    participle = word in _PARTICIPLES or (word.endswith("ed") and len(word) > 4)
    return participle and i + 1 < len(norms) and norms[i + 1] in _GOVERNED


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


_BRACKETED = re.compile(r"\([^)]*\)")

# The two moments a balance is taken at, each said in several words: "at the start of 2011"
# is the balance a report's line calls "beginning", "the close of the year" its "end".
OPENING_MOMENT = lexicon("beginning start opening")
CLOSING_MOMENT = lexicon("end ending close closing")
_MOMENTS = (OPENING_MOMENT, CLOSING_MOMENT)


def _in_the_labels_moment_words(norms: list[str], held: frozenset[str]) -> list[str]:
    """A question's word for a period's opening or closing moment ("the start of 2011"),
    said in the one word of that moment the lines hold ("beginning stores"), when the
    lines hold no line with the question's own word. Only a moment of something ("... of"):
    "start-up costs" or "store openings" name no moment."""
    said = list(norms)
    for index, word in enumerate(norms[:-1]):
        moment = next((m for m in _MOMENTS if word in m), None)
        if moment is None or norms[index + 1] != "of" or word in held:
            continue
        others = sorted(moment & held)
        if len(others) == 1:
            said[index] = others[0]
        elif not others and word not in STOP and moment is CLOSING_MOMENT:
            said[index] = "end"  # the lines name the closing moment in no word: a stop word
    return said


def _soft_word_over_another(full: list[_Label], positions: Mapping[str, list[int]]) -> list[_Label]:
    """ "Total service revenue" names "Service revenue", not also "Total revenue": a label
    whose words beyond soft ones ("total", "net") are a part of another named label's, said
    once in the question, lends that other label its soft word. The soft word stays free to
    ask a sum. "Product and service revenue" names both lines: neither is the other's part."""
    kept = []
    for label in full:
        core = label.keys - SOFT
        if (
            core != label.keys
            and core
            and all(len(positions.get(w, ())) == 1 for w in core)
            and any(_soft_before_other(label, core, other, positions) for other in full)
        ):
            continue
        kept.append(label)
    return kept


def _soft_before_other(
    label: _Label, core: frozenset[str], other: _Label, positions: Mapping[str, list[int]]
) -> bool:
    """Whether the question says the label's soft word, then the other label's own words,
    then the shared ones: "total | service | revenue". "Share of total product reserves did
    warranty hold" names the total line and, after it, a part: both are meant."""
    if other.metric == label.metric or not core < other.keys:
        return False
    soft = min(positions[w][0] for w in label.keys - core)
    shared = min(positions[w][0] for w in core)
    extra = [i for w in other.keys - core for i in positions.get(w, ())]
    return bool(extra) and all(soft < i < shared for i in extra)


def _label_pairs(labels: Sequence[str]) -> frozenset[tuple[str, str]]:
    """The words a label sets one to another ("debt to capital", "loan to value")."""
    pairs = set()
    for label in labels:
        norms = list(map(normalise_word, TOKEN.findall(label)))
        pairs.update(
            (a, b) for a, to, b in zip(norms, norms[1:], norms[2:], strict=False) if to == "to"
        )
    return frozenset(pairs)


_RATIO_NAMES = lexicon("ratio ratios")


def _a_lines_ratio(
    norms: Sequence[str], used: list[bool], pairs: frozenset[tuple[str, str]]
) -> None:
    """ "The debt-to-capital ratio" of a line "Debt to capital at the end of the year": the
    line is that ratio, so "ratio" names it and asks no division (nor, beside "change", a
    calculation in two steps)."""
    for i in range(3, len(norms)):
        if (
            norms[i] in _RATIO_NAMES
            and norms[i - 2] == "to"
            and (norms[i - 3], norms[i - 1]) in pairs
        ):
            used[i] = True


_DETERMINED = lexicon("the our its their of")


def _all_said_as_total(norms: list[str], held: frozenset[str]) -> list[str]:
    """ "All branches", "all of our branches": the whole a table's total line holds, said in
    the lines' own word ("Total branches") when the lines hold "total" and none holds "all"
    ("All other segments" is a line of its own). Not before a count or a number ("all three
    years" lists the years) and not as an adverb at the end ("in all")."""
    if "all" in held or "total" not in held:
        return norms
    said = list(norms)
    for index, word in enumerate(norms[:-1]):
        if word != "all":
            continue
        after = index + 1
        while after < len(norms) and norms[after] in _DETERMINED:
            after += 1
        if after < len(norms) and _is_content(norms[after]) and not _counts(norms[after]):
            said[index] = "total"
    return said


def _counts(word: str) -> bool:
    return word.isdigit() or word in arithmetic.COUNTS


def _metric_index(terms: Sequence[Term]) -> _Index:
    raw: list[tuple[str, frozenset[str], frozenset[str], str, list[str]]] = []
    initials: list[tuple[str, str]] = []
    for term in terms:
        for label in dict.fromkeys((term.name, *term.aliases)):
            keys = frozenset(w for w in words(label) if w not in LABEL_STOP)
            outside = [w for w in words(_BRACKETED.sub(" ", label)) if w not in LABEL_STOP]
            if keys:
                head = outside[-1] if outside else ""
                raw.append((term.name, keys, keys - frozenset(outside), head, outside[:1]))
                initials.append((term.name, _initials(outside)))
    frequency: dict[str, int] = defaultdict(int)
    for _, keys, _, _, _ in raw:
        for word in keys:
            frequency[word] += 1
    count = max(len(raw), 1)
    idf = {w: math.log(1 + count / n) for w, n in frequency.items()}
    labels = [
        _Label(
            metric=metric,
            keys=keys,
            weight=sum(idf[w] for w in keys),
            optional=optional,
            head=head,
            lead=lead[0] if lead else "",
        )
        for metric, keys, optional, head, lead in raw
    ]
    labels.extend(_initials_labels(initials, count))
    by_word: dict[str, list[int]] = defaultdict(list)
    for index, item in enumerate(labels):
        for word in item.keys:
            by_word[word].append(index)
    return _Index(labels, dict(by_word), frozenset(frequency), idf)


def label_initials(label: str) -> str:
    """A label's initials as a question's "US" or "R&D" is read ("u.s", "r.d"), or ""."""
    return _initials([w for w in words(_BRACKETED.sub(" ", label)) if w not in LABEL_STOP])


def _initials(outside: Sequence[str]) -> str:
    """A label's initials written with dots ("u.s" for "United States", "u.p.s" for
    "United Parcel Service, Inc."), for a label of two to four words; else ""."""
    named = [w for w in outside if w not in NAME_ENDINGS and w != "&"]
    if 2 <= len(named) <= 4 and all(w.isalpha() for w in named):
        return ".".join(w[0] for w in named)
    return ""


def _initials_labels(initials: Sequence[tuple[str, str]], count: int) -> list[_Label]:
    """Each label also named by its initials, the one word a question's "US", "uk" or "ups"
    is read as (`_dotted_initials`). Kept out of the words' weights: a label's initials
    change no other label's linking."""
    found = [(metric, said) for metric, said in dict.fromkeys(initials) if said]
    frequency: dict[str, int] = defaultdict(int)
    for _, said in found:
        frequency[said] += 1
    return [
        _Label(
            metric=metric,
            keys=frozenset({said}),
            weight=math.log(1 + count / frequency[said]),
            head=said,
            lead=said,
        )
        for metric, said in found
    ]


parser_for = PerVocabulary(IntentParser)
"""A parser for this vocabulary, built once per vocabulary version and reused."""


def asks_for_figure(question: str) -> bool:
    """Whether a question asks for a number (an amount, a change, a percent, a ratio, a count)
    rather than an account in prose: such a question is answered from figures or not at all,
    never by quoting passages (ADR 0040)."""
    return figure_asked(question) is not None


FigureAsked = Literal["amount", "change", "percent", "computed"]


def figure_asked(question: str, *, points_at_figure: bool = False) -> FigureAsked | None:
    """What kind of number a question asks for, or None when it asks for prose. "How is the
    rate determined?" and "what is the cost related to?" ask for prose. `points_at_figure`:
    the question points back at an earlier figure ("and what were those acres in 2015?"):
    naming a year and asking no prose or names, it asks that figure's amount (ADR 0053)."""
    norms = [normalise_word(t) for t in TOKEN.findall(question)]
    seen = frozenset(norms) - _weighted_only(norms) - _statement_names(norms)
    if norms and _compares(norms, seen):
        return "computed"
    if not norms or _asks_prose(norms, seen):
        return None
    computing = seen & COMPUTING
    less = _less_a_number(norms) or _less_one(norms) or _be_without(norms)
    if (computing and not computing <= SHARE_OF) or less:
        return "computed"
    if computing or not seen.isdisjoint(PERCENT):
        return "percent"
    if not seen.isdisjoint(CHANGE_OR_GROWTH) and not _names_gains(question, seen):
        return "change"
    # "And what were those acres in 2015?": an earlier figure asked again for a year.
    again = points_at_figure and _names_a_year(norms) and seen.isdisjoint(NAMING)
    return "amount" if again or _asks_an_amount(question, norms, seen) else None


def _asks_prose(norms: Sequence[str], seen: frozenset[str]) -> bool:
    """Why, explain, describe, what it includes, how it is determined, openings asking for a
    time, a name or a yes or no. "What amount of X is included in Y?" asks a number in so
    many words, so "included" does not make it prose (ADR 0050)."""
    explaining = seen & EXPLAINING
    if explaining and not (explaining <= INCLUDING and _amount_of(norms)):
        return True
    if _asks_how_or_what_for(norms):
        return True
    return norms[0] in PROSE_OPENINGS or (
        norms[0] == "what" and len(norms) > 1 and norms[1] in DOES
    )


def _amount_of(norms: Sequence[str]) -> bool:
    """ "How much", "how many", "the amount of", "the number of": a number asked outright,
    unlike "fair value" or "costs" naming what a list is of."""
    return any(
        (a == "how" and b in ("much", "many")) or (a in AMOUNT and b == "of")
        for a, b in pairwise(norms)
    )


def _explicit(norms: Sequence[str], seen: frozenset[str]) -> bool:
    """A number asked in so many words: an amount, a number of, a value, how much or many."""
    how_much = any(a == "how" and b in ("much", "many") for a, b in pairwise(norms))
    return how_much or not seen.isdisjoint(AMOUNT)


def _asks_an_amount(question: str, norms: Sequence[str], seen: frozenset[str]) -> bool:
    """An amount asked: in so many words, in a scale ("in billions"), per something ("the
    revenue per gwh"), or a measure reports count asked for a year (ADR 0050)."""
    if _explicit(norms, seen) or _ASKED_IN_SCALE.search(question) or "per" in seen:
        return True
    words = list(dropwhile(lambda w: w in _OPENING_LINKS, norms))  # "and what were ...?"
    # "What did the company combine ... with?" asks what was done, not a measure's amount.
    what_is = words[:1] == ["what"] and words[1:2] != [normalise_word("did")]
    # "What was ...", "what were ...": a figure at a time; "what is X?" may ask what X is.
    timed = _names_a_year(norms) or not _PAST.isdisjoint(words[1:3])
    measured = what_is and timed and not seen.isdisjoint(REPORTED_MEASURES)
    return measured and seen.isdisjoint(NAMING)


def _compares(norms: Sequence[str], seen: frozenset[str]) -> bool:
    """ "Was A greater than B?", "did A outperform B?": a yes or no that two figures settle,
    so a number question, not prose (ADR 0050); "which is greater, A or B?" (ADR 0053)."""
    yes_no = norms[0] in _YES_NO
    if yes_no and (("than" in seen and not seen.isdisjoint(HIGHER_OR_LOWER)) or
                   not seen.isdisjoint(_OUTDOING)):  # fmt: skip
        return True
    # "Which one is greater: A or B?": a choice between two figures the figures settle.
    opening = list(dropwhile(lambda w: w in _OPENING_LINKS, norms))[:1]
    return opening == ["which"] and "or" in seen and not seen.isdisjoint(HIGHER_OR_LOWER)


_YES_NO = lexicon("is are was were does do did has have")
_OUTDOING = lexicon("outperform outperformed underperform underperformed exceed exceeded")


def _be_without(norms: Sequence[str]) -> bool:
    """ "What would operating income be without the banking segment?": one figure less
    another; not "sold without recourse"."""
    return any(a == "be" and b == "without" for a, b in pairwise(norms))


INCLUDING = lexicon("include included includes")
_PAST = lexicon("was were")
_OPENING_LINKS = lexicon("and so then")
_ASKED_IN_SCALE = re.compile(r"\bin\s+(?:thousands|millions|billions)\b", re.IGNORECASE)


def _less_one(norms: Sequence[str]) -> bool:
    """ "Cash from operations less cash spent on investing": one figure less another, unlike
    "less than a year"."""
    return any(a == "less" and b not in ("than", "of") for a, b in pairwise(norms))


def _averages_named(norms: Sequence[str]) -> list[str]:
    """The words with each "weighted average" left out of the arithmetic: it names a line
    item ("weighted average discount rate", "... exercise price"), never an average to take."""
    return [
        "weighted" if n in AVERAGE and i and norms[i - 1] == _WEIGHTED else n
        for i, n in enumerate(norms)
    ]


def _weighted_only(norms: Sequence[str]) -> frozenset[str]:
    """The average words of a question when each is the "average" of "weighted average"."""
    named = [n != m for n, m in zip(norms, _averages_named(norms), strict=True)]
    averages = [i for i, n in enumerate(norms) if n in AVERAGE]
    return (
        frozenset(norms[i] for i in averages)
        if averages and all(named[i] for i in averages)
        else frozenset()
    )


_WEIGHTED = normalise_word("weighted")


def _statement_names(norms: Sequence[str]) -> frozenset[str]:
    """ "On the consolidated balance sheets": "balance" names a statement there, not an
    amount asked."""
    return frozenset(a for a, b in pairwise(norms) if a in _BALANCE and b in _SHEET)


_BALANCE = lexicon("balance")
_SHEET = lexicon("sheet sheets")


def _names_gains(question: str, seen: frozenset[str]) -> bool:
    """ "How much exchange gains did the group report?": "gains" written so names a line
    item (exchange, capital, unrealized gains), not a move; the only word of change there."""
    plural = re.search(r"\bgains\b", question, re.IGNORECASE) is not None
    return plural and (seen & CHANGE_OR_GROWTH) <= {normalise_word("gain")}


def _names_a_year(norms: Sequence[str]) -> bool:
    """ "What were net sales in 2014?" asks a figure; "what is lease related and other
    charges?", naming no year, may ask what they are."""
    return any(_YEARLIKE.match(n) for n in norms)


def _asks_how_or_what_for(norms: Sequence[str]) -> bool:
    """ "How is it determined", "how does it work" (a manner), or ending "related to" (what
    something is about): prose, whatever figures the words name."""
    manner = any(a == "how" and b not in ("much", "many") for a, b in pairwise(norms))
    about = len(norms) >= 2 and norms[-1] in ("to", "of", "as", "for", "on", "by")
    return manner or about


def asks_total(question: str) -> bool:
    """Whether a question asks for a total ("the total ...", "the aggregate ...")."""
    return not LINE_ITEM_WORDS.isdisjoint(normalise_word(t) for t in TOKEN.findall(question))


def operation_words(question: str) -> tuple[str, ...]:
    """The arithmetic words a question uses ("average", "ratio"): a sentence that states a
    computed figure says them too."""
    norms = (normalise_word(t) for t in TOKEN.findall(question))
    said = RATIO | AVERAGE | PART | SUM - LINE_ITEM_WORDS  # "total" in a sentence says no sum
    return tuple(dict.fromkeys(n for n in norms if n in said))


CONSTANT_OPERATORS = lexicon("less minus plus over times by")
_YEARLIKE = re.compile(r"(?:19|20)\d{2}$")


# Words between an operator and its number ("less an initial $100", and a slip of the
# keyboard, "less and initial 100"): the number is still the operand.
_BEFORE_A_CONSTANT = lexicon("a an the and initial assumed $ usd")


def _less_a_number(norms: Sequence[str]) -> bool:
    """A constant operand ("the value less 100", "that change over 100", "less an initial
    100"), unlike "less than one year" or "over 2019"."""
    for i, word in enumerate(norms):
        if word not in CONSTANT_OPERATORS:
            continue
        j = i + 1
        while j < len(norms) and norms[j] in _BEFORE_A_CONSTANT and word != "over":
            j += 1
        if j < len(norms) and norms[j][:1].isdigit() and not _YEARLIKE.match(norms[j]):
            return True
    return False


def calculation_words(question: str, labels: Sequence[str] = ()) -> tuple[str, ...]:
    """The words of a question that ask for a calculation (a ratio, an average, a sum, a
    change, "less 100"), leaving out those the linked metric labels themselves hold
    ("average balance" names a line item, not an average to take)."""
    texts = TOKEN.findall(question)
    norms = [normalise_word(t) for t in texts]
    held = {w for label in labels for w in words(label)}
    asking = RATIO | AVERAGE | PART | SUM - {"total"} | CHANGE_OR_GROWTH
    naming = [False] * len(norms)
    _a_lines_ratio(norms, naming, _label_pairs(labels))
    found = [
        n
        for n, name in zip(norms, naming, strict=True)
        if n in asking and n not in held and not name
    ]
    if _less_a_number(norms):
        found.append("less")
    return tuple(dict.fromkeys(found))


def constant_operand(question: str) -> bool:
    """Whether a question calculates with a number it states ("less 100", "over 100")."""
    return _less_a_number([normalise_word(t) for t in TOKEN.findall(question)])
