"""manage.py import_companyfacts: a company's reported figures from an SEC companyfacts file."""

from __future__ import annotations

import csv
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest

from askapp.models import Entity, Fact, Metric
from tests.askapp.commands import failure, run
from tests.askapp.companyfacts import LPA, SNOWFLAKE, document, row, write, year
from tests.factories import EntityFactory

pytestmark = pytest.mark.django_db

DEMO_FACTS = Path(__file__).resolve().parents[2] / "data" / "demo" / "facts.csv"
Figures = dict[tuple[str, str], tuple[Decimal, str, str]]


def _figures(entity: str | None = None) -> Figures:
    """(metric, period) -> (value, unit, source) of the stored facts (of one entity)."""
    facts = Fact.objects.select_related("metric", "entity")
    if entity:
        facts = facts.filter(entity__name=entity)
    return {(f.metric.name, f.period): (f.value, f.unit, f.source) for f in facts}


def _demo_figures(entity: str) -> Figures:
    with DEMO_FACTS.open(encoding="utf-8") as handle:
        return {
            (r["metric"], r["period"]): (Decimal(r["value"]), r["unit"], r["source"])
            for r in csv.DictReader(handle)
            if r["entity"] == entity
        }


def test_the_snowflake_file_reproduces_every_demo_row_of_snowflake() -> None:
    output = run("import_companyfacts", str(SNOWFLAKE))

    expected = _demo_figures("Snowflake")
    assert len(expected) == 104
    assert _figures() == expected  # every row, value for value, period for period, no more
    assert set(Fact.objects.values_list("classification", flat=True)) == {"PUBLIC"}
    entity = Entity.objects.get()
    assert entity.name == "SNOWFLAKE INC."
    assert entity.aliases == ["CIK 0001640147", "Snowflake"]
    assert f"{SNOWFLAKE}: imported 104 facts (104 new, 0 updated)" in output.stdout
    assert "fiscal years end near January 31, named by the year they end in" in output.stdout


def test_the_ifrs_file_imports_through_its_own_concept_map_entries() -> None:
    run("import_companyfacts", str(LPA))

    figures = _figures()
    new_filing = "20-F filed 2025-04-02, accession 0001997711-25-000030"
    # ifrs-full:Revenue is preferred to the narrower RevenueFromContractsWithCustomers.
    assert figures["Revenue", "FY2024"] == (Decimal(43862372), "USD", new_filing)
    # Profit attributable to the parent's owners, as us-gaap NetIncomeLoss is.
    assert figures["Net income", "FY2024"] == (Decimal(-29285428), "USD", new_filing)
    # Restated after the 2024 recapitalisation: the later 20-F's figure wins.
    assert figures["Diluted EPS", "FY2022"] == (Decimal("0.28"), "USD/share", new_filing)
    assert figures["Total assets", "FY2022"][0] == Decimal(497618869)
    assert len(figures) == 40
    assert Entity.objects.get().aliases == ["CIK 0001997711"]


@pytest.mark.parametrize("path", [SNOWFLAKE, LPA], ids=["us-gaap", "ifrs"])
def test_reimporting_either_file_leaves_the_same_rows(path: Path) -> None:
    run("import_companyfacts", str(path), "--alias", "TICK")
    rows = list(Fact.objects.order_by("pk").values())
    entities = list(Entity.objects.values("pk", "name", "aliases"))

    output = run("import_companyfacts", str(path), "--alias", "TICK")

    assert list(Fact.objects.order_by("pk").values("pk", "value", "source")) == [
        {"pk": r["id"], "value": r["value"], "source": r["source"]} for r in rows
    ]
    assert list(Entity.objects.values("pk", "name", "aliases")) == entities
    assert f"(0 new, {len(rows)} updated)" in output.stdout


def test_importing_over_the_demo_finds_the_company_and_changes_no_figure() -> None:
    run("load_demo")
    before = _figures("Snowflake")

    run("import_companyfacts", str(SNOWFLAKE))

    assert _figures("Snowflake") == before
    assert Fact.objects.count() == 1247
    snowflake = Entity.objects.get(name="Snowflake")
    assert snowflake.aliases == ["Snowflake", "Snowflake Inc.", "SNOW", "CIK 0001640147"]


