"""Reading an SEC XBRL "companyfacts" document, checking every row on the way.

The shape (data.sec.gov/api/xbrl/companyfacts/CIK##########.json):

    {cik, entityName, facts: {taxonomy: {Concept: {label, description, units: {UNIT: [
        {start?, end, val, accn, fy, fp, form, filed, frame?}, ...]}}}}}

A row that is not what the SEC writes stops the import with its JSON path, as a CSV importer
names the line: `facts.us-gaap.Revenues.units.USD[17]: end is not a date ('2023-13-01')`.
Amounts are read as decimals straight from the JSON text, so -4.67 stays exactly -4.67.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from typing import Any

from askapp.importers.base import Invalid

_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")
_CIK = re.compile(r"(?:CIK)?0*(\d{1,10})", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class Row:
    """One reported value: a concept in a unit, for a period, as one filing reported it."""

    taxonomy: str
    concept: str
    unit: str
    index: int
    start: date | None  # None for an instant (a balance on `end`)
    end: date
    value: Decimal
    accession: str
    form: str
    filed: date
    fy: int | None

    @property
    def where(self) -> str:
        return f"facts.{self.taxonomy}.{self.concept}.units.{self.unit}[{self.index}]"

    @property
    def source(self) -> str:
        """The filing, written as the demo's facts.csv writes it."""
        return f"{self.form} filed {self.filed.isoformat()}, accession {self.accession}"


@dataclass(frozen=True, slots=True)
class Concept:
    taxonomy: str
    name: str
    label: str | None
    rows: tuple[Row, ...]

    @property
    def qualified(self) -> str:
        return f"{self.taxonomy}:{self.name}"


@dataclass(frozen=True, slots=True)
class CompanyFacts:
    cik: int
    name: str
    tickers: tuple[str, ...]
    concepts: tuple[Concept, ...]


def parse_cik(text: str | int) -> int | None:
    """320193, "0000320193" and "CIK0000320193" are all CIK 320193; anything else is None."""
    match = _CIK.fullmatch(str(text).strip())
    return int(match[1]) if match and int(match[1]) > 0 else None


def read_companyfacts(text: str, *, tick: Callable[[int], None]) -> CompanyFacts:
    """The document in `text`, every row checked; `tick(n)` is called after the n-th row."""
    document = _json(text)
    if not isinstance(document, dict):
        raise Invalid("expected a JSON object with cik, entityName and facts")
    cik = parse_cik(document.get("cik", "")) if _scalar(document.get("cik")) else None
    if cik is None:
        raise Invalid(f"cik: expected a CIK number, got {document.get('cik')!r}")
    name = document.get("entityName")
    if not isinstance(name, str) or not name.strip():
        raise Invalid("entityName: expected the company's name")
    facts = _object(document.get("facts"), "facts")
    counter = _Counter(tick)
    concepts = tuple(
        _concept(taxonomy, concept, body, counter)
        for taxonomy, body_by_concept in facts.items()
        for concept, body in _object(body_by_concept, f"facts.{taxonomy}").items()
    )
    return CompanyFacts(
        cik=cik, name=" ".join(name.split()), tickers=_tickers(document), concepts=concepts
    )


def _json(text: str) -> Any:
    try:
        return json.loads(text, parse_float=Decimal, parse_constant=_no_constant)
    except json.JSONDecodeError as exc:
        raise Invalid(f"not valid JSON ({exc.msg}, column {exc.colno})", line=exc.lineno) from None


def _no_constant(name: str) -> Any:
    raise Invalid(f"not valid JSON ({name} is not a number the SEC writes)")


def _scalar(value: Any) -> bool:
    return isinstance(value, str | int) and not isinstance(value, bool)


def _object(value: Any, where: str) -> dict[str, Any]:
    if value is None:
        raise Invalid(f"{where} is missing")
    if not isinstance(value, dict):
        raise Invalid(f"{where}: expected an object, got {_kind(value)}")
    return value


def _tickers(document: dict[str, Any]) -> tuple[str, ...]:
    """Tickers, when the document carries them (EDGAR's submissions document does)."""
    tickers = document.get("tickers", [])
    if not isinstance(tickers, list) or not all(isinstance(t, str) for t in tickers):
        raise Invalid("tickers: expected a list of ticker symbols")
    return tuple(dict.fromkeys(t.strip() for t in tickers if t.strip()))


class _Counter:
    def __init__(self, tick: Callable[[int], None]) -> None:
        self.count, self.tick = 0, tick

    def __call__(self) -> None:
        self.count += 1
        self.tick(self.count)


def _concept(taxonomy: str, name: str, body: Any, counter: _Counter) -> Concept:
    where = f"facts.{taxonomy}.{name}"
    body = _object(body, where)
    label = body.get("label")
    if label is not None and not isinstance(label, str):
        raise Invalid(f"{where}.label: expected text, got {_kind(label)}")
    units = _object(body.get("units"), f"{where}.units")
    rows = tuple(_rows(taxonomy, name, units, counter))
    return Concept(taxonomy=taxonomy, name=name, label=(label or "").strip() or None, rows=rows)


def _rows(taxonomy: str, concept: str, units: dict[str, Any], counter: _Counter) -> Iterator[Row]:
    for unit, rows in units.items():
        if not isinstance(rows, list):
            where = f"facts.{taxonomy}.{concept}.units.{unit}"
            raise Invalid(f"{where}: expected a list of facts, got {_kind(rows)}")
        for index, raw in enumerate(rows):
            row = _row(taxonomy, concept, unit, index, raw)
            counter()
            yield row


def _row(taxonomy: str, concept: str, unit: str, index: int, raw: Any) -> Row:
    where = f"facts.{taxonomy}.{concept}.units.{unit}[{index}]"
    if not isinstance(raw, dict):
        raise Invalid(f"{where}: expected an object, got {_kind(raw)}")
    try:
        start = _date(raw, "start") if raw.get("start") is not None else None
        end = _date(raw, "end")
        if start is not None and start > end:
            raise Invalid(f"start {start} is after end {end}")
        return Row(
            taxonomy=taxonomy,
            concept=concept,
            unit=unit,
            index=index,
            start=start,
            end=end,
            value=_value(raw),
            accession=_text(raw, "accn"),
            form=_text(raw, "form"),
            filed=_date(raw, "filed"),
            fy=_year(raw),
        )
    except Invalid as exc:
        raise Invalid(f"{where}: {exc}") from None


def _date(raw: dict[str, Any], key: str) -> date:
    value = raw.get(key)
    if value is None:
        raise Invalid(f"{key} is missing")
    if isinstance(value, str) and _DATE.fullmatch(value):
        try:
            return date.fromisoformat(value)
        except ValueError:
            pass
    raise Invalid(f"{key} is not a date ({value!r})")


def _value(raw: dict[str, Any]) -> Decimal:
    value = raw.get("val")
    if value is None:
        raise Invalid("val is missing")
    if isinstance(value, bool) or not isinstance(value, int | Decimal):
        raise Invalid(f"val is not a number ({value!r})")
    return Decimal(value)


def _text(raw: dict[str, Any], key: str) -> str:
    value = raw.get(key)
    if not isinstance(value, str) or not value.strip():
        raise Invalid(f"{key} is missing" if value in (None, "") else f"{key} is not text")
    return value.strip()


def _year(raw: dict[str, Any]) -> int | None:
    value = raw.get("fy")
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise Invalid(f"fy is not a year ({value!r})")
    return value


def _kind(value: Any) -> str:
    names = {dict: "an object", list: "a list", str: "text", bool: "true or false"}
    if value is None:
        return "nothing"
    return names.get(type(value), "a number")
