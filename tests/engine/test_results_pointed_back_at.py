"""Follow-ups that point back at what an earlier answer gave (issue 12, ADR 0078): the part a
share was taken of, named by a bare "it" or "they". The page and its labels are invented; each
conversation is asked in order through one ConversationSession scoped to the page, as the
chat page does, and once more in a session rebuilt from the stored turns, as askapp rebuilds
it after a restart."""

from __future__ import annotations

from decimal import Decimal

from engine import arithmetic
from engine.answer import Engine
from engine.evaluate.tatqa import page_store
from engine.providers.mock import MockProvider
from engine.text import normalise_word, words
from tests.engine.test_follow_ups_on_a_page import after_a_restart, ask, computed

# A ferry operator's fleet and its capital, two years.
FLEET = [
    ["", "2023", "2022"],
    ["Passenger vessels", "36", "30"],
    ["Cargo vessels", "24", "20"],
    ["Total vessels", "60", "50"],
    ["Crew members", "1,200", "1,000"],
]


def page(rows: list[list[str]] = FLEET) -> Engine:
    return Engine(page_store("Kestrel/2023/page_4", rows, "", ()), MockProvider())


SHARE = "in 2023, what percentage did the passenger vessels represent in relation to the total?"


# -- "it" after a share: the part the share was taken of ------------------------------------


def test_it_set_against_a_new_whole_after_a_share_is_the_shares_part() -> None:
    share, again = ask(page(), SHARE, "and how much did it represent in relation to crew members?")

    assert computed(share) == Decimal("60")
    # 36 passenger vessels over 1,200 crew: not 60% over 1,200.
    assert again.status == "found"
    assert computed(again) == Decimal("0.03")
    # The share's part is carried: a fact of the period on hand, taken with the new whole as
    # that period's two lines (ADR 0081), both cited.
    assert [c.value for c in again.carried if c.slot == "metric"] == ["Passenger vessels"]
    assert [f.metric for f in again.figures if f.kind == "fact"] == [
        "Passenger vessels",
        "Crew members",
    ]


def test_they_points_back_as_it_does() -> None:
    *_, again = ask(page(), SHARE, "and how much did they represent in relation to cargo vessels?")

    assert again.status == "found"
    assert computed(again) == Decimal("1.5")


def test_the_shares_part_is_carried_across_a_restart() -> None:
    again = after_a_restart(
        page(), SHARE, "and how much did it represent in relation to crew members?"
    )

    assert again.status == "found"
    assert computed(again) == Decimal("0.03")


def test_it_against_the_shares_own_whole_is_asked_back_not_guessed() -> None:
    # "It" over the total again, in another year: the share's part in 2022, or the share
    # itself? Neither is sure, so no figure.
    *_, again = ask(
        page(), SHARE, "and how much did it represent in relation to total vessels in 2022?"
    )

    assert again.status == "clarify"
    assert not [f for f in again.figures if f.kind == "computed"]
    # The question back names the two figures "it" may be.
    assert "the share of 60%" in again.text
    assert "Passenger vessels" in again.text


# -- an item of a change, named with no period -----------------------------------------------

# A roll-forward of net sales: the opening and closing years are lines, the items between
# are held for the closing year only.
BRIDGE = [
    ["", "amount (in millions)"],
    ["2022 net sales", "400.0"],
    ["pricing", "30.0"],
    ["volume", "20.0"],
    ["2023 net sales", "450.0"],
]
CHANGE = "what was the increase in net sales from 2022 to 2023?"


def test_the_share_of_a_change_due_to_an_item_takes_the_item_in_the_changes_year() -> None:
    change, share = ask(
        page(BRIDGE), CHANGE, "what percentage of that increase was due to pricing?"
    )

    assert computed(change) == Decimal("50")
    assert share.status == "found"
    assert computed(share) == Decimal("60")


def test_attributable_to_names_the_part_as_due_to_does() -> None:
    *_, share = ask(
        page(BRIDGE), CHANGE, "what portion of this increase was attributable to volume?"
    )

    assert share.status == "found"
    assert computed(share) == Decimal("0.4")


# Bookings by year, where one line is held for the earliest year only.
BOOKINGS = [
    ["", "2023", "2022", "2021"],
    ["Cabin bookings", "500", "400", "300"],
    ["Launch promotion", "", "", "90"],
]


