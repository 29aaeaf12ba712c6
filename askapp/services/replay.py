"""Replay: ask a stored answer's question again with today's engine and knowledge base, given
the same history window and clearance, and say what changed. It asks the model, so it lives
with the services, though it writes nothing: a replay is never stored as a turn.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TypeVar

from askapp.engine_setup import the_engine
from askapp.models import Turn
from askapp.permissions import clearance_for
from askapp.selectors.reviews import Window, answer_window, question_text
from engine import Answer, Figure, Source, decimal_text


@dataclass(frozen=True, slots=True)
class Change:
    """One line of a replay's difference: what was stored, what today's engine says."""

    key: str
    before: str
    after: str

    @property
    def state(self) -> str:
        if self.before == self.after:
            return "same"
        if not self.before:
            return "added"
        return "removed" if not self.after else "changed"


@dataclass(frozen=True, slots=True)
class Replay:
    turn: Turn
    question: str
    window: Window
    answer: Answer
    status: Change
    text: Change
    figures: list[Change]
    sources: list[Change]

    @property
    def changed(self) -> bool:
        lines = [self.status, *self.figures, *self.sources]
        return any(line.state != "same" for line in lines)


def answer_replay(*, turn: Turn) -> Replay:
    """Ask the answer's question again, with today's engine and knowledge base, given the same
    history window and clearance; compare. Nothing is written."""
    window = answer_window(turn=turn)
    question = question_text(turn)
    stored = turn.to_engine()
    answer = the_engine().answer(
        question,
        history=window.history,
        session=window.session,
        clearance=clearance_for(turn.conversation.owner),
    )
    return Replay(
        turn=turn,
        question=question,
        window=window,
        answer=answer,
        status=Change("status", stored.status, answer.status),
        text=Change("text", stored.text, answer.text),
        figures=_changes(
            stored.figures, answer.figures, key=lambda f: f.label, shown=_figure_shown
        ),
        sources=_changes(stored.sources, answer.sources, key=lambda s: s.id, shown=_source_shown),
    )


Item = TypeVar("Item", Figure, Source)


def _changes(
    before: Sequence[Item],
    after: Sequence[Item],
    *,
    key: Callable[[Item], str],
    shown: Callable[[Item], str],
) -> list[Change]:
    """Matched by `key` (a figure's label, a source's id), in the order first seen."""
    old = {key(item): shown(item) for item in before}
    new = {key(item): shown(item) for item in after}
    return [Change(k, old.get(k, ""), new.get(k, "")) for k in dict.fromkeys([*old, *new])]


def _figure_shown(figure: Figure) -> str:
    return f"{decimal_text(figure.value)} {figure.unit}".strip()


def _source_shown(source: Source) -> str:
    if source.kind == "fact":
        return f"{source.title}: {decimal_text(source.value)} {source.unit or ''}".strip()
    return f"{source.title} ({source.classification})"
