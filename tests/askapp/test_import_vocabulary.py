"""manage.py import_entities and import_metrics: names with aliases, one owner per label."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from askapp.models import Entity, Metric
from tests.askapp.commands import failure, run
from tests.factories import EntityFactory

pytestmark = pytest.mark.django_db
WriteFile = Callable[[str, str], str]


def _aliases(model: type[Entity] | type[Metric]) -> dict[str, list[str]]:
    return dict(model.objects.values_list("name", "aliases"))


def test_entities_load_with_their_aliases(write_file: WriteFile) -> None:
    path = write_file(
        "entities.csv",
        """
        entity,aliases
        Apple,Apple|Apple Inc.| AAPL ||AAPL
        "Amazon","Amazon.com, Inc.|AMZN"
        Tesla,
        """,
    )
    output = run("import_entities", path)
    assert _aliases(Entity) == {
        "Apple": ["Apple", "Apple Inc.", "AAPL"],
        "Amazon": ["Amazon.com, Inc.", "AMZN"],
        "Tesla": [],
    }
    assert f"{path}: imported 3 entities (3 new, 0 updated)" in output.stdout


def test_reimporting_replaces_the_aliases_of_the_names_it_lists(write_file: WriteFile) -> None:
    path = write_file("entities.csv", "entity,aliases\nApple,AAPL\n")
    run("import_entities", path)
    write_file("entities.csv", "entity,aliases\nApple,Apple Inc.\n")
    output = run("import_entities", path)
    assert _aliases(Entity) == {"Apple": ["Apple Inc."]}
    assert f"{path}: imported 1 entities (0 new, 1 updated)" in output.stdout


def test_an_alias_may_move_between_two_names_of_the_same_file(write_file: WriteFile) -> None:
    EntityFactory(name="Alphabet", aliases=["Google"])
    EntityFactory(name="Google LLC", aliases=[])
    path = write_file("entities.csv", "entity,aliases\nAlphabet,GOOGL\nGoogle LLC,Google\n")
    run("import_entities", path)
    assert _aliases(Entity) == {"Alphabet": ["GOOGL"], "Google LLC": ["Google"]}


def test_metrics_load_the_same_way(write_file: WriteFile) -> None:
    path = write_file("metrics.csv", "metric,aliases\nRevenue,Net sales|Total net sales\n")
    output = run("import_metrics", path)
    assert _aliases(Metric) == {"Revenue": ["Net sales", "Total net sales"]}
    assert f"{path}: imported 1 metrics (1 new, 0 updated)" in output.stdout


def test_dry_run_keeps_nothing(write_file: WriteFile) -> None:
    path = write_file("entities.csv", "entity,aliases\nApple,AAPL\n")
    assert "would import 1 entities" in run("import_entities", path, "--dry-run").stdout
    assert not Entity.objects.exists()


@pytest.mark.parametrize(
    ("text", "message"),
    [
        pytest.param(
            "entity\nApple\n",
            "1: missing column 'aliases' (expected entity, aliases)",
            id="missing column",
        ),
        pytest.param(
            "entity,aliases,ticker\nApple,AAPL,AAPL\n",
            "1: expected the columns entity,aliases and no others",
            id="extra column",
        ),
        pytest.param(
            "entity,aliases\nApple,AAPL\nTesla,TSLA\nApple,Apple Inc.\n",
            "4: duplicate entity 'Apple' (first on line 2)",
            id="duplicate key inside the file",
        ),
        pytest.param(
            "entity,aliases\nApple,AAPL\nApricot,aapl\n",
            "3: 'aapl' already stands for Apple (line 2)",
            id="alias of two names in the file",
        ),
        pytest.param(
            "entity,aliases\nApple,AAPL\nMeta,Stored Co\n",
            "3: 'Stored Co' already stands for Stored Co (already stored)",
            id="alias of a stored name",
        ),
        pytest.param(
            "entity,aliases\nApple,AAPL\n,Orphan\n",
            "3: entity is empty",
            id="empty name",
        ),
        pytest.param(
            "entity,aliases\nApple,AAPL,extra\n",
            "2: has 3 cells, expected 2 (entity,aliases)",
            id="unquoted comma",
        ),
    ],
)
def test_a_bad_file_stops_at_its_first_bad_line_and_keeps_nothing(
    write_file: WriteFile, text: str, message: str
) -> None:
    stored = EntityFactory(name="Stored Co", aliases=["SC"])
    path = write_file("entities.csv", text)
    assert failure("import_entities", path) == f"{path}:{message}"
    assert _aliases(Entity) == {"Stored Co": ["SC"]}
    stored.refresh_from_db()
    assert stored.aliases == ["SC"]
