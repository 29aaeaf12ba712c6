"""A table is announced in many ways ("the table below presents ...", "... consisted of the
following:", "... are summarized below:", a colon with the table's headings after it): each
names the series a column headed only by its scale holds. Text that announces nothing still
names nothing."""

from __future__ import annotations

import pytest

from engine.answer import answer_question
from engine.evaluate.tatqa import page_store
from engine.providers.mock import MockProvider
from engine.tables import table_caption

FEES = [
    ["", "( in thousands )"],
    ["2041", "4,210"],
    ["2042", "4,480"],
    ["later years", "12,300"],
]
OPENING = "Tern Ltd charters its ships to operators on long terms . "
ANNOUNCEMENTS = [
    "the table below presents the charter fees receivable under these terms for the periods "
    "indicated. .",
    "the following schedule sets forth charter fees receivable : year amount",
    "charter fees receivable under these terms consisted of the following ( in thousands ) :",
    "charter fees receivable by year are summarized below :",
]


@pytest.mark.parametrize("announcement", ANNOUNCEMENTS)
def test_each_way_of_announcing_a_table_names_its_series(announcement: str) -> None:
    before = OPENING + announcement
    store = page_store("page:tern", FEES, before, [], before=before)

    answer = answer_question(
        "What were the charter fees receivable in 2042?", store, MockProvider()
    )

    assert answer.status == "found"
    assert [int(f.value) for f in answer.figures if f.kind == "fact"] == [4480]


def test_a_sentence_that_announces_no_table_names_nothing() -> None:
    assert table_caption(OPENING + "the fees rose in the following years .") == ""


def test_a_running_header_glued_before_the_announcing_sentence_is_not_the_subject() -> None:
    before = (
        "tern ltd notes to consolidated financial statements the charter fees receivable "
        "under these terms for the next years are as follows :"
    )
    store = page_store("page:tern", FEES, before, [], before=before)

    answer = answer_question(
        "What were the charter fees receivable in 2042?", store, MockProvider()
    )

    assert table_caption(before) == "charter fees receivable"
    assert answer.status == "found"
    assert [int(f.value) for f in answer.figures if f.kind == "fact"] == [4480]


def test_a_determiner_inside_a_qualifier_does_not_start_the_subject() -> None:
    before = "total charter fees of the fleet by region were as follows :"

    assert table_caption(before) == "total charter fees"
