"""Full-text search at scale: build synthetic chunk corpora on SQLite and time natural questions.

    .venv/bin/python bench/bench_search.py                      # 100,000 and 1,000,000 chunks
    .venv/bin/python bench/bench_search.py --sizes 20000 --rounds 3
    .venv/bin/python bench/bench_search.py --keep /tmp/bench    # keep (and reuse) the databases

Each size gets a fresh SQLite file in a temporary folder, migrated with the project's own
migrations (so the FTS5 table, its triggers and the accelerator's change log are the real
ones). Chunks are 53-word passages drawn from a finance vocabulary with a Zipf-like
distribution (stop words most frequent, then finance words, years and company names, then a
long tail), plus planted passages that answer some of the questions. Rows go in through
plain INSERTs into askapp_chunk, so the database's triggers maintain the index as they would
for any write.

Reported per size: build time (rows with FTS5 triggers; then the accelerator's first sync),
sizes on disk, and top-10 latency p50/p95 of `chunk_search` over natural questions (warm:
after one untimed pass), on the product path (the accelerator on a SQLite file) and on FTS5
alone, plus where each planted passage ranks for its question.
"""

from __future__ import annotations

import argparse
import bisect
import itertools
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

ROOT = Path(__file__).resolve().parent.parent

QUESTIONS = [
    "Why did Apple's revenue decline in fiscal 2023?",
    "What drove the increase in operating expenses?",
    "how much cash did the company return to shareholders",
    "What was the impact of foreign currency on sales?",
    "Why did gross margin improve?",
    "What are the main risks to the supply chain?",
    "How much did Microsoft spend on research and development?",
    "What happened to inventory levels in 2022?",
    "Did the company repurchase shares in fiscal 2021?",
    "What is the outlook for cloud revenue growth?",
    "What caused the goodwill impairment charge?",
    "How did inflation affect consumer demand?",
    "What was the effective tax rate?",
    "Explain the restructuring charges",
    "revenue",
    "Nvidia data center revenue growth 2024",
    "What are the company's debt maturities?",
    "How much was spent on capital expenditures for manufacturing capacity?",
    "Why did Tesla's automotive margin decline?",
    "dividends per share increased",
    "liquidity and capital resources",
    "pension obligations and discount rate assumptions",
]

# Planted passages: (question index, passage text). Each answers its question in the words an
# analyst's document would use, not the question's own.
PLANTED = [
    (
        0,
        "Apple net sales and revenue declined 3% in fiscal 2023 as iPhone and Mac demand "
        "weakened and a stronger dollar reduced revenue from international markets.",
    ),
    (
        1,
        "Operating expenses increased 14% this year, driven by higher research and development "
        "headcount, marketing campaigns and the increase in general and administrative costs.",
    ),
    (
        2,
        "During the year the company returned $90 billion of cash to shareholders through share "
        "repurchases and dividends, and the board authorized a further buyback program.",
    ),
    (
        3,
        "Foreign currency exchange rates had an unfavorable impact of 4 points on net sales, "
        "mainly from the weaker euro and yen against the dollar.",
    ),
    (
        4,
        "Gross margin improved 150 basis points on a favorable product mix, lower freight and "
        "logistics costs, and manufacturing productivity savings.",
    ),
    (
        6,
        "Microsoft research and development expenses were $27.2 billion, up 10%, reflecting "
        "investments in cloud engineering and artificial intelligence.",
    ),
    (
        10,
        "The goodwill impairment charge of $1.2 billion was caused by lower projected cash flows "
        "in the retail segment after a decline in store traffic.",
    ),
    (
        12,
        "The effective tax rate was 14.7% compared with 16.2% a year earlier, reflecting foreign "
        "earnings taxed at lower rates and research credits.",
    ),
    (
        15,
        "Nvidia data center revenue grew 217% in fiscal 2024 on demand for accelerated "
        "computing platforms from cloud providers.",
    ),
    (
        18,
        "Tesla automotive gross margin declined as average selling prices fell after price "
        "reductions, partially offset by lower raw material costs.",
    ),
]

