"""The tools a provider may call in the structured channel, and their strict execution.

Every result a tool returns comes from the knowledge store and carries the ids of the facts it
rests on. Calls are validated: malformed JSON, an unknown tool, a wrong argument or a repeated
call gets an error result the model can read, never an exception and never a made-up value.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.cache import PerVocabulary
from engine.calc import compute
from engine.providers.base import ToolCall, ToolSchema
from engine.store import KnowledgeStore
from engine.text import words
from engine.timeframe import read_timeframe
from engine.types import Fact, Passage, Term, Vocabulary, showable

OPERATIONS = ("difference", "percent_change", "ratio", "sum", "average")

TOOL_SCHEMAS: tuple[ToolSchema, ...] = (
    {
        "type": "function",
        "function": {
            "name": "find_names",
            "description": (
                "Find the entity (company) and metric names the knowledge base holds that "
                "share words with a text, with their aliases."
            ),
            "parameters": {
                "type": "object",
                "properties": {"text": {"type": "string", "description": "Words to look up."}},
                "required": ["text"],
                "additionalProperties": False,
            },
        },
    },
    {
        "type": "function",
        "function": {
            "name": "get_facts",
            "description": (
                "Read reported facts for one entity and one metric, by canonical names as "
                "find_names returns them. Leave periods out to get every period held."
            ),
            "parameters": {
                "type": "object",
                "properties": {
                    "entity": {"type": "string"},
                    "metric": {"type": "string"},
                    "periods": {
                        "type": "array",
                        "items": {"type": "string"},
                        "description": "Normalised periods such as FY2023.",
                    },
                },
                "required": ["entity", "metric"],
                "additionalProperties": False,
            },
        },
    },
    {
        "type": "function",
        "function": {
            "name": "compute",
            "description": (
                "Compute from facts returned earlier in this conversation: difference "
                "(second minus first), percent_change (from first to second), ratio (first "
                "divided by second), sum or average."
            ),
            "parameters": {
                "type": "object",
                "properties": {
                    "operation": {"type": "string", "enum": list(OPERATIONS)},
                    "fact_ids": {"type": "array", "items": {"type": "string"}},
                },
                "required": ["operation", "fact_ids"],
                "additionalProperties": False,
            },
        },
    },
    {
        "type": "function",
        "function": {
            "name": "get_document",
            "description": "Read the passages of one document by its id, where you may see it.",
            "parameters": {
                "type": "object",
                "properties": {"document_id": {"type": "string"}},
                "required": ["document_id"],
                "additionalProperties": False,
            },
        },
    },
)
_ALLOWED_ARGUMENTS = {
    "find_names": ({"text"}, {"text"}),
    "get_facts": ({"entity", "metric"}, {"entity", "metric", "periods"}),
    "compute": ({"operation", "fact_ids"}, {"operation", "fact_ids"}),
    "get_document": ({"document_id"}, {"document_id"}),
}
_MAX_PERIODS = 50
_MAX_TEXT = 2000


class ArgumentError(ValueError):
    """A tool call's arguments are unusable; the message is returned to the model."""


@dataclass
class Toolbox:
    """Runs one answer's tool calls and keeps every fact the tools returned (the evidence)."""

    store: KnowledgeStore
    vocabulary: Vocabulary
    clearance: frozenset[str]
    facts: dict[str, Fact] = field(default_factory=dict)
    passages: dict[str, Passage] = field(default_factory=dict)
    calls: list[tuple[str, str]] = field(default_factory=list)
    _seen: dict[tuple[str, str], str] = field(default_factory=dict)

    def run(self, call: ToolCall) -> str:
        """The JSON text of the tool's result (an `error` object when the call is unusable)."""
        key = (call.name, _canonical(call.arguments))
        self.calls.append(key)
        if key in self._seen:
            return json.dumps({"error": "repeated call: the result is above", "repeated": True})
        try:
            result = self._dispatch(call.name, _arguments(call.name, call.arguments))
        except ArgumentError as exc:
            result = {"error": str(exc)}
        text = json.dumps(result, ensure_ascii=False)
        self._seen[key] = text
        return text

    def _dispatch(self, name: str, args: Mapping[str, Any]) -> dict[str, Any]:
        if name == "find_names":
            return self._find_names(_text(args, "text"))
        if name == "get_facts":
            return self._get_facts(_text(args, "entity"), _text(args, "metric"), args)
        if name == "compute":
            return self._compute(args)
        return self._get_document(_text(args, "document_id"))

    def _find_names(self, text: str) -> dict[str, Any]:
        asked = set(words(text))
        # No list of periods: the periods held differ by classification, and a period held
        # only by RESTRICTED facts must not be hinted at. get_facts tells what is held.
        return {
            "entities": names_for(self.vocabulary)[0].sharing(asked),
            "metrics": names_for(self.vocabulary)[1].sharing(asked),
        }

    def _get_facts(self, entity: str, metric: str, args: Mapping[str, Any]) -> dict[str, Any]:
        entities, metrics = names_for(self.vocabulary)
        entity_name = entities.canonical(entity, "entity")
        metric_name = metrics.canonical(metric, "metric")
        periods = _periods(args.get("periods"))
        found = [
            fact
            for fact in self.store.find_facts(
                entity=entity_name, metric=metric_name, periods=periods
            )
            if showable(fact.classification, self.clearance)
        ]
        for fact in found:
            self.facts[fact.id] = fact
        held = {fact.period for fact in found}
        return {
            "facts": [_fact_json(fact) for fact in found],
            "missing": [p for p in periods or () if p not in held],
        }

    def _compute(self, args: Mapping[str, Any]) -> dict[str, Any]:
        operation = _text(args, "operation")
        if operation not in OPERATIONS:
            raise ArgumentError(f"operation must be one of {', '.join(OPERATIONS)}")
        ids = args.get("fact_ids")
        if not isinstance(ids, list) or not all(isinstance(i, str) for i in ids) or not ids:
            raise ArgumentError("fact_ids must be a non-empty list of fact ids")
        unknown = [i for i in ids if i not in self.facts]
        if unknown:
            raise ArgumentError(f"unknown fact ids (call get_facts first): {unknown[:5]}")
        result = compute(operation, [self.facts[i] for i in ids])
        if result is None:
            raise ArgumentError("these facts cannot be combined that way (units or zero base)")
        value, unit = result
        return {"operation": operation, "value": str(value), "unit": unit, "fact_ids": ids}

    def _get_document(self, document_id: str) -> dict[str, Any]:
        passages = [
            p
            for p in self.store.document_passages(document_id, classifications=self.clearance)
            if showable(p.classification, self.clearance)
        ]
        if not passages:
            return {"error": "no document with that id is available to you"}
        for passage in passages:
            self.passages[passage.id] = passage
        return {
            "passages": [
                {"id": p.id, "title": p.title, "text": p.text, "source": p.source} for p in passages
            ]
        }


