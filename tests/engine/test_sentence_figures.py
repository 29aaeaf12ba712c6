"""A number the facts do not hold but a document's sentence states is answered as a figure:
grounded in the sentence, cited, carried by follow-ups and usable in a change (ADR 0041)."""

from __future__ import annotations

from decimal import Decimal

from engine.answer import answer_question
from engine.providers.mock import MockProvider
from engine.session import ConversationSession
from engine.store import InMemoryStore
from engine.types import PUBLIC, RESTRICTED, Answer, Fact, Passage, Term

KESTREL = "Kestrel Shipping"
LEASES = (
    "Kestrel's dock rental expense was $9.5 million, $8.1 million and $7.0 million for 2021, "
    "2020 and 2019, respectively. The docks are leased from the port authority."
)


def _passage(number: int, text: str, classification: str = PUBLIC) -> Passage:
    return Passage(
        id=f"passage:{number}",
        document_id=f"doc:{number}",
        title="Notes to the accounts",
        text=text,
        classification=classification,
        entity=KESTREL,
    )


def _store(*passages: Passage) -> InMemoryStore:
    return InMemoryStore(
        entities=[Term(KESTREL, ("Kestrel",))],
        metrics=[Term("Revenue")],
        facts=[Fact("f:rev", KESTREL, "Revenue", "FY2021", Decimal("120"), "million")],
        passages=passages,
    )


def _ask(store: InMemoryStore, *questions: str) -> list[Answer]:
    session = ConversationSession()
    return [
        answer_question(q, store, MockProvider(), session=session, history=session.history())
        for q in questions
    ]


def test_a_figure_a_sentence_states_is_the_answer_with_the_sentence_cited() -> None:
    (answer,) = _ask(_store(_passage(1, LEASES)), "What was Kestrel's dock rental expense in 2020?")

    assert answer.status == "found"
    (figure,) = answer.figures
    assert (figure.value, figure.unit, figure.period) == (Decimal("8.1"), "million", "FY2020")
    assert figure.kind == "fact" and figure.sources == ("passage:1",)
    assert "8.1 million" in answer.text and "[1]" in answer.text
    (source,) = answer.sources
    (start, end) = source.spans[0]
    assert source.excerpt[start:end].startswith("Kestrel's dock rental expense was $9.5 million")
    assert "leased from the port authority" not in source.excerpt[start:end]


def test_follow_ups_carry_the_figure_and_compute_its_change() -> None:
    first, again, change = _ask(
        _store(_passage(1, LEASES)),
        "What was Kestrel's dock rental expense in 2021?",
        "and in 2019?",
        "what was the change?",
    )

    assert first.figures[0].value == Decimal("9.5")
    assert [f.value for f in again.figures] == [Decimal("7.0")]
    assert change.status == "found"
    computed = change.figures[-1]
    assert (computed.kind, computed.role, computed.value) == ("computed", "change", Decimal("2.5"))
    assert computed.sources == ("passage:1",)
    assert "increase of 2.5 million" in change.text


def test_an_earlier_sentence_figure_is_an_operand_of_the_grammar() -> None:
    _, percent = _ask(
        _store(_passage(1, LEASES)),
        "What was Kestrel's dock rental expense in 2021?",
        "what is that less 1.5?",
    )

    assert percent.status == "found"
    assert percent.figures[-1].value == Decimal("8.0")


def test_a_restricted_sentence_is_never_read() -> None:
    store = _store(
        _passage(1, LEASES),
        _passage(2, "Kestrel's dock rental expense was $4.4 million in 2018.", RESTRICTED),
    )

    (answer,) = _ask(store, "What was Kestrel's dock rental expense in 2018?")

    assert not answer.figures and "4.4" not in answer.text
    assert all(s.id != "passage:2" for s in answer.sources)


def test_sentences_that_disagree_give_no_figure() -> None:
    store = _store(
        _passage(1, LEASES),
        _passage(2, "Restated, Kestrel's dock rental expense was $8.6 million in 2020."),
    )

    (answer,) = _ask(store, "What was Kestrel's dock rental expense in 2020?")

    assert not answer.figures
    assert answer.status != "found"


def test_a_sentence_about_another_figure_is_not_read_for_this_one() -> None:
    (answer,) = _ask(
        _store(_passage(1, LEASES)), "What was Kestrel's crane rental expense in 2020?"
    )

    assert not answer.figures


