"""The Engine: askapp's one entry point for answering a question, and its functional form.

    engine = Engine(store, provider)          # once, in a composition root (parts optional)
    answer = engine.answer(question, history=..., session=..., clearance=...)
    events = engine.stream(question, ...)     # meta, delta..., sources, then done (the Answer)
    answer = answer_question(question, store, provider, history=..., gate=...)   # one call

Order of work, for every question:
1. the security gate screens the raw current question (blocked: nothing else runs);
2. the parser reads the current question only; a session, if given, fills open slots;
3. structured questions run the tool loop and are rendered from the facts the tools returned;
   narrative questions run retrieve -> link -> rerank -> generate, sentence by sentence grounded.
History (flat (role, text) pairs) only ever becomes messages between the system prompt and the
current question (docs/adr/0017); it never reaches the gate, the parser, retrieval or the
sources.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, fields, replace
from typing import Any, TypedDict, Unpack

from engine.cache import PerSnapshot, visible_vocabulary
from engine.errors import ANSWERED_FAILURES, ProviderError
from engine.gate import SecurityGate
from engine.grounding import Grounder, cites, lists_amounts, sentences, states_figure
from engine.intent import LOOSE_WORDS_FOR_NARRATIVE, Intent
from engine.measures import (
    Linkable,
    Measure,
    cannot_expand,
    expand,
    expand_change,
    held_with,
    measure_of,
    not_offered,
    of_the_line,
    with_measures,
    worked_out,
)
from engine.names import near_miss, unknown_companies, unknown_company_text
from engine.narrative import Pipeline, default_pipeline
from engine.nearby import PERIOD_CHOICES, visible
from engine.parser import (
    FigureAsked,
    IntentParser,
    asks_total,
    calculation_words,
    constant_operand,
    figure_asked,
    operation_words,
    parser_for,
    unsupported_because,
)
from engine.plan import (
    Plan,
    Reply,
    asker_for,
    figure_unread,
    held_instead,
    make_plan,
    operand_plan,
    settled_lines,
)
from engine.prompts import NARRATIVE_SYSTEM, narrative_user_message, structured_system
from engine.providers.base import Completion, Message, Provider
from engine.render import Rendered, change_between, render
from engine.sentence_figures import (
    FromSentences,
    from_sentences,
    leans_on_metric,
    may_read,
    names_a_figure,
    operation_asked,
    reading_topic,
)
from engine.session import ConversationSession
from engine.stated import MIN_TOPIC_TERMS
from engine.store import KnowledgeStore
from engine.timeframe import period_sort_key, read_timeframe
from engine.tools import TOOL_SCHEMAS, Toolbox
from engine.topic import intent_topic, joined_terms, text_words
from engine.types import (
    DEFAULT_CLEARANCE,
    Answer,
    Carried,
    Choice,
    Event,
    Fact,
    Passage,
    Source,
    Status,
    Vocabulary,
    showable,
)

HistoryTurn = tuple[str, str]
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+")
MAX_TOOL_STEPS = 6
MAX_CALLS_PER_STEP = 16

UNSUPPORTED_TEXT = (
    "askapp answers questions about the figures and documents in its knowledge base; it does "
    "not forecast, predict or give investment advice."
)
# A calculation of several steps in one question, or a filter over figures ("the years it was
# above 150"): not a forecast, and not to be told it is one.
COMPOSED_TEXT = (
    "askapp works out one calculation a question from the figures it holds, and this question "
    "asks for more than one at once, or for a filter over them. Ask for one step at a time: "
    "the figures first, then what to work out from them."
)
COMPOUNDED_TEXT = (
    "askapp works out a compound annual growth rate of one figure between two years, and no "
    "other annualized figure. Ask for the growth rate of a figure between two years, or for "
    "the figure in each year."
)
_UNSUPPORTED_TEXTS = {
    "forecast": UNSUPPORTED_TEXT,
    "composed": COMPOSED_TEXT,
    "compounded": COMPOUNDED_TEXT,
}
ONLY_ENTITY = "the only company in the knowledge base"
NO_PASSAGE_TEXT = "The knowledge base holds no passage that answers this question."
_BLOCKED_TEXT = "This question was not answered: {detail}"
# The share of a question's topic a quoted sentence must hold to state the number asked.
_ABOUT_IT = 0.75
# Plan replies a sentence's figure may answer instead (ADR 0041, 0050): nothing held, or a
# question back among line items none of which is what was asked.
_UNANSWERED = ("not_found", "clarify")
DEFAULT_GATE = SecurityGate()  # deterministic and stateless: one serves every Engine


@dataclass(frozen=True, slots=True)
class Limits:
    max_tool_steps: int = MAX_TOOL_STEPS
    max_calls_per_step: int = MAX_CALLS_PER_STEP


class Asked(TypedDict, total=False):
    """What may come with one question besides its text."""

    history: Sequence[HistoryTurn] | None  # flat (role, text) pairs: context for the model only
    session: ConversationSession | None  # slots carried from earlier parsed questions
    clearance: frozenset[str]  # the classifications the asker may see; PUBLIC when left out


_ReadingKey = tuple[str, str | None, frozenset[str]]  # question, scope, clearance
_Reading = tuple[Intent, tuple[str, ...]]  # the intent, the unknown companies named


@dataclass(frozen=True, slots=True)
class Engine:
    """The engine's parts, put together once and shared by every question (and thread): it
    holds no per-question state. Only the store and the provider are required."""

    store: KnowledgeStore
    provider: Provider
    gate: SecurityGate = DEFAULT_GATE
    parser: IntentParser | None = None  # None: the parser for the store's current vocabulary
    pipeline: Pipeline | None = None  # None: retrieval through the store's full-text search
    limits: Limits = Limits()
    # Each question's reading (its intent, the companies it names that nothing holds), kept
    # for the store's current vocabulary only (engine/cache.py: PerSnapshot).
    readings: PerSnapshot[_ReadingKey, _Reading] = field(
        default_factory=PerSnapshot, init=False, repr=False, compare=False
    )

    def parser_for(self, vocabulary: Vocabulary) -> IntentParser:
        """The parser this Engine reads questions with, for the store's current vocabulary."""
        return self.parser or parser_for(vocabulary)

    def answer(self, question: str, **asked: Unpack[Asked]) -> Answer:
        """Answer one question: the Answer the stream ends with."""
        return final_answer(self.stream(question, **asked))

    def stream(self, question: str, **asked: Unpack[Asked]) -> Iterator[Event]:
        """Events: meta (how the question was understood), delta (text, sentence by sentence),
        sources, then done with the Answer. On failure an error event comes before done."""
        run = _Run(
            engine=self,
            question=question,
            history=_history_messages(asked.get("history")),
            session=asked.get("session"),
            clearance=asked.get("clearance", DEFAULT_CLEARANCE),
        )
        yield from run.events()


