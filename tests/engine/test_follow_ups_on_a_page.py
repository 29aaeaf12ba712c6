"""Follow-ups over one report page's table (issue 12): what a conversation carries when the
words of a turn are only an operation, after a figure that was asked back, and for
arithmetic on earlier results. The page and its labels are invented; each conversation is
asked in order through one ConversationSession scoped to the page, as the chat page does."""

from __future__ import annotations

from decimal import Decimal

from engine import arithmetic
from engine.answer import Engine
from engine.evaluate.tatqa import ENTITY, page_store
from engine.intent import Intent
from engine.providers.mock import MockProvider
from engine.session import ConversationSession, Remembered
from engine.text import normalise_word
from engine.timeframe import read_timeframe
from engine.types import Answer, Figure

ROWS = [
    ["", "2022", "2021"],
    ["Freight revenue", "812.5", "790.0"],
    ["Changes in deferred harbor fees", "-14.0", "6.5"],
    ["Weighted average vessels in service", "41", "39"],
    ["Opening order book", "300", "280"],
    ["Closing order book", "320", "300"],
    ["Dock rental income", "55", "50"],
]


def page(rows: list[list[str]] = ROWS) -> Engine:
    return Engine(page_store("Harborline/2022/page_7", rows, "", ()), MockProvider())


def ask(engine: Engine, *questions: str) -> list[Answer]:
    session = ConversationSession(scope=ENTITY)
    return [engine.answer(q, session=session, history=session.history()) for q in questions]


def after_a_restart(engine: Engine, *questions: str) -> Answer:
    """The last question asked in a session rebuilt, as askapp rebuilds it, from the stored
    form of the earlier turns (their resolved intents and their figures as dictionaries)."""
    *earlier, last = questions
    stored = [
        Remembered(
            q, Intent.from_dict(q, a.intent), a.text, a.status,
            tuple(Figure.from_dict(f.to_dict()) for f in a.figures) if a.status == "found" else (),
        )
        for q, a in zip(earlier, ask(engine, *earlier), strict=True)
    ]  # fmt: skip
    session = ConversationSession(scope=ENTITY, turns=stored)
    return engine.answer(last, session=session, history=session.history())


def computed(answer: Answer) -> Decimal:
    return [f.value for f in answer.figures if f.kind == "computed"][-1]


# -- operation words alone name no line ------------------------------------------------------


def test_the_net_change_after_two_years_of_a_figure_is_its_change() -> None:
    *_, change = ask(
        page(), "what was freight revenue in 2022?", "and in 2021?", "what is the net change?"
    )

    assert change.status == "found"
    assert computed(change) == Decimal("22.5")
    assert change.intent["metrics"] == ["Freight revenue"]


def test_its_average_is_over_the_figure_on_hand_not_a_weighted_average_line() -> None:
    *_, average = ask(
        page(), "what was freight revenue in 2022?", "what is its average for 2021 and 2022?"
    )

    assert average.status == "found"
    assert computed(average) == Decimal("801.25")


# -- a figure asked back in between -----------------------------------------------------------


def test_its_change_after_a_figure_asked_back_is_not_the_older_figures() -> None:
    rental, asked_back, change = ask(
        page(),
        "what was dock rental income in 2022?",
        "what was the order book in 2022?",
        "what was its change from 2021 to 2022?",
    )

    assert rental.status == "found"
    assert asked_back.status == "clarify"
    # "Its" is the order book the user has not settled, not the rental income before it.
    assert change.status == "clarify"
    assert not change.figures


def test_its_change_asks_back_while_the_question_back_is_unsettled_though_it_offered_it() -> None:
    *_, asked_back, change = ask(
        page(),
        "what was the opening order book in 2022?",
        "what was the book in 2021?",
        "what was its change from 2021 to 2022?",
    )

    assert asked_back.status == "clarify"
    # The user left "the book" open between two lines; taking the one asked before is a
    # guess, so "its change" asks again rather than compute it.
    assert change.status == "clarify"
    assert not change.figures


# -- dates as a performance table prints them ---------------------------------------------

PERFORMANCE = [
    ["", "12/17", "12/18", "12/19"],
    ["Pelican Shipping Corp", "100", "96.40", "131.25"],
    ["Coastal Carriers Index", "100", "101.10", "118.00"],
]


