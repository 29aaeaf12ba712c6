"""Arithmetic over one report page's table (issue 12, ADR 0060): shares of a total named with
a verb other than "represent", and steps taken on earlier results. The page and its labels are
invented; each conversation is asked in order through one ConversationSession scoped to the
page, as the chat page does."""

from __future__ import annotations

from decimal import Decimal

from engine.answer import Engine
from engine.evaluate.tatqa import ENTITY, page_store
from engine.providers.mock import MockProvider
from engine.session import ConversationSession
from engine.types import Answer

# Commitments by when they fall due: a Total column and a Total line, no period columns.
COMMITMENTS = [
    ["", "Total", "Within 1 year", "After 1 year"],
    ["Ferry charters", "48.0", "30.0", "18.0"],
    ["Berth leases", "152.0", "80.0", "72.0"],
    ["Total commitments", "200.0", "110.0", "90.0"],
]


def page(rows: list[list[str]]) -> Engine:
    return Engine(page_store("Tidewater/2024/page_3", rows, "", ()), MockProvider())


def ask(engine: Engine, *questions: str) -> list[Answer]:
    session = ConversationSession(scope=ENTITY)
    return [engine.answer(q, session=session, history=session.history()) for q in questions]


def computed(answer: Answer) -> Decimal:
    return [f.value for f in answer.figures if f.kind == "computed"][-1]


def test_a_share_said_with_comprised_of_sets_the_part_over_the_total() -> None:
    # Both lines are read in the Total column, so both labels hold the word "total"; the one
    # named right after "percent of" is the whole.
    (share,) = ask(
        page(COMMITMENTS),
        "what percent of total commitments is comprised of berth leases?",
    )

    assert share.status == "found"
    assert computed(share) == Decimal("76")
    assert [f.unit for f in share.figures if f.kind == "computed"] == ["%"]
