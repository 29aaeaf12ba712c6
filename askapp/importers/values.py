"""Reading figures as financial tables write them: "(1,234)", "$ 1,452.4", "12%", "-0.5".

Faithful, not forgiving: a cell either reads as one exact number or is an error. Nothing is
rounded, and a sign is only ever what the cell wrote.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import Decimal

from askapp.importers.base import Invalid

PERCENT_UNIT = "%"
SCALES = {"thousand": Decimal(1_000), "million": Decimal(1_000_000), "billion": Decimal(10**9)}

_NUMBER = r"\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?|\.\d+"
_AMOUNT = re.compile(
    rf"""
    (?P<minus>[-\u2212])?\s*(?P<open>\()?\s*(?P<dollar>\$)?\s*(?P<inner_minus>[-\u2212])?\s*
    (?P<number>{_NUMBER})\s*(?P<close>\))?\s*(?P<percent>%)?
    """,
    re.VERBOSE,
)
_SCALE_IN_HEADER = re.compile(r"\bin\s+(thousand|million|billion)s?\b", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class Amount:
    value: Decimal
    percent: bool = False
    dollars: bool = False


def parse_amount(text: str) -> Amount:
    """The number a cell holds. Parentheses and a leading minus mean negative; "$" and "%" are
    remembered so the caller can check them against the unit."""
    cleaned = text.strip()
    if not cleaned:
        raise Invalid("value is empty")
    match = _AMOUNT.fullmatch(cleaned)
    if not match or bool(match["open"]) != bool(match["close"]):
        raise Invalid(f"value '{cleaned}' is not a number")
    signs = [match["minus"], match["open"], match["inner_minus"]]
    if sum(1 for sign in signs if sign) > 1:
        raise Invalid(f"value '{cleaned}' is not a number (more than one minus sign)")
    value = Decimal(match["number"].replace(",", ""))
    return Amount(
        value=-value if any(signs) else value,
        percent=bool(match["percent"]),
        dollars=bool(match["dollar"]),
    )


def unit_for(amount: Amount, unit: str, *, raw: str) -> str:
    """The unit a fact gets: a percent cell is in percent, a "$" cell must be in dollars."""
    unit = unit.strip()
    if amount.percent:
        if unit and unit.lower() not in {PERCENT_UNIT, "percent"}:
            raise Invalid(f"value '{raw.strip()}' is a percent but the unit is '{unit}'")
        return PERCENT_UNIT
    if amount.dollars:
        if unit and not unit.upper().startswith("USD"):
            raise Invalid(f"value '{raw.strip()}' is in dollars but the unit is '{unit}'")
        return unit or "USD"
    if not unit:
        raise Invalid("unit is empty")
    return unit


def scale_in_header(text: str) -> str | None:
    """ "(in millions)" in a table's corner cell names the table's scale."""
    match = _SCALE_IN_HEADER.search(text)
    return match[1].lower() if match else None