def test_a_date_as_the_table_heads_it_names_that_period_and_a_constant_builds_on_it() -> None:
    value, less = ask(
        page(PERFORMANCE),
        "what was the value of pelican shipping corp on 12/19?",
        "what is that less an initial $100 investment?",
    )

    assert value.status == "found"
    assert value.intent["periods"] == ["FY2019"]
    assert computed(less) == Decimal("31.25")


def test_a_month_and_year_date_is_read_as_its_year_but_a_fraction_is_not() -> None:
    assert read_timeframe("what was it on 12/19?").periods == ("FY2019",)
    assert read_timeframe("from 6/30/08 to 6/30/09").periods == ("FY2008", "FY2009")
    assert read_timeframe("from 6/30/08 to 6/30/09").is_range
    assert read_timeframe("what is 1/2 of the rent?").periods == ()


def test_a_change_assuming_an_initial_investment_takes_it_off_the_figure_on_hand() -> None:
    _, change = ask(
        page(PERFORMANCE),
        "what was the coastal carriers index in 2018?",
        "what is the net change assuming a $100 initial investment?",
    )

    assert change.status == "found"
    assert change.intent["periods"] == ["FY2018"]
    assert computed(change) == Decimal("1.10")


def test_a_figure_less_an_assumed_initial_investment_is_its_gain() -> None:
    (gain,) = ask(
        page(PERFORMANCE),
        "what is the coastal carriers index in 2019 less an assumed initial $100 investment?",
    )

    assert gain.status == "found"
    assert computed(gain) == Decimal("18.00")


# -- two figures set against each other in the period on hand -----------------------------


def test_one_figure_less_another_is_taken_in_the_period_just_answered() -> None:
    *_, less, over = ask(
        page(),
        "what was freight revenue in 2022?",
        "what was dock rental income?",
        "what is freight revenue less dock rental income?",
        "what is the difference over the 2022 freight revenue value?",
    )

    assert less.status == "found"
    assert less.intent["periods"] == ["FY2022"]
    assert computed(less) == Decimal("757.5")
    assert computed(over) == Decimal("0.932308")  # 757.5 / 812.5, to six places


# -- a number worked out by hand, then built on -------------------------------------------

DREDGING = [
    ["", "dredging amount ( in millions )"],
    ["2019", "12.0"],
    ["2020", "12.0"],
    ["2021", "11.0"],
]


def test_a_product_of_constants_plus_a_figure_named_by_another_amount_noun() -> None:
    product, plus, divided = ask(
        page(DREDGING),
        "what is 12 times 2?",
        "what is that plus the dredging cost in 2021?",
        "what is the total cost divided by 5?",
    )

    assert computed(product) == Decimal("24")
    # "Cost" says the line's amount another way; 24 is a bare number, so it takes millions.
    assert plus.status == "found"
    assert computed(plus) == Decimal("35")
    assert divided.status == "found"
    assert computed(divided) == Decimal("7")


def test_what_a_total_becomes_including_another_year_adds_that_year() -> None:
    _, including = ask(
        page(DREDGING),
        "what was the total dredging amount in the years 2019 to 2020?",
        "including 2021, what becomes this total?",
    )

    assert including.status == "found"
    assert computed(including) == Decimal("35")


def test_the_average_amount_over_the_years_on_hand_is_of_the_figure_on_hand() -> None:
    *_, average = ask(
        page(DREDGING),
        "what was the total dredging amount in the years 2019 to 2020?",
        "including 2021, what becomes this total?",
        "and what was the average amount between those three years?",
    )

    assert average.status == "found"
    assert average.intent["metrics"] == ["dredging amount"]
    assert computed(average) == Decimal("11.666667")


def test_a_bare_lookup_in_part_of_the_figure_on_hand_is_not_settled_by_it() -> None:
    *_, lookup = ask(
        page(),
        "what was the change in weighted average vessels in service from 2021 to 2022?",
        "what is the average vessels?",
    )

    assert lookup.status == "clarify"


def test_the_percent_change_after_a_change_from_an_initial_investment_is_over_that_base() -> None:
    questions = (
        "what was the value of pelican shipping corp on 12/19?",
        "what is that less an initial $100 investment?",
        "what is the percent change?",
    )
    *_, percent = ask(page(PERFORMANCE), *questions)

    assert percent.status == "found"
    assert computed(percent) == Decimal("31.25")  # 31.25 over the base of 100, in percent
    assert computed(after_a_restart(page(PERFORMANCE), *questions)) == Decimal("31.25")


