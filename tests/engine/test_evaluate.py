"""The evaluation command scores answers against public gold answers, honestly."""

from __future__ import annotations

import json
from decimal import Decimal

from engine.evaluate import (
    DATA,
    HELD_OUT,
    TUNE,
    main,
    part_of,
    run_cases,
    run_convfinqa,
    run_pacific,
    run_tatqa,
    score,
)
from engine.evaluate.cli import load_convfinqa, load_tatqa
from engine.evaluate.convfinqa import OUTCOMES as CONVFINQA_OUTCOMES
from engine.evaluate.convfinqa import (
    operands_in_table,
    page_of,
    score_turn,
    table_numbers,
    turn_kind,
)
from engine.types import Answer, Figure
from tests.demo_store import demo_store


def _found(value: str, unit: str = "million", kind: str = "fact") -> Answer:
    figure = Figure("x", Decimal(value), unit, kind, ("fact:1",))  # type: ignore[arg-type]
    return Answer(text="x", status="found", figures=(figure,))


def test_scoring_reads_gold_answers_in_their_scale() -> None:
    assert score(_found("1496.5"), ["$1,496.5"], "span", scale="million") == "correct"
    assert score(_found("85123", "thousand"), ["$85.1 million"], "span") == "correct"
    assert score(_found("-22.2222", "%", "computed"), -22.22, "arithmetic") == "correct"
    assert score(_found("1500"), ["$1,496.5"], "span", scale="million") == "wrong"
    assert score(Answer(text="no", status="not_found"), 12, "arithmetic") == "refused"


def test_a_clarifying_turn_is_correct_only_when_we_ask_back() -> None:
    asked = Answer(text="Which year?", status="clarify")

    assert score(asked, ["Which year?"], "question", wants_clarify=True) == "correct"
    assert score(_found("1"), ["Which year?"], "question", wants_clarify=True) == "wrong"


def test_a_few_tatqa_contexts_run_end_to_end() -> None:
    contexts = json.loads((DATA / "tatqa" / "tatqa_dataset_dev.json").read_text())[:5]

    results = run_tatqa(contexts)

    assert len(results) == sum(len(c["questions"]) for c in contexts)
    assert {r.outcome for r in results} <= {"correct", "wrong", "refused", "other"}
    assert sum(r.outcome == "correct" for r in results) >= len(results) // 3


def test_a_few_pacific_dialogues_run_through_one_session_each() -> None:
    dialogues = json.loads((DATA / "pacific" / "pacific_validation.json").read_text())[:3]

    results = run_pacific(dialogues)

    assert len(results) == sum(len(d["questions"]) for d in dialogues)
    assert any(r.kind == "clarify" and r.outcome == "correct" for r in results)


def test_reviewer_cases_run_against_a_store() -> None:
    cases = [
        {
            "question": "What was Apple's revenue in FY2023?",
            "history": [],
            "expected_status": "found",
            "expected_figures": [{"value": "383285000000"}],
        },
        {"question": "What was Apple's revenue in FY2099?", "expected_status": "not_found"},
        {
            "question": "What was Apple's revenue in FY2022?",
            "expected_status": "found",
            "expected_figures": [{"value": "1"}],
        },
    ]

    outcomes = [r.outcome for r in run_cases(cases, demo_store())]

    assert outcomes == ["correct", "correct", "wrong"]


def test_a_follow_up_case_gets_its_carried_slots_back() -> None:
    case = {
        "question": "and in FY2022?",
        "history": [
            ["user", "What was Apple's revenue in FY2023?"],
            ["assistant", "Apple's Revenue in FY2023 was USD 383.3 billion [1]."],
        ],
        "expected_status": "found",
        "expected_figures": [{"value": "394328000000"}],
    }

    assert [r.outcome for r in run_cases([case], demo_store())] == ["correct"]


def test_the_command_prints_a_table(capsys) -> None:  # type: ignore[no-untyped-def]
    assert main(["tatqa", "--limit", "20"]) == 0

    out = capsys.readouterr().out
    assert "| question type" in out and "| all" in out


def _computed(value: str, unit: str) -> Answer:
    figure = Figure("x", Decimal(value), unit, "computed", ("fact:1",))
    return Answer(text="x", status="found", figures=(figure,))


