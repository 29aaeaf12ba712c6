"""A year printed over several columns, one of them beside another year's (ADR 0066)."""

from __future__ import annotations

from decimal import Decimal

from engine.arithmetic import read
from engine.tables import read_table
from engine.text import TOKEN, normalise_word

# A quarter set beside the quarter before, a change, then the year set beside the year
# before, a change: the extraction lost "twelve months", so both 2024 columns read alike.
_PAGE = [
    ["", "quarter ended jun . 302024 (1)", "quarter ended mar . 312024", "quarter ended change",
     "quarter ended jun . 302024 (2)", "quarter ended jun . 302023", "change"],
    ["freight revenue", "410", "395", "15", "1,620", "1,540", "80"],
    ["operating profit", "61", "58", "3", "244", "230", "14"],
]  # fmt: skip


def _figures(rows: list[list[str]]) -> dict[tuple[str, str], Decimal]:
    return {(f.metric, f.period): f.value for f in read_table(rows)}


def test_the_column_set_beside_another_year_is_the_years_own() -> None:
    figures = _figures(_PAGE)
    assert figures[("freight revenue", "FY2024")] == Decimal("1620")
    assert figures[("freight revenue", "FY2023")] == Decimal("1540")
    assert figures[("operating profit", "FY2024")] == Decimal("244")


def test_years_side_by_side_twice_leave_no_column_the_years_own() -> None:
    # Both groups compare two years: which 2024 column is meant is not printed.
    rows = [
        ["", "quarter mar . 302024", "quarter mar . 312023", "change",
         "year mar . 302024", "year mar . 312023", "change"],
        ["freight revenue", "410", "380", "30", "1,620", "1,540", "80"],
    ]  # fmt: skip
    assert ("freight revenue", "FY2024") not in _figures(rows)


def test_no_column_cutting_the_groups_leaves_the_columns_as_read() -> None:
    rows = [
        ["", "mar . 302024 (1)", "dec . 302023", "mar . 302024 (2)", "mar . 312023"],
        ["freight revenue", "410", "395", "1,620", "1,540"],
    ]
    assert ("freight revenue", "FY2024") not in _figures(rows)


def test_that_total_over_the_year_points_at_a_figure_not_a_sum() -> None:
    assert _operation("what is the change in that total over the year") != "sum"
    assert _operation("what is the total over those years") == "sum"


def _operation(question: str) -> str | None:
    norms = [normalise_word(w) for w in TOKEN.findall(question)]
    return read(norms, [False] * len(norms)).operation
