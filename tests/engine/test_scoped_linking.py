"""A conversation scoped to one company links metric words against that company's own
metrics first; operation words never link a line item of their own beside the one named
(ADR 0025)."""

from __future__ import annotations

from decimal import Decimal

from engine.answer import answer_question
from engine.parser import IntentParser
from engine.providers.mock import MockProvider
from engine.session import ConversationSession
from engine.store import InMemoryStore
from engine.types import Fact, Term

ALDER, BIRCH = "Alder Tools", "Birch Petroleum"
HELD = {
    ALDER: ("Product sales", "Service sales", "Other intangible assets net",
            "Net change for the year"),
    BIRCH: ("Sales of crude", "Average sales price per barrel", "Refinery throughput",
            "Net change for the year"),
}  # fmt: skip


def _store() -> InMemoryStore:
    facts = [
        Fact(f"{entity}:{metric}:{year}", entity, metric, f"FY{year}", Decimal(value), "million")
        for entity, metrics in HELD.items()
        for index, metric in enumerate(metrics)
        for year, value in ((2021, 100 + index), (2022, 110 + 2 * index))
    ]
    names = sorted({m for metrics in HELD.values() for m in metrics})
    return InMemoryStore(
        entities=[Term(ALDER), Term(BIRCH)], metrics=[Term(m) for m in names], facts=facts
    )


STORE = _store()


def _held_by(entity: str) -> frozenset[str]:
    return frozenset(HELD[entity])


def _parse(question: str, scope: str | None = None):  # type: ignore[no-untyped-def]
    return IntentParser(STORE.vocabulary()).parse(question, scope=scope, held_by=_held_by)


def test_a_scoped_question_offers_only_the_scoped_companys_figures() -> None:
    read = _parse("What were sales in 2022?", scope=ALDER)

    assert set(read.ambiguous[0].choices) == {"Product sales", "Service sales"}


def test_without_a_scope_every_company_holding_the_words_is_offered() -> None:
    read = _parse("What were sales in 2022?")

    assert "Sales of crude" in read.ambiguous[0].choices


def test_a_company_named_in_the_question_is_the_scope_of_its_words() -> None:
    read = _parse("What were Birch Petroleum's sales of crude in 2022?", scope=ALDER)

    assert read.metrics == ("Sales of crude",)


def test_words_only_another_company_holds_fall_back_to_the_whole_vocabulary() -> None:
    read = _parse("What was the refinery throughput in 2022?", scope=ALDER)

    assert read.metrics == ("Refinery throughput",)


def test_the_answer_never_offers_a_figure_only_another_company_holds() -> None:
    session = ConversationSession(scope=ALDER)

    answer = answer_question("What were sales in 2022?", STORE, MockProvider(), session=session)

    assert answer.status == "clarify"
    offered = {c.label for c in answer.choices}
    assert offered and offered <= set(HELD[ALDER])


def test_operation_words_do_not_link_a_line_item_of_their_own() -> None:
    read = _parse(
        "What is the net change in other intangible assets net from 2021 to 2022?", scope=ALDER
    )

    assert read.metrics == ("Other intangible assets net",)
    assert read.operation == "difference"


def test_the_change_of_the_named_line_item_is_answered() -> None:
    session = ConversationSession(scope=ALDER)

    answer = answer_question(
        "What is the net change in other intangible assets net from 2021 to 2022?",
        STORE, MockProvider(), session=session,
    )  # fmt: skip

    assert answer.status == "found"
    assert [f.value for f in answer.figures if f.kind == "computed"] == [Decimal(12)]


def test_a_line_item_named_only_by_operation_words_still_links() -> None:
    read = _parse("What was the net change for the year in 2022?", scope=ALDER)

    assert read.metrics == ("Net change for the year",)


def test_a_pronoun_follow_up_keeps_the_figure_carried() -> None:
    session = ConversationSession(scope=ALDER)
    answer_question("What were product sales in 2021?", STORE, MockProvider(), session=session)

    answer = answer_question("What was it in 2022?", STORE, MockProvider(), session=session)

    assert answer.status == "found"
    assert [(f.metric, f.period) for f in answer.figures] == [("Product sales", "FY2022")]


LEDGER_STORE = InMemoryStore(
    entities=[Term(ALDER)],
    metrics=[
        Term(m)
        for m in (
            "Net cash used for financing activities",
            "Net cash from operating activities",
            "Deferred tax",
            "Current tax",
            "Backlog at year-end",
        )
    ],
)


def _ledger(question: str):  # type: ignore[no-untyped-def]
    return IntentParser(LEDGER_STORE.vocabulary()).parse(question)


def test_a_line_item_named_in_its_rarer_words_is_taken() -> None:
    assert _ledger("What was the net cash for financing activities in 2022?").metrics == (
        "Net cash used for financing activities",
    )


def test_a_common_word_shared_by_line_items_is_asked_back() -> None:
    read = _ledger("What was the tax in 2022?")

    assert read.metrics == ()
    assert set(read.ambiguous[0].choices) == {"Deferred tax", "Current tax"}


def test_a_line_item_partly_named_beside_unknown_words_is_asked_back() -> None:
    read = _ledger("What was the net cash for financing activities of the marine segment in 2022?")

    assert read.metrics == ()
    assert read.ambiguous[0].choices == ("Net cash used for financing activities",)


def test_a_line_named_but_for_its_date_is_taken_from_the_scoped_companys_own_labels() -> None:
    held = {
        "Cedar Yards": ("Backlog at year-end", "Order intake"),
        "Dune Marine": ("Backlog", "Backlog at year-end"),
    }
    store = InMemoryStore(
        entities=[Term(name) for name in held],
        metrics=[Term(m) for m in sorted({m for ms in held.values() for m in ms})],
    )
    parser = IntentParser(store.vocabulary())

    def parse(scope: str):  # type: ignore[no-untyped-def]
        return parser.parse(
            "What was the backlog in 2022?", scope=scope, held_by=lambda e: frozenset(held[e])
        )

    assert parse("Cedar Yards").metrics == ("Backlog at year-end",)
    assert parse("Dune Marine").metrics == ("Backlog",)