def _import(tmp_path: Path, content: dict | str, *args: str) -> tuple[str, str]:
    path = write(tmp_path / "facts.json", content)
    return path, run("import_companyfacts", path, *args).stdout


@pytest.mark.parametrize("order", [1, -1], ids=["restatement-first", "restatement-last"])
def test_a_restated_figure_takes_the_latest_filing_whatever_the_row_order(
    tmp_path: Path, order: int
) -> None:
    revenue = [
        year("2023-01-01", "2023-12-31", 90, filed="2025-02-03", fy=2024),  # restated
        year("2024-01-01", "2024-12-31", 120, filed="2025-02-03", fy=2024),
        year("2023-01-01", "2023-12-31", 100, filed="2024-02-01", fy=2023),  # as first filed
        year("2022-01-01", "2022-12-31", 80, filed="2024-02-01", fy=2023),
    ]
    _import(tmp_path, document({"us-gaap:Revenues": {"USD": revenue[::order]}}))

    first, restated = "0000000042-24-0201", "0000000042-25-0203"
    assert _figures() == {
        ("Revenue", "FY2022"): (Decimal(80), "USD", f"10-K filed 2024-02-01, accession {first}"),
        ("Revenue", "FY2023"): (Decimal(90), "USD", f"10-K filed 2025-02-03, accession {restated}"),
        ("Revenue", "FY2024"): (
            Decimal(120),
            "USD",
            f"10-K filed 2025-02-03, accession {restated}",
        ),
    }


def test_a_stock_split_shows_in_restated_per_share_figures(tmp_path: Path) -> None:
    eps = [
        year("2023-01-01", "2023-12-31", 8.0, filed="2024-02-01"),
        year("2023-01-01", "2023-12-31", 2.0, filed="2025-02-03", fy=2024),  # after a 4:1 split
    ]
    _import(tmp_path, document({"us-gaap:EarningsPerShareDiluted": {"USD/shares": eps}}))
    assert _figures()["Diluted EPS", "FY2023"][:2] == (Decimal("2.0"), "USD/share")


def test_one_filing_with_two_alternatives_keeps_the_preferred_one(tmp_path: Path) -> None:
    both = {
        "us-gaap:RevenueFromContractWithCustomerExcludingAssessedTax": {
            "USD": [year("2023-01-01", "2023-12-31", 95)]
        },
        "us-gaap:Revenues": {"USD": [year("2023-01-01", "2023-12-31", 100)]},
    }
    _, output = _import(tmp_path, document(both))
    assert _figures()["Revenue", "FY2023"][0] == Decimal(100)
    assert "set aside 1 row for periods that a later filing (or a preferred concept)" in output


def test_a_later_filing_wins_over_the_preferred_alternative_of_an_earlier_one(
    tmp_path: Path,
) -> None:
    concepts = {
        "us-gaap:Revenues": {
            "USD": [year("2022-01-01", "2022-12-31", 100, filed="2023-02-01", fy=2022)]
        },
        "us-gaap:RevenueFromContractWithCustomerExcludingAssessedTax": {
            "USD": [
                year("2022-01-01", "2022-12-31", 101, filed="2024-02-01"),
                year("2023-01-01", "2023-12-31", 110, filed="2024-02-01"),
            ]
        },
    }
    _import(tmp_path, document(concepts))
    assert _figures()["Revenue", "FY2022"][0] == Decimal(101)


def test_balances_are_instants_at_a_year_end_and_flows_are_whole_years(tmp_path: Path) -> None:
    concepts = {
        "us-gaap:Assets": {
            "USD": [
                row("2023-12-31", 500),  # the balance sheet date
                row("2023-06-30", 450),  # a mid-year balance a 10-K mentions: no fiscal year
                row("2023-12-31", 510, form="10-Q", filed="2024-05-01"),  # not an annual report
            ]
        },
        "us-gaap:NetIncomeLoss": {
            "USD": [
                year("2023-01-01", "2023-12-31", 40),
                row("2023-12-31", 12, start="2023-10-01"),  # a fourth quarter inside a 10-K
            ]
        },
    }
    _, output = _import(tmp_path, document(concepts))
    assert {key: value[0] for key, value in _figures().items()} == {
        ("Total assets", "FY2023"): Decimal(500),
        ("Net income", "FY2023"): Decimal(40),
    }
    assert "skipped 3 rows of periods other than fiscal years (--quarters adds" in output


