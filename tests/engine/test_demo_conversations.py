"""Conversations over the shipped demo knowledge base (real filings' figures) that earlier
sessions found answered badly: each asserts what the analyst reads (ADR 0075)."""

from __future__ import annotations

import pytest

from engine.answer import Engine
from engine.evaluate.demo import demo_store
from engine.providers.mock import MockProvider
from engine.session import ConversationSession
from engine.types import Answer
from tests.engine.pages import ask_on_page, table_page


@pytest.fixture(scope="module")
def engine() -> Engine:
    return Engine(demo_store(), MockProvider())


def _ask(engine: Engine, *questions: str, scope: str | None = None) -> list[Answer]:
    session = ConversationSession(scope=scope)
    return [engine.answer(q, session=session, history=session.history()) for q in questions]


# -- a line named by its head, in a conversation about one company -------------------------
def test_a_head_word_names_the_line_of_the_company_the_conversation_is_about(
    engine: Engine,
) -> None:
    *_, equity = _ask(engine, "What were Tesla's total assets in FY2021?", "and equity?")

    assert equity.status == "found"
    assert equity.text.startswith("Tesla's Stockholders' equity in FY2021 was USD 30.2 billion")


def test_the_company_a_head_word_is_read_against_is_the_latest_one_named(
    engine: Engine,
) -> None:
    *_, equity = _ask(
        engine, "What were Tesla's total assets in FY2021?", "and Apple's?", "and equity?"
    )

    assert equity.text.startswith("Apple's Stockholders' equity in FY2021 was USD 63.1 billion")


def test_a_head_word_after_two_companies_is_still_asked_back(engine: Engine) -> None:
    *_, equity = _ask(
        engine, "What were Apple's and Tesla's total assets in FY2021?", "and equity?"
    )

    assert equity.status == "clarify"
    assert not equity.figures


# -- one figure "to" another -----------------------------------------------------------------
def test_one_figure_to_another_is_their_ratio_without_the_word_ratio(engine: Engine) -> None:
    (answer,) = _ask(engine, "What was Microsoft's debt to equity in FY2023?")

    assert answer.status == "found"
    assert answer.text.endswith("is 0.2036.")
    assert "Long-term debt (non-current) in FY2023 (USD 42.0 billion" in answer.text


def test_a_ratio_named_by_to_where_one_label_reaches_back_to_the_others_word(
    engine: Engine,
) -> None:
    # "Net revenue" is a name of Revenue: its link takes "net" of "net income" too.
    (answer,) = _ask(engine, "net income to revenue for FY2021?", scope="Apple")

    assert answer.text.endswith("is 0.2588.")


def test_to_between_two_years_is_still_a_span_not_a_ratio(engine: Engine) -> None:
    (answer,) = _ask(engine, "How did net income change from FY2021 to FY2022?", scope="Apple")

    assert answer.text.endswith("an increase of USD 5.12 billion.")


# -- "how does that compare" after a margin or a ratio --------------------------------------
MARGIN_2021 = "What was Microsoft's operating margin in FY2021?"


def test_a_margin_compared_to_another_year_is_the_margin_in_both_and_its_change(
    engine: Engine,
) -> None:
    *_, compared = _ask(engine, MARGIN_2021, "how does it compare with FY2020?")

    assert compared.status == "found"
    assert "Microsoft's Operating income in FY2020 (USD 53.0 billion" in compared.text
    assert compared.text.endswith(
        "From FY2020 to FY2021 it went from 37.03% to 41.59%: an increase of 4.56 percentage "
        "points."
    )


def test_a_margin_compared_to_the_year_before(engine: Engine) -> None:
    *_, compared = _ask(engine, MARGIN_2021, "and how did that compare to the year before?")

    assert compared.text.endswith("an increase of 4.56 percentage points.")