def test_an_item_held_outside_the_changes_years_is_asked_back_not_set_against_it() -> None:
    change, share = ask(
        page(BOOKINGS),
        "what was the change in cabin bookings from 2022 to 2023?",
        "what percentage of that change was due to the launch promotion?",
    )

    assert computed(change) == Decimal("100")
    # The promotion is held for 2021 only: not a part of the 2022-2023 change.
    assert share.status == "clarify"
    assert not [f for f in share.figures if f.kind == "computed"]


# -- "this total amount": the figure just given, in its own scale ------------------------------

# A water utility's service areas: customers counted one by one, population in millions.
SERVICE = [
    ["", "Customers", "Population served (in millions)"],
    ["Northern district", "150,000", "0.5"],
    ["Southern district", "250,000", "1.5"],
    ["Total districts", "400,000", "2.0"],
]


def test_this_total_amount_is_the_figure_just_given_written_out_in_full() -> None:
    population, share = ask(
        page(SERVICE),
        "what was the total population served?",
        "and how much were the total customers as a percentage of this total amount?",
    )

    assert population.status == "found"
    assert [f.unit for f in population.figures] == ["million"]
    # 400,000 customers over 2,000,000 people: 20%, not 400,000 over 2.
    assert share.status == "found"
    assert computed(share) == Decimal("20")
    result = [c for c in share.carried if c.slot == "result"]
    assert [c.figure.value for c in result if c.figure] == [Decimal("2.0")]


def test_a_ratio_of_two_scales_is_taken_in_full() -> None:
    thousands = arithmetic.Operand("cabins", Decimal("500"), "thousand", ("fact:a",))
    millions = arithmetic.Operand("berths", Decimal("2"), "million", ("fact:b",))

    ratio = arithmetic.combine("ratio", [thousands, millions])

    assert ratio is not None
    assert ratio.value == Decimal("0.25")


def test_a_share_asked_outright_of_two_scales_is_taken_in_full_too() -> None:
    (share,) = ask(
        page(SERVICE),
        "what were the total districts customers as a percentage of the total districts "
        "population served?",
    )

    # 400,000 over 2 million is 20%, never 20,000,000%.
    assert share.status == "found"
    assert computed(share) == Decimal("20")


# -- a result named by its role beside a figure pointed at -------------------------------------

CUSTOMERS = [
    ["", "2016", "2015", "2014"],
    ["Gas customers", "93,000", "86,000", "80,000"],
    ["Electric customers", "120,000", "118,000", "110,000"],
]


def test_the_change_divided_by_that_number_takes_the_figure_just_given() -> None:
    *_, ratio = ask(
        page(CUSTOMERS),
        "what was the change in gas customers from 2015 to 2016?",
        "what was the number in 2015?",
        "what is the change divided by that number?",
    )

    assert ratio.status == "found"
    assert computed(ratio) == Decimal("0.081395")
    assert [c.from_turn for c in ratio.carried if c.slot == "result"] == [1, 2]


def test_the_role_and_that_number_after_a_restart() -> None:
    ratio = after_a_restart(
        page(CUSTOMERS),
        "what was the change in gas customers from 2015 to 2016?",
        "what was the number in 2015?",
        "what is the change divided by that number?",
    )

    assert ratio.status == "found"
    assert computed(ratio) == Decimal("0.081395")


def test_that_number_with_nothing_given_after_the_change_is_not_guessed() -> None:
    # The only answer is the change itself (with its two facts): which number is "that"?
    *_, ratio = ask(
        page(CUSTOMERS),
        "what was the change in gas customers from 2015 to 2016?",
        "what is the change divided by that number?",
    )

    assert ratio.status != "found"
    assert not [f for f in ratio.figures if f.kind == "computed"]


def test_a_portion_of_that_total_is_of_the_sum_just_given() -> None:
    *_, portion = ask(
        page(CUSTOMERS),
        "what were gas customers in 2016?",
        "and electric customers?",
        "what is the combined total?",
        "what portion of that total is gas customers?",
    )

    assert portion.status == "found"
    assert computed(portion) == Decimal("0.43662")


