"""Questions an analyst types in shorthand: a sign for a word ("what % of revenue?"), "latest"
for the last period held, and a line named again beside "vs FY2023" while the conversation
is on another year (the change is from the year named to the year the conversation is on)."""

from __future__ import annotations

from decimal import Decimal

from engine import ConversationSession, Engine, Fact, InMemoryStore, MockProvider, Term

STORE = InMemoryStore(
    entities=[Term("Harrowgate Mills")],
    metrics=[Term("Revenue"), Term("Net income"), Term("Total assets")],
    facts=[
        Fact("rev-22", "Harrowgate Mills", "Revenue", "FY2022", Decimal("900"), "USD"),
        Fact("rev-23", "Harrowgate Mills", "Revenue", "FY2023", Decimal("1000"), "USD"),
        Fact("rev-24", "Harrowgate Mills", "Revenue", "FY2024", Decimal("1250"), "USD"),
        Fact("ni-22", "Harrowgate Mills", "Net income", "FY2022", Decimal("60"), "USD"),
        Fact("ni-23", "Harrowgate Mills", "Net income", "FY2023", Decimal("80"), "USD"),
        Fact("ni-24", "Harrowgate Mills", "Net income", "FY2024", Decimal("100"), "USD"),
        Fact("ta-23", "Harrowgate Mills", "Total assets", "FY2023", Decimal("4000"), "USD"),
    ],
)
ENGINE = Engine(STORE, MockProvider())


def _ask(*questions: str):  # type: ignore[no-untyped-def]
    session = ConversationSession(scope="Harrowgate Mills")
    answers = [ENGINE.answer(q, session=session, history=session.history()) for q in questions]
    return answers[-1]


def _computed(answer):  # type: ignore[no-untyped-def]
    return [f.value for f in answer.figures if f.kind == "computed"]


def test_the_percent_sign_reads_as_the_word() -> None:
    signed = _ask("net income in FY2024", "what % of revenue?")
    worded = _ask("net income in FY2024", "what percentage of revenue?")

    assert _computed(signed) == [Decimal(8)], signed.text
    assert _computed(signed) == _computed(worded)


def test_latest_is_the_last_period_held_for_that_line() -> None:
    revenue = _ask("what is the latest revenue?")
    assets = _ask("what were the most recent total assets?")

    assert revenue.status == "found" and [f.period for f in revenue.figures] == ["FY2024"]
    assert [f.period for f in assets.figures] == ["FY2023"], assets.text


def test_a_line_named_again_vs_a_year_is_set_against_the_year_the_conversation_is_on() -> None:
    answer = _ask("net income in FY2024", "how much did net income grow vs FY2023?")

    assert _computed(answer) == [Decimal(20)], answer.text  # FY2023 to FY2024, not FY2022 to FY2023
    assert {f.period for f in answer.figures if f.kind == "fact"} == {"FY2023", "FY2024"}


def test_vs_a_year_with_no_conversation_still_takes_the_year_before_it() -> None:
    answer = _ask("how much did net income grow vs FY2023?")

    assert _computed(answer) == [Decimal(20)], answer.text  # FY2022 to FY2023, said so
    assert "previous period held" in answer.text


SHARES = InMemoryStore(
    entities=[Term("Harrowgate Mills")],
    metrics=[Term("Revenue"), Term("Cost of revenue"), Term("Marketing expense", ("marketing",))],
    facts=[
        Fact("r", "Harrowgate Mills", "Revenue", "FY2024", Decimal("1000"), "USD"),
        Fact("c", "Harrowgate Mills", "Cost of revenue", "FY2024", Decimal("600"), "USD"),
        Fact("m", "Harrowgate Mills", "Marketing expense", "FY2024", Decimal("50"), "USD"),
    ],
)


