"""Lines a table holds plainly, read so a question can name them (ADR 0077).

- A footnote mark that extraction spaced out ("Stores opened ( 2 )", "( b )") is a mark,
  not a word of the line: a question never says it, and a line named in part beside a
  shorter line named in full ("Stores") was read as the shorter one narrowed by a word.
- A line printed with dashes in every column holds nothing, and is no heading: the "Total"
  under it was named after it ("Total plans not approved ...").
"""

from __future__ import annotations

from engine.answer import Answer, answer_question
from engine.evaluate.tatqa import ENTITY, page_store
from engine.providers.mock import MockProvider
from engine.session import ConversationSession
from engine.store import InMemoryStore
from engine.tables import read_table

OUTLETS = [
    ["", "2031", "2030", "2029"],
    ["outlets at start of year", "812", "790", "771"],
    ["outlets opened ( 2 )", "44", "37", "29"],
    ["outlets shut", "-12", "-15", "-10"],
    ["outlets", "844", "812", "790"],
]
OUTLETS_TEXT = "the following table shows the change in the number of our cafe outlets :"


def _store(rows: list[list[str]], before: str) -> InMemoryStore:
    return page_store("page:quillon", rows, before, [], before=before)


def _ask(store: InMemoryStore, *questions: str) -> Answer:
    session = ConversationSession(scope=ENTITY)
    answers = [
        answer_question(q, store, MockProvider(), session=session, history=session.history())
        for q in questions
    ]
    return answers[-1]


def _facts(answer: Answer) -> list[int]:
    return [int(f.value) for f in answer.figures if f.kind == "fact"]


def test_a_spaced_footnote_mark_is_no_word_of_the_line() -> None:
    names = {f.metric for f in read_table(OUTLETS)}

    assert "outlets opened" in names
    assert not any("( 2 )" in name for name in names)


def test_a_line_with_a_spaced_footnote_mark_is_named_by_its_words() -> None:
    answer = _ask(_store(OUTLETS, OUTLETS_TEXT), "How many outlets were opened in 2030?")

    assert answer.status == "found"
    assert _facts(answer) == [37]


PLANS = [
    ["plan", "awards outstanding", "shares still available"],
    ["plans our owners approved", "1,480,300", "902,115"],
    ["plans our owners never voted on", "—", "—"],
    ["total", "1,480,300", "902,115"],
]


def test_a_line_printed_with_dashes_heads_no_lines_under_it() -> None:
    names = {f.metric for f in read_table(PLANS)}

    assert "total awards outstanding" in names
    assert not any("never voted" in name for name in names)


def test_the_total_under_a_line_of_dashes_is_not_named_after_it() -> None:
    store = _store(PLANS, "the following table sets out our equity plans :")

    answer = _ask(store, "What were the total awards outstanding?")

    assert answer.status == "found"
    assert _facts(answer) == [1480300]
    assert "never voted" not in answer.text
