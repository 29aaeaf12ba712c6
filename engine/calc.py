"""Arithmetic on facts, in Decimal, refusing combinations that would mislead.

Mixed units and a zero base give no result rather than a misleading one.
"""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal, DivisionByZero, InvalidOperation, localcontext

from engine.types import Fact

PERCENT_UNIT = "%"
RATIO_UNIT = "ratio"
_PLACES = Decimal("0.000001")
SCALES = {"thousand": Decimal(10**3), "million": Decimal(10**6), "billion": Decimal(10**9)}


def in_full(values: Sequence[Decimal], units: Sequence[str]) -> list[Decimal]:
    """Values of a ratio, each written out in full when they are in different scales
    (3,219,192 customers over a population of 11.9 million is over 11,900,000). A value with
    no scale beside one with a scale is read as written in full: its column said none where
    the other's said its own. Values in one scale, or in units other than a scale, are kept
    as they are."""
    kinds = set(units)
    if len(kinds) < 2 or not kinds <= {"", *SCALES}:
        return list(values)
    return [v * SCALES.get(u, Decimal(1)) for v, u in zip(values, units, strict=True)]


def compute(operation: str, facts: Sequence[Fact]) -> tuple[Decimal, str] | None:
    """The result and its unit, or None when the facts cannot be combined that way."""
    if not facts:
        return None
    values = [f.value for f in facts]
    units = {f.unit for f in facts}
    if operation == "ratio":
        values = in_full(values, [f.unit for f in facts])
    with localcontext() as ctx:
        ctx.prec = 34
        try:
            return _compute(operation, values, units, facts[0].unit)
        except (DivisionByZero, InvalidOperation):
            return None


def _compute(
    operation: str, values: list[Decimal], units: set[str], unit: str
) -> tuple[Decimal, str] | None:
    if operation == "ratio":
        if len(values) != 2 or values[1] == 0:
            return None
        return _round(values[0] / values[1]), RATIO_UNIT
    if len(units) != 1:
        return None
    if operation == "sum":
        return _round(sum(values, Decimal(0))), unit
    if operation == "average":
        return _round(sum(values, Decimal(0)) / len(values)), unit
    if len(values) != 2:
        return None
    first, second = values
    if operation == "difference":
        return _round(second - first), unit
    if operation == "percent_change":
        if first == 0:
            return None
        return _round((second - first) / abs(first) * 100), PERCENT_UNIT
    return None


def compound_growth(first: Decimal, last: Decimal, years: int) -> Decimal | None:
    """The yearly rate, in percent, that grows `first` into `last` over `years` years:
    (last / first) ** (1 / years) - 1. None where no such rate exists: no years between, or
    a start or an end that is not above zero (a loss has no compound growth)."""
    if years <= 0 or first <= 0 or last <= 0:
        return None
    with localcontext() as ctx:
        ctx.prec = 34
        rate = (last / first) ** (Decimal(1) / Decimal(years)) - 1
        return _round(rate * 100)


def _round(value: Decimal) -> Decimal:
    rounded = value.quantize(_PLACES)
    return rounded.normalize() if rounded != rounded.to_integral() else rounded.to_integral()
