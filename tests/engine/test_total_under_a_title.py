"""The Total line of a table titled over all its years (ADR 0063).

A table may print one heading over every year column ("Hectares planted, year ended June
30," over "2031" and "2032") and list regions down the side, closing on "Total". The title
says what every figure is: the Total line is the total of it, so a question naming only
the title's words ("hectares planted") asks for the Total line. Other lines keep their
own names.
"""

from __future__ import annotations

from engine.tables import read_table
from tests.engine.pages import ask_on_page, table_page

ROWS = [
    ["", "Hectares Planted Year Ended June 30,"],
    ["(In thousands)", "2031", "2032"],
    ["North", "30", "34"],
    ["South", "50", "41"],
    ["Total", "80", "75"],
]


def test_the_total_line_is_named_by_the_title_over_its_years() -> None:
    facts = read_table(ROWS)
    total = next(f for f in facts if f.metric == "Total" and f.period == "FY2032")

    assert "Total hectares planted" in total.aliases


def test_a_change_in_what_the_title_names_is_the_total_lines() -> None:
    store = table_page("Greenacre", ROWS)

    (answer,) = ask_on_page(
        store, "Greenacre", "By how much did hectares planted decrease from 2031 to 2032?"
    )

    assert answer.status == "found"
    assert "80" in answer.text and "75" in answer.text
    assert "decrease of 5 thousand" in answer.text and "34" not in answer.text


def test_a_table_without_a_title_gives_the_total_no_other_name() -> None:
    facts = read_table([ROWS[1], *ROWS[2:]])

    assert all(not f.aliases for f in facts if f.metric == "Total")