def test_a_company_that_moved_its_year_end_keeps_its_years_from_before(tmp_path: Path) -> None:
    """December years until 2019, a six-month transition report, then June years: every
    fiscal year is named as the company named it when it closed, none is dropped."""
    revenue = [
        year("2018-01-01", "2018-12-31", 80, filed="2019-02-20", fy=2018),
        year("2019-01-01", "2019-12-31", 90, filed="2020-02-20", fy=2019),
        year("2020-01-01", "2020-06-30", 50, form="10-KT", filed="2020-09-01", fy=2020),
        year("2019-07-01", "2020-06-30", 95, filed="2021-08-20", fy=2021),
        year("2020-07-01", "2021-06-30", 110, filed="2021-08-20", fy=2021),
    ]
    _, output = _import(tmp_path, document({"us-gaap:Revenues": {"USD": revenue}}))
    assert {key[1]: value[0] for key, value in _figures().items()} == {
        "FY2018": Decimal(80),
        "FY2019": Decimal(90),
        "FY2020": Decimal(95),
        "FY2021": Decimal(110),
    }
    assert "the year end moved" in output
    assert "skipped 1 row of periods other than fiscal years" in output  # the six months


def test_a_unit_the_map_does_not_expect_is_skipped_and_counted(tmp_path: Path) -> None:
    concepts = {
        "us-gaap:Revenues": {
            "USD": [year("2023-01-01", "2023-12-31", 100)],
            "EUR": [year("2023-01-01", "2023-12-31", 92), year("2022-01-01", "2022-12-31", 80)],
        }
    }
    _, output = _import(tmp_path, document(concepts))
    assert _figures()["Revenue", "FY2023"][:2] == (Decimal(100), "USD")
    assert len(_figures()) == 1
    assert (
        "skipped 2 rows in units the concept map does not expect: us-gaap:Revenues in EUR (2)"
        in output
    )


def test_unmapped_concepts_are_skipped_and_counted(tmp_path: Path) -> None:
    concepts = {
        "us-gaap:Revenues": {"USD": [year("2023-01-01", "2023-12-31", 100)]},
        "us-gaap:AccountsPayableCurrent": {"USD": [row("2023-12-31", 7), row("2022-12-31", 6)]},
    }
    _, output = _import(tmp_path, document(concepts))
    assert set(Metric.objects.values_list("name", flat=True)) == {"Revenue"}
    assert (
        "skipped 1 concept the concept map does not cover (2 rows: "
        "us-gaap:AccountsPayableCurrent); --all-concepts imports them" in output
    )


def test_all_concepts_imports_unmapped_ones_under_their_xbrl_labels(tmp_path: Path) -> None:
    concepts = {
        "us-gaap:AccountsPayableCurrent": {"USD": [row("2023-12-31", 7)]},
        "ifrs-full:RentalIncome": {"USD": [year("2023-01-01", "2023-12-31", 3)]},
    }
    doc = document(concepts)
    doc["facts"]["us-gaap"]["AccountsPayableCurrent"]["label"] = "Accounts Payable, Current"
    doc["facts"]["ifrs-full"]["RentalIncome"]["label"] = None  # IFRS files often carry none
    _import(tmp_path, doc, "--all-concepts")
    assert {key: value[0] for key, value in _figures().items()} == {
        ("Accounts Payable, Current", "FY2023"): Decimal(7),
        ("Rental Income", "FY2023"): Decimal(3),
    }