def test_this_number_after_a_change_is_the_fact_of_the_year_the_question_names() -> None:
    *_, share = ask(
        page(),
        "what was the change in closing order book from 2021 to 2022?",
        "and in that year of 2022, what percentage did this number represent in relation to "
        "the opening order book?",
    )

    assert share.status == "found"
    assert computed(share) == Decimal("106.666667")  # 320 of 300, the 2022 figures


def test_that_over_a_figure_divides_the_last_result_by_it() -> None:
    *_, over = ask(
        page(),
        "what was freight revenue less dock rental income in 2022?",
        "and that over freight revenue",
    )

    assert over.status == "found"
    assert computed(over) == Decimal("0.932308")  # 757.5 / 812.5


def test_growth_since_a_year_runs_from_it_to_the_year_the_conversation_is_on() -> None:
    *_, growth = ask(page(), "what was freight revenue in 2022?", "growth since 2021?")

    assert growth.status == "found"
    assert growth.intent["periods"] == ["FY2021", "FY2022"]
    assert computed(growth) == Decimal("2.848101")  # (812.5 - 790) / 790, in percent


def test_a_question_opening_on_its_whole_sets_the_last_result_over_it() -> None:
    *_, share = ask(
        page(),
        "what was the change in freight revenue from 2021 to 2022?",
        "and as a percentage of the 2021 figure?",
    )

    assert share.status == "found"
    assert computed(share) == Decimal("2.848101")  # 22.5 of 790, in percent


def test_how_many_times_names_no_whole_right_after_it() -> None:
    norms = [normalise_word(w) for w in ["how", "many", "times", "larger"]]

    assert arithmetic.read(norms, [False] * len(norms)).whole_at == -1


FLEET = [
    ["", "2022", "2021"],
    ["Berths leased at start of period", "14", "12"],
    ["Berths leased at end of period", "17", "14"],
]


def test_a_reply_naming_one_of_the_figures_offered_picks_it_and_the_conversation_goes_on() -> None:
    asked, reply, average = ask(
        page(FLEET),
        "what was the number of berths leased in 2022?",
        "At end of period.",
        "what is its average for 2021 and 2022?",
    )

    assert asked.status == "clarify"
    assert reply.status == "found"
    assert reply.intent["metrics"] == ["Berths leased at end of period"]
    assert computed(average) == Decimal("15.5")


def test_the_value_in_another_year_keeps_the_figure_not_lines_that_say_value() -> None:
    rows = [
        ["", "2022", "2021"],
        ["Harbor bonds par value redeemed", "40", "35"],
        ["Dock notes par value redeemed", "20", "25"],
        ["Fleet units outstanding", "310", "300"],
    ]
    _, value = ask(
        page(rows), "what were the fleet units outstanding in 2022?", "what was the value in 2021?"
    )

    assert value.status == "found"
    assert value.intent["metrics"] == ["Fleet units outstanding"]
    assert [f.value for f in value.figures] == [Decimal("300")]


def test_a_part_named_in_words_no_line_holds_is_not_taken_for_an_earlier_result() -> None:
    (share,) = ask(page(), "what portion of freight revenue in 2022 was earned overseas?")

    assert share.status == "clarify"
    # The part is unread, not a result: the question back names the whole, not a turn.
    assert "earlier figure" not in share.text


def test_roi_over_two_years_is_the_percent_change() -> None:
    (roi,) = ask(
        page(PERFORMANCE), "what was the roi of the coastal carriers index from 2018 to 2019?"
    )

    assert roi.status == "found"
    assert computed(roi) == Decimal("16.716123")  # (118 - 101.10) / 101.10, in percent


def test_what_the_questions_back_settled_or_left_open_holds_across_a_restart() -> None:
    settled = after_a_restart(
        page(FLEET),
        "what was the number of berths leased in 2022?",
        "At end of period.",
        "what is its average for 2021 and 2022?",
    )
    left_open = after_a_restart(
        page(),
        "what was dock rental income in 2022?",
        "what was the order book in 2022?",
        "what was its change from 2021 to 2022?",
    )

    assert computed(settled) == Decimal("15.5")
    assert left_open.status == "clarify"


def test_a_figure_named_alone_after_a_figure_not_held_stays_in_that_period() -> None:
    missing, other = ask(
        page(),
        "what was dock rental income in 2019?",
        "ok, what about freight revenue?",
    )

    assert missing.status == "not_found"
    # Asked in the year just answered, not "which period do you mean?"; held for none there.
    assert other.status == "not_found"
    assert other.intent["periods"] == ["FY2019"]
    assert not other.figures
