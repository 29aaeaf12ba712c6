"""A question that asks an earlier computed figure in another scale ("how much would that be
in millions?") is asked back: the engine does not restate a result in another scale, and
the facts the result was computed from are not what is asked."""

from __future__ import annotations

from engine.answer import Answer, answer_question
from engine.evaluate.tatqa import ENTITY, page_store
from engine.providers.mock import MockProvider
from engine.session import ConversationSession

DUES = [
    ["( in thousands )", "2041", "2042"],
    ["harbour dues", "612,400", "587,150"],
    ["pilotage fees", "80,200", "77,900"],
]


def _conversation(*questions: str) -> list[Answer]:
    store = page_store("page:gannet", DUES, "", [])
    session = ConversationSession(scope=ENTITY)
    return [
        answer_question(q, store, MockProvider(), session=session, history=session.history())
        for q in questions
    ]


def test_a_sum_asked_again_in_millions_is_asked_back_not_answered_by_its_operands() -> None:
    *earlier, last = _conversation(
        "What were the harbour dues in 2041 and 2042 combined?",
        "And how much would that be in millions?",
    )

    assert earlier[0].status == "found"
    assert last.status == "clarify"
    assert not [f for f in last.figures if f.kind == "fact"]


def test_a_figure_asked_in_its_own_scale_is_still_answered() -> None:
    *_, last = _conversation("What were the harbour dues in 2041?", "And in 2042, in thousands?")

    assert last.status == "found"
    assert [int(f.value) for f in last.figures if f.kind == "fact"] == [587150]
