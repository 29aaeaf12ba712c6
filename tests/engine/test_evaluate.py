"""The evaluation command scores answers against public gold answers, honestly."""

from __future__ import annotations

import json
from decimal import Decimal

from engine.evaluate import DATA, main, run_cases, run_pacific, run_tatqa, score
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
