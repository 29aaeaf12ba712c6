"""Naming a company's fiscal periods the way the company names them, from the periods' dates.

A filing's `fy` field is the year of the filing, not of each figure in it: a 10-K restates two
earlier years under the same `fy`. So a figure's year comes from its own end date, read against
the company's fiscal calendar:

- the **fiscal year end** is the month and day the company's latest fiscal year ended (Snowflake:
  January 31; NVIDIA: the last Sunday of January, so some day late in January). A date is a
  fiscal year end when it lies within `TOLERANCE` days of that month and day in some year, which
  covers 52/53-week years wandering around their nominal end;
- the **year's name** is the year of that nearest anchor date plus the company's naming offset.
  Most companies name a year by the year it ends in (offset 0: Snowflake's FY2024 ends January
  2024); some retailers name it by the year it starts in (offset -1). The offset is learnt from
  the annual reports themselves: each one's `fy` against the end of its own latest year.
- a company that **moved its year end** has one era per year end (the annual reports' own
  latest year ends, grouped where one differs from the one before by more than `TOLERANCE`
  days). A date is read by the year end in force when it closed: the first era whose last
  reported year end is not before it, the newest era for later dates (a transition's year
  too). So the years before a move keep their names instead of being skipped.
"""

from __future__ import annotations

import calendar
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date

TOLERANCE = 10  # days between a 52/53-week year's end and its nominal end, with room to spare
QUARTER_DAYS = 365.25 / 4
YEAR_DAYS = range(350, 381)  # a fiscal year: 52 or 53 weeks, or a calendar year
QUARTER_LENGTH = range(80, 101)  # a fiscal quarter: 13 or 14 weeks, or three calendar months


@dataclass(frozen=True, slots=True)
class AnnualEnd:
    """The end of the latest fiscal year an annual report covers, with the report's `fy`."""

    end: date
    fy: int | None


@dataclass(frozen=True, slots=True)
class YearEnd:
    """One fiscal year end (month and day) with its naming offset: a calendar the company kept
    for a run of years."""

    month: int
    day: int
    offset: int = 0

    def anchor(self, year: int) -> date:
        """The nominal fiscal year end in `year` (February 29 becomes 28 when there is none)."""
        return date(year, self.month, min(self.day, calendar.monthrange(year, self.month)[1]))

    def anchor_year(self, end: date) -> int:
        """The year whose nominal fiscal year end lies nearest to `end`."""
        return min(
            (end.year - 1, end.year, end.year + 1),
            key=lambda year: abs((end - self.anchor(year)).days),
        )

    def closes_near(self, end: date) -> bool:
        return abs((end - self.anchor(self.anchor_year(end))).days) <= TOLERANCE

    def year_ending(self, end: date) -> int | None:
        year = self.anchor_year(end)
        if abs((end - self.anchor(year)).days) > TOLERANCE:
            return None
        return year + self.offset

    def quarter_ending(self, end: date) -> tuple[int, int] | None:
        year = next(y for y in (end.year - 1, end.year, end.year + 1) if self._closes(y, end))
        days_before = (self.anchor(year) - end).days
        quarters_before = round(days_before / QUARTER_DAYS)
        if quarters_before > 3 or abs(days_before - quarters_before * QUARTER_DAYS) > TOLERANCE:
            return None
        return year + self.offset, 4 - quarters_before

    def _closes(self, year: int, end: date) -> bool:
        """Whether the fiscal year anchored in `year` is the one `end` falls in."""
        return self.anchor(year) >= date.fromordinal(end.toordinal() - TOLERANCE)

    @classmethod
    def learn(cls, reports: list[AnnualEnd]) -> YearEnd:
        """The year end of the latest of `reports`, named as most of them name their years."""
        latest = max(report.end for report in reports)
        anchor = cls(latest.month, latest.day)
        offsets = Counter(
            report.fy - anchor.anchor_year(report.end)
            for report in reports
            if report.fy is not None and abs(report.fy - anchor.anchor_year(report.end)) <= 1
        )
        # Ties (a stray `fy`) go to naming a year by the year it ends in, the common case.
        offset = max(offsets, key=lambda o: (offsets[o], o == 0), default=0)
        return cls(latest.month, latest.day, offset)


@dataclass(frozen=True, slots=True)
class Era:
    """A year end the company kept, and the last year end it reported under it."""

    year_end: YearEnd
    until: date


@dataclass(frozen=True, slots=True)
class FiscalCalendar:
    """A company's fiscal calendar: usually one year end, but a company that moved its year
    end has one era per year end, oldest first. A date is read by the era in force when it
    ended: the first era whose last reported year end is not before it (the latest era for
    anything after). Years of a transition are read by the new era."""

    eras: tuple[Era, ...]

    @classmethod
    def learn(cls, reports: Iterable[AnnualEnd]) -> FiscalCalendar | None:
        """The calendar of a company from its annual reports; None when it filed none."""
        ordered = sorted(reports, key=lambda report: report.end)
        if not ordered:
            return None
        runs: list[list[AnnualEnd]] = [[ordered[0]]]
        for report in ordered[1:]:
            kept = YearEnd(runs[-1][-1].end.month, runs[-1][-1].end.day)
            if kept.closes_near(report.end):
                runs[-1].append(report)
            else:
                runs.append([report])
        return cls(tuple(Era(YearEnd.learn(run), run[-1].end) for run in runs))

    @property
    def latest(self) -> YearEnd:
        return self.eras[-1].year_end

    def in_force(self, end: date) -> YearEnd:
        """The year end the company kept when a period ending on `end` closed."""
        cutoff = date.fromordinal(end.toordinal() - TOLERANCE)
        return next((era.year_end for era in self.eras if era.until >= cutoff), self.latest)

    def year_ending(self, end: date) -> int | None:
        """The name of the fiscal year ending on `end`, or None when `end` is no year end."""
        return self.in_force(end).year_ending(end)

    def quarter_ending(self, end: date) -> tuple[int, int] | None:
        """(fiscal year, quarter 1 to 4) of a quarter ending on `end`, or None when `end` is
        not about a whole number of quarters before a fiscal year end."""
        return self.in_force(end).quarter_ending(end)

    def describe(self) -> str:
        text = _describe(self.latest)
        if len(self.eras) > 1:
            earlier = "; ".join(
                f"until {era.until.isoformat()} near {era.year_end.anchor(2024):%B} "
                f"{era.year_end.anchor(2024).day}"
                for era in self.eras[:-1]
            )
            text += f"; the year end moved: earlier years ended {earlier}"
        return text


def _describe(year_end: YearEnd) -> str:
    example = year_end.anchor(2024)
    named = {0: "the year they end in", -1: "the year they start in"}.get(
        year_end.offset, f"the year they end in {year_end.offset:+d}"
    )
    return (
        f"fiscal years end near {example:%B} {example.day}, named by {named} "
        f"(the year ending {example.isoformat()} is FY{2024 + year_end.offset})"
    )


def is_fiscal_year(start: date, end: date) -> bool:
    return (end - start).days + 1 in YEAR_DAYS


def is_quarter(start: date, end: date) -> bool:
    return (end - start).days + 1 in QUARTER_LENGTH