_PARTS = frozenset(part.name for part in fields(Engine) if part.init)


def answer_question(
    question: str, store: KnowledgeStore, provider: Provider, **options: Any
) -> Answer:
    """The functional form: `Engine(store, provider, ...).answer(question, ...)` in one call.
    `options` are the Engine's parts (gate, parser, pipeline, limits) and what comes with the
    question (history, session, clearance)."""
    return final_answer(answer_question_stream(question, store, provider, **options))


def answer_question_stream(
    question: str, store: KnowledgeStore, provider: Provider, **options: Any
) -> Iterator[Event]:
    """The functional form of `Engine.stream`, with the same options as answer_question."""
    parts = {name: options.pop(name) for name in _PARTS if name in options}
    return Engine(store, provider, **parts).stream(question, **options)


def _meant_instead(
    question: str, unknown: Sequence[str], vocabulary: Vocabulary
) -> tuple[Choice, ...]:
    """ "Microsfot": the question again with the one held company its name is a slip of,
    offered as a button (never answered as if it had been asked)."""
    if len(unknown) != 1:
        return ()
    meant = near_miss(unknown[0], vocabulary)
    if meant is None:
        return ()
    asked = question.replace(unknown[0], meant, 1)
    return (Choice(f"Did you mean {meant}?", asked),)


def final_answer(events: Iterable[Event]) -> Answer:
    """The Answer a stream of events ends with (running the stream to its end)."""
    answer: Answer | None = None
    for event in events:
        if event.kind == "done":
            answer = event.data
    assert answer is not None  # the stream always ends with done
    return answer


def _history_messages(history: Sequence[HistoryTurn] | None) -> list[dict[str, str]]:
    """History as plain user/assistant messages. A pair cannot carry a system or tool role,
    tool calls, or anything but text: every other role becomes user."""
    if history is None:
        return []
    messages = []
    for turn in history:
        if isinstance(turn, (str, bytes)) or len(turn) != 2:
            raise TypeError("history turns must be (role, text) pairs")
        role, text = turn
        if not isinstance(role, str) or not isinstance(text, str):
            raise TypeError("history roles and texts must be strings")
        messages.append(
            {"role": role if role in ("user", "assistant") else "user", "content": text}
        )
    return messages


