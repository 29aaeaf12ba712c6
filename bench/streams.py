"""Slow answer streams: many /v1/ask/stream requests held open at once by a slow model.

The OpenAI-compatible provider points at a fake model on 127.0.0.1 (bench/slowmodel.py, in a
process of its own) that holds each answer back between `hold_min` and `hold_max` seconds (a
real model takes 5-30 s). Streams open `pace` seconds apart; each reports the time from its
request to its first event. Once every stream has had its first event (so all are open),
/healthz is timed several times and the server's memory read, then every stream is read to
its end.

The client is lean on purpose: raw asyncio protocols on sockets, no HTTP library, so that on a
two-core machine it takes little of the server's CPU (its own CPU, the model's and the
server's are printed). With ASKAPP_STREAM_TRACE set, the server stamps each stream's way
(askapp/trace.py) and the report splits the first event's wait into its stages.
"""

from __future__ import annotations

import asyncio
import json
import re
import resource
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bench import procs
from bench.load import ms, percentile

SETTLE = 5.0  # seconds between the two rounds of /healthz
WARM_UPS = 16  # bench/slowmodel.py answers as many at once
NARRATIVE = "Why did Apple's revenue dip in fiscal 2023?"
_EVENT = re.compile(rb"event: (\w+)\n")
_CONVERSATION = re.compile(rb'^data: \{"conversation":\s*"([0-9a-f-]+)"', re.MULTILINE)
# The stages of a first event, in the order the server stamps them (askapp/trace.py).
STAGES = (
    ("connect", "sent", "the client's connect"),
    ("sent", "accept", "to the handler (granian, the loop)"),
    ("accept", "web", "waiting for a web thread"),
    ("web", "prepared", "the view (auth, validation, reads)"),
    ("prepared", "thread", "to a stream thread (loop hop, pool)"),
    ("thread", "stored", "the question's write ahead"),
    ("stored", "meta", "the engine up to meta"),
    ("meta", "loop", "the frame back to the loop"),
    ("loop", "first", "sent, and read by the client"),
)

# The CPU a stream's threads spent (askapp/trace.py `spent`), not counting the event loop's.
CPU_PARTS = (
    ("cpu_web", "the web thread (the view)"),
    ("cpu_first", "the stream thread, to the first event"),
    ("cpu_later", "the stream thread, after it"),
)


@dataclass
class Stream:
    """One stream as the client saw it, in wall-clock seconds (time.time())."""

    connect: float = 0.0
    sent: float = 0.0
    first: float | None = None
    conversation: str = ""
    last: str = ""
    ended: float = 0.0
    failure: str = ""

    @property
    def first_event(self) -> float:
        assert self.first is not None
        return self.first - self.connect


@dataclass
class StreamReport:
    streams: int
    held_at_once: int
    records: list[Stream]
    healthz: list[float]
    rss_idle_mb: float
    rss_held_mb: float
    opening_seconds: float
    load: str = ""  # the load average when every stream was open
    cpu: dict[str, float] = field(default_factory=dict)  # seconds, while the streams opened
    traces: dict[str, dict[str, Any]] = field(default_factory=dict)
    healthz_later: list[float] = field(default_factory=list)  # SETTLE seconds later
    held_later: int = 0

    @property
    def first_events(self) -> list[float]:
        return [r.first_event for r in self.records if r.first is not None]

    def lines(self) -> list[str]:
        times = self.first_events
        quick = sum(1 for t in times if t < 0.1)
        finished = sum(1 for r in self.records if r.last == "done")
        lines = [
            f"streams held open at once: {self.held_at_once} of {self.streams}; "
            f"finished with done: {finished}",
            f"first event: p50 {ms(percentile(times, 50))}  p99 {ms(percentile(times, 99))}  "
            f"max {ms(max(times))}; under 100 ms: {quick} of {len(times)}  (target p99 < 100 ms)",
            f"GET /healthz with all of them open ({len(self.healthz)} tries): p50 "
            f"{ms(percentile(self.healthz, 50))}  max {ms(max(self.healthz))}  (target < 20 ms); "
            f"{SETTLE:g} s later, {self.held_later} still open: p50 "
            f"{ms(percentile(self.healthz_later, 50))}  max {ms(max(self.healthz_later))}",
            f"server memory (all workers): {self.rss_idle_mb:.0f} MB idle, "
            f"{self.rss_held_mb:.0f} MB with the streams open",
        ]
        if self.cpu:
            span = self.opening_seconds
            lines.append(
                f"CPU while the streams opened ({span:.1f} s, {self.streams / span:.0f} opens/s): "
                + ", ".join(f"{who} {used:.1f} s ({used / span:.2f} cores)" for who, used in
                            self.cpu.items())
                + f"; server CPU a stream {self.cpu['server'] / self.streams * 1000:.1f} ms"
            )  # fmt: skip
        lines += self.stage_lines()
        return lines

    def stage_lines(self) -> list[str]:
        joined = []
        for record in self.records:
            trace = self.traces.get(record.conversation)
            if trace is not None and record.first is not None:
                joined.append({**trace, "connect": record.connect, "sent": record.sent,
                               "first": record.first})  # fmt: skip
        if not joined:
            return []
        workers: dict[int, int] = {}
        for trace in self.traces.values():
            workers[trace.get("pid", 0)] = workers.get(trace.get("pid", 0), 0) + 1
        spread = ", ".join(str(count) for count in sorted(workers.values(), reverse=True))
        lines = [f"where the first event's wait goes ({len(joined)} streams traced, by worker: "
                 f"{spread}): p50 / p99 / max of each stage"]  # fmt: skip
        for start, end, what in STAGES:
            spans = [t[end] - t[start] for t in joined if start in t and end in t]
            if spans:
                lines.append(f"  {what:<40} {ms(percentile(spans, 50)):>10} "
                             f"{ms(percentile(spans, 99)):>10} {ms(max(spans)):>10}")  # fmt: skip
        for key, what in CPU_PARTS:
            spent = [t[key] for t in joined if key in t]
            if spent:
                mean = ms(sum(spent) / len(spent))
                lines.append(f"  CPU: {what:<35} {ms(percentile(spent, 50)):>10} "
                             f"{ms(percentile(spent, 99)):>10} mean {mean}")  # fmt: skip
        return lines


