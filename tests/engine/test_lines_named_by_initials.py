"""Lines a question names by their initials (ADR 0058).

"UK" for "United Kingdom", "ocf" for "Operating cash flow": a question may write a label of
a few words as their initials. Initials that are also a common word ("it", the pronoun
"us") are read so only where they cannot be that word: in capitals, after "in".
"""

from __future__ import annotations

from decimal import Decimal

from engine.types import Answer
from tests.engine.pages import ask_on_page, table_page

OWNER = "Harbor Light"
REGIONS = table_page(
    OWNER,
    [
        ["", "2032", "2031"],
        ["United States", "300", "280"],
        ["United Kingdom", "60", "50"],
        ["Income tax", "12", "10"],
        ["Operating cash flow", "90", "70"],
    ],
    scale="",
)


def _facts(answer: Answer) -> list[Decimal]:
    return sorted(f.value for f in answer.figures if f.kind == "fact")


def test_initials_name_the_line_of_those_words() -> None:
    (answer,) = ask_on_page(REGIONS, OWNER, "What was the ocf in 2032?")

    assert answer.status == "found"
    assert _facts(answer) == [Decimal("90")]


def test_two_lines_named_by_initials_set_side_by_side() -> None:
    (answer,) = ask_on_page(REGIONS, OWNER, "What was the ratio of US to UK in 2031?")

    assert answer.status == "found"
    assert _facts(answer) == [Decimal("50"), Decimal("280")]


def test_lower_case_us_after_in_is_the_place() -> None:
    (answer,) = ask_on_page(REGIONS, OWNER, "What was the amount in us in 2031?")

    assert answer.status == "found"
    assert _facts(answer) == [Decimal("280")]


def test_a_pronoun_is_not_read_as_initials() -> None:
    (answer,) = ask_on_page(REGIONS, OWNER, "What was it in 2032?")

    assert Decimal("12") not in _facts(answer)