@dataclass
class _Run:
    """One question's way through the engine, and what it has learnt on the way."""

    engine: Engine
    question: str
    history: list[dict[str, str]]
    session: ConversationSession | None
    clearance: frozenset[str]
    intent: Intent | None = None
    carried: tuple[Carried, ...] = ()
    emitted: list[str] = field(default_factory=list)
    read: FromSentences | None = None  # an answer a sentence's figure gives (ADR 0041)
    # The figures a named measure is computed from ("gross margin"). With the plan's own
    # figures otherwise, they are told to the model, so it fetches what the engine read
    # (a short name among a company's own line items, say), not what it reads itself.
    needs: tuple[str, ...] = ()
    # A second step on a measure's results, one a period: the change between them.
    then: str = ""

    def events(self) -> Iterator[Event]:
        screen = self.engine.gate.screen(self.question)
        if not screen.allowed:
            yield self._meta()
            yield from self._finish(
                "blocked", _BLOCKED_TEXT.format(detail=screen.detail), reason=screen.reason
            )
            return
        try:
            yield from self._answer()
        except ANSWERED_FAILURES as exc:
            failure = type(exc)
            message = _failure_message(exc)
            yield Event("error", {"code": failure.__name__, "message": message})
            yield from self._finish("error", message, failure=failure, sent=True)

    def _answer(self) -> Iterator[Event]:
        known = self.engine.store.vocabulary()
        # A name only material above the asker's clearance introduces is unknown to this
        # question: not linked, never offered as a choice, never the only company.
        vocabulary = visible_vocabulary(known, self.clearance)
        scope = self.session.scope if self.session is not None else None
        # Named measures computed from two figures ("gross margin") link too (engine/measures).
        linkable = with_measures(vocabulary)
        intent, unknown = self._reading(scope, linkable, known, vocabulary)
        intent = self._in_the_conversations_company(intent, linkable, known, vocabulary)
        intent = self._measure_of_the_line_on_hand(intent, linkable, vocabulary)
        if unknown:
            # Before the session or a scope can fill in a company: the question names one.
            self.intent = intent
            yield self._meta()
            yield from self._finish(
                "not_found",
                unknown_company_text(unknown, vocabulary),
                choices=_meant_instead(self.question, unknown, vocabulary),
            )
            return
        if self.session is not None:
            intent, self.carried = self.session.resolve(intent)
        measure = measure_of(intent, linkable.found)
        expanded = expand(intent, measure)
        stepped = expand_change(intent, measure) if expanded is None else None
        if stepped is not None:
            # "How did operating margin change?": the margin in each period, then the change.
            self.then = intent.operation or ""
            expanded = stepped
        elif _calculation_against(intent):
            # "How does that compare to FY2023?" after a margin: it in each period, then the
            # change between them.
            self.then = "difference"
        if expanded is None:
            self.intent = intent
            yield self._meta()
            yield from self._finish("clarify", cannot_expand(measure))  # type: ignore[arg-type]
            return
        if measure is not None:
            self.needs = measure.operands
        intent = expanded
        if not intent.entities and len(vocabulary.entities) == 1 and intent.kind != "unsupported":
            only = vocabulary.entities[0].name
            intent = intent.with_(entities=(only,))
            self.carried = (*self.carried, Carried("entity", only, 0, ONLY_ENTITY))
        if intent.structured and len(intent.loose) >= LOOSE_WORDS_FOR_NARRATIVE:
            # Many words linked to nothing: the figures cannot say what is asked; the
            # documents might, and the narrative channel never invents a figure.
            intent = intent.with_(kind="narrative", operation=None)
        self.intent = intent
        yield self._meta()
        if intent.kind == "unsupported":
            why = unsupported_because(intent.question)
            yield from self._finish("not_found", _UNSUPPORTED_TEXTS[why])
        elif intent.kind == "narrative":
            pointing = "figure" in intent.points_back
            asked = figure_asked(intent.question, points_at_figure=pointing)
            yield from self._narrative(intent, vocabulary, asked)
        elif _calculation_unread(intent, vocabulary):
            # A calculation asked that was not read: the figures it would start from are not
            # its answer (ADR 0040).
            yield from self._figure_unread(intent, vocabulary)
        else:
            plan = self._plan(intent, vocabulary)
            if isinstance(plan, Reply) and plan.status in _UNANSWERED and self._read(intent):
                yield from self._stated(intent)
            elif isinstance(plan, Reply):
                yield from self._finish(plan.status, plan.text, choices=plan.choices)
            else:
                if measure is not None:
                    each = bool(self.then) and measure.operation == "difference"
                    plan = replace(plan, note=measure.says, each_period=each)
                yield from self._structured(plan, vocabulary)

    def _reading(
        self, scope: str | None, linkable: Linkable, known: Vocabulary, vocabulary: Vocabulary
    ) -> _Reading:
        """The question read with this company as its scope (or none). How it reads depends
        on its text, the scope, the clearance and what the store holds, nothing else (never
        the history): kept while the store hands out the same vocabulary, which it does until
        the knowledge base changes."""
        store = self.engine.store
        key = (self.question, scope, self.clearance)
        reading = self.engine.readings.get(known, key)
        if reading is None:
            parsed = self.engine.parser_for(linkable.vocabulary).parse(
                self.question, scope=scope, held_by=self._held_by(vocabulary, linkable.found)
            )
            unread = unknown_companies(self.question, vocabulary, store, self.clearance)
            reading = self.engine.readings.put(
                known, key, (not_offered(parsed, linkable.measures), unread)
            )
        return reading

    def _in_the_conversations_company(
        self, intent: Intent, linkable: Linkable, known: Vocabulary, vocabulary: Vocabulary
    ) -> Intent:
        """A figure asked by a word of its label ("and equity?") in an unscoped conversation
        about one company reads as a scoped question would: among that company's own line
        items. Taken only when they settle it to one line; otherwise the question is asked
        back as before (linking by head noun over every company's labels guesses)."""
        if self.session is None or self.session.scope or intent.entities:
            return intent
        if not any(a.slot == "metric" for a in intent.ambiguous):
            return intent
        company = self.session.company()
        if company is None:
            return intent
        narrowed = self._reading(company, linkable, known, vocabulary)[0]
        settled = narrowed.metrics and not any(a.slot == "metric" for a in narrowed.ambiguous)
        return narrowed if settled else intent

    def _measure_of_the_line_on_hand(
        self, intent: Intent, linkable: Linkable, vocabulary: Vocabulary
    ) -> Intent:
        """ "And its margin?" after a figure: a word no line holds that names, among the
        measures, only the one whose part is that figure's line (ADR 0075); "how has that
        margin changed since FY2020?" right after a margin: that margin (ADR 0081)."""
        if self.session is None or intent.kind != "narrative" or intent.metrics:
            return intent
        if len(intent.loose) != 1 or intent.entities:
            return intent
        allowed, word = linkable.found, intent.loose[0]
        line = self.session.line_on_hand()
        last = self.session.last_intent()
        measure = of_the_line(word, line, allowed) if line else None
        if measure is None and last is not None:
            measure = worked_out(last, word, allowed)
        if measure is None:
            return intent
        # The question read with the measure named in full where it said the one word, so
        # that what it asks of it ("changed since FY2020") is read as for any named measure.
        named = re.sub(rf"(?i)\b{re.escape(word)}\b", measure, self.question, count=1)
        reread = self.engine.parser_for(linkable.vocabulary).parse(
            named, scope=self.session.scope, held_by=self._held_by(vocabulary, allowed)
        )
        if reread.metrics == (measure,) and not (reread.loose or reread.ambiguous):
            return reread.with_(question=intent.question, follow_up=True)
        return intent.with_(metrics=(measure,), kind="lookup", loose=(), follow_up=True)

    def _held_by(
        self, vocabulary: Vocabulary, measures: tuple[Measure, ...] = ()
    ) -> Callable[[str], frozenset[str]] | None:
        """The metrics held for a company, as this asker may see them: what the parser links
        a scoped question's words against first (ADR 0025). None with one company."""
        if len(vocabulary.entities) < 2:
            return None
        store, clearance = self.engine.store, self.clearance

        def held_by(entity: str) -> frozenset[str]:
            held = frozenset(h.metric for h in visible(store.holdings(entity=entity), clearance))
            return held_with(held, measures)

        return held_by

    # -- structured channel --------------------------------------------------------------
    def _plan(self, intent: Intent, vocabulary: Vocabulary) -> Plan | Reply:
        """Operands the grammar named (an earlier result, a constant, a nested step) are
        computed as named; any other question is planned by what the store holds."""
        if intent.referent == "?":
            return Reply(
                "clarify",
                "Which earlier figure do you mean? No answer in this conversation gave the "
                "result the question points back to.",
            )
        if intent.referent == "?pair":
            return Reply("clarify", _which_of(self._results(), bool(intent.pair)))
        named = (
            self._results()
            or intent.constants
            or (intent.nested and intent.metrics)
            or (intent.paired and len(intent.periods) == len(intent.metrics))
        )
        store, parse = self.engine.store, _check(vocabulary)
        if named and intent.ambiguous:
            intent = settled_lines(intent, store, vocabulary, self.clearance, parse=parse)
            if intent.ambiguous:
                # Still more than one line: asked back as any question naming them is.
                return make_plan(intent, store, vocabulary, self.clearance, parse=parse)
        # A figure of no company named, with several held: make_plan asks which one.
        settled = intent.entities or not intent.metrics or len(vocabulary.entities) == 1
        if named and settled:
            within = frozenset(
                p for c in self._results() if self.session is not None and c.figure is not None
                for p in self.session.periods_of(c.figure)
            )  # fmt: skip
            return operand_plan(intent, vocabulary, store, self.clearance, within)
        return make_plan(intent, store, vocabulary, self.clearance, parse=_check(vocabulary))

    def _deductions(self, facts: Mapping[str, Fact]) -> frozenset[tuple[str, str]]:
        """The lines among the evidence printed negative in each of two or more periods held:
        deductions ("impairment charges ( 212 )"), not figures that fell below zero once."""
        lines = {(f.entity, f.metric) for f in facts.values() if f.value < 0}
        kept = set()
        for entity, metric in lines:
            found = self.engine.store.find_facts(entity=entity, metric=metric)
            held = [f for f in found if showable(f.classification, self.clearance)]
            if len(held) > 1 and all(f.value < 0 for f in held):
                kept.add((entity, metric))
        return frozenset(kept)

    def _results(self) -> tuple[Carried, ...]:
        return tuple(c for c in self.carried if c.slot == "result" and c.figure is not None)

    def _structured(self, plan: Plan, vocabulary: Any) -> Iterator[Event]:
        self.intent = plan.intent
        toolbox = Toolbox(store=self.engine.store, vocabulary=vocabulary, clearance=self.clearance)
        _run_tool_loop(
            self.question, self.engine.provider, toolbox,
            history=self.history, carried=self.carried, limits=self.engine.limits,
            needs=self.needs or plan.intent.metrics, fetch=_fetch(plan),
        )  # fmt: skip
        rendered = render(plan, toolbox.facts, self._results(), self._deductions(toolbox.facts))
        if self.then and rendered.status == "found":
            rendered = change_between(rendered, self.then)
        if rendered.status == "not_found" and rendered.missing and self._results():
            rendered = self._with_given(plan, toolbox.facts, rendered)
        if rendered.status == "not_found" and self._read(plan.intent):
            yield from self._stated(plan.intent)
            return
        choices = rendered.choices
        if rendered.status == "not_found" and rendered.missing:
            choices = held_instead(
                plan, rendered.missing, asker_for(_check(vocabulary), vocabulary)
            )
        # What was carried from earlier questions is the answer's `carried`, shown beside the
        # text by every face; the text itself says only what the knowledge base holds.
        yield from self._finish(
            rendered.status,
            rendered.text,
            figures=rendered.figures,
            sources=rendered.sources,
            choices=choices,
        )

    def _with_given(self, plan: Plan, facts: Any, missed: Rendered) -> Rendered:
        """A calculation on an earlier result whose other operand the store does not hold,
        but an earlier answer of this conversation gave (read from a sentence, ADR 0041):
        that figure, carried like the result, in the operand's place."""
        if self.session is None:
            return missed
        given = [self.session.given(s.entity, s.metric, s.period) for s in missed.missing]
        if any(c is None for c in given):
            return missed
        filled = tuple(c for c in given if c is not None)
        kept = tuple(s for s in plan.slots if s not in missed.missing)
        self.carried = (*self.carried, *filled)
        results = self._results()
        referents = tuple(c for c in results if c not in filled)
        ordered = (*referents, *filled) if plan.intent.referent_first else (*filled, *referents)
        return render(replace(plan, slots=kept), facts, ordered)

    # -- narrative channel ---------------------------------------------------------------
    def _narrative(
        self, intent: Intent, vocabulary: Vocabulary, asked: FigureAsked | None = None
    ) -> Iterator[Event]:
        pipeline = self.engine.pipeline or default_pipeline(self.engine.store)
        chosen = pipeline.select(intent.question, intent=intent, clearance=self.clearance)
        passages = chosen.passages
        if passages and self._read(intent, passages):
            yield from self._stated(intent)
            return
        if not passages:
            if asked is not None:
                yield from self._figure_unread(intent, vocabulary)
                return
            elsewhere = chosen.periods_elsewhere
            choices = _in_periods(intent, elsewhere, _check(vocabulary))
            yield from self._finish("not_found", _no_passage(intent, elsewhere), choices=choices)
            return
        grounder = Grounder(passages)
        messages = _narrative_messages(self.question, passages, self.history)
        # Words that cite nothing wait until a cited sentence comes: if none ever does, the
        # answer is not_found and the reader must never have seen them. A number asked waits
        # for the whole answer: it is given only if the sentences quoted state it.
        waiting: list[str] = []
        held: list[str] = []
        for sentence in sentences(self.engine.provider.stream(messages)):
            kept = grounder.sentence(sentence)
            if kept is None:
                continue
            waiting.append(kept)
            if cites(kept) and asked is None:
                yield from self._emit(waiting)
                waiting = []
            elif cites(kept):
                held.extend(waiting)
                waiting = []
        quoted = grounder.cited_passages()
        if asked is not None and not _states_the_figure(held, asked, self._periods(intent), quoted):
            yield from self._figure_unread(intent, vocabulary)
            return
        if not grounder.cited_passages():
            yield from self._finish("not_found", NO_PASSAGE_TEXT)
            return
        yield from self._emit(held)
        yield from self._emit(waiting)
        sources = grounder.cited_sources()
        yield from self._finish("answered", " ".join(self.emitted), sources=sources, sent=True)

    # -- figures read from sentences (ADR 0041) ----------------------------------------------
    def _read(self, intent: Intent, passages: Sequence[Passage] | None = None) -> bool:
        """Whether a sentence of the selected passages states the figure asked (a level, or
        both ends of a change) surely; the answer waits in `self.read`. Only periods the
        question names (or the session resolved for it) count: a figure is never read for
        a period merely talked about earlier."""
        if not may_read(intent) or (leans_on_metric(intent) and self._moved_on()):
            return False
        if passages is None:
            # Searched by what the figure must be about: for a follow-up ("and in 2019?")
            # that is the figure the session carried, not the question's few words.
            about = reading_topic(intent).written
            pipeline = self.engine.pipeline or default_pipeline(self.engine.store)
            chosen = pipeline.select(" ".join(about), intent=intent.with_(topic=about),
                                     clearance=self.clearance)  # fmt: skip
            passages = chosen.passages
        self.read = from_sentences(intent, passages)
        return self.read is not None

    def _moved_on(self) -> bool:
        """The metric was carried past a question that named a figure of its own ("what was
        the change associated with credit facilities?", refused): "the percentage change"
        after it may not mean the older figure, so it is not read then."""
        if self.session is None:
            return False
        turns = self.session.turns
        since = min((c.from_turn for c in self.carried if c.slot == "metric"), default=len(turns))
        return any(names_a_figure(turn.intent) for turn in turns[since:])

    def _stated(self, intent: Intent) -> Iterator[Event]:
        read = self.read
        assert read is not None
        operation = operation_asked(intent)
        kind = "lookup" if operation is None else "comparison"
        # What a follow-up carries ("and in 2014?", "what was the change?"): the words the
        # sentence named the figure with, as the metric of this question.
        self.intent = intent.with_(kind=kind, operation=operation, metrics=(read.label,))
        yield from self._finish("found", read.text, figures=read.figures, sources=read.sources)

    def _periods(self, intent: Intent) -> Intent:
        """In a conversation, a question naming no period is about the period last asked."""
        if intent.periods or self.session is None:
            return intent
        return intent.with_(periods=self.session.recent_periods())

    def _figure_unread(self, intent: Intent, vocabulary: Vocabulary) -> Iterator[Event]:
        """A number asked that neither a figure nor a quoted sentence gives (ADR 0040)."""
        reply = figure_unread(intent, self.engine.store, vocabulary, self.clearance,
                              parse=_check(vocabulary))  # fmt: skip
        yield from self._finish(reply.status, reply.text, choices=reply.choices)

    def _emit(self, kept: list[str]) -> Iterator[Event]:
        for sentence in kept:
            yield Event("delta", f" {sentence}" if self.emitted else sentence)
            self.emitted.append(sentence)

    # -- endings ---------------------------------------------------------------------------
    def _meta(self) -> Event:
        return Event(
            "meta",
            {
                "intent": self.intent.to_dict() if self.intent else {},
                "carried": [c.to_dict() for c in self.carried],
                "provider": self.engine.provider.name,
                "model": self.engine.provider.model,
            },
        )

    def _finish(
        self,
        status: Status,
        text: str,
        *,
        figures: tuple[Any, ...] = (),
        sources: tuple[Source, ...] = (),
        choices: tuple[Choice, ...] = (),
        reason: str | None = None,
        failure: type[Exception] | None = None,
        sent: bool = False,
    ) -> Iterator[Event]:
        if not sent:
            for piece in _pieces(text):
                yield Event("delta", piece)
        answer = Answer(
            text=text,
            status=status,
            figures=figures if status == "found" else (),
            sources=sources if status in ("found", "answered") else (),
            intent=self.intent.to_dict() if self.intent else {},
            carried=self.carried,
            reason=failure.__name__ if failure else reason,
            choices=choices,
            provider=self.engine.provider.name,
            model=self.engine.provider.model,
            failure=failure,
        )
        yield Event("sources", [s.to_dict() for s in answer.sources])
        if self.session is not None and self.intent is not None and status != "blocked":
            self.session.remember(self.question, self.intent, answer)
        yield Event("done", answer)


