"""Importing Snowflake's SEC file over the demo changes none of the demo's answers about it.

The questions go to the engine through askapp's composition root (the engine every view
uses, reading the database), before and after `import_companyfacts`.
"""

from __future__ import annotations

import csv
from pathlib import Path
from typing import Any

import pytest

from askapp.engine_setup import the_engine
from tests.askapp.commands import run
from tests.askapp.companyfacts import SNOWFLAKE

DEMO_FACTS = Path(__file__).resolve().parents[2] / "data" / "demo" / "facts.csv"


def _questions() -> list[str]:
    with DEMO_FACTS.open(encoding="utf-8") as handle:
        metrics = sorted(
            {r["metric"] for r in csv.DictReader(handle) if r["entity"] == "Snowflake"}
        )
    lookups = [
        f"What was Snowflake's {metric.lower()} in {period}?"
        for metric in metrics
        for period in ("FY2019", "FY2024")
    ]
    return [
        *lookups,
        "What was SNOW's revenue in FY2024?",
        "What was Snowflake Inc.'s operating cash flow in fiscal 2025?",
        "Compare Snowflake revenue in FY2023 and FY2024",
        "How did Snowflake's net income change from FY2023 to FY2025?",
        "What was the percent change in Snowflake's revenue from FY2024 to FY2025?",
        "What was Snowflake's revenue from FY2021 to FY2025?",
        "Compare Snowflake and NVIDIA revenue in FY2024",
        "What did Snowflake say about cash generation?",
        "What was Snowflake's long-term debt in FY2024?",
        "What was Snowflake's revenue in FY2017?",
    ]


def _answers(questions: list[str]) -> dict[str, dict[str, Any]]:
    built = the_engine()
    return {q: built.answer(q).to_dict() for q in questions}


@pytest.mark.django_db
def test_importing_the_snowflake_file_over_the_demo_changes_no_answer_about_snowflake() -> None:
    run("load_demo", "--verbosity", "0")
    questions = _questions()
    before = _answers(questions)
    found = [q for q, answer in before.items() if answer["status"] == "found"]
    assert len(found) >= 30  # the questions do reach Snowflake's figures

    output = run("import_companyfacts", str(SNOWFLAKE))
    assert "imported 104 facts (0 new, 104 updated)" in output.stdout

    after = _answers(questions)
    changed = [q for q in questions if after[q] != before[q]]
    assert not changed, f"answers changed: {changed}"
