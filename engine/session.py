"""ConversationSession: slots carried forward from earlier *parsed questions*, never from answers.

A session remembers, for each earlier question, what it resolved to (entity, metric, periods,
operation) and its answer. When the current question leaves a slot open ("and in FY2022?",
"what about Microsoft?", "what was the change?", "in percent?"), the session fills it from the
most recent question that had it and reports each filled slot as a Carried value. The answer
text is kept only to rebuild the flat history list, which is generation context; no slot is
ever read from it.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from engine.intent import Intent
from engine.timeframe import period_sort_key
from engine.types import Answer, Carried

_CHANGES = ("difference", "percent_change")
SCOPE = "the conversation's scope"


@dataclass(frozen=True, slots=True)
class Remembered:
    """One earlier question: its text, what it resolved to, and the answer given."""

    question: str
    intent: Intent
    answer_text: str = ""
    status: str = ""


class ConversationSession:
    def __init__(self, *, scope: str | None = None, turns: Iterable[Remembered] = ()) -> None:
        self.scope = scope
        self.turns: list[Remembered] = list(turns)

    def history(self) -> list[tuple[str, str]]:
        """The flat (role, text) history of the remembered turns, oldest first."""
        flat: list[tuple[str, str]] = []
        for turn in self.turns:
            flat.append(("user", turn.question))
            if turn.answer_text:
                flat.append(("assistant", turn.answer_text))
        return flat

    def remember(self, question: str, intent: Intent, answer: Answer) -> None:
        self.turns.append(Remembered(question, intent, answer.text, answer.status))

    def resolve(self, intent: Intent) -> tuple[Intent, tuple[Carried, ...]]:
        """Fill the slots the current question leaves open; say which and from where."""
        if intent.kind == "unsupported" or intent.ambiguous:
            return intent, ()
        carried: list[Carried] = []
        entities = intent.entities or self._carry("entities", carried, "entity")
        if not entities and self.scope:
            entities = (self.scope,)
            carried.append(Carried("entity", self.scope, 0, SCOPE))
        if intent.kind == "narrative":
            return intent.with_(entities=entities), tuple(carried)
        # A reply to a question asked back ("Net income", after "Which figure do you mean?")
        # completes the earlier question, so it leans on it like an elliptical follow-up.
        follow = intent.follow_up or self._picks_the_figure_asked_for(intent)
        metrics = intent.metrics
        if not metrics and follow:
            metrics = self._carry("metrics", carried, "metric")
        operation = intent.operation or self._carried_operation(intent, carried, follow)
        periods = intent.periods
        if not periods and not intent.relative_last and (follow or not metrics):
            periods = self._carry_periods(operation, carried)
        resolved = intent.with_(
            entities=entities,
            metrics=metrics,
            periods=periods,
            operation=operation,
            kind=_kind(intent, operation, entities, metrics, periods),
        )
        return resolved, tuple(carried)

    def recent_periods(self) -> tuple[str, ...]:
        """The periods the latest question that named any resolved to: the period a
        conversation is about when a question names none."""
        return next((t.intent.periods for _, t in self._recent() if t.intent.periods), ())

    def _carry(self, field: str, carried: list[Carried], slot: str) -> tuple[str, ...]:
        for number, turn in self._recent():
            values: tuple[str, ...] = getattr(turn.intent, field)
            if values:
                carried.extend(Carried(slot, v, number, turn.question) for v in values)  # type: ignore[arg-type]
                return values
        return ()

    def _picks_the_figure_asked_for(self, intent: Intent) -> bool:
        """The previous answer asked which figure was meant, and this question names a figure
        and nothing else: it is the reply, not a new question."""
        if not self.turns or self.turns[-1].status != "clarify":
            return False
        asked = self.turns[-1].intent
        if asked.kind == "narrative":
            return False  # a number asked in words no figure answered: nothing to complete
        asked_for_figure = bool(asked.ambiguous or asked.qualifiers or not asked.metrics)
        bare = not (intent.periods or intent.relative_last or intent.operation or intent.loose)
        return asked_for_figure and bool(intent.metrics) and bare

    def _carried_operation(
        self, intent: Intent, carried: list[Carried], follow: bool
    ) -> str | None:
        """An elliptical follow-up to a comparison keeps the comparison ("and for Microsoft?"),
        and so does the reply to a comparison that had to be asked back."""
        if not follow or not self.turns:
            return None
        number, last = len(self.turns), self.turns[-1]
        replying = last.status == "clarify"
        if last.intent.operation and (intent.entities or intent.periods or replying):
            carried.append(Carried("operation", last.intent.operation, number, last.question))
            return last.intent.operation
        return None

    def _carry_periods(self, operation: str | None, carried: list[Carried]) -> tuple[str, ...]:
        if operation in _CHANGES:
            return self._two_periods(carried)
        for number, turn in self._recent():
            if turn.intent.periods:
                carried.extend(
                    Carried("period", p, number, turn.question) for p in turn.intent.periods
                )
                return turn.intent.periods
        return ()

    def _two_periods(self, carried: list[Carried]) -> tuple[str, ...]:
        """A change needs two periods: the last comparison's, or the last two periods asked."""
        picked: list[tuple[str, int, str]] = []
        for number, turn in self._recent():
            if turn.intent.operation in _CHANGES and len(turn.intent.periods) >= 2 and not picked:
                picked = [(p, number, turn.question) for p in turn.intent.periods]
                break
            for period in turn.intent.periods:
                if period not in [p for p, _, _ in picked]:
                    picked.append((period, number, turn.question))
            if len(picked) >= 2:
                break
        if len(picked) < 2:
            return ()
        picked = sorted(picked[:2], key=lambda item: period_sort_key(item[0]))
        carried.extend(Carried("period", p, n, q) for p, n, q in picked)
        return tuple(p for p, _, _ in picked)

    def _recent(self) -> Iterable[tuple[int, Remembered]]:
        for index in range(len(self.turns) - 1, -1, -1):
            yield index + 1, self.turns[index]


def _kind(
    intent: Intent,
    operation: str | None,
    entities: tuple[str, ...],
    metrics: tuple[str, ...],
    periods: tuple[str, ...],
) -> str:
    if operation:
        return "comparison"
    if len(entities) > 1 or len(metrics) > 1 or len(periods) > 1:
        return "multi"
    return intent.kind if intent.kind != "comparison" else "lookup"
