"""The first-turn diagnostic reads tuning pages only and names the cause of each failure."""

from __future__ import annotations

from engine.evaluate.first_turns import cause, tune_dialogues
from engine.evaluate.split import HELD_OUT, TUNE, part_of
from engine.types import Answer


def _page(part: str) -> str:
    return next(p for p in (f"ACME/2031/page_{i}.pdf" for i in range(200)) if part_of(p) == part)


def test_held_out_pages_are_never_asked() -> None:
    held, tuned = _page(HELD_OUT), _page(TUNE)
    dialogues = [{"id": f"Single_{held}-1"}, {"id": f"Double_{tuned}"}]
    assert [d["id"] for d in tune_dialogues(dialogues)] == [f"Double_{tuned}"]


def test_a_failure_is_grouped_by_what_the_answer_says() -> None:
    asked_back = Answer(
        text="Which figure do you mean: Ferry fares or Net fares?", status="clarify"
    )
    quoted = Answer(text="Fares rose on longer routes [1].", status="answered")
    assert cause("refused", asked_back) == "asked back among lines"
    assert cause("off-target", quoted) == "passages quoted"