def test_an_unmapped_label_never_merges_into_a_mapped_metric(tmp_path: Path) -> None:
    concepts = {
        "us-gaap:Revenues": {"USD": [year("2023-01-01", "2023-12-31", 100, filed="2024-02-01")]},
        "us-gaap:RevenuesOther": {"USD": [year("2023-01-01", "2023-12-31", 5, filed="2024-03-01")]},
    }
    doc = document(concepts)
    doc["facts"]["us-gaap"]["RevenuesOther"]["label"] = "Revenue"
    _import(tmp_path, doc, "--all-concepts")
    figures = {key: value[0] for key, value in _figures().items()}
    assert figures == {
        ("Revenue", "FY2023"): Decimal(100),
        ("Revenue (us-gaap:RevenuesOther)", "FY2023"): Decimal(5),
    }


def test_quarters_adds_three_month_10q_quarters_named_by_the_fiscal_year() -> None:
    run("import_companyfacts", str(SNOWFLAKE), "--quarters")
    figures = _figures()
    # Snowflake's third quarter of fiscal 2024 ran August to October 2023; the later 10-Q
    # that restates it as a comparative wins.
    assert figures["Revenue", "FY2024 Q3"] == (
        Decimal(734173000),
        "USD",
        "10-Q filed 2024-11-27, accession 0001640147-24-000250",
    )
    assert figures["Revenue", "FY2025 Q1"][0] == Decimal(828709000)
    periods = {period for _, period in figures}
    assert not any(period.endswith("Q4") for period in periods)  # no 10-Q covers a Q4
    assert {k: v for k, v in figures.items() if " " not in k[1]} == _demo_figures("Snowflake")


def test_a_user_map_adds_metrics_and_can_send_a_concept_elsewhere(
    tmp_path: Path, write_file: object
) -> None:
    user_map = write(
        tmp_path / "map.csv",
        "metric,taxonomy,concept,unit\n"
        "Operating expenses,us-gaap,OperatingExpenses,USD\n"
        "Contract revenue,us-gaap,RevenueFromContractWithCustomerExcludingAssessedTax,USD\n",
    )
    concepts = {
        "us-gaap:OperatingExpenses": {"USD": [year("2023-01-01", "2023-12-31", 30)]},
        "us-gaap:RevenueFromContractWithCustomerExcludingAssessedTax": {
            "USD": [year("2023-01-01", "2023-12-31", 95)]
        },
        "us-gaap:NetIncomeLoss": {"USD": [year("2023-01-01", "2023-12-31", 9)]},
    }
    _import(tmp_path, document(concepts), "--map", user_map)
    assert {key: value[0] for key, value in _figures().items()} == {
        ("Operating expenses", "FY2023"): Decimal(30),
        ("Contract revenue", "FY2023"): Decimal(95),
        ("Net income", "FY2023"): Decimal(9),  # the shipped map still maps the rest
    }


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("metric,taxonomy,concept\nRevenue,us-gaap,Revenues\n", "1: missing column 'unit'"),
        ("metric,taxonomy,concept,unit\nRevenue,,Revenues,USD\n", "2: taxonomy is empty"),
        (
            "metric,taxonomy,concept,unit\nA,us-gaap,Revenues,USD\nB,us-gaap,Revenues,USD\n",
            "3: us-gaap:Revenues in USD is mapped twice (first on line 2)",
        ),
    ],
    ids=["missing-column", "empty-cell", "mapped-twice"],
)
def test_a_bad_concept_map_names_its_file_and_line(tmp_path: Path, text: str, message: str) -> None:
    user_map = write(tmp_path / "map.csv", text)
    assert failure("import_companyfacts", str(SNOWFLAKE), "--map", user_map).startswith(
        f"{user_map}:{message}"
    )
    assert not Fact.objects.exists()