def _which_of(results: Sequence[Carried], pair: bool) -> str:
    """Earlier figures named so that the words do not tell which: ask, naming them."""
    named = [f"{c.value} (your question {c.from_turn})" for c in results]
    if len(named) < 2:
        return "Which earlier figures do you mean? Name each by its figure and year."
    if pair:
        listed = ", ".join(named[:-1]) + f" and {named[-1]}"
        return f"Which is which? The conversation holds {listed}. Name each by its figure and year."
    return f"Which earlier figure do you mean: {', '.join(named[:-1])} or {named[-1]}?"


def _calculation_against(intent: Intent) -> bool:
    """A ratio or share the session set against the same one in another period."""
    shares = intent.operation in ("ratio", "percent_of") and len(set(intent.periods)) == 2
    return shares and "against" in intent.points_back and len(intent.metrics) == 2


def _check(vocabulary: Vocabulary) -> Callable[[str], Intent]:
    """How the engine checks the next questions it writes for choices: the vocabulary's own
    parser, never the one given the asker's question (which sees that question only)."""
    return parser_for(vocabulary).parse


def _run_tool_loop(
    question: str,
    provider: Provider,
    toolbox: Toolbox,
    *,
    history: list[dict[str, str]],
    carried: tuple[Carried, ...],
    limits: Limits,
    needs: tuple[str, ...] = (),
    fetch: tuple[tuple[str, str, tuple[str, ...]], ...] = (),
) -> None:
    """Let the provider call tools until it answers or runs out of steps. The evidence is
    what `toolbox` keeps; the provider's own words are not used."""
    messages: list[Message] = [
        {"role": "system", "content": structured_system(carried, needs, fetch)},
        *history,
        {"role": "user", "content": question},
    ]
    for _ in range(limits.max_tool_steps):
        completion: Completion = provider.complete(list(messages), tools=TOOL_SCHEMAS)
        if not completion.tool_calls:
            return
        calls = completion.tool_calls[: limits.max_calls_per_step]
        messages.append(
            {
                "role": "assistant",
                "content": completion.content,
                "tool_calls": [
                    {
                        "id": call.id,
                        "type": "function",
                        "function": {"name": call.name, "arguments": call.arguments},
                    }
                    for call in calls
                ],
            }
        )
        for call in calls:
            messages.append({"role": "tool", "tool_call_id": call.id, "content": toolbox.run(call)})