def _read(question: str) -> arithmetic.Reading:
    norms = [normalise_word(w) for w in words(question)]
    return arithmetic.read(norms, [False] * len(norms))


def test_that_total_after_a_share_phrase_is_a_result_but_after_change_in_is_the_line() -> None:
    assert _read("what portion of that total is gas customers?").referent == "sum"
    # "The change in that total": the line the conversation calls a total, not a sum.
    assert _read("what was the change in that total over the year?").referent != "sum"


# -- the same change, of another line ---------------------------------------------------------

GAS_CHANGE = "what was the change in gas customers from 2014 to 2016?"


def test_that_change_for_another_line_is_over_the_same_span() -> None:
    *_, change = ask(
        page(CUSTOMERS), GAS_CHANGE, "and what was that change for electric customers?"
    )

    assert change.status == "found"
    assert computed(change) == Decimal("10000")
    assert [c.value for c in change.carried if c.slot == "period"] == ["FY2014", "FY2016"]


def test_and_another_line_after_a_change_is_that_change_of_it() -> None:
    *_, change = ask(page(CUSTOMERS), GAS_CHANGE, "and electric customers?")

    assert change.status == "found"
    assert computed(change) == Decimal("10000")
    assert [c.value for c in change.carried if c.slot == "operation"] == ["difference"]


def test_a_change_asked_afresh_does_not_lean_on_the_span_before() -> None:
    # A question of its own, neither pointing back nor opening with "and": which periods is
    # asked, not borrowed from the gas question.
    *_, change = ask(page(CUSTOMERS), GAS_CHANGE, "what was the change in electric customers?")

    assert change.status == "clarify"


def test_these_two_changes_are_the_two_results_on_hand() -> None:
    *_, gap = ask(
        page(CUSTOMERS),
        GAS_CHANGE,
        "and electric customers?",
        "what is the difference between these two changes?",
    )

    # ADR 0071's order for two results of no one period: the newer less the older.
    assert gap.status == "found"
    assert computed(gap) == Decimal("-3000")
    assert [c.from_turn for c in gap.carried if c.slot == "result"] == [2, 1]


def test_the_same_for_another_line_after_a_percent_change_is_its_percent_change() -> None:
    *_, same = ask(
        page(CUSTOMERS),
        "what were gas customers in 2016?",
        "what was it in 2014?",
        "what was the percent change?",
        "and the same for electric customers?",
    )

    assert same.status == "found"
    assert computed(same) == Decimal("9.090909")


def test_the_same_for_another_line_after_a_figure_is_that_lines_figure() -> None:
    *_, same = ask(page(CUSTOMERS), "what were gas customers in 2016?", "the same for electric?")

    assert same.status == "found"
    assert [f.value for f in same.figures] == [Decimal("120000")]


TWO_CHANGES = (
    "what was the change in gas customers from 2015 to 2016?",
    "and the change in electric customers over the same years?",
)


def test_the_sum_of_these_two_changes_is_a_sum_not_their_difference() -> None:
    *_, total = ask(page(CUSTOMERS), *TWO_CHANGES, "what is the sum of these two changes?")

    # "Changes" is the results' noun; the operation is the sum (it answered -5,000).
    assert total.status == "found"
    assert computed(total) == Decimal("9000")


def test_the_ratio_of_two_results_is_asked_back_naming_both() -> None:
    *_, ratio = ask(page(CUSTOMERS), *TWO_CHANGES, "what is the ratio of the two?")

    # Not the ratio of the last answer's two facts (0.98), nor a guess which way round.
    assert ratio.status == "clarify"
    assert not [f for f in ratio.figures if f.kind == "computed"]
    assert "7,000" in ratio.text and "2,000" in ratio.text


def test_an_average_of_these_two_changes_is_not_taken_over_the_last_lines_facts() -> None:
    *_, average = ask(page(CUSTOMERS), *TWO_CHANGES, "what is the average of the two changes?")

    assert average.status != "found"


def test_the_average_of_the_two_results_is_their_mean() -> None:
    *_, average = ask(page(CUSTOMERS), *TWO_CHANGES, "what is the average of the two?")

    # Not 119,000, the average of the last answer's two facts.
    assert average.status == "found"
    assert computed(average) == Decimal("4500")