class _Open:
    """How many streams have had their first event and not yet ended, as they go."""

    def __init__(self, expected: int) -> None:
        self.expected = expected
        self.started_count = 0
        self.now = 0
        self.every_one_started = asyncio.Event()
        self.failure: str = ""

    def started(self) -> None:
        self.started_count += 1
        self.now += 1
        if self.started_count == self.expected:
            self.every_one_started.set()

    def ended(self) -> None:
        self.now -= 1

    def failed(self, why: str) -> None:
        self.failure = self.failure or why
        self.every_one_started.set()


class _StreamProtocol(asyncio.Protocol):
    """POST one ask to /v1/ask/stream and read its events off the socket (chunked or not:
    only `event: ` lines and the meta event's conversation are looked for)."""

    def __init__(self, request: bytes, record: Stream, opened: _Open) -> None:
        self.request = request
        self.record = record
        self.opened = opened
        self.buffer = b""
        self.headed = False
        self.done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.transport: asyncio.Transport | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport  # type: ignore[assignment]
        self.record.sent = time.time()
        self.transport.write(self.request)  # type: ignore[union-attr]

    def data_received(self, data: bytes) -> None:
        now = time.time()
        self.buffer += data
        if not self.headed:
            if b"\r\n\r\n" not in self.buffer:
                return
            head, self.buffer = self.buffer.split(b"\r\n\r\n", 1)
            self.headed = True
            if not head.startswith(b"HTTP/1.1 200"):
                self.record.failure = head.split(b"\r\n", 1)[0].decode(errors="replace")
                self.opened.failed(f"a stream failed: {self.record.failure}")
                assert self.transport is not None
                self.transport.close()
                return
        events = list(_EVENT.finditer(self.buffer))
        if self.record.first is None and events:
            found = _CONVERSATION.search(self.buffer, events[0].end())
            if found is None:
                return  # the meta event's data line has not all arrived yet
            self.record.first = now
            self.record.conversation = found[1].decode()
            self.opened.started()
        if events:
            self.record.last = events[-1][1].decode()
            self.buffer = self.buffer[events[-1].end() :]
        if self.buffer.endswith(b"\r\n0\r\n\r\n") or self.buffer == b"0\r\n\r\n":
            assert self.transport is not None
            self.transport.close()  # the chunked body's end

    def connection_lost(self, exc: Exception | None) -> None:
        self.record.ended = time.time()
        if self.record.first is not None:
            self.opened.ended()
        elif not self.record.failure:
            self.record.failure = f"closed before the first event ({exc!r})"
            self.opened.failed(self.record.failure)
        if not self.done.done():
            self.done.set_result(None)


