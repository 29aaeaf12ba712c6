"""A soak on PostgreSQL: `clients` analysts, each asking chained questions in a conversation
of their own, as fast as the server answers, for `seconds`, once per connection setting.

Then the database is checked against what each client was told: every conversation's
positions are 1..n without a gap, questions and answers alternate, each answer points to
the question just before it, and the questions stand in the order the client asked them
(nothing lost, nothing reordered). Printed per setting: asks, errors, asks/s, p50 and p99.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

from bench.load import ms, percentile
from bench.serving import database_name, uptime
from project import serve
from tests.live import LiveServer, api_token, postgres_demo_database

CHAIN = [
    "What was Apple's revenue in FY2023?",
    "and in FY2022?",
    "What was the change?",
    "What was Microsoft's net income in FY2022?",
    "and in FY2023?",
    "Why did Apple's revenue dip in fiscal 2023?",
]
# The connection settings the README documents, each as the soak runs it.
DOCUMENTED = [
    {},  # the defaults: a pool of ASKAPP_DB_POOL_SIZE=10 per process, CONN_MAX_AGE=0
    {"CONN_MAX_AGE": "60"},  # the setting that ran PostgreSQL out of connections before
    {"ASKAPP_DB_POOL_SIZE": "2"},  # a pool smaller than the clients: they wait their turn
]


def parse_settings(given: Sequence[str] | None) -> list[dict[str, str]]:
    if not given:
        return DOCUMENTED
    return [dict(pair.split("=", 1) for pair in item.split(",") if pair) for item in given]


@dataclass
class Client:
    conversation: str | None = None
    asked: list[str] = field(default_factory=list)  # questions the server said it stored
    latencies: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)


def run(
    *, template: Path, postgres: str, seconds: float, clients: int, settings: list[dict[str, str]]
) -> None:
    workers = serve.web_concurrency()
    print(f"soak: {clients} clients, {seconds:g} s per setting, {workers} workers, "
          f"PostgreSQL; load before: {uptime()}", flush=True)  # fmt: skip
    print("\n| setting | asks | errors | asks/s | p50 | p99 | lost | reordered | load after |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---|")
    for number, setting in enumerate(settings):
        name = database_name(postgres, f"soak{number}")
        url = postgres_demo_database(postgres, name)
        env = {"DATABASE_URL": url, **setting}
        token = api_token(template, env={"DATABASE_URL": url})
        with LiveServer(database=template, env=env, workers=workers) as server:
            started = time.perf_counter()
            population = asyncio.run(_soak(server.url, token, clients, seconds))
            elapsed = time.perf_counter() - started
        lost, reordered = _check(url, population)
        latencies = [t for c in population for t in c.latencies]
        errors = [e for c in population for e in c.errors]
        label = ", ".join(f"{k}={v}" for k, v in setting.items()) or "defaults"
        after = uptime().split("load average:")[-1].strip()
        print(f"| {label} | {len(latencies):,} | {len(errors)} | {len(latencies) / elapsed:.1f} "
              f"| {ms(percentile(latencies, 50))} | {ms(percentile(latencies, 99))} | {lost} "
              f"| {reordered} | {after} |", flush=True)  # fmt: skip
        for error in sorted(set(errors))[:5]:
            print(f"    error: {error}")


async def _soak(url: str, token: str, clients: int, seconds: float) -> list[Client]:
    headers = {"Authorization": f"Token {token}"}
    limits = httpx.Limits(max_connections=clients)
    population = [Client() for _ in range(clients)]
    deadline = time.perf_counter() + seconds
    async with httpx.AsyncClient(base_url=url, headers=headers, limits=limits, timeout=60) as http:

        async def analyst(me: Client, offset: int) -> None:
            n = offset
            while time.perf_counter() < deadline:
                question = CHAIN[n % len(CHAIN)]
                body: dict[str, Any] = {"question": question}
                if me.conversation:
                    body["conversation"] = me.conversation
                began = time.perf_counter()
                try:
                    response = await http.post("/v1/ask", json=body)
                except httpx.HTTPError as exc:
                    me.errors.append(f"{type(exc).__name__}: {exc}")
                    continue
                if response.status_code == 200:
                    me.latencies.append(time.perf_counter() - began)
                    me.conversation = response.json()["conversation"]
                    me.asked.append(question)
                    n += 1
                else:
                    me.errors.append(f"HTTP {response.status_code}: {response.text[:120]}")

        await asyncio.gather(*(analyst(c, i) for i, c in enumerate(population)))
    return population


def _check(url: str, population: list[Client]) -> tuple[int, int]:
    """(questions lost, conversations out of order) against what the clients were told."""
    import psycopg

    lost = reordered = 0
    with psycopg.connect(url) as db:
        for client in population:
            rows = db.execute(
                "SELECT position, role, text, id, answers_id FROM askapp_turn "
                "WHERE conversation_id = %s ORDER BY position",
                [client.conversation],
            ).fetchall()
            questions = [text for _, role, text, _, _ in rows if role == "user"]
            lost += max(0, len(client.asked) - len(questions))
            positions = [row[0] for row in rows]
            alternating = all(
                role == ("user" if i % 2 == 0 else "assistant")
                for i, (_, role, *_rest) in enumerate(rows)
            )
            answered = all(rows[i][4] == rows[i - 1][3] for i in range(1, len(rows), 2))
            in_order = questions == client.asked and positions == list(range(1, len(rows) + 1))
            if not (in_order and alternating and answered):
                reordered += 1
    return lost, reordered