def test_a_ratio_gold_is_the_same_answer_as_a_fraction_or_a_percent() -> None:
    assert score_turn(_computed("3.62", "%"), 0.0362, "what share?") == "correct"
    assert score_turn(_computed("0.0362", "ratio"), 0.0362, "what share?") == "correct"
    assert score_turn(_computed("-21.052632", "%"), -0.21053, "percent change?") == "correct"
    assert score_turn(_computed("3.7", "%"), 0.0362, "what share?") == "wrong"


def test_a_figure_in_thousands_is_the_gold_written_out_in_full() -> None:
    assert score_turn(_computed("2.4", "thousand"), 2400, "how many berths?") == "correct"
    assert score_turn(_computed("2.4", "thousand"), 2.4, "how many berths?") == "correct"
    assert score_turn(_computed("2.4", "thousand"), 24000, "how many berths?") == "wrong"


def test_a_conversation_turn_answered_with_text_alone_is_off_target() -> None:
    quoted = Answer(text="Revenue rose on higher volumes [1].", status="answered")
    asked_back = Answer(text="Which period do you mean?", status="clarify")

    assert score_turn(quoted, 12.5, "what was the change?") == "off-target"
    assert score_turn(asked_back, 12.5, "what was the change?") == "refused"


def test_a_decrease_may_be_stated_as_a_positive_amount_only_when_asked_as_one() -> None:
    assert score_turn(_computed("-4", "million"), 4, "how much did it decrease?") == "correct"
    assert score_turn(_computed("-4", "million"), 4, "what was the change?") == "wrong"


def test_a_figure_filed_negative_may_match_its_amount_when_every_fact_is_negative() -> None:
    def answer(*values: str) -> Answer:
        facts = tuple(Figure("x", Decimal(v), "million", "fact", (f"fact:{v}",)) for v in values)
        return Answer(text="x", status="found", figures=facts)

    assert score_turn(answer("-544"), 544, "what were dividends paid?") == "correct"
    assert score_turn(answer("-544", "602"), 544, "what were dividends paid?") == "wrong"


def test_turn_kinds_and_table_operands_come_from_the_gold_program() -> None:
    printed = table_numbers([["", "2017", "2016"], ["debt", "$ 1,279", "( 26 )"]])

    assert turn_kind("1279") == "lookup"
    assert turn_kind("subtract(1279, 26)") == "difference"
    assert turn_kind("subtract(1279, 26), divide(#0, 26)") == "ratio or percent"
    assert turn_kind("add(1279, 26), add(#0, 5)") == "other arithmetic"
    assert operands_in_table("subtract(1279, 26), divide(#0, const_100)", printed)
    assert not operands_in_table("subtract(1279, 15)", printed)


def test_a_page_is_held_out_in_every_set_that_uses_it() -> None:
    assert page_of("Single_MRO/2007/page_134.pdf-1") == "MRO/2007/page_134.pdf"
    assert page_of("Double_MRO/2007/page_134.pdf") == "MRO/2007/page_134.pdf"
    pages = [f"PAGE/{n}/page_{n}.pdf" for n in range(400)]
    held = [p for p in pages if part_of(p) == HELD_OUT]

    assert 0.1 < len(held) / len(pages) < 0.3
    assert all(part_of(p) == HELD_OUT for p in held)  # the same page, the same part, always


def test_a_few_convfinqa_dialogues_run_through_one_session_each() -> None:
    dialogues = load_convfinqa()[:4]

    results = run_convfinqa(dialogues)

    assert len(results) == sum(len(d["turns"]) for d in dialogues)
    assert {r.outcome for r in results} <= set(CONVFINQA_OUTCOMES)


def test_show_never_lists_a_held_out_item(capsys) -> None:  # type: ignore[no-untyped-def]
    contexts = load_tatqa()[:40]
    results = run_tatqa(contexts)
    refused = [r for r in results if r.outcome == "refused"]
    assert {r.part for r in refused} == {TUNE, HELD_OUT}  # the slice holds both parts

    main(["tatqa", "--limit", str(len(results)), "--show", "refused"])

    out = capsys.readouterr().out
    listed = out.count("\n    gold: ")
    assert listed == sum(r.part == TUNE for r in refused)