_FUNCTION_WORDS_TEXT = (
    "the of and to in a for by on with as from that was were is are at its our this which be or an"
)
FUNCTION_WORDS = _FUNCTION_WORDS_TEXT.split()
_FINANCE_WORDS_TEXT = (
    "revenue revenues sales net income operating expenses expense cost costs margin gross "
    "profit cash flow flows capital expenditures dividends dividend shareholders shareholder "
    "repurchase repurchases buyback share shares stock debt interest rate rates tax taxes "
    "effective quarter quarterly fiscal year annual increase increased decrease decreased "
    "decline declined growth grew higher lower driven drove due primarily partially offset "
    "compared prior period segment segments products services product service customers "
    "customer demand pricing price prices volume volumes currency foreign exchange impact "
    "impacts inventory inventories receivable receivables payable liabilities assets asset "
    "equity balance sheet liquidity borrowings credit facility notes bonds maturity investment "
    "investments acquisition acquisitions goodwill impairment amortization depreciation "
    "restructuring charges charge litigation settlement legal research development marketing "
    "administrative general selling headcount compensation employee employees benefits pension "
    "supply chain manufacturing production capacity utilization backlog orders bookings "
    "subscription subscriptions recurring license licensing advertising cloud data center "
    "hardware software devices smartphone wearables retail wholesale stores online digital "
    "international domestic americas europe china japan asia pacific region regions guidance "
    "outlook expect expects expected forecast risk risks uncertainty inflation macroeconomic "
    "environment consumer spending commodity energy oil gas electricity freight logistics "
    "shipping transportation labor wages returned return returns program authorization "
    "authorized billion million thousand percent basis points earnings per diluted basic "
    "weighted average outstanding accounting standards adopted estimates judgments "
    "contingencies commitments leases lease obligations purchase contractual working "
    "improvement improved favorable unfavorable mix efficiency productivity savings initiatives "
    "strategic portfolio discount assumptions"
)
FINANCE_WORDS = _FINANCE_WORDS_TEXT.split()
_COMPANIES_TEXT = (
    "Apple Microsoft Alphabet Amazon Nvidia Tesla Meta Intel Oracle Cisco Adobe Netflix Walmart "
    "Costco PepsiCo Nike Boeing Caterpillar Exxon Chevron Pfizer Merck AbbVie Visa"
)
COMPANIES = _COMPANIES_TEXT.split()
YEARS = [str(y) for y in range(2015, 2025)]
WORDS_PER_CHUNK = 53
CHUNKS_PER_DOCUMENT = 50


class Corpus:
    """Zipf-distributed finance text: stop words first, then finance words, years and names."""

    def __init__(self, seed: int = 7, tail: int = 20_000) -> None:
        self.rng = random.Random(seed)
        finance = list(dict.fromkeys(FINANCE_WORDS))
        self.rng.shuffle(finance)
        words = [*FUNCTION_WORDS, *finance[:40], *YEARS, *finance[40:]]
        words += [c.lower() for c in COMPANIES] + self._tail_words(tail)
        self.words = words
        self.cumulative = list(
            itertools.accumulate(1.0 / rank for rank in range(1, len(words) + 1))
        )

    def _tail_words(self, count: int) -> list[str]:
        consonants, vowels = "bcdfghklmnprstvz", "aeiou"
        tail: dict[str, None] = {}
        while len(tail) < count:
            syllables = self.rng.randint(2, 4)
            word = "".join(
                self.rng.choice(consonants) + self.rng.choice(vowels) for _ in range(syllables)
            )
            tail[word] = None
        return list(tail)

    def chunk(self) -> str:
        total, rng, cumulative, words = self.cumulative[-1], self.rng, self.cumulative, self.words
        picks = (
            words[bisect.bisect_left(cumulative, rng.random() * total)]
            for _ in range(WORDS_PER_CHUNK)
        )
        text = " ".join(picks)
        return text[0].upper() + text[1:] + "."


