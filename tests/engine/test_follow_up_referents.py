"""Follow-up turns that name what they mean in other ways than a figure's label (ADR 0061):
a count of years said beside the years themselves, and an earlier result described by the
figures it was worked out from."""

from __future__ import annotations

from decimal import Decimal

from engine.answer import Answer, answer_question
from engine.evaluate.tatqa import ENTITY, page_store
from engine.intent import Intent
from engine.providers.mock import MockProvider
from engine.session import ConversationSession, Remembered
from engine.types import Figure

DUES = [
    ["( in thousands )", "2043", "2042", "2041"],
    ["harbour dues", "640", "612", "587"],
    ["pilotage fees", "81", "80", "77"],
]


def _conversation(table: list[list[str]], *questions: str) -> list[Answer]:
    store = page_store("page:gannet", table, "", [])
    session = ConversationSession(scope=ENTITY)
    return [
        answer_question(q, store, MockProvider(), session=session, history=session.history())
        for q in questions
    ]


def _computed(answer: Answer) -> list[Decimal]:
    return [f.value for f in answer.figures if f.kind == "computed"]


def test_a_count_of_years_beside_the_years_it_counts_adds_no_words_of_a_figure() -> None:
    first, last = _conversation(
        DUES,
        "How much were the harbour dues in 2043?",
        "Staying with those dues, how did they move over the two prior years, 2041 to 2042?",
    )

    assert first.status == "found"
    assert last.status == "found"
    assert _computed(last) == [Decimal(25)]


def test_a_count_of_years_that_is_not_the_years_named_is_not_dropped() -> None:
    *_, last = _conversation(
        DUES,
        "How much were the harbour dues in 2043?",
        "Staying with those dues, how did they move over the three prior years, 2041 to 2042?",
    )

    assert last.status != "found"


# -- a result named by the figures it was worked out from -------------------------------------

TOLLS = [
    ["", "december 31 2043 ( in millions )"],
    ["canal tolls", "800"],
    ["lock upkeep", "200"],
]
WORKED_OUT = (
    "What were the canal tolls in 2043?",
    "And the lock upkeep?",
    "What are canal tolls minus lock upkeep?",
)


def _after_a_restart(table: list[list[str]], *questions: str) -> Answer:
    """The last question asked in a session rebuilt from the stored form of the earlier turns
    (their resolved intents and their figures as dictionaries), as askapp rebuilds it."""
    *earlier, last = questions
    stored = [
        Remembered(
            q, Intent.from_dict(q, a.intent), a.text, a.status,
            tuple(Figure.from_dict(f.to_dict()) for f in a.figures) if a.status == "found" else (),
        )
        for q, a in zip(earlier, _conversation(table, *earlier), strict=True)
    ]  # fmt: skip
    session = ConversationSession(scope=ENTITY, turns=stored)
    store = page_store("page:gannet", table, "", [])
    return answer_question(last, store, MockProvider(), session=session,
                           history=session.history())  # fmt: skip


def test_a_result_described_by_its_operands_is_set_against_the_figure_named_again() -> None:
    question = "And the difference of canal tolls minus lock upkeep over the 2043 canal tolls?"
    *earlier, last = _conversation(TOLLS, *WORKED_OUT, question)

    assert [a.status for a in earlier] == ["found"] * 3
    assert last.status == "found"
    assert _computed(last) == [Decimal("0.75")]
    assert _after_a_restart(TOLLS, *WORKED_OUT, question).figures == last.figures


def test_a_result_described_by_its_operands_with_nothing_named_again_is_not_guessed() -> None:
    *_, last = _conversation(
        TOLLS, *WORKED_OUT, "And the difference of canal tolls minus lock upkeep over 2043?"
    )

    assert last.status != "found" or _computed(last) != [Decimal("0.75")]


# -- a balance's opening and closing moments ----------------------------------------------

BERTHS = [
    ["", "2043", "2042"],
    ["beginning berths", "52", "47"],
    ["berths added", "9", "6"],
    ["berths retired", "-3", "-1"],
    ["ending berths", "58", "52"],
]
MOMENTS = (
    "How many berths were there at the close of 2043?",
    "And how many at the start of 2043?",
    "And the net change?",
)


def _facts(answer: Answer) -> list[Decimal]:
    return [f.value for f in answer.figures if f.kind == "fact"]


