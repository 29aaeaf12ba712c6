"""Reads for reviewing answers: the context an answer was given, and the cases reviews export.

The history window is rebuilt the way the ask flow built it (askapp.services.asking): the last
ASKAPP_HISTORY_TURNS turns before the question, made into a ConversationSession by
`session_from_turns` (beside the Turn model). Replaying an answer asks the model, so it is a
service: askapp/services/replay.py.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.db.models import QuerySet

from askapp.models import AnswerTurn, Review, Turn, session_from_turns
from askapp.permissions import EVERYTHING
from askapp.selectors.clearance import withheld
from engine import Answer, ConversationSession, Figure

WINDOW_FIELDS = (
    "conversation",
    "position",
    "role",
    "origin",
    "text",
    "status",
    "intent",
    "figures",
)


# --- the window an answer was given --------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Window:
    """What the engine was given beside the question: earlier turns, as a session."""

    turns: list[Turn]  # oldest first
    session: ConversationSession
    limit: int

    @property
    def history(self) -> list[tuple[str, str]]:
        return self.session.history()

    @property
    def questions(self) -> list[Turn]:
        """The question turns the session remembers, in its order: a Carried slot's
        `from_turn` k is the k-th of them (blocked exchanges are not remembered)."""
        return [
            t for t in self.turns if t.role == Turn.Role.USER and t.status != Turn.Status.BLOCKED
        ]

    def question(self, from_turn: int) -> Turn | None:
        questions = self.questions
        return questions[from_turn - 1] if 0 < from_turn <= len(questions) else None


def answer_window(
    *,
    turn: Turn,
    limit: int | None = None,
    clearance: frozenset[str] | None = None,
    withheld_text: str | None = None,
) -> Window:
    """The window the ask flow read when it answered `turn`: the last `limit` turns before the
    answer's question (settings.ASKAPP_HISTORY_TURNS unless given). Two queries at most.

    With a `clearance`, exchanges citing material beyond it now are left out (what a model may
    be given today: a replay), or shown as `withheld_text` when it is given (a reader's view).
    """
    limit = settings.ASKAPP_HISTORY_TURNS if limit is None else limit
    before = _question_position(turn)
    turns: list[Turn] = []
    if limit > 0:
        rows = Turn.objects.filter(conversation_id=turn.conversation_id, position__lt=before)
        if clearance is not None:
            rows = rows.annotate(withheld=withheld(clearance))
        newest_first = rows.order_by("-position").only(*WINDOW_FIELDS)[:limit]
        turns = list(reversed(newest_first))
    session = _session(turn, turns, withheld_text=withheld_text)
    return Window(turns=turns, session=session, limit=limit)


def _question_position(turn: Turn) -> int:
    return turn.answers.position if turn.answers_id else turn.position


def _session(
    turn: Turn, turns: Sequence[Turn], *, withheld_text: str | None = None
) -> ConversationSession:
    scope = turn.conversation.scope.name if turn.conversation.scope_id else None
    hidden = {t.pk for t in turns if getattr(t, "withheld", False)}
    return session_from_turns(turns, scope=scope, withheld=hidden, withheld_text=withheld_text)


def question_text(turn: Turn) -> str:
    return turn.answers.text if turn.answers_id else str(turn.intent.get("question", ""))


# --- exporting reviewed answers as evaluation cases ---------------------------------------


@dataclass(frozen=True, slots=True)
class Export:
    cases: list[dict[str, Any]]
    skipped: list[tuple[Turn, str]]  # answers that cannot become a case, and why


def review_cases(
    *, turns: QuerySet[Any] | Iterable[Turn], clearance: frozenset[str] = EVERYTHING
) -> Export:
    """Reviewed answers as cases `engine.evaluate.run_cases` can run.

    A case expects what the verdict says the answer should have been: a correct answer its own
    status, figures and sources; "should have refused" not_found with nothing; "should have
    answered" an answer (and the right figure, if the reviewer gave one); "wrong" the right
    figure the reviewer gave (without one there is nothing to expect, so it is skipped).
    Three queries however many answers: the answers, then every turn of their conversations.

    Nothing beyond `clearance` (the exporter's) leaves in the file: an answer citing such
    material is skipped, and such exchanges are left out of every history.
    """
    chosen = turns.values("pk") if isinstance(turns, QuerySet) else [t.pk for t in turns]
    answers = list(
        AnswerTurn.objects.filter(pk__in=chosen, review__isnull=False)
        .select_related("answers", "conversation__scope", "review")
        .annotate(withheld=withheld(clearance))
        .order_by("created", "pk")
    )
    windows = _windows(answers, limit=settings.ASKAPP_HISTORY_TURNS, clearance=clearance)
    cases: list[dict[str, Any]] = []
    skipped: list[tuple[Turn, str]] = []
    for answer in answers:
        if answer.withheld:  # type: ignore[attr-defined]
            skipped.append((answer, "it cites material you may not see"))
            continue
        expected = _expected(answer, answer.review)
        if isinstance(expected, str):
            skipped.append((answer, expected))
            continue
        history = windows[answer.pk].history
        cases.append({"question": question_text(answer), "history": history, **expected})
    return Export(cases=cases, skipped=skipped)


def _windows(
    answers: Sequence[Turn], *, limit: int, clearance: frozenset[str]
) -> dict[Any, Window]:
    by_conversation: dict[Any, list[Turn]] = defaultdict(list)
    rows = (
        Turn.objects.filter(conversation__in={a.conversation_id for a in answers})
        .annotate(withheld=withheld(clearance))
        .order_by("conversation", "position")
        .only(*WINDOW_FIELDS)
    )
    for row in rows:
        by_conversation[row.conversation_id].append(row)
    windows = {}
    for answer in answers:
        before = _question_position(answer)
        earlier = [t for t in by_conversation[answer.conversation_id] if t.position < before]
        turns = earlier[-limit:] if limit > 0 else []
        windows[answer.pk] = Window(turns=turns, session=_session(answer, turns), limit=limit)
    return windows


def _expected(answer: Turn, review: Review) -> dict[str, Any] | str:
    verdict = review.verdict
    case: dict[str, Any] = {"turn": str(answer.pk), "verdict": verdict}
    given = answer.to_engine()
    if verdict == Review.Verdict.CORRECT:
        return {
            **case,
            "expected_status": answer.status,
            "expected_figures": [_figure(f) for f in given.figures],
            "expected_sources": [s.id for s in given.sources],
        }
    if verdict == Review.Verdict.SHOULD_HAVE_REFUSED:
        return {**case, "expected_status": "not_found", **_nothing()}
    right = _right_figure(given, review)
    if verdict == Review.Verdict.WRONG and not right:
        return "a wrong answer without the right figure leaves nothing to expect"
    narrative = answer.intent.get("kind") == "narrative"
    status = answer.status if answer.status in ("found", "answered") else None
    return {
        **case,
        "expected_status": status or ("answered" if narrative else "found"),
        "expected_figures": right,
        "expected_sources": [],
    }


def _nothing() -> dict[str, list[Any]]:
    return {"expected_figures": [], "expected_sources": []}


def _figure(figure: Figure) -> dict[str, Any]:
    written = figure.to_dict()
    return {k: written[k] for k in ("label", "value", "unit", "kind", "sources")}


def _right_figure(answer: Answer, review: Review) -> list[dict[str, Any]]:
    if review.expected_value is None:
        return []
    value = format(review.expected_value.normalize(), "f")
    unit = answer.figures[0].unit if answer.figures else ""
    return [{"label": "right figure (reviewer)", "value": value, "unit": unit}]