def _request(host: str, port: int, token: str) -> bytes:
    body = json.dumps({"question": NARRATIVE}).encode()
    return (
        f"POST /v1/ask/stream HTTP/1.1\r\nHost: {host}:{port}\r\n"
        f"Authorization: Token {token}\r\nContent-Type: application/json\r\n"
        f"Accept: text/event-stream\r\nContent-Length: {len(body)}\r\nConnection: close\r\n\r\n"
    ).encode() + body


async def _stream(host: str, port: int, request: bytes, opened: _Open) -> Stream:
    record = Stream(connect=time.time())
    loop = asyncio.get_running_loop()
    try:
        _, protocol = await loop.create_connection(
            lambda: _StreamProtocol(request, record, opened), host, port
        )
    except OSError as exc:
        record.failure = f"connect failed: {exc!r}"
        opened.failed(record.failure)
        return record
    await protocol.done
    return record


async def _get(host: str, port: int, path: str) -> float:
    """One GET, timed from connect to the whole response (Connection: close)."""
    started = time.perf_counter()
    reader, writer = await asyncio.open_connection(host, port)
    writer.write(
        f"GET {path} HTTP/1.1\r\nHost: {host}:{port}\r\nConnection: close\r\n\r\n".encode()
    )
    answer = await reader.read()
    writer.close()
    if not answer.startswith(b"HTTP/1.1 200"):
        raise RuntimeError(f"GET {path}: {answer[:100]!r}")
    return time.perf_counter() - started


async def _warm_up(
    host: str, port: int, request: bytes, server_pid: int, trace: Path | None
) -> None:
    """Untimed streams until every worker has served one (as far as the trace tells; one
    without it): a worker answers only once it has loaded the application, and the server is
    up when its first worker is, while the kernel already queues connections for the others.
    A worker's first stream also opens the search index and the model client's lazy parts."""
    workers = len(procs.tree(server_pid)) - 1
    for _ in range(WARM_UPS):
        warm = await _stream(host, port, request, _Open(1))
        if warm.last != "done":
            raise RuntimeError(f"a warm-up stream failed: {warm.failure or warm.last}")
        if trace is None:
            break
        await asyncio.sleep(0.05)  # the trace line is written after the last frame
        served = {json.loads(line)["pid"] for line in trace.read_text().splitlines()}
        if len(served) >= workers:
            break
    if trace is not None and trace.exists():
        trace.write_text("")


def _cpu_self() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


async def slow_streams(
    url: str,
    token: str,
    *,
    streams: int,
    pace: float,
    server_pid: int,
    model_pid: int | None = None,
    trace: Path | None = None,
) -> StreamReport:
    host, port = url.removeprefix("http://").rsplit(":", 1)
    request = _request(host, int(port), token)
    await _warm_up(host, int(port), request, server_pid, trace)
    rss_idle = procs.rss_mb(server_pid)
    opened = _Open(streams)
    cpu_before = _cpus(server_pid, model_pid)
    began = time.perf_counter()
    tasks = []
    for n in range(streams):
        tasks.append(asyncio.create_task(_stream(host, int(port), request, opened)))
        # Paced from the start, so a slow loop does not stretch the pace.
        await asyncio.sleep(max(0.0, began + (n + 1) * pace - time.perf_counter()))
    await opened.every_one_started.wait()
    opening = time.perf_counter() - began
    cpu_after = _cpus(server_pid, model_pid)
    load = " ".join(Path("/proc/loadavg").read_text().split()[:3])
    if opened.failure:
        raise RuntimeError(opened.failure)
    held = opened.now
    healthz = []
    for _ in range(20):
        healthz.append(await _get(host, int(port), "/healthz"))
        await asyncio.sleep(0.05)
    rss_held = procs.rss_mb(server_pid)
    await asyncio.sleep(SETTLE)
    healthz_later = []
    for _ in range(20):
        healthz_later.append(await _get(host, int(port), "/healthz"))
        await asyncio.sleep(0.05)
    held_later = opened.now
    records = list(await asyncio.gather(*tasks))
    traces = {}
    if trace is not None and trace.exists():
        for line in trace.read_text().splitlines():
            record = json.loads(line)
            traces[record["conversation"]] = record
    cpu = {who: cpu_after[who] - cpu_before[who] for who in cpu_before}
    return StreamReport(
        streams, held, records, healthz, rss_idle, rss_held, opening, load, cpu, traces,
        healthz_later, held_later,
    )  # fmt: skip


def _cpus(server_pid: int, model_pid: int | None) -> dict[str, float]:
    used = {"server": procs.cpu_seconds(server_pid), "client": _cpu_self()}
    if model_pid is not None:
        used["model"] = procs.cpu_seconds(model_pid)
    return used