def test_the_start_of_a_year_is_the_balance_the_lines_call_its_beginning() -> None:
    closing, opening, _ = _conversation(BERTHS, *MOMENTS)

    assert (closing.status, _facts(closing)) == ("found", [Decimal(58)])
    assert (opening.status, _facts(opening)) == ("found", [Decimal(52)])


def test_a_balance_changes_by_its_closing_less_its_opening_whichever_was_asked_last() -> None:
    *_, change = _conversation(BERTHS, *MOMENTS)

    assert change.status == "found"
    assert _computed(change) == [Decimal(6)]
    assert _computed(_after_a_restart(BERTHS, *MOMENTS)) == [Decimal(6)]


def test_two_lines_other_than_a_balance_change_by_the_later_answer_less_the_earlier() -> None:
    *_, change = _conversation(
        BERTHS, "How many berths were added in 2043?", "And retired in 2043?", "And the net change?"
    )

    assert _computed(change) == [Decimal(-12)]


def test_the_start_of_a_year_links_no_line_that_names_no_moment() -> None:
    *_, opening = _conversation(
        DUES, "How much were the harbour dues in 2043?", "And at the start of 2043?"
    )

    assert opening.status != "found"


# -- a figure set over an earlier sum of it ------------------------------------------------

SUMMED = (
    "What is the sum of harbour dues in 2043 and pilotage fees in 2043?",
    "What were the pilotage fees in 2043?",
)


def test_a_figure_over_the_sum_it_was_part_of_divides_the_two_earlier_answers() -> None:
    question = "And that figure over the sum of the two?"
    *earlier, last = _conversation(DUES, *SUMMED, question)

    assert [a.status for a in earlier] == ["found", "found"]
    assert last.status == "found"
    assert _computed(last)[-1].quantize(Decimal("0.0001")) == Decimal("0.1123")
    assert _after_a_restart(DUES, *SUMMED, question).figures == last.figures


def test_a_figure_the_earlier_sum_did_not_add_up_is_not_set_over_it() -> None:
    *_, last = _conversation(
        DUES, SUMMED[0], "What were the pilotage fees in 2042?", "And that figure over the sum?"
    )

    assert last.status != "found"


# -- an earlier change moved by a year --------------------------------------------------------

CHANGED = (
    "What were the harbour dues in 2042?",
    "And in 2041?",
    "By how much did they change?",
    "And what share of the 2041 dues was this change?",
)
MOVED = "And for the following year of that period, what was that change in this total?"


def test_that_change_in_the_following_year_is_the_same_span_a_year_later() -> None:
    *earlier, last = _conversation(DUES, *CHANGED, MOVED)

    assert _computed(earlier[2]) == [Decimal(25)]
    assert earlier[3].status == "found"
    assert last.status == "found"
    assert _computed(last) == [Decimal(28)]
    assert _after_a_restart(DUES, *CHANGED, MOVED).figures == last.figures


def test_that_change_a_year_on_is_not_a_change_of_two_figures() -> None:
    *_, last = _conversation(
        DUES,
        "What were the harbour dues in 2041?",
        "And the pilotage fees in 2041?",
        "What is the harbour dues less the pilotage fees in 2041?",
        "And what share of the 2041 dues was this change?",
        MOVED,
    )

    assert last.status != "found"


def test_a_follow_up_that_says_a_total_does_not_take_the_last_comparison() -> None:
    from engine.intent import Intent
    from engine.session import ConversationSession
    from engine.types import Answer

    session = ConversationSession()
    change = Intent.from_dict(
        "what was the change in ending cash from 2030 to 2031?",
        {"kind": "comparison", "operation": "difference", "entities": ["Harbour"],
         "metrics": ["Ending cash"], "periods": ["FY2030", "FY2031"]},
    )  # fmt: skip
    session.remember(change.question, change, Answer(text="An increase of 25.", status="found"))
    follow = {"kind": "lookup", "periods": ["FY2031"], "follow_up": True}
    total = Intent.from_dict("and the total in FY2031?", follow)
    elliptical = Intent.from_dict("and in FY2031?", follow)

    assert session.resolve(elliptical)[0].operation == "difference"  # still carried
    assert session.resolve(total)[0].operation is None  # "total" is an operation of its own