def _good_rows() -> list[dict]:
    return [year(f"{y}-01-01", f"{y}-12-31", y, filed="2024-02-01") for y in range(2021, 2024)]


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (("end", "2023-13-01"), "end is not a date ('2023-13-01')"),
        (("end", None), "end is missing"),
        (("val", "12"), "val is not a number ('12')"),
        (("start", "2024-01-01"), "start 2024-01-01 is after end 2022-12-31"),
        (("accn", ""), "accn is missing"),
        (("filed", "yesterday"), "filed is not a date ('yesterday')"),
        (("fy", "2023"), "fy is not a year ('2023')"),
    ],
    ids=["bad-date", "no-end", "text-value", "start-after-end", "no-accession", "bad-filed", "fy"],
)
def test_a_malformed_row_stops_the_import_with_its_json_path_and_keeps_nothing(
    tmp_path: Path, stored_fact: Fact, change: tuple[str, object], message: str
) -> None:
    rows = _good_rows()
    key, value = change
    if value is None:
        del rows[1][key]
    else:
        rows[1][key] = value
    path = write(tmp_path / "bad.json", document({"us-gaap:Revenues": {"USD": rows}}))

    where = "facts.us-gaap.Revenues.units.USD[1]"
    assert failure("import_companyfacts", path) == f"{path}: {where}: {message}"
    assert list(Fact.objects.all()) == [stored_fact]
    stored_fact.refresh_from_db()
    assert (stored_fact.value, stored_fact.source) == (Decimal("1"), "earlier import")
    assert list(Entity.objects.values_list("name", flat=True)) == ["Apple"]


def test_a_figure_the_database_cannot_hold_rolls_back_what_was_written(
    tmp_path: Path, stored_fact: Fact
) -> None:
    """The entity and the first facts are written before the bad figure is met."""
    concepts = {
        "us-gaap:Revenues": {"USD": [year("2023-01-01", "2023-12-31", 100)]},
        "us-gaap:EarningsPerShareDiluted": {
            "USD/shares": [year("2023-01-01", "2023-12-31", 0.1234567)]
        },
    }
    path = write(tmp_path / "bad.json", document(concepts))
    message = failure("import_companyfacts", path)
    assert message == (
        f"{path}: facts.us-gaap.EarningsPerShareDiluted.units.USD/shares[0]: "
        "value: Ensure that there are no more than 6 decimal places."
    )
    assert list(Fact.objects.all()) == [stored_fact]
    assert list(Entity.objects.values_list("name", flat=True)) == ["Apple"]
    assert list(Metric.objects.values_list("name", flat=True)) == ["Revenue"]


def _doc(facts: str, head: str = '"cik": 42, "entityName": "X"') -> str:
    return f'{{{head}, "facts": {facts}}}'


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (_doc("{"), ":1: not valid JSON (Expecting ',' delimiter, column 43)"),
        ("[1, 2]", ": expected a JSON object with cik, entityName and facts"),
        (_doc("{}", '"cik": "ABC", "entityName": "X"'), ": cik: expected a CIK number, got 'ABC'"),
        (_doc("{}", '"cik": 42'), ": entityName: expected the company's name"),
        ('{"cik": 42, "entityName": "X"}', ": facts is missing"),
        (
            _doc('{"us-gaap": {"Revenues": {"units": {"USD": {}}}}}'),
            ": facts.us-gaap.Revenues.units.USD: expected a list of facts, got an object",
        ),
        (
            _doc('{"us-gaap": {"Revenues": {"label": "R"}}}'),
            ": facts.us-gaap.Revenues.units is missing",
        ),
        (
            _doc('{"us-gaap": {"Revenues": {"units": {"USD": [{"val": NaN}]}}}}'),
            ": not valid JSON (NaN is not a number the SEC writes)",
        ),
        (_doc("{}"), ": holds no annual report (10-K, 20-F or 40-F) covering a fiscal year"),
    ],
    ids=[
        "truncated", "not-an-object", "bad-cik", "no-name", "no-facts", "rows-not-a-list",
        "no-units", "nan", "no-annual-report",
    ],
)  # fmt: skip
def test_a_file_that_is_no_companyfacts_document_is_refused_plainly(
    tmp_path: Path, stored_fact: Fact, content: str, message: str
) -> None:
    path = write(tmp_path / "bad.json", content)
    assert failure("import_companyfacts", path).startswith(f"{path}{message}")
    assert list(Fact.objects.all()) == [stored_fact]


def test_a_missing_file_is_named() -> None:
    assert failure("import_companyfacts", "/nonexistent.json") == "/nonexistent.json: no such file"


