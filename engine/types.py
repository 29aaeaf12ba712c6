"""Values that cross the engine's boundary. All frozen: an Answer, once made, never changes."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any, Literal

Status = Literal["found", "answered", "not_found", "blocked", "clarify", "error"]
STATUSES: tuple[Status, ...] = ("found", "answered", "not_found", "blocked", "clarify", "error")

# Classification is an allow-list: a caller names what it may see, anything else is excluded.
PUBLIC = "PUBLIC"
INTERNAL = "INTERNAL"
RESTRICTED = "RESTRICTED"
CLASSIFICATIONS = (PUBLIC, INTERNAL, RESTRICTED)
DEFAULT_CLEARANCE: frozenset[str] = frozenset({PUBLIC})
SHOWABLE: frozenset[str] = frozenset({PUBLIC, INTERNAL})  # RESTRICTED is never shown


def showable(classification: str | None, clearance: frozenset[str]) -> bool:
    """The allow-list: a known classification other than RESTRICTED, that the caller may see."""
    return classification in SHOWABLE and classification in clearance


@dataclass(frozen=True, slots=True)
class Term:
    """A name in the store's vocabulary (an entity or a metric) with its aliases."""

    name: str
    aliases: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Vocabulary:
    """What the parser may link to. `version` changes whenever the names change (for caching)."""

    entities: tuple[Term, ...]
    metrics: tuple[Term, ...]
    periods: tuple[str, ...] = ()
    version: str = ""


@dataclass(frozen=True, slots=True)
class Fact:
    id: str
    entity: str
    metric: str
    period: str
    value: Decimal
    unit: str
    classification: str = PUBLIC
    source: str = ""
    document_id: str | None = None


@dataclass(frozen=True, slots=True)
class Passage:
    """A retrieved chunk of a document. `classification` None means unknown: never shown."""

    id: str
    document_id: str
    title: str
    text: str
    classification: str | None
    source: str = ""
    entity: str | None = None
    period: str | None = None
    score: float = 0.0


@dataclass(frozen=True, slots=True)
class Source:
    """One thing an answer rests on: a fact, or a passage with the exact excerpt the model saw."""

    id: str
    kind: Literal["fact", "passage"]
    title: str
    reference: str = ""
    document_id: str | None = None
    classification: str = PUBLIC
    excerpt: str = ""
    entity: str | None = None
    metric: str | None = None
    period: str | None = None
    value: Decimal | None = None
    unit: str | None = None
    spans: tuple[tuple[int, int], ...] = ()  # passages: the cited sentences' [start, end)

    @classmethod
    def from_fact(cls, fact: Fact) -> Source:
        return cls(
            id=fact.id,
            kind="fact",
            title=f"{fact.entity} · {fact.metric} · {fact.period}",
            reference=fact.source,
            document_id=fact.document_id,
            classification=fact.classification,
            entity=fact.entity,
            metric=fact.metric,
            period=fact.period,
            value=fact.value,
            unit=fact.unit,
        )

    @classmethod
    def from_passage(cls, passage: Passage, *, spans: Sequence[tuple[int, int]] = ()) -> Source:
        """`spans`: where the sentences the answer cites stand in the passage's text."""
        return cls(
            id=passage.id,
            kind="passage",
            title=passage.title,
            reference=passage.source,
            document_id=passage.document_id,
            classification=passage.classification or "",
            excerpt=passage.text,
            entity=passage.entity,
            period=passage.period,
            spans=tuple(sorted(set(spans))),
        )

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "id": self.id,
            "kind": self.kind,
            "title": self.title,
            "reference": self.reference,
            "document_id": self.document_id,
            "classification": self.classification,
        }
        if self.kind == "passage":
            data.update(
                excerpt=self.excerpt,
                entity=self.entity,
                period=self.period,
                cited_spans=[{"start": start, "end": end} for start, end in self.spans],
            )
        else:
            data.update(
                entity=self.entity,
                metric=self.metric,
                period=self.period,
                value=_decimal_str(self.value),
                unit=self.unit,
            )
        return data


@dataclass(frozen=True, slots=True)
class Figure:
    """A figure stated in an answer, machine-readable: what it is and which sources it came from."""

    label: str
    value: Decimal
    unit: str
    kind: Literal["fact", "computed"]
    sources: tuple[str, ...]
    display: str = ""
    entity: str | None = None
    metric: str | None = None
    period: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "label": self.label,
            "value": _decimal_str(self.value),
            "unit": self.unit,
            "kind": self.kind,
            "sources": list(self.sources),
            "display": self.display,
            "entity": self.entity,
            "metric": self.metric,
            "period": self.period,
        }


@dataclass(frozen=True, slots=True)
class Carried:
    """A slot the session filled from an earlier question (never from an answer's text)."""

    slot: Literal["entity", "metric", "period", "operation", "scope"]
    value: str
    from_turn: int  # 1-based index of the earlier question in the session; 0 for a scope
    question: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {
            "slot": self.slot,
            "value": self.value,
            "from_turn": self.from_turn,
            "question": self.question,
        }


@dataclass(frozen=True, slots=True)
class Answer:
    text: str
    status: Status
    figures: tuple[Figure, ...] = ()
    sources: tuple[Source, ...] = ()
    intent: Mapping[str, Any] = field(default_factory=dict)
    carried: tuple[Carried, ...] = ()
    reason: str | None = None  # blocked: the gate's reason code; error: what failed
    choices: tuple[str, ...] = ()  # clarify: the valid answers to the question asked back
    provider: str = ""
    model: str = ""

    @property
    def refused(self) -> bool:
        """True when the answer declined to give a figure because the knowledge base lacks it."""
        return self.status == "not_found"

    def to_dict(self) -> dict[str, Any]:
        return {
            "text": self.text,
            "status": self.status,
            "refused": self.refused,
            "figures": [f.to_dict() for f in self.figures],
            "sources": [s.to_dict() for s in self.sources],
            "intent": dict(self.intent),
            "carried": [c.to_dict() for c in self.carried],
            "reason": self.reason,
            "choices": list(self.choices),
            "provider": self.provider,
            "model": self.model,
        }


EventKind = Literal["meta", "delta", "sources", "done", "error"]


@dataclass(frozen=True, slots=True)
class Event:
    """One item of a streamed answer. The last event is always `done`, carrying the Answer."""

    kind: EventKind
    data: Any


def _decimal_str(value: Decimal | None) -> str | None:
    if value is None:
        return None
    text = format(value, "f")
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    return text or "0"
