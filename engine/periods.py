"""One spelling for every period: `FY2023` for a fiscal year, `FY2023 Q3` for a quarter.

`normalise_period` reads a whole cell or header ("fiscal 2023", "FY23", "Q3 2023") and returns
the canonical form, or None when the text is not a period. It is strict on purpose: a number
is a year only between 1900 and 2100, so 1320 or FY99999 are never read as periods, and
anything left over after the period ("2023 restated", "H1 2023") makes the whole text fail.
"""

from __future__ import annotations

import re

MIN_YEAR = 1900
MAX_YEAR = 2100

_FISCAL = r"(?:fy|fiscal(?:\s+year)?)"
_YEAR = r"(?P<year>\d{4}|\d{2})"
_QUARTER = r"q(?P<quarter>[1-4])"
_GAP = r"[\s\-/]*"

# The fiscal marker is optional for four-digit years only ("2023"); a bare "23" is no period.
_YEAR_PART = rf"(?:{_FISCAL}{_GAP}'?{_YEAR}|(?P<bare>\d{{4}}))"
_FORMS = (
    re.compile(rf"{_YEAR_PART}", re.IGNORECASE),
    re.compile(rf"{_YEAR_PART}{_GAP}{_QUARTER}", re.IGNORECASE),
    re.compile(rf"{_QUARTER}{_GAP}(?:of\s+)?{_YEAR_PART}", re.IGNORECASE),
)


def normalise_period(text: str) -> str | None:
    """The canonical period for `text` ("FY2023" or "FY2023 Q3"), or None if it is not one."""
    cleaned = " ".join(text.split())
    for form in _FORMS:
        match = form.fullmatch(cleaned)
        if match:
            return _canonical(match)
    return None


def _canonical(match: re.Match[str]) -> str | None:
    year = full_year(match.group("bare") or match.group("year"))
    if year is None:
        return None
    quarter = match.groupdict().get("quarter")
    return f"FY{year} Q{quarter}" if quarter else f"FY{year}"


def full_year(digits: str) -> int | None:
    year = int(digits)
    if len(digits) == 2:
        # Same pivot as the question parser: FY23 is 2023, FY87 is 1987.
        year += 2000 if year < 50 else 1900
    return year if MIN_YEAR <= year <= MAX_YEAR else None
