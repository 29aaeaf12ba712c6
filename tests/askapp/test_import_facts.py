"""manage.py import_facts: long and wide tables, faithful values, atomic files, exact errors."""

from __future__ import annotations

from collections.abc import Callable
from decimal import Decimal
from pathlib import Path

import pytest

from askapp.models import Entity, Fact, Metric
from tests.askapp.commands import failure, run
from tests.factories import EntityFactory, MetricFactory

pytestmark = pytest.mark.django_db
WriteFile = Callable[[str, str], str]

DEMO_FACTS = Path(__file__).resolve().parents[2] / "data" / "demo" / "facts.csv"
HEADER = "entity,metric,period,value,unit,source\n"


def _values() -> dict[tuple[str, str, str], tuple[Decimal, str]]:
    return {
        (f.entity.name, f.metric.name, f.period): (f.value, f.unit)
        for f in Fact.objects.select_related("entity", "metric")
    }


def _assert_only(fact: Fact) -> None:
    assert list(Fact.objects.all()) == [fact]
    fact.refresh_from_db()
    assert fact.value == Decimal("1") and fact.source == "earlier import"
    assert set(Entity.objects.values_list("name", flat=True)) == {"Apple"}
    assert set(Metric.objects.values_list("name", flat=True)) == {"Revenue"}


def test_a_long_table_reads_values_as_financial_tables_write_them(write_file: WriteFile) -> None:
    path = write_file(
        "facts.csv",
        """
        entity,metric,period,value,unit,classification,source
        Apple,Net income,fiscal 2023,"(1,234)",USD,,10-K
        Apple,Revenue,FY23,"$ 1,452.4",,INTERNAL,10-K
        Apple,Gross margin,2023,12%,%,public,10-K
        Apple,Diluted EPS,FY2023 Q3,-0.27,USD/share,,10-K
        """,
    )
    output = run("import_facts", path)
    assert _values() == {
        ("Apple", "Net income", "FY2023"): (Decimal("-1234"), "USD"),
        ("Apple", "Revenue", "FY2023"): (Decimal("1452.4"), "USD"),
        ("Apple", "Gross margin", "FY2023"): (Decimal("12"), "%"),
        ("Apple", "Diluted EPS", "FY2023 Q3"): (Decimal("-0.27"), "USD/share"),
    }
    classifications = dict(Fact.objects.values_list("metric__name", "classification"))
    assert classifications["Revenue"] == "INTERNAL"
    assert classifications["Net income"] == classifications["Gross margin"] == "PUBLIC"
    assert f"{path}: imported 4 facts (4 new, 0 updated)" in output.stdout
    assert f"{path}: new entities: Apple" in output.stdout


def test_classification_option_is_the_default_for_rows_without_one(write_file: WriteFile) -> None:
    path = write_file("facts.csv", HEADER + "Apple,Revenue,FY2023,10,USD,10-K\n")
    run("import_facts", path, "--classification", "internal")
    assert Fact.objects.get().classification == "INTERNAL"


def test_importing_the_same_file_again_updates_and_never_duplicates(
    write_file: WriteFile,
) -> None:
    path = write_file("facts.csv", HEADER + "Apple,Revenue,FY2023,10,USD,10-K\n")
    run("import_facts", path)
    write_file("facts.csv", HEADER + "Apple,Revenue,FY2023,12,USD,10-K/A\n")
    output = run("import_facts", path)
    fact = Fact.objects.get()
    assert (fact.value, fact.source) == (Decimal("12"), "10-K/A")
    assert f"{path}: imported 1 facts (0 new, 1 updated)" in output.stdout


def test_a_name_resolves_to_its_entity_by_alias_or_case(write_file: WriteFile) -> None:
    apple = EntityFactory(name="Apple", aliases=["Apple Inc.", "AAPL"])
    path = write_file(
        "facts.csv",
        HEADER + "AAPL,Revenue,FY2023,10,USD,10-K\napple,Revenue,FY2022,9,USD,10-K\n",
    )
    run("import_facts", path)
    assert set(Fact.objects.values_list("entity", flat=True)) == {apple.pk}
    assert Entity.objects.count() == 1


def test_an_alias_two_entities_share_is_an_error(write_file: WriteFile) -> None:
    EntityFactory(name="Alphabet", aliases=["GOOG"])
    EntityFactory(name="Google Ventures", aliases=["GOOG"])
    path = write_file("facts.csv", HEADER + "GOOG,Revenue,FY2023,10,USD,10-K\n")
    message = failure("import_facts", path)
    assert message == (
        f"{path}:2: entity 'GOOG' is ambiguous: it is an alias of Alphabet, Google Ventures"
    )


def test_dry_run_checks_everything_and_keeps_nothing(
    write_file: WriteFile, stored_fact: Fact
) -> None:
    path = write_file(
        "facts.csv",
        HEADER + "Apple,Revenue,FY2023,10,USD,10-K\nTesla,Revenue,FY2023,5,USD,10-K\n",
    )
    output = run("import_facts", path, "--dry-run")
    assert f"{path}: would import 2 facts (1 new, 1 updated)" in output.stdout
    _assert_only(stored_fact)