_MAX_ARGUMENTS = 20_000


def _canonical(arguments: str) -> str:
    try:
        return json.dumps(_load(arguments), sort_keys=True)
    except ArgumentError:
        return arguments


def _load(raw: str) -> Any:
    """JSON from a model, refusing what could hurt: huge or deeply nested text."""
    if len(raw) > _MAX_ARGUMENTS:
        raise ArgumentError(f"arguments are longer than {_MAX_ARGUMENTS} characters")
    try:
        return json.loads(raw or "{}")
    except (ValueError, TypeError, RecursionError) as exc:
        raise ArgumentError(f"arguments are not valid JSON: {exc}") from None


def _arguments(name: str, raw: str) -> Mapping[str, Any]:
    if name not in _ALLOWED_ARGUMENTS:
        raise ArgumentError(f"unknown tool {name!r}; tools: {', '.join(_ALLOWED_ARGUMENTS)}")
    args = _load(raw)
    if not isinstance(args, dict):
        raise ArgumentError("arguments must be a JSON object")
    required, allowed = _ALLOWED_ARGUMENTS[name]
    if missing := sorted(required - args.keys()):
        raise ArgumentError(f"missing argument(s): {', '.join(missing)}")
    if extra := sorted(args.keys() - allowed):
        raise ArgumentError(f"unexpected argument(s): {', '.join(extra)}")
    return args


def _text(args: Mapping[str, Any], key: str) -> str:
    value = args.get(key)
    if not isinstance(value, str) or not value.strip():
        raise ArgumentError(f"{key} must be a non-empty string")
    if len(value) > _MAX_TEXT:
        raise ArgumentError(f"{key} is too long")
    return value.strip()


def _periods(value: Any) -> list[str] | None:
    if value is None:
        return None
    if not isinstance(value, list) or not all(isinstance(p, str) for p in value):
        raise ArgumentError("periods must be a list of strings such as FY2023")
    if len(value) > _MAX_PERIODS:
        raise ArgumentError(f"at most {_MAX_PERIODS} periods")
    periods: list[str] = []
    for raw in value:
        frame = read_timeframe(raw)
        if len(frame.periods) != 1:
            raise ArgumentError(f"{raw!r} is not a period such as FY2023")
        periods.append(frame.periods[0])
    return periods


class _Names:
    """One side of the vocabulary (entities or metrics), indexed once per vocabulary version:
    every label's words, and each exact label to its canonical name."""

    def __init__(self, terms: Sequence[Term]) -> None:
        self.terms = terms
        self.words = [
            (term, frozenset(w for label in (term.name, *term.aliases) for w in words(label)))
            for term in terms
        ]
        self.exact: dict[tuple[str, ...], str] = {}
        for term in terms:
            for label in (term.name, *term.aliases):
                self.exact.setdefault(tuple(words(label)), term.name)

    def canonical(self, given: str, slot: str) -> str:
        name = self.exact.get(tuple(words(given)))
        if name is None:
            raise ArgumentError(f"unknown {slot} {given!r}; use find_names to see the names held")
        return name

    def sharing(self, asked: set[str]) -> list[dict[str, Any]]:
        return [
            {"name": term.name, "aliases": list(term.aliases)}
            for term, held in self.words
            if not held.isdisjoint(asked)
        ]


names_for = PerVocabulary(lambda v: (_Names(v.entities), _Names(v.metrics)))
"""Entity and metric name indexes for a vocabulary, built once per version."""


def _fact_json(fact: Fact) -> dict[str, Any]:
    return {
        "id": fact.id,
        "entity": fact.entity,
        "metric": fact.metric,
        "period": fact.period,
        "value": str(fact.value),
        "unit": fact.unit,
        "source": fact.source,
    }
