"""Markup a page's extraction left in a table's cells (ADR 0063).

Some extracted tables keep HTML: a footnote mark as a superscript ("Spare parts<sup>2</sup>")
or a heading in italics ("<i>In thousands</i>"). The tags and the superscripted mark are
not words of the line's name: a question never says "sup", and the line must be found by
the words it is printed with.
"""

from __future__ import annotations

from engine.tables import read_table
from tests.engine.pages import ask_on_page, table_page

ROWS = [
    ["<i>(In millions)</i>", "2032", "2031"],
    ["Spare parts<sup>2</sup>", "40", "35"],
    ["Finished engines<sup>(a)</sup>", "160", "150"],
    ["<b>Total inventory</b>", "200", "185"],
]


def test_a_line_is_named_without_the_markup_around_it() -> None:
    names = {fact.metric for fact in read_table(ROWS)}

    assert names == {"Spare parts", "Finished engines", "Total inventory"}


def test_a_share_of_a_line_marked_with_a_footnote_is_answered() -> None:
    store = table_page("Aerocraft", ROWS)

    (answer,) = ask_on_page(
        store, "Aerocraft", "What percentage of total inventory were spare parts in 2032?"
    )

    assert answer.status == "found"
    assert "is 20%" in answer.text
