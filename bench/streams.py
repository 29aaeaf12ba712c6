"""Slow answer streams: many /v1/ask/stream requests held open at once by a slow model.

The OpenAI-compatible provider points at a fake model on 127.0.0.1 (tests/fakes) that
holds each answer back between `hold_min` and `hold_max` seconds (a real model takes 5-30 s).
Streams open `pace` seconds apart; each reports the time from its request to its first
event. Once every stream has had its first event (so all are open), /healthz is timed
several times and the server's memory read, then every stream is read to its end.
"""

from __future__ import annotations

import asyncio
import random
import time
from dataclasses import dataclass

import httpx

from bench import procs
from bench.load import ms, percentile

NARRATIVE = "Why did Apple's revenue dip in fiscal 2023?"
SLOW_ANSWER = "Apple's revenue dipped because iPhone sales fell [1]."


@dataclass
class StreamReport:
    streams: int
    held_at_once: int
    first_events: list[float]
    finished: int
    healthz: list[float]
    rss_idle_mb: float
    rss_held_mb: float

    def lines(self) -> list[str]:
        times = self.first_events
        quick = sum(1 for t in times if t < 0.1)
        return [
            f"streams held open at once: {self.held_at_once} of {self.streams}; "
            f"finished with done: {self.finished}",
            f"first event: p50 {ms(percentile(times, 50))}  p99 {ms(percentile(times, 99))}  "
            f"max {ms(max(times))}; under 100 ms: {quick} of {len(times)}  (target p99 < 100 ms)",
            f"GET /healthz with all of them open ({len(self.healthz)} tries): p50 "
            f"{ms(percentile(self.healthz, 50))}  max {ms(max(self.healthz))}  (target < 20 ms)",
            f"server memory (all workers): {self.rss_idle_mb:.0f} MB idle, "
            f"{self.rss_held_mb:.0f} MB with the streams open",
        ]


def holds(count: int, low: float, high: float, seed: int = 5) -> list[float]:
    rng = random.Random(seed)
    return [rng.uniform(low, high) for _ in range(count)]


class _Open:
    """How many streams have had their first event and not yet ended, as they go: counters,
    not a scan of every task (which, at a thousand streams, took the client seconds)."""

    def __init__(self, expected: int) -> None:
        self.expected = expected
        self.first_events: list[float] = []
        self.now = 0
        self.every_one_started = asyncio.Event()
        self.failure: BaseException | None = None

    def started(self, seconds: float) -> None:
        self.first_events.append(seconds)
        self.now += 1
        if len(self.first_events) == self.expected:
            self.every_one_started.set()

    def ended(self) -> None:
        self.now -= 1

    def watch(self, task: asyncio.Task[str]) -> None:
        def failed(done: asyncio.Task[str]) -> None:
            if not done.cancelled() and done.exception() is not None and self.failure is None:
                self.failure = done.exception()
                self.every_one_started.set()

        task.add_done_callback(failed)


async def slow_streams(
    url: str, token: str, *, streams: int, pace: float, longest: float, server_pid: int
) -> StreamReport:
    limits = httpx.Limits(max_connections=streams + 50)
    timeout = httpx.Timeout(longest * 3 + 60)
    headers = {"Authorization": f"Token {token}"}
    async with httpx.AsyncClient(
        base_url=url, headers=headers, limits=limits, timeout=timeout
    ) as client:
        await _stream(client, _Open(1))  # untimed: the first search opens its index
        rss_idle = procs.rss_mb(server_pid)
        opened = _Open(streams)
        tasks = []
        for _ in range(streams):
            tasks.append(task := asyncio.create_task(_stream(client, opened)))
            opened.watch(task)
            await asyncio.sleep(pace)
        await opened.every_one_started.wait()
        if opened.failure is not None:
            raise opened.failure
        held = opened.now
        healthz = []
        for _ in range(20):
            started = time.perf_counter()
            (await client.get("/healthz")).raise_for_status()
            healthz.append(time.perf_counter() - started)
            await asyncio.sleep(0.05)
        rss_held = procs.rss_mb(server_pid)
        endings = await asyncio.gather(*tasks)
    finished = sum(1 for ending in endings if ending == "done")
    return StreamReport(streams, held, opened.first_events, finished, healthz, rss_idle, rss_held)


async def _stream(client: httpx.AsyncClient, opened: _Open) -> str:
    """Open one stream, report its first event to `opened`, read it to its end."""
    began = time.perf_counter()
    last, first = "", True
    try:
        async with client.stream("POST", "/v1/ask/stream", json={"question": NARRATIVE}) as r:
            if r.status_code != 200:
                await r.aread()
                raise RuntimeError(f"a stream failed: HTTP {r.status_code} {r.text[:200]}")
            async for line in r.aiter_lines():
                if line.startswith("event: "):
                    if first:
                        opened.started(time.perf_counter() - began)
                        first = False
                    last = line[len("event: ") :]
    finally:
        if not first:
            opened.ended()
    return last