def test_dry_run_still_reports_the_first_bad_row(write_file: WriteFile) -> None:
    path = write_file("facts.csv", HEADER + "Apple,Revenue,FY2023,ten,USD,10-K\n")
    assert failure("import_facts", path, "--dry-run") == f"{path}:2: value 'ten' is not a number"


@pytest.mark.parametrize(
    ("rows", "message"),
    [
        pytest.param(
            "entity,metric,period,unit,source\nApple,Revenue,FY2023,USD,10-K\n",
            "1: missing column 'value' "
            "(expected entity, metric, period, value, unit, source, classification)",
            id="missing column",
        ),
        pytest.param(
            "entity,metric,period,valeu,unit,source\n",
            "1: unknown column 'valeu' (did you mean 'value'?)",
            id="misspelt column",
        ),
        pytest.param(
            HEADER + "Tesla,Revenue,FY2023,5,USD,10-K\nApple,Revenue,FY2023,12.3.4,USD,10-K\n",
            "3: value '12.3.4' is not a number",
            id="bad number",
        ),
        pytest.param(
            HEADER + "Tesla,Revenue,FY2023,5,USD,10-K\nApple,Revenue,FY2023,,USD,10-K\n",
            "3: value is empty",
            id="empty value",
        ),
        pytest.param(
            "entity,metric,period,value,unit,classification,source\n"
            "Tesla,Revenue,FY2023,5,USD,PUBLIC,10-K\n"
            "Apple,Revenue,FY2023,5,USD,SECRET,10-K\n",
            "3: unknown classification 'SECRET' (expected PUBLIC, INTERNAL, RESTRICTED)",
            id="unknown classification",
        ),
        pytest.param(
            HEADER + "Tesla,Revenue,FY2023,5,USD,10-K\nApple,Revenue,1320,5,USD,10-K\n",
            "3: '1320' is not a period (expected e.g. FY2023 or FY2023 Q3)",
            id="bad period",
        ),
        pytest.param(
            HEADER + "Tesla,Revenue,FY2023,5,USD,10-K\nTesla,Revenue,FY23,6,USD,10-K\n",
            "3: duplicate fact Tesla / Revenue / FY2023 (first on line 2)",
            id="duplicate key inside the file",
        ),
        pytest.param(
            HEADER + "Tesla,Revenue,FY2023,12%,USD,10-K\n",
            "2: value '12%' is a percent but the unit is 'USD'",
            id="percent in a currency unit",
        ),
        pytest.param(
            HEADER + "Tesla,Revenue,FY2023,5,USD,\n",
            "2: source is empty (every fact must say where it comes from)",
            id="no source",
        ),
        pytest.param(
            HEADER + "Amazon.com, Inc.,Revenue,FY2023,5,USD,10-K\n",
            "2: has 7 cells but the header has 6",
            id="unquoted comma",
        ),
        pytest.param(
            HEADER + "Tesla,Revenue,FY2023,5,USD,10-K\nTesla,,FY2022,5,USD,10-K\n",
            "3: metric is empty",
            id="empty metric",
        ),
        pytest.param(
            HEADER + "Tesla,Revenue,FY2023,0.0000001,USD,10-K\n",
            "2: value: Ensure that there are no more than 6 decimal places.",
            id="more precision than stored",
        ),
        pytest.param("", "1: the file is empty", id="empty file"),
    ],
)
def test_a_bad_file_stops_at_its_first_bad_line_and_keeps_nothing(
    write_file: WriteFile, stored_fact: Fact, rows: str, message: str
) -> None:
    path = write_file("facts.csv", rows)
    assert failure("import_facts", path) == f"{path}:{message}"
    _assert_only(stored_fact)


def test_a_failed_row_undoes_updates_made_earlier_in_the_same_file(
    write_file: WriteFile, stored_fact: Fact
) -> None:
    path = write_file(
        "facts.csv",
        HEADER + "Apple,Revenue,FY2023,999,USD,10-K\nApple,Revenue,FY2022,oops,USD,10-K\n",
    )
    assert failure("import_facts", path) == f"{path}:3: value 'oops' is not a number"
    _assert_only(stored_fact)


def test_a_failure_after_a_full_batch_was_written_still_keeps_nothing(
    write_file: WriteFile, stored_fact: Fact
) -> None:
    rows = "".join(f"Tesla,Metric {n},FY2023,{n},USD,10-K\n" for n in range(1200))
    path = write_file("facts.csv", HEADER + rows + "Tesla,Revenue,FY2023,x,USD,10-K\n")
    assert failure("import_facts", path) == f"{path}:1202: value 'x' is not a number"
    _assert_only(stored_fact)


def test_line_numbers_count_newlines_inside_quoted_cells(write_file: WriteFile) -> None:
    path = write_file(
        "facts.csv",
        HEADER + 'Tesla,Revenue,FY2023,5,USD,"10-K,\nItem 7"\nTesla,Revenue,FY2022,?,USD,10-K\n',
    )
    assert failure("import_facts", path) == f"{path}:4: value '?' is not a number"


