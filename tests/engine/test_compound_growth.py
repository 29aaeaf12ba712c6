"""A compound annual growth rate is worked out between two years of one line: the yearly
rate that grows the first figure into the last, with its formula, and carried to the next
elliptical turn; no rate is made up where none exists (ADR 0081)."""

from __future__ import annotations

from decimal import Decimal

from engine.intent import Intent
from tests.engine.test_shares_and_steps import ask, computed, page

ORCHARD = [
    ["", "2024", "2023", "2022", "2021"],
    ["Fruit sales", "9,261", "8,820", "8,400", "8,000"],
    ["Net income (loss)", "310", "120", "( 45 )", "60"],
]


def test_the_rate_is_the_yearly_growth_between_the_two_years() -> None:
    (answer,) = ask(
        page(ORCHARD), "what was the compound annual growth rate of fruit sales from 2021 to 2024?"
    )

    assert answer.status == "found"
    assert computed(answer) == Decimal("5")  # 8,000 * 1.05 ** 3 = 9,261
    assert "a compound annual growth rate of 5% over 3 years" in answer.text
    (rate,) = [f for f in answer.figures if f.kind == "computed"]
    assert rate.formula.endswith("^ (1 / 3) − 1) × 100")
    assert len(rate.sources) == 2


def test_the_next_turn_from_another_year_keeps_the_rate_and_the_end_year() -> None:
    *_, later = ask(
        page(ORCHARD),
        "what was the CAGR of fruit sales from 2021 to 2024?",
        "and from 2022?",
    )

    assert later.status == "found"
    assert "over 2 years" in later.text  # 2022 to 2024, not 2021 to 2022
    assert computed(later) == Decimal("5")


def test_a_change_from_another_year_ends_where_the_change_did() -> None:
    *_, later = ask(
        page(ORCHARD),
        "what was the change in fruit sales from 2021 to 2024?",
        "and from 2023?",
    )

    assert computed(later) == Decimal("441")  # 2023 to 2024, not 2021 to 2023 (820)


def test_a_line_that_was_a_loss_has_no_compound_rate() -> None:
    (answer,) = ask(page(ORCHARD), "what was the CAGR of net income from 2022 to 2024?")

    assert answer.status == "not_found"
    assert not answer.figures
    assert "no compound growth rate" in answer.text


def test_a_stored_turn_keeps_that_its_growth_was_compounded() -> None:
    (answer,) = ask(page(ORCHARD), "what was the CAGR of fruit sales from 2021 to 2024?")
    stored = answer.intent  # what a Turn keeps, and a session rebuilt after a restart reads
    assert stored is not None and stored["compounded"] is True

    assert Intent.from_dict(
        "what was the CAGR of fruit sales from 2021 to 2024?", stored
    ).compounded