def _fetch(plan: Plan) -> tuple[tuple[str, str, tuple[str, ...]], ...]:
    """The plan's slots as the model is told to fetch them: each company and metric once,
    with the periods of it the answer rests on, in the plan's order."""
    grouped: dict[tuple[str, str], list[str]] = {}
    for slot in plan.slots:
        grouped.setdefault((slot.entity, slot.metric), []).append(slot.period)
    return tuple((e, m, tuple(dict.fromkeys(p))) for (e, m), p in grouped.items())


def _narrative_messages(
    question: str, passages: Sequence[Any], history: list[dict[str, str]]
) -> list[Message]:
    return [
        {"role": "system", "content": NARRATIVE_SYSTEM},
        *history,
        {"role": "user", "content": narrative_user_message(question, passages)},
    ]


def _calculation_unread(intent: Intent, vocabulary: Vocabulary) -> bool:
    """The question calculates (with a number it states, or in words no metric label
    holds), but the grammar read no operation or constant for it. The subject of the one
    linked line's table holds words as its label does: a "weighted average rate" asked of a
    table of weighted-average rates asks for a line's figure, not an average to take."""
    if constant_operand(intent.question) and not intent.constants:
        return True
    unread = intent.operation is None and not intent.referent
    subject = (
        tuple(t.subject for t in vocabulary.metrics if t.name == intent.metrics[0])
        if len(intent.metrics) == 1
        else ()
    )
    choices = tuple(c for a in intent.ambiguous for c in a.choices)
    labels = (*intent.metrics, *subject, *choices)
    return unread and bool(calculation_words(intent.question, labels))


