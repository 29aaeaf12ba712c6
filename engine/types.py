"""Values that cross the engine's boundary. All frozen: an Answer, once made, never changes.

`to_dict` writes a value as JSON-ready data (what askapp stores and the API sends) and
`from_dict` reads it back: `Answer.from_dict(answer.to_dict()).to_dict() == answer.to_dict()`
for every status. Reading is lenient where stored data may be old or damaged: a missing text
is empty, and a missing classification stays unknown (""), which is never shown.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from typing import Any, Literal, cast

from engine.errors import failure_named

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


def least_restrictive(classifications: Iterable[str | None]) -> str:
    """The classification a name carries among material of these classifications: the least
    restrictive known one, since that is the clearance needed to learn the name exists;
    "" (unknown, never shown) when none is known."""
    known = set(classifications)
    return next((c for c in CLASSIFICATIONS if c in known), "")


@dataclass(frozen=True, slots=True)
class Term:
    """A name in the store's vocabulary (an entity or a metric) with its aliases.

    `classification` is the least restrictive classification among the facts and documents
    that name it: a name only RESTRICTED material names is known to no answer, one only
    INTERNAL material names only to askers cleared for INTERNAL (`Vocabulary.visible_to`).

    `subject` is what the sentence announcing a metric's table says the table is of,
    qualifiers and all ("the operating results of our marine segment", engine/tables.py
    `table_subject`): a question may say it of every line of the table, so its words
    narrow none of them.
    """

    name: str
    aliases: tuple[str, ...] = ()
    classification: str = PUBLIC
    subject: str = ""


@dataclass(frozen=True, slots=True)
class Vocabulary:
    """What the parser may link to. `version` changes whenever the names change (for caching)."""

    entities: tuple[Term, ...]
    metrics: tuple[Term, ...]
    periods: tuple[str, ...] = ()
    version: str = ""

    def visible_to(self, clearance: frozenset[str]) -> Vocabulary:
        """The names an asker with this clearance may learn exist (showable terms only),
        under a version of their own; this very vocabulary when every name is showable."""
        entities = tuple(t for t in self.entities if showable(t.classification, clearance))
        metrics = tuple(t for t in self.metrics if showable(t.classification, clearance))
        if len(entities) == len(self.entities) and len(metrics) == len(self.metrics):
            return self
        level = "+".join(sorted(clearance & SHOWABLE)) or "none"
        version = f"{self.version}/{level}" if self.version else ""
        return Vocabulary(entities, metrics, self.periods, version)


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

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Source:
        """A source as to_dict wrote it. Sources stored before passages had their entity,
        period and cited spans read without them; malformed spans are dropped."""
        return cls(
            id=_text(data.get("id")),
            kind="fact" if data.get("kind") == "fact" else "passage",
            title=_text(data.get("title")),
            reference=_text(data.get("reference")),
            document_id=_optional(data.get("document_id")),
            classification=_text(data.get("classification")),
            excerpt=_text(data.get("excerpt")),
            entity=_optional(data.get("entity")),
            metric=_optional(data.get("metric")),
            period=_optional(data.get("period")),
            value=read_decimal(data.get("value")),
            unit=_optional(data.get("unit")),
            spans=_spans(data.get("cited_spans")),
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
                value=decimal_text(self.value),
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
    # What the figure is, so a later question can name it ("that change", "this total"):
    # fact, change, percent change, ratio, share, sum, average, product, result.
    role: str = ""
    # A computed figure: how, in words, with each operand's value and where it came from.
    formula: str = ""

    @property
    def role_or_kind(self) -> str:
        """The role; figures stored before roles read as "fact" or "result"."""
        return self.role or ("fact" if self.kind == "fact" else "result")

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Figure:
        """A figure as to_dict wrote it; ValueError when it holds no number."""
        value = read_decimal(data.get("value"))
        if value is None:
            raise ValueError(f"a figure without a number: {data.get('value')!r}")
        return cls(
            label=_text(data.get("label")),
            value=value,
            unit=_text(data.get("unit")),
            kind="computed" if data.get("kind") == "computed" else "fact",
            sources=tuple(str(s) for s in data.get("sources") or ()),
            display=_text(data.get("display")),
            entity=_optional(data.get("entity")),
            metric=_optional(data.get("metric")),
            period=_optional(data.get("period")),
            role=_text(data.get("role")),
            formula=_text(data.get("formula")),
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "label": self.label,
            "value": decimal_text(self.value),
            "unit": self.unit,
            "kind": self.kind,
            "sources": list(self.sources),
            "display": self.display,
            "entity": self.entity,
            "metric": self.metric,
            "period": self.period,
            "role": self.role,
            "formula": self.formula,
        }


CarriedSlot = Literal["entity", "metric", "period", "operation", "scope", "result"]


@dataclass(frozen=True, slots=True)
class Carried:
    """A slot the session filled from an earlier question (never from an answer's text)."""

    slot: CarriedSlot
    value: str
    from_turn: int  # 1-based index of the earlier question in the session; 0 for a scope
    question: str = ""
    figure: Figure | None = None  # a result: the earlier answer's figure used as an operand

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Carried:
        figure = data.get("figure")
        return cls(
            slot=cast(CarriedSlot, _text(data.get("slot"))),
            value=_text(data.get("value")),
            from_turn=int(data.get("from_turn") or 0),
            question=_text(data.get("question")),
            figure=Figure.from_dict(figure) if isinstance(figure, Mapping) else None,
        )

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "slot": self.slot,
            "value": self.value,
            "from_turn": self.from_turn,
            "question": self.question,
        }
        if self.figure is not None:
            data["figure"] = self.figure.to_dict()
        return data