def test_a_figure_compared_to_the_year_before_is_its_change(engine: Engine) -> None:
    *_, compared = _ask(
        engine,
        "What was Microsoft's revenue in FY2021?",
        "how did that compare to the year before?",
    )

    assert compared.text == (
        "Microsoft's Revenue went from USD 143.0 billion in FY2020 [1] to USD 168.1 billion in "
        "FY2021 [2]: an increase of USD 25.1 billion."
    )


def test_a_ratio_that_barely_moved_is_not_shown_as_no_change(engine: Engine) -> None:
    *_, compared = _ask(engine, "net income to revenue in FY2022?", "versus FY2023?", scope="Apple")

    assert compared.text.endswith("went from 0.2531 to 0.2531: a decrease of 0.000034.")


# -- "did it increase?", in the line's own terms ---------------------------------------------
BRINDLE = "Brindle Corp"
STATEMENT = table_page(
    BRINDLE,
    [
        ["(in millions)", "2022", "2023"],
        ["Net sales", "4,210", "4,630"],
        ["Cost of sales", "(2,540)", "(2,815)"],
        ["Selling and administrative expenses", "(910)", "(870)"],
        ["Net income (loss)", "(120)", "(80)"],
    ],
)


def test_a_bracketed_cost_that_grew_did_increase(engine: Engine) -> None:
    *_, answer = ask_on_page(
        STATEMENT, BRINDLE, "what was cost of sales in 2022?", "and in 2023?", "did it increase?"
    )

    assert answer.text == (
        "Yes: Brindle Corp's Cost of sales went from -2,540 million in FY2022 [1] to -2,815 "
        "million in FY2023 [2]: shown as a negative, it grew by 275 million (the figure itself "
        "fell by 275 million)."
    )
    change = [f for f in answer.figures if f.kind == "computed"][-1]
    assert change.value == -275  # the figures' own difference: no sign flipped


def test_a_bracketed_expense_that_shrank_did_not_go_up(engine: Engine) -> None:
    (answer,) = ask_on_page(
        STATEMENT, BRINDLE, "did selling and administrative expenses go up from 2022 to 2023?"
    )

    assert answer.text.startswith("No: ")
    shrank = "shown as a negative, it shrank by 40 million (the figure itself rose by 40 million)."
    assert answer.text.endswith(shrank)


def test_a_loss_written_under_an_income_label_moves_as_its_figure_does(engine: Engine) -> None:
    (answer,) = ask_on_page(STATEMENT, BRINDLE, "did net income increase from 2022 to 2023?")

    assert answer.text.startswith("Yes: ")
    assert answer.text.endswith("an increase of 40 million.")


def test_did_it_fall_is_answered_against_the_way_asked(engine: Engine) -> None:
    (fell,) = _ask(engine, "did Apple's capex fall from FY2021 to FY2022?")
    (rose,) = _ask(engine, "did Apple's capex rise from FY2021 to FY2022?")

    assert fell.text.startswith("Yes: Apple's Capital expenditure went from USD 11.1 billion")
    assert rose.text.startswith("No: ")
    assert rose.text.endswith("a decrease of USD 377.0 million.")


def test_how_much_it_rose_is_no_yes_or_no_question(engine: Engine) -> None:
    (answer,) = _ask(engine, "how much did Apple's R&D expense rise from FY2022 to FY2023?")

    assert answer.text.startswith("Apple's Research and development expense went from")
    assert answer.text.endswith("an increase of USD 3.66 billion.")


# -- a change in free cash flow: the measure in each year, then the change ------------------
def test_a_change_in_free_cash_flow_is_worked_out_from_each_years_figures(engine: Engine) -> None:
    (answer,) = _ask(engine, "how did free cash flow change from FY2022 to FY2023?", scope="Apple")

    assert answer.status == "found"
    first_year = "Capital expenditure in FY2022 was USD 10.7 billion [2]: a difference of USD 111.4"
    assert first_year in answer.text
    assert answer.text.endswith(
        "From FY2022 to FY2023 it went from USD 111.4 billion to USD 99.6 billion: a decrease of "
        "USD 11.9 billion."
    )
    assert [f for f in answer.figures if f.kind == "computed"][-1].value == -11859000000