def test_no_line_is_read_from_words_on_both_sides_of_a_shares_whole() -> None:
    # "costs" belongs to the part, "revenue" to the whole: together they are not "Cost of
    # revenue", which would set marketing against the wrong figure.
    answer = Engine(SHARES, MockProvider()).answer(
        "What were Harrowgate Mills' marketing costs as a share of revenue in FY2024?"
    )

    assert not [f for f in answer.figures if f.metric == "Cost of revenue"], answer.text
    computed = [f.value for f in answer.figures if f.kind == "computed"]
    assert computed in ([], [Decimal(5)], [Decimal("0.05")]), answer.text


def test_a_line_named_whole_on_one_side_of_a_share_still_links() -> None:
    answer = Engine(SHARES, MockProvider()).answer(
        "What was Harrowgate Mills' cost of revenue as a share of revenue in FY2024?"
    )

    assert [f.metric for f in answer.figures if f.kind == "fact"] == ["Cost of revenue", "Revenue"]


MARGINS = InMemoryStore(
    entities=[Term("Harrowgate Mills")],
    metrics=[Term("Revenue"), Term("Gross profit")],
    facts=[
        Fact("r23", "Harrowgate Mills", "Revenue", "FY2023", Decimal("1000"), "USD"),
        Fact("r24", "Harrowgate Mills", "Revenue", "FY2024", Decimal("1250"), "USD"),
        Fact("g23", "Harrowgate Mills", "Gross profit", "FY2023", Decimal("300"), "USD"),
        Fact("g24", "Harrowgate Mills", "Gross profit", "FY2024", Decimal("450"), "USD"),
    ],
)


def test_a_change_in_a_margin_is_the_margin_each_year_then_their_change() -> None:
    engine = Engine(MARGINS, MockProvider())
    change = engine.answer("How did Harrowgate Mills' gross margin change from FY2023 to FY2024?")
    versus = engine.answer("What was Harrowgate Mills' gross margin in FY2024 vs FY2023?")
    relative = engine.answer(
        "What was the percentage change in Harrowgate Mills' gross margin from FY2023 to FY2024?"
    )

    # 30% in FY2023, 36% in FY2024: six percentage points, whichever year is said first.
    for answer in (change, versus):
        assert answer.status == "found", answer.text
        assert [f.value for f in answer.figures if f.kind == "computed"] == [
            Decimal(30),
            Decimal(36),
            Decimal(6),
        ], answer.text
        assert "6 percentage points" in answer.text
    assert [f.value for f in relative.figures if f.kind == "computed"][-1] == Decimal(20)
    (step,) = [f for f in change.figures if f.kind == "computed" and f.value == 6]
    assert set(step.sources) == {"r23", "r24", "g23", "g24"}  # cited through both margins


def test_years_counted_from_the_year_the_conversation_is_on() -> None:
    earlier = _ask("net income in FY2024", "and two years earlier?")
    later = _ask("net income in FY2022", "and a year later?")

    assert [f.period for f in earlier.figures] == ["FY2022"], earlier.text
    assert [f.period for f in later.figures] == ["FY2023"], later.text


def test_a_word_set_inside_a_lines_name_says_another_line() -> None:
    # "Net interest income" is a bank's line; a company holding only net income must not
    # answer it with net income.
    inserted = _ask("what was net interest income in FY2024?")
    plain = _ask("what was net income in FY2024?")
    amount = _ask("what was the net income amount in FY2024?")

    assert inserted.status == "clarify" and not inserted.figures, inserted.text
    assert "interest" in inserted.text
    assert [f.value for f in plain.figures] == [Decimal(100)]
    assert [f.value for f in amount.figures] == [Decimal(100)]


def test_a_change_said_in_everyday_verbs() -> None:
    # Net income 80 in FY2023, 100 in FY2024: each asks that change, not a passage.
    for asked in (
        "did it go up or down?", "did it improve?", "how much did it climb?",
        "how big was the jump?", "and it went down?",
    ):  # fmt: skip
        answer = _ask("net income in FY2023", "and in FY2024?", asked)
        assert _computed(answer) == [Decimal(20)], f"{asked}: {answer.text}"
