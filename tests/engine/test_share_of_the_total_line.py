"""A share of one line in "the total" takes that line's total as the whole (ADR 0059).

"What part of the total is X", "X in relation to the total one": the question names one
line in full and says "total"; the whole is the one line named "total" and otherwise only by
words of the named line, held in the asked period and no smaller than the part. Anything
less certain is still asked back.
"""

from __future__ import annotations

from tests.engine.test_measure_words import _conversation, _facts, _page
from tests.engine.test_shares_and_steps import ask, page

HARVEST = _page(
    [
        ["", "2032", "2031"],
        ["Spring harvest", "40", "35"],
        ["Summer harvest", "70", "66"],
        ["Autumn harvest", "90", "81"],
        ["Total", "200", "182"],
    ]
)

FUNDING = _page(
    [
        ["", "2032", "2031"],
        ["Total core funding", "300", "280"],
        ["Total bridge funding", "100", "90"],
        ["Total funding", "400", "370"],
        ["Funded projects", "12", "11"],
    ]
)


def test_a_share_of_the_total_divides_by_the_total_line() -> None:
    (answer,) = _conversation(
        HARVEST, "In 2032, what was the summer harvest as a share of the total?"
    )

    assert answer.status == "found"
    assert sorted(_facts(answer)) == [70, 200]
    assert answer.text.endswith("is 35%.")  # a share is said in percent (ADR 0081)


def test_the_total_one_is_the_total_of_the_named_line() -> None:
    (answer,) = _conversation(
        FUNDING, "In 2032, how much did the core funding represent in relation to the total one?"
    )

    assert answer.status == "found"
    assert sorted(_facts(answer)) == [300, 400]


def test_a_total_column_line_is_set_against_the_total_line_of_that_column() -> None:
    # "depots" names the total: the page the Total line is read from must say it (ADR 0060).
    rows = [
        ["", "North", "South", "TOTAL"],
        ["Cold storage", "4", "6", "10"],
        ["Dry storage", "8", "7", "15"],
        ["Total", "12", "13", "25"],
    ]
    depots = page(rows, "Our depots by region and kind of storage are as follows.")

    (answer,) = ask(depots, "What portion of the total depots are cold storage?")

    assert answer.status == "found"
    assert sorted(f.value for f in answer.figures if f.kind == "fact") == [10, 25]


def test_a_line_named_only_in_part_is_still_asked_back() -> None:
    (answer,) = _conversation(HARVEST, "In 2032, what was the harvest as a share of the total?")

    assert answer.status != "found"


def test_a_whole_smaller_than_the_part_is_not_taken() -> None:
    store = _page(
        [
            ["", "2032"],
            ["Spring harvest", "240"],
            ["Total", "200"],
        ]
    )
    (answer,) = _conversation(
        store, "In 2032, what was the spring harvest as a share of the total?"
    )

    assert answer.status != "found"


def test_it_after_a_share_set_against_another_line_is_the_shares_part() -> None:
    # ADR 0059 asked this back; ADR 0078 takes "it" as the part the share was taken of
    # (a share set against an amount is no figure anyone asks for).
    first, second = _conversation(
        FUNDING,
        "In 2032, how much did the core funding represent in relation to the total one?",
        "And how much did it represent in relation to the funded projects?",
    )

    assert first.status == "found"
    assert second.status == "found"
    assert [f.value for f in second.figures if f.kind == "computed"] == [25]