def test_free_cash_flow_growth_in_percent(engine: Engine) -> None:
    (answer,) = _ask(
        engine, "by what percent did Microsoft's free cash flow grow from FY2022 to FY2023?"
    )

    change = "it went from USD 65.1 billion to USD 59.5 billion: a percent change of -8.71%."
    assert answer.text.endswith(change)


# -- sums of named figures and running totals ------------------------------------------------
def test_a_cumulative_figure_over_a_span_is_the_sum_of_its_years(engine: Engine) -> None:
    (answer,) = _ask(engine, "what was Microsoft's cumulative R&D spending over FY2020-FY2022?")

    assert answer.text.startswith("The sum is USD 64.5 billion (Microsoft's Research and ")
    assert [f.value for f in answer.figures if f.kind == "computed"] == [64497000000]


def test_two_figures_summed_in_one_year(engine: Engine) -> None:
    (answer,) = _ask(engine, "R&D and capex for FY2021 summed?", scope="Tesla")

    assert answer.text.startswith("The sum is USD 9.08 billion (Tesla's Research and development")


def test_a_sum_with_a_line_not_held_names_it_as_written_and_gives_no_figure(
    engine: Engine,
) -> None:
    (answer,) = _ask(engine, "what were R&D and SG&A combined in FY2023?", scope="Apple")

    assert answer.status == "clarify"
    assert not answer.figures
    assert "nothing is held for “SG&A”" in answer.text


# -- "its margin": the measure whose part is the line on hand --------------------------------
def test_its_margin_after_a_profit_line_is_that_lines_margin(engine: Engine) -> None:
    *_, margin = _ask(
        engine, "What did Microsoft report as operating income in FY2023?", "and its margin?"
    )

    assert margin.text == (
        "The share of Microsoft's Operating income in FY2023 (USD 88.5 billion [1]) to "
        "Microsoft's Revenue in FY2023 (USD 211.9 billion [2]) is 41.77%. (Operating margin is "
        "operating income as a percentage of revenue.)"
    )


def test_its_margin_after_revenue_guesses_no_margin(engine: Engine) -> None:
    # Revenue is the whole of every margin, the part of none: which margin is not said.
    *_, answer = _ask(engine, "what was Apple's revenue in FY2022?", "and its margin?")

    assert not [f for f in answer.figures if f.kind == "computed"]


# -- "how large", "how big": a number asked ------------------------------------------------
def test_how_big_asks_for_the_figure(engine: Engine) -> None:
    (answer,) = _ask(engine, "How big was Microsoft's revenue in FY2022?")

    assert answer.text == "Microsoft's Revenue in FY2022 was USD 198.3 billion [1]."


def test_how_large_with_the_figure_not_held_quotes_no_passage(engine: Engine) -> None:
    (answer,) = _ask(engine, "How large were Microsoft's total liabilities at the end of FY2022?")

    assert answer.status == "not_found"
    assert not answer.sources
    assert answer.text == (
        "The knowledge base holds no figure for Microsoft's Total liabilities in FY2022."
    )


# -- a line named in part beside an operator word ------------------------------------------
def test_a_line_named_in_part_across_to_from_a_line_named_in_full_is_the_second_operand(
    engine: Engine,
) -> None:
    # No name of "Long-term debt (non-current)" is said in full; "to" sets it against assets.
    (answer,) = _ask(engine, "what was Microsoft's long-term debt to total assets in FY2015?")

    assert answer.text.endswith("is 0.1578.")


def test_a_line_named_in_part_after_less(engine: Engine) -> None:
    (answer,) = _ask(engine, "what was Microsoft's total assets less long-term debt in FY2015?")

    assert answer.text.endswith("a difference of USD 148.4 billion.")