def test_a_change_asked_in_words_no_figure_holds_is_read_from_both_years() -> None:
    (answer,) = _ask(
        _store(_passage(1, LEASES)),
        "What was the change in Kestrel's dock rental expense from 2019 to 2020?",
    )

    assert answer.status == "found", answer.text
    change = answer.figures[-1]
    assert (change.role, change.value) == ("change", Decimal("1.1"))
    assert [f.value for f in answer.figures if f.kind == "fact"] == [Decimal("7.0"), Decimal("8.1")]
    assert answer.intent["operation"] == "difference"


def test_the_figure_is_given_in_the_scale_the_question_asks() -> None:
    (answer,) = _ask(
        _store(_passage(1, LEASES)), "What was Kestrel's dock rental expense in 2020, in thousands?"
    )

    (figure,) = answer.figures
    assert (figure.value, figure.unit) == (Decimal("8100"), "thousand")
    assert "8,100 thousand" in answer.text


def test_a_percent_change_is_computed_from_both_years() -> None:
    (answer,) = _ask(
        _store(_passage(1, LEASES)),
        "What was the percent change in Kestrel's dock rental expense from 2020 to 2021?",
    )

    assert answer.status == "found", answer.text
    change = answer.figures[-1]
    assert (change.role, change.unit) == ("percent change", "%")
    assert change.value == Decimal("17.283951")  # (9.5 - 8.1) / 8.1 * 100


def test_a_figure_carried_past_a_question_about_another_is_not_read() -> None:
    *_, change = _ask(
        _store(_passage(1, LEASES)),
        "What was Kestrel's dock rental expense in 2021?",
        "What was Kestrel's crane hire expense in 2020?",
        "what was the change?",
    )

    # The user moved on to crane hire: the dock rental change would answer another question.
    assert not change.figures


SWAPS = (
    "The aggregate fair values of our open diesel swaps as of december 31 , 2021 and 2020 were "
    "current liabilities of $ 12.5 million and $ 9.0 million , respectively ."
)


def test_a_change_in_an_aggregate_line_item_is_read_from_a_respectively_sentence() -> None:
    # "Aggregate" names the line item here; it does not ask for a sum (ADR 0050).
    (answer,) = _ask(
        _store(_passage(1, SWAPS)),
        "What was the change in the aggregate fair values of open diesel swaps between 2020 "
        "and 2021?",
    )

    assert answer.status == "found", answer.text
    change = answer.figures[-1]
    assert (change.role, change.value) == ("change", Decimal("3.5"))
    assert answer.sources[0].spans


def test_a_change_word_that_moves_no_amount_does_not_make_a_sentence_state_a_change() -> None:
    works = (
        "Kestrel's investments in dock works to improve berths over the last three years were "
        "as follows: $1.3 billion in fiscal 2021 and $1.2 billion in fiscal 2020."
    )

    (answer,) = _ask(
        _store(_passage(1, works)), "What was the change in dock works from 2020 to 2021?"
    )

    # "Improve" says nothing of how these amounts moved: the passage is not quoted (ADR 0050).
    assert answer.status in ("clarify", "not_found"), answer.text
    assert not answer.sources


def test_a_sentence_stating_the_amount_moved_still_answers_a_change() -> None:
    fees = "In 2021 Kestrel recorded a $2.5 million increase in dock fees over 2020."

    (answer,) = _ask(
        _store(_passage(1, fees)), "How much did Kestrel's dock fees increase in 2021?"
    )

    assert answer.status == "answered" and "$2.5 million increase" in answer.text


def test_a_question_for_several_figures_is_not_answered_with_one() -> None:
    deposits = "Kestrel's dock deposits were $4.0 million at December 31, 2021."

    (answer,) = _ask(
        _store(_passage(1, deposits)),
        "What were Kestrel's respective dock deposits at June 30 and December 31, 2021?",
    )

    # Two figures asked; the sentence gives the December one only (ADR 0050).
    assert not answer.figures


def test_a_sentence_states_the_figure_a_question_back_would_only_guess_at() -> None:
    store = InMemoryStore(
        entities=[Term(KESTREL, ("Kestrel",))],
        metrics=[Term("Accumulated depreciation and amortization")],
        facts=[
            Fact(
                "f:acc",
                KESTREL,
                "Accumulated depreciation and amortization",
                "FY2022",
                Decimal("48"),
                "million",
            )
        ],
        passages=[_passage(1, "Crane depreciation for the fleet was $2.5 million in 2022.")],
    )

    (answer,) = _ask(store, "What was the crane depreciation in 2022?")

    # Not "Which figure do you mean: Accumulated depreciation and amortization?" (ADR 0050).
    assert answer.status == "found", answer.text
    assert [f.value for f in answer.figures] == [Decimal("2.5")]
    assert answer.sources[0].spans
