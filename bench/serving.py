"""The served product against the framework floor, in one run (`python -m bench`).

Starts the floor (bench/floor.py: a plain Django JsonResponse view) and then askapp, each
with the server command `bin/serve` uses (project.serve: granian, WEB_CONCURRENCY workers,
the threaded handler), over the demo data on SQLite or PostgreSQL, and times with wrk (or
the Python client): the floor, /healthz, /v1/ask stateless (a new conversation per ask; five
lookups in turn, then about 6,000 questions none asked twice: bench/questions.py) and
/v1/ask in 200-turn conversations, all structured lookups answered by the mock provider;
then, on a fresh server, the slow-stream test (bench/streams.py).
"""

from __future__ import annotations

import asyncio
import dataclasses
import os
import subprocess
import sys
from collections.abc import Mapping
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx

from bench import load, procs, streams
from bench.questions import LOOKUPS, distinct_lookups
from project import serve
from tests.live import LiveServer, api_token, copy_database, postgres_demo_database

CONVERSATION_TURNS = 200
ROOT = Path(__file__).resolve().parent.parent


def uptime() -> str:
    return subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()


def run(
    *,
    template: Path,
    folder: Path,
    postgres: str | None,
    seconds: float,
    connections: int,
    client: str,
    stream_count: int,
    pace: float,
    hold: tuple[float, float],
) -> None:
    workers = serve.web_concurrency()
    used = load.wrk_version() if client == "wrk" else "the Python asyncio client (httpx)"
    print(f"server: {' '.join(serve.command(host='H', port=0, workers=workers)[1:4])} "
          f"workers={workers}, {os.environ.get('ASKAPP_WEB_THREADS') or serve.WEB_THREADS} "
          f"threads each; load generator: {used}; {connections} connections, {seconds:g} s "
          f"a measurement; database: {'PostgreSQL' if postgres else 'SQLite'}")  # fmt: skip
    print(f"load before: {uptime()}", flush=True)
    env: dict[str, str] = {}
    if postgres:
        env["DATABASE_URL"] = postgres_demo_database(postgres, database_name(postgres, "bench"))
    database = copy_database(template, folder / "askapp")
    token = api_token(database, env=env)
    headers = {"Authorization": f"Token {token}"}
    measure = _measurer(seconds, connections, client)

    floor_env = {**env, "DJANGO_SETTINGS_MODULE": "bench.floor"}
    floor_app = "bench.floor:application"
    with LiveServer(database=database, env=floor_env, workers=workers, application=floor_app) as f:
        floor_before = measure(f, "/floor")
    rows: list[tuple[str, load.Result]] = []
    with LiveServer(database=database, env=env, workers=workers) as server:
        rows.append(("askapp GET /healthz", measure(server, "/healthz")))
        stateless = [{"question": question} for question in LOOKUPS]
        conversations = _conversations(server.url, headers, connections)
        in_conversation = [
            {"question": question, "conversation": conversation}
            for conversation in conversations
            for question in LOOKUPS
        ]
        # Stateless and in-conversation asks are measured in turn, twice each, and each is
        # the sum of its rounds: the database grows and the machine's load moves during a
        # run, and their ratio should not depend on which was measured later.
        both: dict[str, list[load.Result]] = {"stateless": [], "conversation": []}
        for _ in range(ROUNDS):
            both["stateless"].append(measure(server, "/v1/ask", bodies=stateless, headers=headers,
                                             seconds=seconds / ROUNDS))  # fmt: skip
            both["conversation"].append(measure(
                server, "/v1/ask", bodies=in_conversation, headers=headers,
                seconds=seconds / ROUNDS))  # fmt: skip
        rows.append(("askapp POST /v1/ask, stateless", _combined(both["stateless"])))
        # The same kind of ask, but no question asked twice: what nothing kept from an
        # earlier question (a reading, a parse) can make cheaper. The warm-up asks its own.
        distinct = [{"question": question} for question in distinct_lookups()]
        warm, fresh = distinct[: len(distinct) // 5], distinct[len(distinct) // 5 :]
        result = measure(server, "/v1/ask", bodies=fresh, headers=headers, warm_bodies=warm,
                         distinct=True)  # fmt: skip
        if result.requests > len(fresh):
            print(f"note: {result.requests:,} distinct asks sent, {len(fresh):,} questions: "
                  "some were asked twice")  # fmt: skip
        rows.append(("askapp POST /v1/ask, stateless, distinct questions", result))
        rows.append((f"askapp POST /v1/ask, {CONVERSATION_TURNS}-turn conversations",
                     _combined(both["conversation"])))  # fmt: skip
    with LiveServer(database=database, env=floor_env, workers=workers, application=floor_app) as f:
        floor_after = measure(f, "/floor")
    _print_table(floor_before, floor_after, rows)
    print(f"load after: {uptime()}", flush=True)
    if stream_count:
        _streams(database, env, token, workers, stream_count, pace, hold)


def streams_only(
    *,
    template: Path,
    folder: Path,
    postgres: str | None,
    stream_count: int,
    pace: float,
    hold: tuple[float, float],
) -> None:
    """The slow-stream test alone (`python -m bench streams`)."""
    workers = serve.web_concurrency()
    env: dict[str, str] = {}
    if postgres:
        env["DATABASE_URL"] = postgres_demo_database(postgres, database_name(postgres, "bench"))
    print(f"server: granian, workers={workers}; database: "
          f"{'PostgreSQL' if postgres else 'SQLite'}", flush=True)  # fmt: skip
    database = copy_database(template, folder / "askapp")
    token = api_token(database, env=env)
    _streams(database, env, token, workers, stream_count, pace, hold)


def database_name(url: str, suffix: str) -> str:
    from urllib.parse import urlsplit

    return f"{urlsplit(url).path.strip('/') or 'askapp'}_{suffix}"


ROUNDS = 2


def _combined(rounds: list[load.Result]) -> load.Result:
    """Rounds of one measurement as one: requests and errors added, rates and percentiles
    the mean of the rounds', CPU over all the requests."""
    requests = sum(r.requests for r in rounds)
    return load.Result(
        requests,
        sum(r.rate for r in rounds) / len(rounds),
        sum(r.p50 for r in rounds) / len(rounds),
        sum(r.p99 for r in rounds) / len(rounds),
        sum(r.errors for r in rounds),
        sum(r.cpu * r.requests for r in rounds) / max(1, requests),
    )


def _measurer(default_seconds: float, connections: int, client: str):  # type: ignore[no-untyped-def]
    def measure(
        server: LiveServer,
        path: str,
        warm_bodies: Any = None,
        seconds: float | None = None,
        **kwargs: Any,
    ) -> load.Result:
        seconds = seconds or default_seconds
        warm = max(1.0, seconds / 5)
        options = {"connections": connections, "client": client, **kwargs}
        warming = options if warm_bodies is None else {**options, "bodies": warm_bodies}
        load.hammer(server.url, path, seconds=warm, **warming)
        used = procs.cpu_seconds(server.pid)
        result = load.hammer(server.url, path, seconds=seconds, **options)
        cpu = (procs.cpu_seconds(server.pid) - used) / max(1, result.requests)
        return dataclasses.replace(result, cpu=cpu)

    return measure


def _conversations(url: str, headers: Mapping[str, str], count: int) -> list[str]:
    """`count` conversations of CONVERSATION_TURNS turns each (chained lookups)."""

    def fill(_: int) -> str:
        conversation = None
        with httpx.Client(base_url=url, headers=dict(headers), timeout=60) as client:
            for n in range(CONVERSATION_TURNS // 2):
                body: dict[str, Any] = {"question": LOOKUPS[n % len(LOOKUPS)]}
                if conversation:
                    body["conversation"] = conversation
                response = client.post("/v1/ask", json=body)
                response.raise_for_status()
                conversation = response.json()["conversation"]
        assert conversation is not None
        return conversation

    with ThreadPoolExecutor(min(count, 8)) as pool:
        return list(pool.map(fill, range(count)))


def _print_table(
    before: load.Result, after: load.Result, rows: list[tuple[str, load.Result]]
) -> None:
    floor = load.Result(
        before.requests + after.requests,
        (before.rate + after.rate) / 2,
        (before.p50 + after.p50) / 2,
        (before.p99 + after.p99) / 2,
        before.errors + after.errors,
        (before.cpu + after.cpu) / 2,
    )
    print("\n| what | requests/s | p50 | p99 | errors | to the floor | server CPU a request "
          "| floor's CPU over this |")  # fmt: skip
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    print("| floor: Django JsonResponse view, before askapp | " + " | ".join(before.cells()) + " |")
    print("| floor: the same, after askapp | " + " | ".join(after.cells()) + " |")
    for name, result in rows:
        print(f"| {name} | " + " | ".join(result.cells(floor)) + " |")
    healthz, stateless, distinct, conversation = (result for _, result in rows)
    print(f"\nfloor (mean of the two runs): {floor.rate:,.0f} requests/s, "
          f"{floor.cpu * 1000:.3f} ms of server CPU a request")  # fmt: skip
    print(f"/healthz: {healthz.rate / floor.rate:.2f}x the floor's requests/s (target >= 0.6)")
    print(f"/v1/ask stateless: {stateless.rate / floor.rate:.3f}x the floor's requests/s "
          f"(target >= 0.15); p99 {load.ms(stateless.p99)} (target <= 50 ms)")  # fmt: skip
    print(f"/v1/ask stateless, distinct questions: {distinct.rate / floor.rate:.3f}x the floor's "
          f"requests/s; p99 {load.ms(distinct.p99)}; server CPU an ask "
          f"{distinct.cpu / stateless.cpu:.2f}x the repeated lookups'")  # fmt: skip
    rate, p50 = conversation.rate / stateless.rate, conversation.p50 / stateless.p50
    print(f"/v1/ask in a {CONVERSATION_TURNS}-turn conversation against stateless: requests/s "
          f"{rate:.2f}x, p50 {p50:.2f}x, server CPU an ask {conversation.cpu / stateless.cpu:.2f}x "
          "(target within 10%)")  # fmt: skip
    print(
        "Server CPU a request is the server's processes' CPU time over the requests served: "
        "on a shared machine it moves less than the rates do."
    )


def _streams(
    database: Path,
    env: Mapping[str, str],
    token: str,
    workers: int,
    count: int,
    pace: float,
    hold: tuple[float, float],
) -> None:
    print(f"\nslow streams: {count} answer streams opened {pace * 1000:g} ms apart, the model "
          f"holding each {hold[0]:g}-{hold[1]:g} s; load: {uptime()}", flush=True)  # fmt: skip
    model = subprocess.Popen(
        [sys.executable, "-m", "bench.slowmodel", str(count), str(hold[0]), str(hold[1])],
        cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        assert model.stdout is not None
        base_url = model.stdout.readline().strip()
        trace = database.parent.parent / "streams-trace.jsonl"
        stream_env = {
            **env,
            "ASKAPP_PROVIDER": "openai",
            "ASKAPP_OPENAI_BASE_URL": base_url,
            "ASKAPP_OPENAI_API_KEY": "bench",
            "ASKAPP_OPENAI_MAX_RETRIES": "0",
            "ASKAPP_OPENAI_TIMEOUT": str(hold[1] * 3),
            "ASKAPP_STREAM_TRACE": str(trace),
        }
        copy = copy_database(database, database.parent.parent / "streams")
        with LiveServer(database=copy, env=stream_env, workers=workers) as server:
            report = asyncio.run(
                streams.slow_streams(
                    server.url, token, streams=count, pace=pace, server_pid=server.pid,
                    model_pid=model.pid, trace=trace,
                )
            )  # fmt: skip
    finally:
        model.kill()
        model.wait()
    for line in report.lines():
        print(line)
    print(f"load when all were open: {report.load}; after the streams: {uptime()}", flush=True)
