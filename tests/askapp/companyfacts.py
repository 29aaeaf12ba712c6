"""Building small SEC companyfacts documents for import tests, row by row, as EDGAR writes them."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

SEC = Path(__file__).resolve().parents[2] / "data" / "sec"
SNOWFLAKE = SEC / "CIK0001640147-snowflake-companyfacts.json"
LPA = SEC / "CIK0001997711-lpa-ifrs-companyfacts.json"


def row(
    end: str,
    val: int | float | str,
    *,
    start: str | None = None,
    form: str = "10-K",
    filed: str = "2024-02-01",
    accn: str | None = None,
    fy: int | None = 2023,
    fp: str = "FY",
) -> dict[str, Any]:
    """One reported value. The accession defaults to one per filing date, as if each date
    were one filing."""
    fact: dict[str, Any] = {} if start is None else {"start": start}
    fact.update(
        end=end,
        val=val,
        accn=accn or f"0000000042-{filed[2:4]}-{filed[5:7]}{filed[8:10]}",
        fy=fy,
        fp=fp,
        form=form,
        filed=filed,
    )
    return fact


def document(
    concepts: dict[str, dict[str, list[dict[str, Any]]]],
    *,
    name: str = "Example Corp",
    cik: int | str = 42,
    label: str | None = None,
) -> dict[str, Any]:
    """{"us-gaap:Revenues": {"USD": [row, ...]}} as a companyfacts document."""
    facts: dict[str, dict[str, Any]] = {}
    for qualified, units in concepts.items():
        taxonomy, concept = qualified.split(":")
        facts.setdefault(taxonomy, {})[concept] = {
            "label": label if label is not None else concept,
            "description": "",
            "units": units,
        }
    return {"cik": cik, "entityName": name, "facts": facts}


def year(start: str, end: str, val: int | float | str, **kwargs: Any) -> dict[str, Any]:
    return row(end, val, start=start, **kwargs)


def write(path: Path, content: dict[str, Any] | str) -> str:
    path.write_text(content if isinstance(content, str) else json.dumps(content), "utf-8")
    return str(path)
