"""Passage text as readers and models see it: cleaned, cut into sentences, with a topic."""

from __future__ import annotations

import pytest

from engine.passages import TABLE_NOTE, clean, is_prose, sentences, years
from engine.topic import question_topic, text_words

FILING = """Fiscal 2024 Highlights

Total net sales increased 2% during 2024 compared to 2023.

Apple Inc. | 2024 Form 10-K | 22

The following table shows net sales by category for 2024, 2023 and 2022 (dollars in millions):

2024Change2023Change2022

iPhone$201,183\u00a0—\u00a0%$200,583\u00a0(2)%$205,489

Services (1)

96,169\u00a013\u00a0%85,200\u00a09\u00a0%78,129

(1)Services net sales include amortization of deferred value.

•

Microsoft Cloud revenue increased 23% to $137.4 billion.

•Third generation of AirPods."""


def test_page_footers_and_flattened_tables_leave_the_excerpt() -> None:
    cleaned = clean(FILING)

    assert "Form 10-K | 22" not in cleaned
    assert "201,183" not in cleaned and "2024Change2023" not in cleaned
    assert "The following table shows" not in cleaned, "a removed table's caption goes too"
    assert cleaned.count(TABLE_NOTE) == 1
    assert "Total net sales increased 2% during 2024 compared to 2023." in cleaned
    assert "(1)Services net sales include amortization of deferred value." in cleaned


def test_a_bullet_alone_on_its_line_joins_its_item_and_hard_wraps_are_undone() -> None:
    cleaned = clean(
        FILING
        + "\n\nNet cash used in investing activities increased by $618.4\nmillion during 2018."
    )

    assert "• Microsoft Cloud revenue increased 23% to $137.4 billion." in cleaned
    assert "increased by $618.4 million during 2018." in cleaned


def test_sentences_know_where_they_stand() -> None:
    text = "Revenue rose 6% in fiscal 2025. The U.S. dollar was strong.It hurt sales."

    found = sentences(text)

    assert [s.text for s in found] == [
        "Revenue rose 6% in fiscal 2025.",
        "The U.S. dollar was strong.",
        "It hurt sales.",
    ]
    assert all(text[s.start : s.end] == s.text for s in found)


@pytest.mark.parametrize(
    ("sentence", "prose"),
    [
        ("Fiscal 2024 Highlights", False),  # a heading
        ("Apple Inc. | 2024 Form 10-K | 22", False),  # a footer
        ("iPhone$201,183 — %$200,583 (2)%$205,489", False),  # a table row
        ("•Third generation of AirPods.", False),  # a bullet without a verb
        ("• LinkedIn revenue increased 34%.", True),  # a bullet that says something
        ("Services kept growing throughout.", True),
        ("The table below shows the carrying amounts of our debt:", True),
    ],
)
def test_only_prose_is_quotable(sentence: str, prose: bool) -> None:
    assert is_prose(sentence) is prose


def test_years_are_read_as_years_not_amounts() -> None:
    assert years("from $2,023 million in FY23 to 2024 and fiscal 2025, 2019% aside") == {
        2023,
        2024,
        2025,
    }


def test_a_question_s_topic_leaves_out_companies_periods_and_question_words() -> None:
    topic = question_topic(
        "Why did Microsoft's operating income grow in FY2024?", names=["Microsoft"]
    )

    assert topic.written == ("operating", "income", "grow")
    assert topic.coverage(text_words("Operating income rose to $128.5 billion.")) == 1.0
    assert topic.coverage(text_words("Xbox revenue increased 50%.")) == pytest.approx(0.2)


def test_a_fall_is_not_answered_by_a_rise() -> None:
    topic = question_topic("Why did revenue dip?")

    assert topic.coverage(text_words("Revenue fell 3%.")) == 1.0
    assert topic.coverage(text_words("Revenue recovered in 2024.")) < 1.0
    assert topic.coverage(text_words("Revenue changed little.")) == 1.0  # no direction: either
