"""manage.py evaluate_cases runs reviewer cases against the database's knowledge base."""

from __future__ import annotations

import json
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from tests.askapp.reviewing import FY2023, knowledge_base

pytestmark = pytest.mark.django_db


def _write(tmp_path: Path, *lines: str) -> str:
    path = tmp_path / "cases.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return str(path)


def _case(**fields: object) -> str:
    return json.dumps({"question": "What was Apple's revenue in FY2023?", **fields})


def test_it_prints_the_outcome_table(tmp_path: Path) -> None:
    knowledge_base()
    path = _write(
        tmp_path,
        _case(expected_status="found", expected_figures=[{"value": str(FY2023)}]),
        _case(expected_status="found", expected_figures=[{"value": "1"}]),
        "",
    )
    out = StringIO()

    call_command("evaluate_cases", path, "--show", "wrong", stdout=out)

    text = out.getvalue()
    assert "2 cases" in text
    assert "| all" in text and "| question type" in text
    assert 'expected: [{"value": "1"}]' in text


def test_fail_on_wrong_makes_a_wrong_case_an_error(tmp_path: Path) -> None:
    knowledge_base()
    path = _write(tmp_path, _case(expected_status="not_found"))

    with pytest.raises(CommandError, match="1 of 1 cases came out wrong"):
        call_command("evaluate_cases", path, "--fail-on-wrong", stdout=StringIO())


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("{not json", "cases.jsonl:2: not JSON"),
        ('{"history": []}', "cases.jsonl:2: a case is an object with a question"),
        (_case(history=[["user"]]), "cases.jsonl:2: history is a list of [role, text] pairs"),
    ],
)
def test_a_bad_line_names_its_file_and_line(tmp_path: Path, line: str, message: str) -> None:
    path = _write(tmp_path, _case(expected_status="found"), line)

    with pytest.raises(CommandError, match=message.replace("[", r"\[").replace("]", r"\]")):
        call_command("evaluate_cases", path, stdout=StringIO())


def test_an_empty_file_is_an_error(tmp_path: Path) -> None:
    with pytest.raises(CommandError, match="no cases"):
        call_command("evaluate_cases", _write(tmp_path, ""), stdout=StringIO())