# --- one size, in its own process --------------------------------------------------------------


def run_one_postgres(size: int, rounds: int, url: str) -> dict[str, object]:
    """The same corpus and questions on PostgreSQL: its own full-text index (a GIN index over
    a generated tsvector) is the only path there is."""
    os.environ["DATABASE_URL"] = url
    os.environ.setdefault("SECRET_KEY", "bench-only-secret-key")
    os.environ["DJANGO_SETTINGS_MODULE"] = "project.settings"
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connection

    call_command("migrate", verbosity=0)
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM askapp_chunk")
        (present,) = cursor.fetchone()
    rows_seconds = float("nan")
    if present != size:  # a database kept from an earlier run (--keep) is reused as it is
        started = time.perf_counter()
        _load(size)
        rows_seconds = time.perf_counter() - started
    with connection.cursor() as cursor:
        cursor.execute("VACUUM ANALYZE askapp_chunk")
        cursor.execute(
            "SELECT pg_relation_size('askapp_chunk_search_gin'), "
            "pg_total_relation_size('askapp_chunk'), pg_database_size(current_database())"
        )
        gin, table, database = cursor.fetchone()
    return {
        "size": size,
        "rows_seconds": rows_seconds,
        "gin_mb": gin / 1e6,
        "chunk_table_mb": table / 1e6,
        "database_mb": database / 1e6,
        "postgres": _time_questions(rounds),
        "postgres_entity": _time_questions(rounds, entities=["Apple"]),
        "load": os.getloadavg()[0],
    }


def run_one(size: int, rounds: int, fts5_rounds: int, folder: Path) -> dict[str, object]:
    database = folder / "bench.sqlite3"
    os.environ["DATABASE_URL"] = f"sqlite:///{database}"
    os.environ.setdefault("SECRET_KEY", "bench-only-secret-key")
    os.environ["DJANGO_SETTINGS_MODULE"] = "project.settings"
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()
    from django.core.management import call_command

    planted_file = folder / "planted.json"
    if planted_file.exists():  # --keep: a database built by an earlier run
        planted = {int(k): v for k, v in json.loads(planted_file.read_text()).items()}
        rows_seconds = float("nan")
    else:
        call_command("migrate", verbosity=0)
        started = time.perf_counter()
        planted = _load(size)
        rows_seconds = time.perf_counter() - started
        planted_file.write_text(json.dumps(planted))

    from askapp import search

    started = time.perf_counter()
    assert search.search_index_sync()
    accelerator_seconds = time.perf_counter() - started

    result: dict[str, object] = {
        "size": size,
        "rows_and_fts5_seconds": rows_seconds,
        "accelerator_seconds": accelerator_seconds,
        "database_mb": _mb(database) + _mb(Path(f"{database}-wal")),
        "fts5_mb": _fts5_bytes() / 1e6,
        "accelerator_mb": sum(_mb(p) for p in Path(f"{database}.search").rglob("*") if p.is_file()),
    }
    result["accelerated"] = _time_questions(rounds)
    result["accelerated_entity"] = _time_questions(rounds, entities=["Apple"])
    result["load"] = os.getloadavg()[0]
    result["planted_ranks"] = _planted_ranks(planted)
    from django.conf import settings

    settings.ASKAPP_SEARCH_ACCELERATOR = False
    result["fts5"] = _time_questions(fts5_rounds)
    result["fts5_planted_ranks"] = _planted_ranks(planted)
    return result


