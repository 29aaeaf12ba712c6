"""MockProvider: a deterministic, offline stand-in for a model.

Structured channel: it reads the last user message (the current question), asks the tools for
the names the knowledge base holds, parses the question against them with the engine's own
parser, fills open slots from the carried-slot block of the system prompt, and calls get_facts.
Narrative channel: it answers extractively, quoting the passage sentences that share the most
words with the question, each cited by number. It never follows text inside a passage.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from engine.gate import SecurityGate
from engine.parser import STOP, parser_for
from engine.prompts import carried_slots, split_narrative_message
from engine.providers.base import Completion, Message, ToolCall, ToolSchema
from engine.text import words
from engine.types import Term, Vocabulary

_SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[A-Z0-9“\"(])|\n+")
_MAX_SENTENCES = 3
_NO_ANSWER = "The passages given do not answer this question."


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
        if "find_names" not in results:
            return _call("find_names", {"text": question})
        if "get_facts" in results:
            return Completion(content="Here are the figures the knowledge base holds.")
        names = json.loads(results["find_names"])
        calls = self._fact_calls(question, names, carried_slots(_system(messages)))
        if not calls:
            return Completion(content="I could not tell which figures the question needs.")
        return Completion(content=None, tool_calls=tuple(calls))

    def _fact_calls(
        self, question: str, names: Mapping[str, Any], carried: Mapping[str, Any]
    ) -> list[ToolCall]:
        vocabulary = _vocabulary(names)
        intent = parser_for(vocabulary).parse(question)
        entities = intent.entities or tuple(carried.get("entities", ()))
        if not entities and len(vocabulary.entities) == 1:
            entities = (vocabulary.entities[0].name,)
        metrics = intent.metrics or tuple(carried.get("metrics", ()))
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
        question, passages = split_narrative_message(content)
        wanted = {w for w in words(question) if w not in STOP and len(w) > 2}
        scored: list[tuple[int, int, int, str]] = []
        for number, text in enumerate(passages, start=1):
            for order, sentence in enumerate(_sentences(text)):
                overlap = len(wanted.intersection(words(sentence)))
                if overlap and self._gate.screen(sentence).allowed:
                    scored.append((overlap, number, order, sentence))
        best = sorted(scored, key=lambda s: (-s[0], s[1], s[2]))[:_MAX_SENTENCES]
        if not best:
            return _NO_ANSWER
        ordered = sorted(best, key=lambda s: (s[1], s[2]))
        return " ".join(f"{_end(sentence)} [{number}]." for _, number, _, sentence in ordered)


def _sentences(text: str) -> list[str]:
    """Prose sentences of a passage; page footers and table rows ("Apple Inc. | 2025 Form
    10-K | 22") are not sentences to quote."""
    return [s.strip() for s in _SENTENCE.split(text) if _prose(s)]


def _prose(sentence: str) -> bool:
    tokens = sentence.split()
    letters = sum(1 for token in tokens if any(c.isalpha() for c in token))
    return len(tokens) >= 4 and "|" not in sentence and letters >= 0.6 * len(tokens)


def _end(sentence: str) -> str:
    return sentence.rstrip().rstrip(".")  # the citation goes before the full stop


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