def test_a_missing_file_is_named(tmp_path: Path) -> None:
    path = str(tmp_path / "nowhere.csv")
    assert failure("import_facts", path) == f"{path}: no such file"


def test_columns_this_format_does_not_use_are_ignored_and_reported(write_file: WriteFile) -> None:
    path = write_file(
        "facts.csv",
        "entity,metric,period,value,unit,source,cik,accession\n"
        "Apple,Revenue,FY2023,10,USD,10-K,320193,0000320193-23-000106\n",
    )
    assert f"{path}: ignored columns: cik, accession" in run("import_facts", path).stdout
    assert Fact.objects.count() == 1


def test_progress_lines_appear_only_for_large_files(write_file: WriteFile) -> None:
    rows = "".join(f"Tesla,Revenue,FY{2000 + n},{n},USD,10-K\n" for n in range(5))
    path = write_file("facts.csv", HEADER + rows)
    assert run("import_facts", path).stderr == ""
    progress = run("import_facts", path, "--progress-every", "2").stderr.splitlines()
    assert progress == [f"{path}: 2 rows read", f"{path}: 4 rows read"]


WIDE = """
    (in millions),FY2023,FY2022,fiscal 2021
    Total net sales,"383,285","394,328","365,817"
    Net income,"(1,234.5)",,"94,680"
    Gross margin,44.1%,43.3%,
    """


def test_a_wide_table_reads_periods_across_and_scales_amounts(write_file: WriteFile) -> None:
    MetricFactory(name="Revenue", aliases=["Total net sales"])
    path = write_file("wide.csv", WIDE)
    output = run(
        "import_facts", path, "--entity", "Apple", "--unit", "USD", "--source", "10-K 2023"
    )
    facts = _values()
    assert facts[("Apple", "Revenue", "FY2023")] == (Decimal("383285000000"), "USD")
    assert facts[("Apple", "Revenue", "FY2021")] == (Decimal("365817000000"), "USD")
    assert facts[("Apple", "Net income", "FY2023")] == (Decimal("-1234500000"), "USD")
    assert ("Apple", "Net income", "FY2022") not in facts  # an empty cell holds no fact
    assert facts[("Apple", "Gross margin", "FY2022")] == (Decimal("43.3"), "%")
    assert len(facts) == 7
    assert set(Fact.objects.values_list("source", flat=True)) == {"10-K 2023"}
    assert f"{path}: imported 7 facts (7 new, 0 updated)" in output.stdout


def test_the_scale_option_applies_when_the_header_names_none(write_file: WriteFile) -> None:
    path = write_file("wide.csv", "metric,FY2023\nRevenue,1.5\n")
    run("import_facts", path, "--entity=Apple", "--unit=USD", "--source=x", "--scale=billion")
    assert Fact.objects.get().value == Decimal("1500000000")


@pytest.mark.parametrize(
    ("extra", "rows", "message"),
    [
        pytest.param(
            ["--unit=USD", "--source=x"],
            WIDE,
            "1: a wide table needs --entity (its cells cannot say them)",
            id="no entity",
        ),
        pytest.param(
            ["--entity=Apple", "--unit=USD", "--source=x", "--scale=thousand"],
            WIDE,
            "1: --scale thousand contradicts the header '(in millions)'",
            id="scale contradicts header",
        ),
        pytest.param(
            ["--entity=Apple", "--unit=USD", "--source=x"],
            "metric,FY2023,2023\nRevenue,1,2\n",
            "1: columns 'FY2023' and '2023' are both FY2023",
            id="period twice",
        ),
        pytest.param(
            ["--entity=Apple", "--unit=USD", "--source=x"],
            "metric,FY2023,FY2022\nRevenue,1,2\nNet income,n/a,3\n",
            "3: column 'FY2023': value 'n/a' is not a number",
            id="bad cell",
        ),
        pytest.param(
            ["--entity=Apple", "--unit=USD", "--source=x"],
            "metric,FY2023\nRevenue,1\nRevenue,2\n",
            "3: duplicate fact Apple / Revenue / FY2023 (first on line 2)",
            id="metric twice",
        ),
        pytest.param(
            ["--entity=Apple"],
            HEADER + "Apple,Revenue,FY2023,1,USD,10-K\n",
            "1: --entity is for wide tables only; a long table says it in each row",
            id="wide option on a long table",
        ),
    ],
)
def test_a_bad_wide_table_keeps_nothing(
    write_file: WriteFile, stored_fact: Fact, extra: list[str], rows: str, message: str
) -> None:
    path = write_file("wide.csv", rows)
    assert failure("import_facts", path, *extra) == f"{path}:{message}"
    _assert_only(stored_fact)


def test_the_demo_facts_load_exactly_once_however_often_imported() -> None:
    for _ in range(2):
        run("import_facts", str(DEMO_FACTS))
        assert Fact.objects.count() == 1247
