"""What the one clearance rule costs (docs/adr/0029): names are computed, not stored.

    python bench/bench_clearance.py [--entities 2000] [--metrics 20] [--periods 5]

Builds a SQLite knowledge base of entities x metrics x periods facts (a tenth of the entities
known only from RESTRICTED facts, a tenth only from INTERNAL ones, a document per entity),
then times, as medians of repeated runs and as ratios to the plain query they extend:
- the DatabaseStore's vocabulary read with each name's classification (once per change of the
  knowledge base, not per question) against reading the names alone;
- the chat page's company list for a PUBLIC reader against listing every entity;
- the per-question probe (one row the database keeps, ADR 0034) against counting the tables.
An ask runs no extra query for the rule (the withheld mark is a subquery of the recent-turns
read): tests/service/api/test_api_ask_queries.py holds its count.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


def _setup(folder: Path) -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "project.settings")
    os.environ["SECRET_KEY"] = "bench-only"
    os.environ["DATABASE_URL"] = f"sqlite:///{folder / 'bench.sqlite3'}"
    os.environ["ASKAPP_SEARCH_ACCELERATOR"] = "false"
    import django
    from django.core.management import call_command

    django.setup()
    call_command("migrate", verbosity=0)


def _fill(entities: int, metrics: int, periods: int) -> None:
    from askapp.models import Document, Entity, Fact, Metric

    Entity.objects.bulk_create(Entity(name=f"Company {n}") for n in range(entities))
    Metric.objects.bulk_create(Metric(name=f"Metric {n}") for n in range(metrics))
    ents, mets = list(Entity.objects.all()), list(Metric.objects.all())
    facts = []
    for number, entity in enumerate(ents):
        level = "RESTRICTED" if number % 10 == 0 else "INTERNAL" if number % 10 == 1 else "PUBLIC"
        for metric in mets:
            for year in range(periods):
                facts.append(Fact(entity=entity, metric=metric, period=f"FY{2020 + year}",
                                  value=1, unit="USD", classification=level))  # fmt: skip
        if len(facts) > 20000:
            Fact.objects.bulk_create(facts)
            facts = []
    Fact.objects.bulk_create(facts)
    Document.objects.bulk_create(
        Document(key=f"d{e.pk}", title="note", body="text", entity=e, classification="PUBLIC")
        for e in ents[5::10]
    )


def _median(run: Callable[[], object], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        run()
        times.append(time.perf_counter() - started)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--entities", type=int, default=2000)
    parser.add_argument("--metrics", type=int, default=20)
    parser.add_argument("--periods", type=int, default=5)
    parser.add_argument("--repeat", type=int, default=7)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        _setup(Path(folder))
        _fill(args.entities, args.metrics, args.periods)
        _report(args)


def _report(args: argparse.Namespace) -> None:
    from django.db import connection

    from askapp.models import Entity, Metric
    from askapp.selectors.clearance import naming_levels, term_classification, visible_entities
    from askapp.store import DatabaseStore
    from engine import PUBLIC

    facts = args.entities * args.metrics * args.periods
    print(f"{args.entities} entities, {args.metrics} metrics, {facts} facts (SQLite)")

    def plain_names() -> object:  # the store's read before names carried a classification
        return [e.to_engine() for e in Entity.objects.all()] + [
            m.to_engine() for m in Metric.objects.all()
        ]

    def classified_names() -> object:
        rows = [*Entity.objects.annotate(**naming_levels(Entity)),
                *Metric.objects.annotate(**naming_levels(Metric))]  # fmt: skip
        return [term_classification(r) for r in rows]

    public = frozenset({PUBLIC})
    store = DatabaseStore()
    old_probe_sql = "SELECT " + ", ".join(
        f"(SELECT count(*) FROM {t}), (SELECT max(updated) FROM {t})"
        for t in ("askapp_entity", "askapp_metric", "askapp_fact")
    )

    def old_probe() -> object:
        with connection.cursor() as cursor:
            cursor.execute(old_probe_sql)
            return cursor.fetchone()

    rows = [
        ("vocabulary: names only", _median(plain_names, args.repeat)),
        ("vocabulary: names with classification", _median(classified_names, args.repeat)),
        ("company list: every entity", _median(lambda: list(Entity.objects.all()), args.repeat)),
        ("company list: PUBLIC reader",
         _median(lambda: list(visible_entities(clearance=public)), args.repeat)),
        ("probe: entities, metrics, facts", _median(old_probe, args.repeat * 3)),
        ("probe: the version row (ADR 0034)", _median(store._read_probe, args.repeat * 3)),
    ]  # fmt: skip
    for index, (label, seconds) in enumerate(rows):
        ratio = f"  x{seconds / rows[index - 1][1]:.2f}" if index % 2 else ""
        print(f"  {label:42s} {seconds * 1000:9.2f} ms{ratio}")


if __name__ == "__main__":
    main()
