"""A number asked is answered by quoting a sentence only when that sentence states the very
figure asked (ADR 0040, 0050, 0053). A sentence that merely shares most of the question's
words, an operation word's first letters or a percent of the thing asked is not quoted: the
question is asked back, or not found, naming what is missing."""

from __future__ import annotations

from decimal import Decimal

from engine.answer import answer_question
from engine.parser import figure_asked
from engine.providers.mock import MockProvider
from engine.session import ConversationSession
from engine.store import InMemoryStore
from engine.types import PUBLIC, Answer, Fact, Passage, Term

QUAY = "Quayside Holdings"


def _ask(question: str, *texts: str, session: ConversationSession | None = None) -> Answer:
    store = InMemoryStore(
        entities=[Term(QUAY)],
        metrics=[Term("Revenue")],
        facts=[Fact("f:rev:2022", QUAY, "Revenue", "FY2022", Decimal("95"), "million")],
        passages=[
            Passage(
                id=f"p{i}",
                document_id="review",
                title="Annual review",
                text=text,
                classification=PUBLIC,
                entity=QUAY,
            )
            for i, text in enumerate(texts)
        ],
    )
    history = session.history() if session is not None else None
    return answer_question(question, store, MockProvider(), session=session, history=history)


def _not_quoted(answer: Answer) -> None:
    assert answer.status in ("clarify", "not_found")
    assert not answer.sources


def test_weighted_average_in_a_sentence_is_not_the_average_asked() -> None:
    answer = _ask(
        "What was the average berth fee per vessel in 2022?",
        "In 2022 the weighted-average berth fee per vessel was $3,100 under the new tariff.",
    )

    # "Weighted average" names the tariff's line item; no average of fees is taken there.
    _not_quoted(answer)


def test_a_word_that_only_begins_like_the_operation_asked_does_not_state_it() -> None:
    answer = _ask(
        "In 2022, what did the crane repairs represent in relation to the berth fee increase?",
        "In 2022 the berth fee increase of $12 million was partly offset by crane repairs "
        "related to the storm ($4 million).",
    )

    # "Related" is not "in relation to": the sentence states both figures, not their share.
    _not_quoted(answer)


def test_a_sentence_without_the_question_s_negation_is_about_the_opposite() -> None:
    answer = _ask(
        "What were the non-recurring berth maintenance charges in 2022?",
        "Recurring berth maintenance charges were $7 million in 2022.",
    )

    # Recurring charges are not the non-recurring ones, though every other word is shared.
    _not_quoted(answer)


def test_a_percent_of_the_thing_asked_is_not_its_amount() -> None:
    answer = _ask(
        "What were the berth fee receipts in 2022?",
        "In 2022 the company spent 9 percent of its berth fee receipts on dredging.",
    )

    # 9 percent of the receipts says nothing of how much they were.
    _not_quoted(answer)


def test_a_percent_stating_the_rate_asked_still_answers() -> None:
    answer = _ask(
        "What was the berth fee discount rate in 2022?",
        "The berth fee discount rate was 6% in 2022.",
    )

    assert answer.status in ("found", "answered")
    assert "6" in answer.text


def test_which_of_two_figures_is_greater_is_a_number_question() -> None:
    assert figure_asked("Which one is greater: the berth fees or the crane fees?") == "computed"

    answer = _ask(
        "Which one is greater: the berth fees or the crane fees?",
        "In 2022 berth fees came to $4 million, and crane fees to $3 million.",
    )

    # Two figures settle it; quoting the sentence that holds both does not.
    _not_quoted(answer)


def test_a_sentence_naming_one_of_two_joined_items_does_not_state_their_figure() -> None:
    answer = _ask(
        "What was the net cash from berthing and towing activities in 2022?",
        "Net cash from berthing activities was $8 million in 2022.",
    )

    # Berthing and towing are both asked; the sentence states berthing alone.
    _not_quoted(answer)


def test_those_figures_asked_again_for_a_year_are_a_number_question() -> None:
    texts = ("Berthing tonnages were 41,000 tonnes in 2021. The quay was extended in 2022.",)
    session = ConversationSession(scope=QUAY)
    _ask("What was the change in berthing tonnages from 2021 to 2022?", *texts, session=session)

    answer = _ask("and what were those berthing tonnages in 2022?", *texts, session=session)

    # The figure is asked again, for 2022; the only sentence stating it is about 2021.
    _not_quoted(answer)


def test_one_word_names_too_little_for_a_sentence_to_state_its_figure() -> None:
    answer = _ask("What were the fees in 2022?", "Berth fees were $4 million in 2022.")

    # Berth fees are one kind of fee: which fees is asked back, not quoted.
    _not_quoted(answer)


def test_a_total_over_two_years_is_not_stated_by_the_two_figures_listed() -> None:
    answer = _ask(
        "What were the total berth fee rebates in 2021 and 2022?",
        "Berth fee rebates came to $2 million and $3 million in 2021 and 2022, respectively.",
    )

    # Each year's rebate is stated; their total is not, and is not quoted as if it were.
    _not_quoted(answer)


def test_one_total_stated_for_two_dates_still_answers() -> None:
    answer = _ask(
        "What were the total berth fee rebates owed at the end of 2021 and 2022?",
        "The total berth fee rebates owed were about $2 million at the end of 2022 and 2021.",
    )

    assert answer.status in ("found", "answered")
    assert "2 million" in answer.text
