"""The follow-up diagnostic reads tuning pages only and lists a later turn only when every
earlier turn of its dialogue was answered correctly."""

from __future__ import annotations

from engine.evaluate.follow_ups import failing_follow_ups
from engine.evaluate.split import HELD_OUT, TUNE, part_of


def _page(part: str) -> str:
    return next(p for p in (f"ACME/2031/page_{i}.pdf" for i in range(200)) if part_of(p) == part)


def _dialogue(page: str, second_gold: str) -> dict[str, object]:
    return {
        "id": f"Single_{page}-1",
        "table": [["", "2031", "2030"], ["ferry fares", "120", "100"]],
        "turns": [
            {"question": "what were ferry fares in 2031?", "answer": "120", "program": "120"},
            {"question": "and what about in 2030?", "answer": second_gold, "program": "100"},
        ],
    }


def test_a_later_turn_that_fails_after_correct_turns_is_listed() -> None:
    listed = list(failing_follow_ups([_dialogue(_page(TUNE), "99")]))
    assert [(index, outcome) for _, index, outcome, _ in listed] == [(1, "wrong")]


def test_held_out_pages_and_correct_turns_are_never_listed() -> None:
    assert not list(failing_follow_ups([_dialogue(_page(HELD_OUT), "99")]))
    assert not list(failing_follow_ups([_dialogue(_page(TUNE), "100")]))
