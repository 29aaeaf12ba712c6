"""The API under load, on the real server: uvicorn on project.asgi, started as bin/serve does,
over a SQLite file holding the demo data.

    .venv/bin/python bench/bench_api.py
    .venv/bin/python bench/bench_api.py --asks 2000 --concurrency 16 --streams 300 --hold 20

Part 1, asks beside a trivial view, same server, same run (mock provider, no network):
  POST /v1/ask with a structured lookup on the demo data (each a new conversation, stored),
  and GET /healthz; for each: p50 and p99 latency and requests per second at the same
  client concurrency, and the ratio of the two rates.

Part 2, slow streams (the OpenAI-compatible provider pointed at a fake model on 127.0.0.1
that holds every answer back `--hold` seconds): opens `--streams` answer streams, paced
`--pace` apart, keeps them all open at once, and reports how many were open together and the
time from sending each request to its first event (p50, p90, p99, max, and how many came
under 100 ms), after one untimed warm-up stream; then, with all of them still open, the
first-event time of one more stream and the latency of /healthz.

The load generator runs in this process (asyncio, one thread) on the same machine, so it
takes CPU from the server: the figures are a floor, not a ceiling.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.fakes.openai_server import FakeOpenAIServer, slow, stream  # noqa: E402
from tests.live import LiveServer, base_env, copy_database, demo_database  # noqa: E402

LOOKUPS = [
    "What was Apple's revenue in FY2023?",
    "What was Microsoft's net income in FY2022?",
    "What was Tesla's revenue in FY2021?",
    "What was Apple's net income in FY2022?",
    "What was Microsoft's revenue in FY2023?",
]
NARRATIVE = "Why did Apple's revenue dip in fiscal 2023?"
SLOW_ANSWER = "Apple's revenue dipped because iPhone sales fell [1]."


@dataclass
class Run:
    latencies: list[float]
    seconds: float
    failures: int

    @property
    def rate(self) -> float:
        return len(self.latencies) / self.seconds

    def line(self, name: str) -> str:
        return (
            f"{name:<22} {len(self.latencies):>6} req  p50 {ms(pct(self.latencies, 50)):>7}"
            f"  p99 {ms(pct(self.latencies, 99)):>7}  {self.rate:>8.1f} req/s"
            f"  failures {self.failures}"
        )


def pct(values: list[float], percent: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    index = min(len(ordered) - 1, max(0, round(percent / 100 * len(ordered)) - 1))
    return ordered[index]


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.1f}ms"


async def hammer(send, requests: int, concurrency: int) -> Run:  # type: ignore[no-untyped-def]
    """`requests` calls of `send(n)`, `concurrency` at a time; latencies of the good ones."""
    numbers = itertools.count()
    latencies: list[float] = []
    failures = 0

    async def worker() -> None:
        nonlocal failures
        while (n := next(numbers)) < requests:
            started = time.perf_counter()
            response = await send(n)
            if response.status_code == 200:
                latencies.append(time.perf_counter() - started)
            else:
                failures += 1

    began = time.perf_counter()
    await asyncio.gather(*(worker() for _ in range(concurrency)))
    return Run(latencies, time.perf_counter() - began, failures)


def api_token(database: Path) -> str:
    """A user and its API token in the benchmark's database."""
    env = base_env(database)
    create = (
        "from django.contrib.auth import get_user_model as m; "
        "m().objects.filter(username='bench').exists() or m().objects.create_user('bench')"
    )
    manage = [sys.executable, "manage.py"]
    subprocess.run([*manage, "shell", "-c", create], cwd=ROOT, env=env, check=True)
    out = subprocess.run(
        [*manage, "create_api_token", "bench"], cwd=ROOT, env=env, check=True,
        capture_output=True, text=True,
    )  # fmt: skip
    return out.stdout.strip()


async def asks_beside_health(url: str, token: str, args: argparse.Namespace) -> None:
    headers = {"Authorization": f"Token {token}"}
    limits = httpx.Limits(max_connections=args.concurrency * 2)
    async with httpx.AsyncClient(base_url=url, headers=headers, limits=limits, timeout=60) as c:

        async def ask(n: int) -> httpx.Response:
            return await c.post("/v1/ask", json={"question": LOOKUPS[n % len(LOOKUPS)]})

        async def health(n: int) -> httpx.Response:
            return await c.get("/healthz")

        checked = (await ask(0)).json()["turn"]
        assert checked["status"] == "found", checked
        await hammer(ask, 50, args.concurrency)  # warm up both paths
        await hammer(health, 200, args.concurrency)
        healthz = await hammer(health, args.health, args.concurrency)
        asked = await hammer(ask, args.asks, args.concurrency)
    print(f"\nPart 1: /v1/ask (structured lookup, demo data) beside /healthz, "
          f"{args.concurrency} concurrent clients")  # fmt: skip
    print(healthz.line("GET /healthz"))
    print(asked.line("POST /v1/ask"))
    print(f"ratio /v1/ask to /healthz requests per second: {asked.rate / healthz.rate:.2f}"
          f"  (target >= 0.3)")  # fmt: skip


