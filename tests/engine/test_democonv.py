"""The democonv set: its golds are computed from fact rows (never typed), it is split by whole
conversations, `--show` lists only the tuning part, and its scoring reads answers as
ConvFinQA's does."""

from __future__ import annotations

import contextlib
import io
import runpy
from decimal import Decimal

import pytest

from engine.evaluate.cli import DATA, load_democonv, main
from engine.evaluate.democonv import (
    ProgramError,
    Row,
    build,
    demo_facts,
    gold_of,
    kind_of,
    score_turn,
)
from engine.evaluate.split import HELD_OUT, TUNE, part_of
from engine.types import Answer, Figure

WRITER = DATA / "democonv" / "write.py"


def _facts(*rows: tuple[str, str, str, str]) -> dict[tuple[str, str, str], Row]:
    return {(e, m, p): Row(e, m, p, Decimal(v), "USD") for e, m, p, v in rows}


FACTS = _facts(
    ("Apple", "Revenue", "FY2020", "200"),
    ("Apple", "Revenue", "FY2021", "250"),
    ("Tesla", "Revenue", "FY2021", "300"),
)


def test_a_percent_change_is_computed_from_the_rows_it_names() -> None:
    # By hand: (250 - 200) / 200 = 0.25, a fraction.
    gold = gold_of("subtract(AAPL.rev.FY2021, AAPL.rev.FY2020), divide(#0, AAPL.rev.FY2020)", FACTS)

    assert gold["gold"] == "0.25"
    assert gold["kind"] == "ratio or percent"
    assert gold["operands"]["AAPL.rev.FY2020"]["value"] == "200"


def test_the_shipped_demo_gives_the_hand_checked_figure() -> None:
    # facts.csv: Apple Revenue FY2021 365817000000, FY2020 274515000000; by hand the change is
    # 91302000000.
    gold = gold_of("subtract(AAPL.rev.FY2021, AAPL.rev.FY2020)", demo_facts())

    assert gold == {**gold, "gold": "91302000000", "kind": "difference"}


def test_which_was_bigger_names_the_winner_and_its_figure() -> None:
    gold = gold_of("max(AAPL.rev.FY2021, TSLA.rev.FY2021)", FACTS)

    assert (gold["gold"], gold["winner"], gold["loser"]) == ("300", "Tesla", "Apple")


def test_a_missing_row_is_not_found_only_when_it_is_truly_missing() -> None:
    assert gold_of("absent(TSLA.rev.FY2020)", FACTS)["gold"] == "not_found"
    with pytest.raises(ProgramError):
        gold_of("absent(AAPL.rev.FY2021)", FACTS)
    with pytest.raises(ProgramError):
        gold_of("TSLA.rev.FY2020", FACTS)


def test_an_average_is_other_arithmetic_and_a_ratio_of_two_rows_is_a_ratio() -> None:
    assert kind_of("add(AAPL.rev.FY2021, AAPL.rev.FY2020), divide(#0, const_2)") == (
        "other arithmetic"
    )
    assert kind_of("divide(AAPL.rev.FY2021, TSLA.rev.FY2021)") == "ratio or percent"
    assert (
        gold_of("add(AAPL.rev.FY2021, AAPL.rev.FY2020), divide(#0, const_2)", FACTS)["gold"]
        == "225"
    )


def test_the_data_file_is_what_the_writer_computes() -> None:
    written = runpy.run_path(str(WRITER))["CONVERSATIONS"]

    assert build(written, demo_facts()) == load_democonv()


def test_conversations_are_split_whole_by_their_id() -> None:
    conversations = load_democonv()
    parts = {part_of(c["id"]) for c in conversations}

    assert len(conversations) >= 60
    assert parts == {TUNE, HELD_OUT}
    held = sum(part_of(c["id"]) == HELD_OUT for c in conversations)
    assert 0.1 < held / len(conversations) < 0.4


def test_show_lists_only_the_tuning_part() -> None:
    conversations = load_democonv()
    asked = {TUNE: set(), HELD_OUT: set()}
    for c in conversations:
        asked[part_of(c["id"])].update(t["question"] for t in c["turns"])
    only_held = asked[HELD_OUT] - asked[TUNE]
    out = io.StringIO()

    with contextlib.redirect_stdout(out):
        for outcome in ("correct", "refused"):
            main(["democonv", "--show", outcome])

    shown = out.getvalue()
    assert any(f"] {q}\n" in shown for q in asked[TUNE])
    assert not [q for q in only_held if f"] {q}\n" in shown]


def _figure(value: str, unit: str = "USD", kind: str = "fact") -> Figure:
    return Figure(label="x", value=Decimal(value), unit=unit, kind=kind, sources=())  # type: ignore[arg-type]


def test_a_figure_where_none_is_held_is_wrong_and_a_plain_miss_is_correct() -> None:
    turn = {"question": "q", "gold": "not_found", "kind": "refusal expected"}

    assert score_turn(Answer("USD 5", "found", (_figure("5"),)), turn) == "wrong"
    assert score_turn(Answer("Not held.", "not_found"), turn) == "correct"


def test_a_percent_matches_its_fraction_at_the_precision_it_is_stated() -> None:
    turn = {"question": "q", "gold": "0.2531", "kind": "ratio or percent"}

    def answer(value: str) -> Answer:
        return Answer("", "found", (_figure(value, "%", "computed"),))

    assert score_turn(answer("25.31"), turn) == "correct"
    assert score_turn(answer("25.3"), turn) == "correct"
    assert score_turn(answer("25.9"), turn) == "wrong"
    assert score_turn(answer("30"), turn) == "wrong"


def test_which_was_bigger_needs_the_winner_named_first() -> None:
    turn = {"question": "which?", "gold": "300", "kind": "other arithmetic",
            "winner": "Tesla", "loser": "Apple"}  # fmt: skip
    figures = (_figure("300"), _figure("250"))

    assert score_turn(Answer("Tesla's is higher than Apple's", "found", figures), turn) == "correct"
    assert score_turn(Answer("Apple's is higher than Tesla's", "found", figures), turn) == "wrong"