@dataclass(frozen=True, slots=True)
class Choice:
    """A next question an answer offers: the button's words, and the question it asks.

    A choice the engine could complete asks a whole question ("What was Tesla's Revenue in
    FY2021?"), checked to read back as meant; one it could not is a bare reply ("FY2021")
    that the conversation's session completes, as a typed reply would be.
    """

    label: str
    question: str

    def to_dict(self) -> dict[str, str]:
        return {"label": self.label, "question": self.question}

    @classmethod
    def from_stored(cls, data: Mapping[str, Any] | str) -> Choice:
        """A stored choice; answers stored before choices had questions hold bare strings."""
        if isinstance(data, str):
            return cls(data, data)
        label = str(data.get("label") or data.get("question") or "")
        return cls(label, str(data.get("question") or label))


@dataclass(frozen=True, slots=True)
class Holding:
    """That the store holds a figure, without its value: what nearby choices are made of."""

    entity: str
    metric: str
    period: str
    classification: str = PUBLIC


@dataclass(frozen=True, slots=True)
class Answer:
    text: str
    status: Status
    figures: tuple[Figure, ...] = ()
    sources: tuple[Source, ...] = ()
    intent: Mapping[str, Any] = field(default_factory=dict)
    carried: tuple[Carried, ...] = ()
    reason: str | None = None  # blocked: the gate's reason code; error: what failed
    # clarify: the valid answers to the question asked back; not_found: what is held nearby
    choices: tuple[Choice, ...] = ()
    provider: str = ""
    model: str = ""
    failure: type[Exception] | None = None  # error: the class of what failed (engine.errors)

    @property
    def refused(self) -> bool:
        """True when the answer declined to give a figure because the knowledge base lacks it."""
        return self.status == "not_found"

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Answer:
        """An answer as to_dict wrote it (`refused` follows from the status). An error's
        failure class is found again from its name, the reason."""
        status = cast(Status, _text(data.get("status")))
        reason = _optional(data.get("reason")) or None
        return cls(
            text=_text(data.get("text")),
            status=status,
            figures=tuple(Figure.from_dict(f) for f in data.get("figures") or ()),
            sources=tuple(Source.from_dict(s) for s in data.get("sources") or ()),
            intent=dict(data.get("intent") or {}),
            carried=tuple(Carried.from_dict(c) for c in data.get("carried") or ()),
            reason=reason,
            choices=tuple(Choice.from_stored(c) for c in data.get("choices") or ()),
            provider=_text(data.get("provider")),
            model=_text(data.get("model")),
            failure=failure_named(reason) if status == "error" and reason else None,
        )

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
            "choices": [c.to_dict() for c in self.choices],
            "provider": self.provider,
            "model": self.model,
        }


EventKind = Literal["meta", "delta", "sources", "done", "error"]


@dataclass(frozen=True, slots=True)
class Event:
    """One item of a streamed answer. The last event is always `done`, carrying the Answer."""

    kind: EventKind
    data: Any


def read_decimal(raw: object) -> Decimal | None:
    """A finite number written as text (or a number), else None."""
    if raw is None or raw == "" or isinstance(raw, bool):
        return None
    try:
        value = Decimal(str(raw))
    except InvalidOperation:
        return None
    return value if value.is_finite() else None


def _spans(raw: object) -> tuple[tuple[int, int], ...]:
    """[{"start", "end"}] as (start, end) pairs, in order; anything malformed is left out."""
    spans = []
    for item in raw if isinstance(raw, list) else ():
        start = item.get("start") if isinstance(item, Mapping) else None
        end = item.get("end") if isinstance(item, Mapping) else None
        if isinstance(start, int) and isinstance(end, int) and 0 <= start < end:
            spans.append((start, end))
    return tuple(sorted(set(spans)))


def _text(raw: object) -> str:
    return "" if raw is None else str(raw)


def _optional(raw: object) -> str | None:
    return None if raw is None else str(raw)


def decimal_text(value: Decimal | None) -> str | None:
    """A number as stored and sent: plain digits, no exponent, no trailing zeros."""
    if value is None:
        return None
    text = format(value, "f")
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    return text or "0"
