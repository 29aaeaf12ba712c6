"""How figures read in an answer: "USD 383.3 billion", "USD 6.13 per share", "-2.8%"."""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal

from engine.calc import PERCENT_UNIT, RATIO_UNIT

_SCALES = (
    (Decimal(10) ** 12, "trillion"),
    (Decimal(10) ** 9, "billion"),
    (Decimal(10) ** 6, "million"),
)
_RATIO_SHOWN = Decimal("0.00005")


def format_value(value: Decimal, unit: str) -> str:
    if unit == PERCENT_UNIT:
        return f"{_fixed(value, 2)}%"
    if unit == RATIO_UNIT:
        if value and abs(value) < _RATIO_SHOWN:
            # A ratio (or a change in one) too small to show in four places is shown in two
            # significant digits: "0" would say there was none.
            return _fixed(value, 1 - value.adjusted())
        return _fixed(value, 4 if abs(value) < 1 else 2)
    if "/" in unit:  # USD/share: a per-unit amount
        currency, _, per = unit.partition("/")
        return f"{currency} {_fixed(value, 2)} per {per}"
    if unit.isupper() and unit.isalpha():  # a currency code: USD, EUR, GBP
        return f"{unit} {_scaled(value)}"
    if unit == "shares":
        return f"{_scaled(value)} shares"
    return f"{_grouped(value)} {unit}".strip()


def _scaled(value: Decimal) -> str:
    size = abs(value)
    for base, word in _SCALES:
        if size >= base:
            scaled = value / base
            # Keep the zeros: "USD 11.0 billion" says how precise it is; "USD 11 billion" not.
            places = 1 if abs(scaled) >= 10 else 2
            return f"{_fixed(scaled, places, trim=False)} {word}"
    return _grouped(value)


def _fixed(value: Decimal, places: int, *, trim: bool = True) -> str:
    quantum = Decimal(1).scaleb(-places)
    text = f"{value.quantize(quantum, rounding=ROUND_HALF_UP):,f}"
    if trim and "." in text:
        text = text.rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def _grouped(value: Decimal) -> str:
    places = 0 if value == value.to_integral_value() else min(_places(value), 4)
    return _fixed(value, places)


def _places(value: Decimal) -> int:
    exponent = value.normalize().as_tuple().exponent
    return -exponent if isinstance(exponent, int) and exponent < 0 else 0