def _load(size: int) -> dict[int, int]:
    """Documents and chunks through plain INSERTs (the triggers index them); planted ids back."""
    from django.db import connection, transaction

    from askapp.models import Entity

    corpus = Corpus()
    entities = [Entity.objects.create(name=name).pk for name in COMPANIES]
    rng = random.Random(11)
    documents = -(-size // CHUNKS_PER_DOCUMENT)
    plant_at = dict(zip(rng.sample(range(size), len(PLANTED)), range(len(PLANTED)), strict=True))
    planted: dict[int, int] = {}
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.executemany(
            "INSERT INTO askapp_document (key, title, body, classification, entity_id, period, "
            "source, created, updated) VALUES (%s, %s, '', %s, %s, %s, '', "
            "CURRENT_TIMESTAMP, CURRENT_TIMESTAMP)",
            [
                (
                    f"doc-{d}",
                    f"Report {d}",
                    _classification(rng),
                    rng.choice(entities),
                    f"FY{rng.choice(YEARS)}",
                )
                for d in range(documents)
            ],
        )
        cursor.execute("SELECT min(id) FROM askapp_document")
        (first_document,) = cursor.fetchone()
    batch: list[tuple[int, int, str]] = []
    for n in range(size):  # committed every 10,000 rows, as an import of many files would be
        text = PLANTED[plant_at[n]][1] if n in plant_at else corpus.chunk()
        batch.append((first_document + n // CHUNKS_PER_DOCUMENT, n % CHUNKS_PER_DOCUMENT, text))
        if len(batch) == 10_000 or n == size - 1:
            with transaction.atomic(), connection.cursor() as cursor:
                cursor.executemany(
                    "INSERT INTO askapp_chunk (document_id, ordinal, text) VALUES (%s, %s, %s)",
                    batch,
                )
            batch = []
    with transaction.atomic(), connection.cursor() as cursor:
        for n, which in plant_at.items():
            cursor.execute(
                "SELECT c.id FROM askapp_chunk AS c WHERE c.document_id = %s AND c.ordinal = %s",
                [first_document + n // CHUNKS_PER_DOCUMENT, n % CHUNKS_PER_DOCUMENT],
            )
            planted[which] = cursor.fetchone()[0]
        # Planted passages sit in PUBLIC documents so the questions may find them.
        marks = ", ".join("%s" for _ in planted)
        cursor.execute(
            "UPDATE askapp_document SET classification = 'PUBLIC' WHERE id IN "
            f"(SELECT document_id FROM askapp_chunk WHERE id IN ({marks}))",
            list(planted.values()),
        )
    return planted


def _classification(rng: random.Random) -> str:
    roll = rng.random()
    return "PUBLIC" if roll < 0.80 else "INTERNAL" if roll < 0.95 else "RESTRICTED"


def _time_questions(rounds: int, entities: list[str] | None = None) -> dict[str, float]:
    """Wall-clock and CPU milliseconds per question. CPU time is the figure to trust on a
    shared machine: wall time there also counts the time other processes held the cores."""
    from askapp.search import chunk_search

    allowed = frozenset({"PUBLIC", "INTERNAL"})

    def ask(question: str) -> tuple[float, float]:
        wall, cpu = time.perf_counter(), time.process_time()
        chunk_search(query=question, limit=10, classifications=allowed, entities=entities or ())
        return (time.perf_counter() - wall) * 1000, (time.process_time() - cpu) * 1000

    for question in QUESTIONS:  # warm: caches, pages, the accelerator's reader
        ask(question)
    timings = [ask(q) for _ in range(rounds) for q in QUESTIONS]
    wall = sorted(t[0] for t in timings)
    cpu = sorted(t[1] for t in timings)
    return {
        "p50": statistics.median(wall),
        "p95": _p95(wall),
        "cpu_p50": statistics.median(cpu),
        "cpu_p95": _p95(cpu),
        "n": len(timings),
    }


def _p95(ordered: list[float]) -> float:
    return ordered[max(0, round(0.95 * len(ordered)) - 1)]


def _planted_ranks(planted: dict[int, int]) -> list[int | None]:
    from askapp.search import chunk_search

    ranks: list[int | None] = []
    for which, chunk_id in sorted(planted.items()):
        question = QUESTIONS[PLANTED[which][0]]
        hits = chunk_search(query=question, limit=10, classifications=frozenset({"PUBLIC"}))
        ids = [hit.chunk_id for hit in hits]
        ranks.append(ids.index(chunk_id) + 1 if chunk_id in ids else None)
    return ranks


def _fts5_bytes() -> int:
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT (SELECT coalesce(sum(length(block)), 0) FROM askapp_chunk_fts_data) + "
            "(SELECT coalesce(sum(length(sz)) + 8 * count(*), 0) FROM askapp_chunk_fts_docsize) + "
            "(SELECT coalesce(sum(length(term)) + 16 * count(*), 0) FROM askapp_chunk_fts_idx)"
        )
        return cursor.fetchone()[0]


def _mb(path: Path) -> float:
    return path.stat().st_size / 1e6 if path.exists() else 0.0


# --- the parent: one child per size, then the table ----------------------------------------------


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--sizes", default="100000,1000000", help="comma-separated chunk counts")
    parser.add_argument("--rounds", type=int, default=5, help="timed passes over the questions")
    parser.add_argument("--fts5-rounds", type=int, default=1, help="timed passes on FTS5 alone")
    parser.add_argument(
        "--keep", help="build each size in KEEP/<size>/ and leave it; reuse it when present"
    )
    parser.add_argument(
        "--postgres",
        metavar="URL",
        help="time PostgreSQL instead: a database per size on URL's server, named after it "
        "with _search_<size> (made afresh unless --keep)",
    )
    parser.add_argument("--one", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--folder", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one and args.postgres:
        print(json.dumps(run_one_postgres(args.one, args.rounds, args.postgres)))
        return
    if args.one:
        print(json.dumps(run_one(args.one, args.rounds, args.fts5_rounds, Path(args.folder))))
        return
    if args.postgres:
        _run_postgres(args)
        return
    results = []
    for size in (int(s) for s in args.sizes.split(",")):
        with tempfile.TemporaryDirectory(prefix="askapp-bench-") as scratch:
            folder = str(Path(args.keep) / str(size)) if args.keep else scratch
            Path(folder).mkdir(parents=True, exist_ok=True)
            print(f"{size:,} chunks in {folder} ...", file=sys.stderr, flush=True)
            child = subprocess.run(
                [
                    sys.executable,
                    __file__,
                    "--one",
                    str(size),
                    "--folder",
                    folder,
                    "--rounds",
                    str(args.rounds),
                    "--fts5-rounds",
                    str(args.fts5_rounds),
                ],
                capture_output=True,
                text=True,
                cwd=ROOT,
            )
            if child.returncode != 0:
                sys.exit(f"the {size:,}-chunk run failed:\n{child.stderr}")
            results.append(json.loads(child.stdout.strip().splitlines()[-1]))
    _print_table(results)


def _run_postgres(args: argparse.Namespace) -> None:
    import psycopg

    results = []
    base = urlsplit(args.postgres)
    for size in (int(s) for s in args.sizes.split(",")):
        name = f"{base.path.strip('/') or 'askapp'}_search_{size}"
        with psycopg.connect(urlunsplit(base._replace(path="/postgres")), autocommit=True) as db:
            exists = db.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name]).fetchone()
            if exists and not args.keep:
                db.execute(f'DROP DATABASE "{name}" WITH (FORCE)')
            if not exists or not args.keep:
                db.execute(f'CREATE DATABASE "{name}"')
        url = urlunsplit(base._replace(path=f"/{name}"))
        print(f"{size:,} chunks in PostgreSQL database {name} ...", file=sys.stderr, flush=True)
        child = subprocess.run(
            [sys.executable, __file__, "--one", str(size), "--postgres", url,
             "--rounds", str(args.rounds)],
            capture_output=True, text=True, cwd=ROOT,
        )  # fmt: skip
        if child.returncode != 0:
            sys.exit(f"the {size:,}-chunk PostgreSQL run failed:\n{child.stderr}")
        results.append(json.loads(child.stdout.strip().splitlines()[-1]))
    print(f"PostgreSQL full-text search: {len(QUESTIONS)} natural questions, top-10, "
          f"PUBLIC+INTERNAL; {WORDS_PER_CHUNK}-word chunks")  # fmt: skip
    print()
    header = ("chunks", "rows build", "GIN index", "chunk table", "database")
    print("| " + " | ".join(header) + " |")
    print("|" + "---|" * len(header))
    for r in results:
        print(f"| {r['size']:,} | {r['rows_seconds']:.1f} s | {r['gin_mb']:.0f} MB "
              f"| {r['chunk_table_mb']:.0f} MB | {r['database_mb']:.0f} MB |")  # fmt: skip
    print()
    header = ("chunks", "path", "wall p50", "wall p95", "CPU p50", "CPU p95", "queries")
    print("| " + " | ".join(header) + " |")
    print("|" + "---|" * len(header))
    paths = (("chunk_search (PostgreSQL)", "postgres"),
             ("chunk_search (PostgreSQL), entities=[Apple]", "postgres_entity"))  # fmt: skip
    for r in results:
        for label, key in paths:
            t = r[key]
            print(f"| {r['size']:,} | {label} | {t['p50']:.1f} ms | {t['p95']:.1f} ms "
                  f"| {t['cpu_p50']:.1f} ms | {t['cpu_p95']:.1f} ms | {t['n']} |")  # fmt: skip
    loads = ", ".join(f"{r['size']:,}: {r['load']:.1f}" for r in results)
    print(f"\n1-minute load average after the timings ({os.cpu_count()} cores): {loads}")
    print("CPU times are this client's (the query itself runs in the PostgreSQL server).")


def _print_table(results: list[dict]) -> None:
    print(
        f"{len(QUESTIONS)} natural questions, top-10, classifications PUBLIC+INTERNAL; "
        f"{WORDS_PER_CHUNK}-word chunks"
    )
    print()
    header = ("chunks", "rows+FTS5 build", "accel. build", "db file", "FTS5 index", "accel. index")
    print("| " + " | ".join(header) + " |")
    print("|" + "---|" * len(header))
    for r in results:
        print(
            f"| {r['size']:,} | {r['rows_and_fts5_seconds']:.1f} s "
            f"| {r['accelerator_seconds']:.1f} s "
            f"| {r['database_mb']:.0f} MB | {r['fts5_mb']:.0f} MB | {r['accelerator_mb']:.0f} MB |"
        )
    print()
    header = ("chunks", "path", "wall p50", "wall p95", "CPU p50", "CPU p95", "queries")
    print("| " + " | ".join(header) + " |")
    print("|" + "---|" * len(header))
    paths = (
        ("chunk_search (accelerator)", "accelerated"),
        ("chunk_search (accelerator), entities=[Apple]", "accelerated_entity"),
        ("FTS5 alone", "fts5"),
    )
    for r in results:
        for label, key in paths:
            t = r[key]
            print(
                f"| {r['size']:,} | {label} | {t['p50']:.1f} ms | {t['p95']:.1f} ms "
                f"| {t['cpu_p50']:.1f} ms | {t['cpu_p95']:.1f} ms | {t['n']} |"
            )
    print()
    loads = ", ".join(f"{r['size']:,}: {r['load']:.1f}" for r in results)
    print(f"1-minute load average after the accelerator timings ({os.cpu_count()} cores): {loads}")
    print()
    print("rank of each planted passage for its question (None: not in the top 10)")
    for r in results:
        print(f"  {r['size']:,}: accelerator {r['planted_ranks']}  FTS5 {r['fts5_planted_ranks']}")


if __name__ == "__main__":
    main()