def _states_the_figure(
    kept: Sequence[str], asked: FigureAsked, intent: Intent, cited: Sequence[Passage]
) -> bool:
    """A quoted sentence states the number asked, for the asked periods, and is about what
    the question is about."""
    years = {period_sort_key(p)[0] for p in intent.periods}
    said = operation_words(intent.question)
    topic = intent_topic(intent.topic)
    if len(topic.terms) < MIN_TOPIC_TERMS:
        # One word ("revenue", "due") names too little to say which figure a sentence
        # states: which revenue is asked back, as for reading a figure (ADR 0041, 0053).
        return False
    joined = joined_terms(intent.question, topic)
    # "The total ... in 2007 and 2006", "the total value of the carryforwards": a total over
    # several figures, which a sentence listing them one by one does not state.
    total = asked == "amount" and len(intent.periods) > 1 and asks_total(intent.question)
    for sentence in kept:
        held = text_words(_ASIDE.sub(" ", sentence))
        about = topic.coverage(held) >= _ABOUT_IT and not topic.negation_missing(held)
        about = about and joined <= held and not (total and lists_amounts(sentence))
        for number in _CITED.findall(sentence):
            context = cited[int(number) - 1].text if int(number) <= len(cited) else ""
            if about and states_figure(sentence, asked, years, said, context):
                return True
    return False


