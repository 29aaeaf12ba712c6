"""A share of one line named in full in another named in part (ADR 0063).

"Operating profit as a percentage of sales" over a table whose lines are "Sales" and
"Operating profit (loss)": "sales" names a line in full, "operating profit" only part of
one. Both are figures of the share; the line named in part is still the only one its
words name. A question that sets no figure against another is not read for a second line.
"""

from __future__ import annotations

from tests.engine.pages import ask_on_page, table_page

ROWS = [
    ["(In thousands)", "2032", "2031"],
    ["Sales", "800", "700"],
    ["Cost of goods", "600", "560"],
    ["Operating profit (loss)", "200", "140"],
]


def test_the_line_named_in_part_is_the_share_asked() -> None:
    store = table_page("Kestrel Mills", ROWS)

    (answer,) = ask_on_page(
        store, "Kestrel Mills", "What was operating profit as a percentage of sales in 2032?"
    )

    assert answer.status == "found"
    assert "is 25%" in answer.text


def test_a_single_figure_asked_links_only_the_line_named_in_full() -> None:
    store = table_page("Kestrel Mills", ROWS)

    (answer,) = ask_on_page(store, "Kestrel Mills", "What were sales in 2032?")

    assert answer.status == "found"
    assert "800" in answer.text and "200" not in answer.text


PER_SHARE_ROWS = [
    ["(In thousands)", "2032", "2031"],
    ["Sales", "800", "700"],
    ["Net earnings (loss)", "40", "-10"],
    ["Net earnings (loss) per share, basic", "0.40", "-0.10"],
    ["Net earnings (loss) per share, diluted", "0.38", "-0.10"],
]


def test_of_lines_holding_the_words_the_one_adding_only_brackets_is_the_second() -> None:
    store = table_page("Kestrel Mills", PER_SHARE_ROWS)

    (answer,) = ask_on_page(
        store, "Kestrel Mills", "What were net earnings as a portion of sales in 2032?"
    )

    assert answer.status == "found"
    assert "Net earnings (loss)" in answer.text and "per share" not in answer.text
    assert "is 0.05" in answer.text
