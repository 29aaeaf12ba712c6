"""What a question was understood to ask: the parser's output, JSON-ready for the admin."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal, NamedTuple

# A structured question with this many words linked to nothing is read as a narrative one:
# the figures cannot say what is asked, the documents might.
LOOSE_WORDS_FOR_NARRATIVE = 2

Kind = Literal["lookup", "comparison", "multi", "narrative", "unsupported"]
Operation = Literal[
    "difference",
    "percent_change",
    "ratio",
    "percent_of",
    "sum",
    "average",
    "higher",
    "lower",
    "trend",
    "product",
    "restate",  # an earlier result in another scale (ADR 0072)
]


@dataclass(frozen=True, slots=True)
class Ambiguity:
    slot: Literal["entity", "metric", "period"]
    choices: tuple[str, ...]


class Intent(NamedTuple):
    """Immutable; a NamedTuple rather than a dataclass because the parser makes one per
    question and tuple construction is several times cheaper."""

    question: str
    kind: Kind
    operation: Operation | None = None
    entities: tuple[str, ...] = ()
    metrics: tuple[str, ...] = ()
    periods: tuple[str, ...] = ()
    period_range: bool = False
    relative_last: int | None = None
    period_step: int = 0  # "the year before": a year counted from the conversation's period
    ambiguous: tuple[Ambiguity, ...] = ()
    qualifiers: tuple[str, ...] = ()  # words tied to the metric that no metric label holds
    loose: tuple[str, ...] = ()  # content words that linked to nothing at all
    follow_up: bool = False  # elliptical ("and in FY2022?"): leans on earlier questions
    topic: tuple[str, ...] = ()  # words outside companies and periods: what passages must be about
    # The arithmetic grammar (engine/arithmetic.py): an earlier result named as an operand by
    # its role ("that change": "change"), whether it comes before the denominator, constant
    # operands ("less 100"), and the inner operation of one nested step.
    referent: str = ""
    referent_first: bool = True
    constants: tuple[str, ...] = ()
    nested: str = ""
    asks_value: bool = False  # "the 2008 value": a figure itself, no carried calculation
    points_back: tuple[str, ...] = ()  # "period" ("that same year"), "figure" ("that income")
    pair: tuple[str, ...] = ()  # two earlier figures named at once, part first ("first", "second")
    again: str = ""  # "this percentage in 2006": an earlier calculation's role, asked again
    count: int = 0  # "those three years": how many of the conversation's periods are meant
    compounded: bool = False  # "the CAGR": a percent change compounded yearly between two years
    # "Which year had the biggest increase?": the higher (lower) of the year-on-year changes of
    # one series, "difference" or "percent_change"; the operation says which end.
    of_changes: str = ""
    # "X in 2016 plus Y in 2015": each figure named with its own period, periods[i] that of
    # metrics[i], not every period of every figure.
    paired: bool = False

    def with_(self, **changes: Any) -> Intent:
        return self._replace(**changes)

    @property
    def structured(self) -> bool:
        return self.kind in ("lookup", "comparison", "multi")

    def to_dict(self) -> dict[str, Any]:
        return {
            "question": self.question,
            "kind": self.kind,
            "operation": self.operation,
            "entities": list(self.entities),
            "metrics": list(self.metrics),
            "periods": list(self.periods),
            "period_range": self.period_range,
            "relative_last": self.relative_last,
            "period_step": self.period_step,
            "ambiguous": [{"slot": a.slot, "choices": list(a.choices)} for a in self.ambiguous],
            "qualifiers": list(self.qualifiers),
            "loose": list(self.loose),
            "follow_up": self.follow_up,
            "topic": list(self.topic),
            "referent": self.referent,
            "referent_first": self.referent_first,
            "constants": list(self.constants),
            "nested": self.nested,
            "asks_value": self.asks_value,
            "points_back": list(self.points_back),
            "pair": list(self.pair),
            "again": self.again,
            "count": self.count,
            "compounded": self.compounded,
            "paired": self.paired,
            "of_changes": self.of_changes,
        }

    @classmethod
    def from_dict(cls, question: str, data: dict[str, Any]) -> Intent:
        """Rebuild a stored intent (a session rebuilt from stored turns uses this)."""
        return cls(
            question=question,
            kind=data.get("kind", "lookup"),
            operation=data.get("operation"),
            entities=tuple(data.get("entities", ())),
            metrics=tuple(data.get("metrics", ())),
            periods=tuple(data.get("periods", ())),
            period_range=bool(data.get("period_range", False)),
            relative_last=data.get("relative_last"),
            period_step=int(data.get("period_step") or 0),
            ambiguous=tuple(
                Ambiguity(a["slot"], tuple(a["choices"])) for a in data.get("ambiguous", ())
            ),
            qualifiers=tuple(data.get("qualifiers", ())),
            loose=tuple(data.get("loose", ())),
            follow_up=bool(data.get("follow_up", False)),
            topic=tuple(data.get("topic", ())),
            referent=str(data.get("referent") or ""),
            referent_first=bool(data.get("referent_first", True)),
            constants=tuple(str(c) for c in data.get("constants", ())),
            nested=str(data.get("nested") or ""),
            asks_value=bool(data.get("asks_value", False)),
            points_back=tuple(str(p) for p in data.get("points_back", ())),
            pair=tuple(str(p) for p in data.get("pair", ())),
            again=str(data.get("again") or ""),
            count=int(data.get("count") or 0),
            compounded=bool(data.get("compounded", False)),
            paired=bool(data.get("paired", False)),
            of_changes=str(data.get("of_changes") or ""),
        )