_CITED = re.compile(r"\[(\d{1,3})\]")
# A bracketed aside naming no year ("$1.3 billion (18 percent of net sales)") qualifies
# another figure: the sentence is not about what only the aside names (ADR 0050). An aside
# with a year of its own ("(a reduction of $181,000 in 2018)") states a figure for it.
_ASIDE = re.compile(r"\((?![^()]*(?:19|20)\d{2})[^()]*\)")


def _in_periods(
    intent: Intent, periods: Sequence[str], parse: Callable[[str], Intent]
) -> tuple[Choice, ...]:
    """The question asked again of each period that has passages on it ("... in FY2025?"),
    each checked to read back as that period; nothing when the question names several."""
    spans = read_timeframe(intent.question).spans
    if len(spans) != 1 or len(intent.periods) != 1:
        return ()
    (start, end), question = spans[0], intent.question
    choices = []
    for period in reversed(periods[-PERIOD_CHOICES:]):
        again = f"{question[:start]}{period}{question[end:]}"
        if parse(again).periods == (period,):
            choices.append(Choice(period, again))
    return tuple(choices)


def _no_passage(intent: Intent, elsewhere: Sequence[str]) -> str:
    """Not found, saying which period had nothing and which periods would answer."""
    if not elsewhere:
        return NO_PASSAGE_TEXT
    about = f" about {' and '.join(intent.entities)}" if intent.entities else ""
    periods = " or ".join(intent.periods)
    return (
        f"The knowledge base holds no {periods} passage{about} that answers this; "
        f"it holds passages on it for {', '.join(elsewhere)}."
    )


def _pieces(text: str) -> Iterator[str]:
    """The text cut at sentence ends; the pieces join back to exactly the text."""
    start = 0
    for match in _SENTENCE_END.finditer(text):
        yield text[start : match.end()]
        start = match.end()
    if start < len(text):
        yield text[start:]


def _failure_message(exc: BaseException) -> str:
    if isinstance(exc, ProviderError):
        return f"The model provider failed: {exc}"
    return f"The answer could not be completed: {exc}"