def test_dry_run_checks_everything_and_keeps_nothing() -> None:
    output = run("import_companyfacts", str(SNOWFLAKE), "--dry-run")
    assert f"{SNOWFLAKE}: would import 104 facts (104 new, 0 updated)" in output.stdout
    assert not Fact.objects.exists() and not Entity.objects.exists()
    assert not Metric.objects.exists()


def test_a_large_file_prints_progress_on_stderr() -> None:
    output = run("import_companyfacts", str(SNOWFLAKE), "--progress-every", "4000")
    assert output.stderr.splitlines() == [
        f"{SNOWFLAKE}: 4,000 rows read",
        f"{SNOWFLAKE}: 8,000 rows read",
    ]


def test_the_company_is_found_by_its_cik_after_a_rename(tmp_path: Path) -> None:
    EntityFactory(name="Example", aliases=["CIK 0000000042"])
    revenue = [year("2023-01-01", "2023-12-31", 1)]
    _import(tmp_path, document({"us-gaap:Revenues": {"USD": revenue}}))
    assert list(Entity.objects.values_list("name", "aliases")) == [
        ("Example", ["CIK 0000000042", "Example Corp"])
    ]
    assert Fact.objects.get().entity.name == "Example"


def test_entity_and_alias_options_name_the_company(tmp_path: Path) -> None:
    doc = document({"us-gaap:Revenues": {"USD": [year("2023-01-01", "2023-12-31", 1)]}})
    _, output = _import(tmp_path, doc, "--entity", "Example", "--alias", "EXMP")
    entity = Entity.objects.get()
    assert (entity.name, entity.aliases) == ("Example", ["Example Corp", "CIK 0000000042", "EXMP"])
    assert "new entity Example, aliases added: Example Corp, CIK 0000000042, EXMP" in output


def test_entity_option_wins_over_a_company_found_by_its_sec_name(tmp_path: Path) -> None:
    EntityFactory(name="Example Corp")
    doc = document({"us-gaap:Revenues": {"USD": [year("2023-01-01", "2023-12-31", 1)]}})
    path = write(tmp_path / "facts.json", doc)
    message = failure("import_companyfacts", path, "--entity", "Example")
    assert message == f"{path}: alias 'Example Corp' already stands for the entity Example Corp"
    assert list(Entity.objects.values_list("name", flat=True)) == ["Example Corp"]


def test_tickers_the_file_carries_become_aliases(tmp_path: Path) -> None:
    doc = document({"us-gaap:Revenues": {"USD": [year("2023-01-01", "2023-12-31", 1)]}})
    doc["tickers"] = ["EXMP", "EXMP.B"]
    _import(tmp_path, doc)
    assert Entity.objects.get().aliases == ["CIK 0000000042", "EXMP", "EXMP.B", "Example"]


def test_an_alias_another_entity_holds_is_an_error(tmp_path: Path, stored_fact: Fact) -> None:
    EntityFactory(name="Other", aliases=["EXMP"])
    doc = document({"us-gaap:Revenues": {"USD": [year("2023-01-01", "2023-12-31", 1)]}})
    path = write(tmp_path / "facts.json", doc)
    message = failure("import_companyfacts", path, "--alias", "EXMP")
    assert message == f"{path}: alias 'EXMP' already stands for the entity Other"
    assert not Entity.objects.filter(name="Example Corp").exists()


def test_entity_options_apply_to_one_company_only() -> None:
    message = failure("import_companyfacts", str(SNOWFLAKE), str(LPA), "--alias", "X")
    assert message == "--entity and --alias apply to one company: import one at a time"


@pytest.mark.parametrize("years", [3, 30])
def test_reimporting_a_company_costs_the_same_few_queries_however_many_facts(
    tmp_path: Path, django_assert_num_queries: Any, years: int
) -> None:
    concepts = {
        concept: {"USD": [year(f"{y}-01-01", f"{y}-12-31", y) for y in range(1990, 1990 + years)]}
        for concept in ("us-gaap:Revenues", "us-gaap:NetIncomeLoss", "us-gaap:GrossProfit")
    }
    path, _ = _import(tmp_path, document(concepts))
    # Names read once (metrics, entities), the facts counted before and after, one INSERT.
    with django_assert_num_queries(9):
        run("import_companyfacts", path)
