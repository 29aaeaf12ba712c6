"""Words a question writes apart that a table's extraction glued into one ("Kioskandcafe
sales", "VisitorsServed"), and a line the question names but for words the sentence
announcing its table says of every line ("the total berth count" of "Total harbour
moorings" in a table of the harbour's berth count): each links the one line meant. A
question that does not say those words of the table, or says words no line or sentence
holds, is still asked back."""

from __future__ import annotations

from decimal import Decimal

from engine.answer import Answer, answer_question
from engine.evaluate.tatqa import ENTITY, page_store
from engine.providers.mock import MockProvider
from engine.session import ConversationSession
from engine.store import InMemoryStore
from tests.engine.pages import ask_on_page, table_page

OWNER = "Kestrel Piers"

SALES = table_page(
    OWNER,
    [
        ["", "2032", "2031"],
        ["Kiosk sales", "410", "380"],
        ["Cafe sales", "260", "240"],
        ["Kioskandcafe sales", "55", "50"],
        ["Ticket sales", "900", "870"],
    ],
    scale="thousand",
)


def _facts(answer: Answer) -> list[Decimal]:
    return [f.value for f in answer.figures if f.kind == "fact"]


def test_three_words_a_label_glued_into_one_name_that_line() -> None:
    (answer,) = ask_on_page(SALES, OWNER, "What were the kiosk and cafe sales in 2031?")

    assert answer.status == "found"
    assert _facts(answer) == [50]


def test_each_glued_word_alone_still_names_its_own_line() -> None:
    (answer,) = ask_on_page(SALES, OWNER, "What were the cafe sales in 2032?")

    assert answer.status == "found"
    assert _facts(answer) == [260]


VISITORS = table_page(
    OWNER,
    [
        ["", "2032", "2031"],
        ["North Pier VisitorsServedOnSite", "1,200", "1,150"],
        ["South Pier VisitorsServedOnSite", "800", "760"],
        ["North Pier Staff", "40", "38"],
    ],
    scale="",
)


def test_four_words_glued_in_a_heading_name_the_column() -> None:
    (answer,) = ask_on_page(
        VISITORS, OWNER, "How many visitors served on site did the south pier have in 2032?"
    )

    assert answer.status == "found"
    assert _facts(answer) == [800]


MOORINGS = [
    ["", "2032", "2031", "2030"],
    ["east basin", "310", "300", "290"],
    ["west basin", "220", "215", "205"],
    ["total harbour moorings", "530", "515", "495"],
]
ANNOUNCED = "Kestrel Piers operates two basins . harbour moorings berth count is as follows :"


def _moorings(before: str) -> InMemoryStore:
    return page_store("page:kestrel", MOORINGS, before, [], before=before)


def _ask(store: InMemoryStore, question: str) -> Answer:
    return answer_question(question, store, MockProvider())


def test_a_line_named_but_for_the_words_its_table_is_announced_by_is_found() -> None:
    answer = _ask(
        _moorings(ANNOUNCED), "What was the change in the total berth count from 2030 to 2032?"
    )

    assert answer.status == "found"
    assert [f.value for f in answer.figures if f.kind == "computed"] == [35]


def test_the_same_question_on_a_page_that_announces_nothing_is_asked_back() -> None:
    store = _moorings("Kestrel Piers operates two basins .")

    answer = _ask(store, "What was the change in the total berth count from 2030 to 2032?")

    assert answer.status != "found"


def test_the_total_alone_is_not_read_as_naming_the_table() -> None:
    answer = _ask(_moorings(ANNOUNCED), "What was the total in 2031?")

    assert answer.status != "found" or _facts(answer) == [515]


def test_a_word_neither_the_line_nor_the_sentence_holds_still_asks_back() -> None:
    answer = _ask(_moorings(ANNOUNCED), "What was the total dredging cost in 2031?")

    assert answer.status != "found"


COUPONS = [
    ["", "2041", "2040"],
    ["municipal bonds", "3.15%", "2.90%"],
    ["corporate bonds", "4.40%", "4.05%"],
]
COUPONS_ANNOUNCED = "Osprey Trust holds bonds . average coupon rate assumptions are as follows :"


def _conversation(before: str, *questions: str) -> list[Answer]:
    store = page_store("page:osprey", COUPONS, before, [], before=before)
    session = ConversationSession(scope=ENTITY)
    return [
        answer_question(q, store, MockProvider(), session=session, history=session.history())
        for q in questions
    ]


def test_a_follow_up_naming_only_what_the_table_is_of_asks_the_figure_on_hand() -> None:
    answers = _conversation(
        COUPONS_ANNOUNCED,
        "What was the change for corporate bonds from 2040 to 2041?",
        "And what was the coupon rate in 2040?",
    )

    assert answers[-1].status == "found"
    assert _facts(answers[-1]) == [Decimal("4.05")]
    assert not [f for f in answers[-1].figures if f.kind == "computed"]


def test_a_follow_up_word_the_announcing_sentence_does_not_hold_is_not_carried() -> None:
    answers = _conversation(
        COUPONS_ANNOUNCED,
        "What was the change for corporate bonds from 2040 to 2041?",
        "And what was the default rate in 2040?",
    )

    assert answers[-1].status != "found"


SCHEDULE = [
    ["", "amount ( in thousands )"],
    ["2033", "1,200"],
    ["2034", "1,450"],
    ["2035", "1,610"],
]


def test_the_one_series_of_a_table_is_named_by_the_words_announcing_it() -> None:
    before = "Kestrel Piers leases its cranes . scheduled crane lease payments are as follows :"
    store = page_store("page:kestrel", SCHEDULE, before, [], before=before)

    answer = _ask(store, "What was the change in scheduled crane lease payments from 2033 to 2034?")

    assert answer.status == "found"
    assert [f.value for f in answer.figures if f.kind == "computed"] == [250]


def test_words_the_sentence_does_not_hold_do_not_name_the_series() -> None:
    before = "Kestrel Piers leases its cranes . scheduled crane lease payments are as follows :"
    store = page_store("page:kestrel", SCHEDULE, before, [], before=before)

    answer = _ask(store, "What was the change in dredging payments from 2033 to 2034?")

    assert answer.status != "found"
