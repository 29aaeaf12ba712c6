"""MockProvider: a deterministic, offline stand-in for a model.

Structured channel: it follows the system prompt. When the prompt names the facts the
answer rests on (what the engine read the question to need, ADR 0047), it calls get_facts
for each, as a model follows instructions, without reading the question again. Otherwise it
reads the last user message (the current question), asks the tools for the names the
knowledge base holds, parses the question against them with the engine's own parser, fills
open slots from the carried-slot block of the system prompt, and calls get_facts.
Narrative channel: it answers extractively. It reads the question's topic (engine/topic.py,
without the companies the passages are about and the periods), quotes the prose sentences
(never a heading, a footer, table debris or a bullet without a verb) that best cover it, up to
three, in the order the passages give them, each cited by number, and says which topic words
no quoted sentence mentions; a list's items only when no sentence answers and they name the
whole topic. It never follows text inside a passage.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Mapping, Sequence
from typing import Any, NamedTuple

from engine.cache import Memo, PerVocabulary
from engine.gate import SecurityGate
from engine.intent import Intent
from engine.parser import STOP, IntentParser
from engine.passages import is_item, is_prose, quotable, sentences, years
from engine.prompts import (
    QuotedPassage,
    carried_slots,
    facts_to_fetch,
    needed_metrics,
    quoted_passages,
    split_narrative_message,
)
from engine.providers.base import Completion, Message, ToolCall, ToolSchema
from engine.timeframe import read_timeframe
from engine.topic import Topic, is_change, question_topic, root, text_words
from engine.types import Term, Vocabulary

_MAX_SENTENCES = 3
_NO_ANSWER = "The passages given do not answer this question."
_TICKER = re.compile(r"\b[A-Z]{2,5}\b")
_FILLER = frozenset(root(w) for w in STOP)
_CLOSING = re.compile(r"(?:[;,]\s*(?:and|or))?[\s.:;]*$")
_WHY = frozenset(
    text_words("why reason reasons rationale drove drive driven driver drivers cause explain due")
)
_CAUSE = re.compile(
    r"\b(?:due to|driven by|attributable to|as a result of|result(?:ed|s|ing)? (?:from|of)|"
    r"because|caused by|owing to|reflect(?:s|ed|ing)?|explain(?:s|ed)?|led by|thanks to)\b",
    re.IGNORECASE,
)


class MockProvider:
    name = "mock"
    model = "mock-deterministic-1"

    def __init__(self) -> None:
        self._gate = SecurityGate()

    def complete(
        self, messages: Sequence[Message], *, tools: Sequence[ToolSchema] | None = None
    ) -> Completion:
        question = _last_user(messages)
        if tools:
            return self._structured(messages, question)
        return Completion(content=self._narrative(question))

    def stream(self, messages: Sequence[Message]) -> Iterator[str]:
        text = self._narrative(_last_user(messages))
        for match in re.finditer(r"\S+\s*", text):
            yield match.group()

    # -- structured -------------------------------------------------------------------------
    def _structured(self, messages: Sequence[Message], question: str) -> Completion:
        results = _tool_results_since_last_user(messages)
        if "get_facts" in results:
            return Completion(content="Here are the figures the knowledge base holds.")
        system = _system(messages)
        told = facts_to_fetch(system)
        if told:
            return Completion(content=None, tool_calls=_told_calls(told))
        if "find_names" not in results:
            return _call("find_names", {"text": question})
        calls = self._fact_calls(
            question, results["find_names"], carried_slots(system), needed_metrics(system)
        )
        if not calls:
            return Completion(content="I could not tell which figures the question needs.")
        return Completion(content=None, tool_calls=tuple(calls))

    def _fact_calls(
        self,
        question: str,
        names: str,
        carried: Mapping[str, Any],
        needed: tuple[str, ...] = (),
    ) -> list[ToolCall]:
        intent, only = _reading(question, names)
        entities = intent.entities or tuple(carried.get("entities", ()))
        if not entities and only is not None:
            entities = (only,)
        metrics = needed or intent.metrics or tuple(carried.get("metrics", ()))
        # A range ("from FY2019 to FY2021") is every year between, not its two ends: the
        # whole series is fetched, as for a calculation.
        plain_lookup = (
            intent.operation is None and not intent.period_range and not carried.get("operation")
        )
        periods = list(intent.periods or carried.get("periods", ()))
        calls: list[ToolCall] = []
        for entity in entities:
            for metric in metrics:
                args: dict[str, Any] = {"entity": entity, "metric": metric}
                if plain_lookup and periods and not intent.relative_last:
                    args["periods"] = periods
                calls.append(ToolCall(f"call_{len(calls) + 1}", "get_facts", json.dumps(args)))
        return calls

    # -- narrative --------------------------------------------------------------------------
    def _narrative(self, content: str) -> str:
        question, _ = split_narrative_message(content)
        quoted = quoted_passages(content)
        topic = _topic(question, quoted)
        prose, items = self._candidates(question, quoted, topic)
        chosen = _choose([c for c in prose if _answers(c, topic)], topic)
        if not chosen:
            # Only a list answers ("Third generation of AirPods."): its items, when they name
            # the whole topic.
            chosen = [c for c in items if not topic.missing(text_words(c.text))][:_MAX_SENTENCES]
        if not chosen:
            return _NO_ANSWER
        text = " ".join(f"{_end(c.text)} [{c.number}]." for c in sorted(chosen))
        missing = set(topic.terms).difference(*(c.covered for c in chosen))
        if missing:
            text += f" The passages quoted do not mention {_phrases(topic, missing)}."
        return text

    def _candidates(
        self, question: str, quoted: Sequence[QuotedPassage], topic: Topic
    ) -> tuple[list[_Candidate], list[_Candidate]]:
        """The prose sentences that may answer, and the list items without a verb."""
        asked = years(question)
        why = not text_words(question).isdisjoint(_WHY)
        prose, items = [], []
        for p in quoted:
            before: _Candidate | None = None
            for order, s in enumerate(sentences(p.text)):
                if not self._gate.screen(s.text).allowed or not _on_period(s.text, asked):
                    before = None
                    continue
                candidate = _candidate(p.number, order, s.text, topic, question)
                if not is_prose(s.text):
                    if is_item(s.text):
                        items.append(candidate)
                    continue
                if why and _CAUSE.search(s.text):
                    candidate = candidate._replace(cause=True)
                    if before is not None:
                        # "... increased by $618.4 million. The increase is mainly attributable
                        # to ...": the reason goes on from the sentence before it.
                        covered = tuple(dict.fromkeys(before.covered + candidate.covered))
                        candidate = candidate._replace(covered=covered)
                before = candidate if candidate.covered else None
                prose.append(candidate)
        return prose, items


class _Candidate(NamedTuple):
    number: int  # the passage's number in the message
    order: int  # the sentence's place in the passage
    text: str
    covered: tuple[str, ...]  # topic terms it holds
    shared: int  # words it shares with the whole question, frame words included
    cause: bool = False  # a "why" question, and it gives a reason ("due to", "driven by")


def _candidate(number: int, order: int, sentence: str, topic: Topic, question: str) -> _Candidate:
    held = text_words(sentence)
    shared = len(held & text_words(question) - _FILLER)
    return _Candidate(number, order, quotable(sentence), topic.held(held), shared)


def _on_period(sentence: str, asked: set[int]) -> bool:
    """A question about a year is not answered by a sentence about later years only ("came
    back in fiscal 2024" answers nothing about 2023); an earlier year may be its comparison."""
    named = years(sentence)
    return not asked or not named or bool(named & asked) or min(named) < min(asked)


def _topic(question: str, quoted: Sequence[QuotedPassage]) -> Topic:
    """The question's topic without the companies the passages are about, nor tickers and
    names no passage uses (how the question named the company)."""
    names = {p.company for p in quoted if p.company}
    held = " ".join(p.text for p in quoted)
    names.update(t for t in _TICKER.findall(question) if t not in held)
    return question_topic(question, names=names)


def _answers(candidate: _Candidate, topic: Topic) -> bool:
    """A sentence answers when it holds a topic word; a word of change alone ("increased")
    says nothing about what changed."""
    if not topic:
        return True
    if not candidate.covered:
        return False
    return not all(map(is_change, candidate.covered)) or all(map(is_change, topic.terms))


def _choose(candidates: list[_Candidate], topic: Topic) -> list[_Candidate]:
    """Up to three sentences: the best cover first, then those adding topic words not yet
    covered, then the fullest; a sentence adding nothing new must cover at least half of
    what the best one covers."""

    def weight(terms: Sequence[str]) -> float:
        return sum(topic.weight(t) for t in terms)

    if not candidates:
        return []
    best = max(weight(c.covered) for c in candidates)
    pool = list(candidates)
    chosen: list[_Candidate] = []
    covered: set[str] = set()
    while pool and len(chosen) < _MAX_SENTENCES:
        pick = max(
            pool,
            key=lambda c: (weight([t for t in c.covered if t not in covered]), c.cause,
                           weight(c.covered), c.shared, -c.number, -c.order),
        )  # fmt: skip
        adds = not covered.issuperset(pick.covered)
        if chosen and not adds and weight(pick.covered) < 0.5 * best:
            break
        chosen.append(pick)
        covered.update(pick.covered)
        pool.remove(pick)
    return chosen


def _phrases(topic: Topic, missing: set[str]) -> str:
    """The missing terms as the question wrote them, neighbours joined: “operating income”."""
    groups: list[list[str]] = []
    joinable = False  # whether the next missing word may join the last group
    for term, written in zip(topic.terms, topic.written, strict=True):
        if term not in missing:
            joinable = False
        elif joinable and not is_change(term):
            groups[-1].append(written)
        else:
            groups.append([written])
            joinable = not is_change(term)
    said = [f"“{' '.join(group)}”" for group in groups]
    return said[0] if len(said) == 1 else ", ".join(said[:-1]) + " or " + said[-1]


def _end(sentence: str) -> str:
    """The sentence without its closing punctuation (the citation goes before the full stop),
    nor the "; and" that joins one list item to the next."""
    return _CLOSING.sub("", sentence.rstrip())


def _last_user(messages: Sequence[Message]) -> str:
    for message in reversed(messages):
        if message.get("role") == "user":
            return str(message.get("content") or "")
    return ""


def _system(messages: Sequence[Message]) -> str:
    first = messages[0] if messages else {}
    return str(first.get("content") or "") if first.get("role") == "system" else ""


def _tool_results_since_last_user(messages: Sequence[Message]) -> dict[str, str]:
    last_user = max(i for i, m in enumerate(messages) if m.get("role") == "user")
    names: dict[str, str] = {}
    results: dict[str, str] = {}
    for message in messages[last_user + 1 :]:
        for call in message.get("tool_calls") or ():
            names[call["id"]] = call["function"]["name"]
        if message.get("role") == "tool":
            name = names.get(str(message.get("tool_call_id")), "")
            results.setdefault(name, str(message.get("content") or ""))
    return results


def _told_calls(told: Sequence[tuple[str, str, tuple[str, ...]]]) -> tuple[ToolCall, ...]:
    """get_facts for each fact the prompt names: with its periods when each is written as
    get_facts takes them ("FY2023"), else the whole series (a figure of no period, a column
    label), which holds them."""
    calls: list[ToolCall] = []
    for entity, metric, periods in told:
        args: dict[str, Any] = {"entity": entity, "metric": metric}
        if periods and all(_normalised(p) for p in periods):
            args["periods"] = list(periods)
        calls.append(ToolCall(f"call_{len(calls) + 1}", "get_facts", json.dumps(args)))
    return tuple(calls)


def _normalised(period: str) -> bool:
    return bool(period) and read_timeframe(period).periods == (period,)


# The question read against the names find_names gave (its JSON text): a pure function of
# the two, so a question asked again over the same names is not parsed again.
_READINGS: Memo[tuple[str, str], tuple[Intent, str | None]] = Memo(size=4096)
# Parsers for those small vocabularies, kept apart from parser_for's few: each question's
# names are a vocabulary of their own, and they pushed the engine's own parser out of it.
_PARSERS = PerVocabulary(IntentParser, size=256)


def _reading(question: str, names: str) -> tuple[Intent, str | None]:
    """How the question reads against these names, and the one entity they hold (or None)."""
    key = (question, names)
    found = _READINGS.get(key)
    if found is None:
        vocabulary = _vocabulary(json.loads(names))
        only = vocabulary.entities[0].name if len(vocabulary.entities) == 1 else None
        found = _READINGS.put(key, (_PARSERS(vocabulary).parse(question), only))
    return found


def _vocabulary(names: Mapping[str, Any]) -> Vocabulary:
    def terms(key: str) -> tuple[Term, ...]:
        return tuple(
            Term(str(item["name"]), tuple(str(a) for a in item.get("aliases", ())))
            for item in names.get(key, ())
        )

    entities, metrics = terms("entities"), terms("metrics")
    version = json.dumps(names, sort_keys=True)
    return Vocabulary(entities, metrics, tuple(names.get("periods", ())), version=version)


def _call(name: str, arguments: Mapping[str, Any]) -> Completion:
    return Completion(
        content=None,
        tool_calls=(ToolCall("call_1", name, json.dumps(arguments, ensure_ascii=False)),),
    )
