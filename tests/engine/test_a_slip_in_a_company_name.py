"""A company name one slip of the keyboard from a held one ("Larksupr Tools") is not found,
as any unknown name is, and the answer offers the question again with the held name as a
button; it never answers as if that name had been asked, never guesses at short names,
and never offers a company the asker may not see (ADR 0081)."""

from __future__ import annotations

from decimal import Decimal

from engine.answer import answer_question
from engine.names import near_miss
from engine.providers.mock import MockProvider
from engine.store import InMemoryStore
from engine.types import PUBLIC, RESTRICTED, Fact, Term, Vocabulary

STORE = InMemoryStore(
    entities=[
        Term("Larkspur Tools"),
        Term("Kestrel Optics"),
        Term("Ostrander Vault", classification=RESTRICTED),  # only RESTRICTED material names it
    ],
    metrics=[Term("Revenue")],
    facts=[
        Fact("f1", "Larkspur Tools", "Revenue", "FY2031", Decimal("500"), "USD", PUBLIC),
        Fact("f2", "Kestrel Optics", "Revenue", "FY2031", Decimal("800"), "USD", PUBLIC),
        Fact("f3", "Ostrander Vault", "Revenue", "FY2031", Decimal("900"), "USD", RESTRICTED),
    ],
)


def test_a_slipped_name_is_not_found_and_offers_the_held_name() -> None:
    answer = answer_question("What was Larksupr Tools's revenue in FY2031?", STORE, MockProvider())

    assert answer.status == "not_found"
    assert not answer.figures
    assert [(c.label, c.question) for c in answer.choices] == [
        ("Did you mean Larkspur Tools?", "What was Larkspur Tools's revenue in FY2031?")
    ]


def test_a_company_the_asker_may_not_see_is_never_offered() -> None:
    answer = answer_question("What was Ostrandr Vault's revenue in FY2031?", STORE, MockProvider())

    assert "Ostrander" not in answer.text
    assert not any("Ostrander" in c.label or "Ostrander" in c.question for c in answer.choices)


def test_one_slip_means_one_letter_left_out_added_changed_or_two_swapped() -> None:
    vocabulary = Vocabulary(entities=(Term("Kestrel Optics", ("Kestrel",)),), metrics=())

    for slip in ("Kestrl", "Kesstrel", "Kestral", "Kestrle"):
        assert near_miss(slip, vocabulary) == "Kestrel Optics", slip
    for far in ("Kstrl", "Kettle", "Kest"):
        assert near_miss(far, vocabulary) is None, far