async def first_event(client: httpx.AsyncClient, opened: asyncio.Queue[float]) -> str:
    """Open one stream; report its first-event time on `opened`; read it to its end."""
    started = time.perf_counter()
    last = ""
    async with client.stream("POST", "/v1/ask/stream", json={"question": NARRATIVE}) as r:
        if r.status_code != 200:
            await r.aread()
            raise RuntimeError(f"the stream failed: HTTP {r.status_code} {r.text[:200]}")
        first = True
        async for line in r.aiter_lines():
            if first and line.startswith("event: "):
                await opened.put(time.perf_counter() - started)
                first = False
            if line.startswith("event: "):
                last = line[len("event: ") :]
    return last


async def _next_or_failure(queue: asyncio.Queue[float], tasks: list[asyncio.Task[str]]) -> float:
    """The next first-event time, or the error of a stream that failed before its first."""
    waiting = asyncio.ensure_future(queue.get())
    while True:
        done, _ = await asyncio.wait([waiting, *tasks], return_when=asyncio.FIRST_COMPLETED)
        if waiting in done:
            return waiting.result()
        for task in done:
            if task.exception() is not None:
                waiting.cancel()
                raise task.exception()  # type: ignore[misc]
        tasks = [task for task in tasks if not task.done()]


async def slow_streams(url: str, token: str, args: argparse.Namespace) -> None:
    limits = httpx.Limits(max_connections=args.streams + 50)
    timeout = httpx.Timeout(args.hold * 4 + 60)
    headers = {"Authorization": f"Token {token}"}
    async with httpx.AsyncClient(
        base_url=url, headers=headers, limits=limits, timeout=timeout
    ) as client:
        warm_up: asyncio.Queue[float] = asyncio.Queue()
        await first_event(client, warm_up)  # untimed: the first search opens its index
        opened: asyncio.Queue[float] = asyncio.Queue()
        tasks = []
        for _ in range(args.streams):
            tasks.append(asyncio.create_task(first_event(client, opened)))
            await asyncio.sleep(args.pace)
        times = [await _next_or_failure(opened, tasks) for _ in range(args.streams)]
        quick = sum(1 for t in times if t < 0.1)
        # Every stream has had its first event, and none can have finished: all are open.
        held = sum(1 for task in tasks if not task.done())
        probe_queue: asyncio.Queue[float] = asyncio.Queue()
        probe = asyncio.create_task(first_event(client, probe_queue))
        probe_first = await _next_or_failure(probe_queue, [probe])
        health_started = time.perf_counter()
        health = await client.get("/healthz")
        health_time = time.perf_counter() - health_started
        endings = await asyncio.gather(*tasks, probe)
    done = sum(1 for ending in endings if ending == "done")
    print(f"\nPart 2: {args.streams} slow answer streams (the model holds each answer "
          f"{args.hold:g} s), opened {args.pace * 1000:.0f} ms apart")  # fmt: skip
    print(f"open at once: {held} of {args.streams}   finished with done: {done} of "
          f"{len(endings)}")  # fmt: skip
    print(f"first event: p50 {ms(pct(times, 50))}  p90 {ms(pct(times, 90))}  "
          f"p99 {ms(pct(times, 99))}  max {ms(max(times))}; under 100 ms: {quick} of "
          f"{len(times)}  (target < 100 ms)")  # fmt: skip
    print(f"with {held} open: one more stream's first event {ms(probe_first)}, "
          f"GET /healthz {ms(health_time)} (status {health.status_code})")  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--asks", type=int, default=1000, help="POST /v1/ask requests")
    parser.add_argument("--health", type=int, default=4000, help="GET /healthz requests")
    parser.add_argument("--concurrency", type=int, default=16)
    parser.add_argument("--streams", type=int, default=200, help="slow streams held at once")
    parser.add_argument("--hold", type=float, default=30.0, help="seconds the model waits")
    parser.add_argument("--pace", type=float, default=0.1, help="seconds between stream opens")
    parser.add_argument("--only", choices=("asks", "streams"), help="run one part only")
    args = parser.parse_args()

    with tempfile.TemporaryDirectory(prefix="bench-api-") as folder:
        print("Preparing the demo database (migrate, load_demo) ...", flush=True)
        template = demo_database(Path(folder))
        token = api_token(template)
        if args.only != "streams":
            with LiveServer(database=copy_database(template, Path(folder) / "asks")) as server:
                asyncio.run(asks_beside_health(server.url, token, args))
        if args.only == "asks":
            return
        with FakeOpenAIServer() as model:
            model.reply(stream(SLOW_ANSWER))  # the warm-up stream's, at once
            model.reply(*[slow(args.hold, stream(SLOW_ANSWER)) for _ in range(args.streams + 1)])
            env = {
                "ASKAPP_PROVIDER": "openai",
                "ASKAPP_OPENAI_BASE_URL": model.base_url,
                "ASKAPP_OPENAI_API_KEY": "bench",
                "ASKAPP_OPENAI_MAX_RETRIES": "0",
                "ASKAPP_OPENAI_TIMEOUT": str(args.hold * 4),
            }
            database = copy_database(template, Path(folder) / "streams")
            with LiveServer(database=database, env=env) as server:
                asyncio.run(slow_streams(server.url, token, args))


if __name__ == "__main__":
    main()
