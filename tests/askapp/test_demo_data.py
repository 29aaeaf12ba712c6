"""The demo data set: real figures load exactly, and the notes written for it quote only them."""

from __future__ import annotations

import csv
import re
from decimal import ROUND_HALF_UP, Decimal
from itertools import permutations
from pathlib import Path

import pytest
from django.core.management import call_command

from askapp.models import Chunk, Classification, Document, Entity, Fact, Metric
from tests.canaries import CANARY_INTERNAL, CANARY_RESTRICTED, CANARY_RESTRICTED_TESLA

DEMO = Path(__file__).resolve().parents[2] / "data" / "demo"
NOTES = sorted((DEMO / "documents").glob("*.md"))
SCALE = {"billion": Decimal(10**9), "million": Decimal(10**6), "": Decimal(1)}
DOLLARS = re.compile(r"\$(?P<number>\d[\d,]*(?:\.\d+)?)(?:\s+(?P<scale>billion|million))?")
PERCENT = re.compile(r"(?P<number>\d+(?:\.\d+)?)%")


def _header_and_body(path: Path) -> tuple[dict[str, str], str]:
    header, _, body = path.read_text(encoding="utf-8").partition("\n\n")
    fields = dict(line.split(": ", 1) for line in header.splitlines())
    return fields, body


def _values_by_entity() -> dict[str, list[tuple[str, str, Decimal]]]:
    facts: dict[str, list[tuple[str, str, Decimal]]] = {}
    with open(DEMO / "facts.csv", encoding="utf-8") as handle:
        for row in csv.DictReader(handle):
            facts.setdefault(row["entity"], []).append(
                (row["metric"], row["period"], Decimal(row["value"]))
            )
    return facts


def _rounded(value: Decimal, like: str) -> Decimal:
    places = len(like.partition(".")[2])
    return abs(value).quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_UP)


def _percents(facts: list[tuple[str, str, Decimal]]) -> set[Decimal]:
    """Every change of one metric between periods, and every ratio within one period."""
    found: set[Decimal] = set()
    for (metric_a, period_a, a), (metric_b, period_b, b) in permutations(facts, 2):
        if b == 0:
            continue
        if metric_a == metric_b:
            found.add(abs(100 * (a - b) / b))
        if period_a == period_b:
            found.add(abs(100 * a / b))
    return found


@pytest.mark.parametrize("path", NOTES, ids=lambda p: p.name)
def test_every_figure_a_demo_note_quotes_is_a_real_fact(path: Path) -> None:
    header, body = _header_and_body(path)
    facts = _values_by_entity()[header["entity"]]
    for match in DOLLARS.finditer(body):
        number, scale = match["number"].replace(",", ""), SCALE[match["scale"] or ""]
        assert any(_rounded(value / scale, number) == Decimal(number) for *_, value in facts), (
            f"{path.name}: {match[0]} matches no {header['entity']} fact"
        )
    percents = _percents(facts)
    for match in PERCENT.finditer(body):
        number = match["number"]
        assert any(_rounded(p, number) == Decimal(number) for p in percents), (
            f"{path.name}: {match[0]} is no change or ratio of {header['entity']} facts"
        )


@pytest.mark.parametrize("path", NOTES, ids=lambda p: p.name)
def test_every_demo_note_says_it_is_illustrative(path: Path) -> None:
    _, body = _header_and_body(path)
    assert "Illustrative note written for the askapp demo; not from a filing." in body


def test_each_canary_sits_in_one_document_of_its_classification() -> None:
    expected = {
        CANARY_INTERNAL: "INTERNAL",
        CANARY_RESTRICTED: "RESTRICTED",
        CANARY_RESTRICTED_TESLA: "RESTRICTED",
    }
    for canary, classification in expected.items():
        holders = [p for p in NOTES if canary in p.read_text(encoding="utf-8")]
        assert len(holders) == 1, canary
        assert _header_and_body(holders[0])[0]["classification"] == classification
    assert CANARY_RESTRICTED in (DEMO / "README.md").read_text(encoding="utf-8")


@pytest.mark.django_db
def test_load_demo_loads_everything_once_however_often_it_runs() -> None:
    for _ in range(2):
        call_command("load_demo")
        assert Fact.objects.count() == 1247
        assert Entity.objects.count() == 13
        assert Metric.objects.count() == 17
        assert Document.objects.count() == 13 + len(NOTES)
    restricted = Document.objects.get(title="Apple acquisition target memo")
    assert restricted.classification == Classification.RESTRICTED
    assert restricted.entity.name == "Apple"
    assert Chunk.objects.filter(document=restricted, text__contains=CANARY_RESTRICTED).exists()
    assert Fact.objects.get(
        entity__name="Boeing", metric__name="Net income", period="FY2023"
    ).value == Decimal("-2222000000")


@pytest.mark.django_db
def test_demo_metric_aliases_name_no_other_metric() -> None:
    call_command("load_demo")
    owners: dict[str, str] = {}
    for metric in Metric.objects.all():
        for label in (metric.name, *metric.aliases):
            assert owners.setdefault(label.casefold(), metric.name) == metric.name, label
    assert "Net sales" in Metric.objects.get(name="Revenue").aliases
