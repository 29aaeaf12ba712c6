"""Load generators: wrk when it is installed (compiled, so the client takes little of the
server's CPU), else a Python asyncio client (which takes much more: its figures are a floor).

    result = hammer(url, path, seconds=10, connections=16, bodies=[...], headers={...})
    result.rate, result.p50, result.p99, result.errors
"""

from __future__ import annotations

import asyncio
import itertools
import json
import re
import shutil
import subprocess
import tempfile
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx


@dataclass(frozen=True)
class Result:
    requests: int
    rate: float  # requests per second
    p50: float  # seconds
    p99: float
    errors: int  # non-2xx responses and socket errors
    cpu: float = float("nan")  # server CPU seconds per request, when measured

    def cells(self, floor: Result | None = None) -> list[str]:
        ratio = f"{self.rate / floor.rate:.3f}x" if floor and floor.rate else ""
        cost = f"{self.cpu * 1000:.2f} ms"
        cpu_ratio = f"{floor.cpu / self.cpu:.3f}x" if floor and self.cpu else ""
        return [
            f"{self.rate:,.0f}", ms(self.p50), ms(self.p99), f"{self.errors}", ratio,
            cost, cpu_ratio,
        ]  # fmt: skip


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.1f} ms"


def percentile(values: Sequence[float], percent: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    return ordered[min(len(ordered) - 1, max(0, round(percent / 100 * len(ordered)) - 1))]


def generator(requested: str = "auto") -> str:
    """'wrk' when asked for or found on PATH, else 'python'."""
    if requested == "python":
        return "python"
    if shutil.which("wrk"):
        return "wrk"
    if requested == "wrk":
        raise SystemExit("--client wrk: wrk is not installed (apt-get install -y wrk)")
    return "python"


def wrk_version() -> str:
    out = subprocess.run(["wrk", "-v"], capture_output=True, text=True)
    return (out.stdout + out.stderr).strip().splitlines()[0]


def hammer(
    url: str,
    path: str,
    *,
    seconds: float,
    connections: int,
    client: str,
    bodies: Sequence[Mapping[str, Any]] = (),
    headers: Mapping[str, str] | None = None,
    distinct: bool = False,
) -> Result:
    """GET `path` (or POST the `bodies` in turn, as JSON) for `seconds` over `connections`.
    `distinct`: the bodies in order from the first, no two load threads sending the same one
    (they repeat only once all were sent); else round-robin from a random start."""
    work = _Load(url, path, seconds, connections, tuple(bodies), dict(headers or {}), distinct)
    return _wrk(work) if client == "wrk" else asyncio.run(_python(work))


@dataclass(frozen=True)
class _Load:
    url: str
    path: str
    seconds: float
    connections: int
    bodies: tuple[Mapping[str, Any], ...]
    headers: dict[str, str]
    distinct: bool = False


# --- wrk ----------------------------------------------------------------------------------------


def _wrk(work: _Load) -> Result:
    with tempfile.NamedTemporaryFile("w", suffix=".lua", delete=False) as script:
        script.write(_lua(work.path, work.bodies, work.headers, work.distinct))
    try:
        out = subprocess.run(
            ["wrk", f"-t{WRK_THREADS}", f"-c{work.connections}",
             f"-d{max(1, round(work.seconds))}s", "--latency", "-s", script.name, work.url],
            capture_output=True, text=True, check=True,
        ).stdout  # fmt: skip
    finally:
        Path(script.name).unlink()
    return _parse_wrk(out)


WRK_THREADS = 2


def _lua(
    path: str,
    bodies: Sequence[Mapping[str, Any]],
    headers: Mapping[str, str],
    distinct: bool = False,
) -> str:
    """A wrk script: every request to `path`, POSTing the bodies round-robin (per thread);
    `distinct`: thread k sends bodies k, k + threads, ... (none sent twice until all were)."""
    lines = [f"local path = {_lua_string(path)}", "local headers = {}"]
    lines += [f"headers[ {_lua_string(k)} ] = {_lua_string(v)}" for k, v in headers.items()]
    if not bodies:
        lines.append('request = function() return wrk.format("GET", path, headers) end')
        return "\n".join(lines) + "\n"
    lines.append('headers["Content-Type"] = "application/json"')
    lines.append("local bodies = {")
    lines += [f"  {_lua_string(json.dumps(body))}," for body in bodies]
    lines.append("}")
    if distinct:
        lines += [
            "local threads = 0",
            "function setup(thread) thread:set('id', threads); threads = threads + 1 end",
            "local n = nil",
            "request = function()",
            f"  if n == nil then n = id - {WRK_THREADS} end",
            f"  n = (n + {WRK_THREADS}) % #bodies",
            '  return wrk.format("POST", path, headers, bodies[n + 1])',
            "end",
        ]
    else:
        lines += [
            "local n = math.random(#bodies)",
            "request = function()",
            "  n = n % #bodies + 1",
            '  return wrk.format("POST", path, headers, bodies[n])',
            "end",
        ]
    return "\n".join(lines) + "\n"


def _lua_string(text: str) -> str:
    return "[==[" + text + "]==]"


_UNITS = {"us": 1e-6, "ms": 1e-3, "s": 1.0, "m": 60.0}


def _seconds(text: str) -> float:
    number, unit = re.fullmatch(r"([\d.]+)(us|ms|s|m)", text.strip()).groups()  # type: ignore[union-attr]
    return float(number) * _UNITS[unit]


def _parse_wrk(out: str) -> Result:
    def find(pattern: str) -> re.Match[str] | None:
        return re.search(pattern, out, re.MULTILINE)

    requests = int(find(r"^\s*(\d+) requests in")[1])  # type: ignore[index]
    rate = float(find(r"^Requests/sec:\s*([\d.]+)")[1])  # type: ignore[index]
    p50 = _seconds(find(r"^\s*50%\s+(\S+)")[1])  # type: ignore[index]
    p99 = _seconds(find(r"^\s*99%\s+(\S+)")[1])  # type: ignore[index]
    errors = 0
    if non_2xx := find(r"Non-2xx or 3xx responses:\s*(\d+)"):
        errors += int(non_2xx[1])
    if sockets := find(r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)"):
        errors += sum(int(n) for n in sockets.groups())
    return Result(requests, rate, p50, p99, errors)


# --- Python ---------------------------------------------------------------------------------------


async def _python(work: _Load) -> Result:
    limits = httpx.Limits(max_connections=work.connections)
    path, bodies = work.path, work.bodies
    latencies: list[float] = []
    errors = 0
    numbers = itertools.count()
    async with httpx.AsyncClient(
        base_url=work.url, headers=work.headers, limits=limits, timeout=60
    ) as client:
        deadline = time.perf_counter() + work.seconds

        async def worker() -> None:
            nonlocal errors
            while time.perf_counter() < deadline:
                n = next(numbers)
                started = time.perf_counter()
                if bodies:
                    response = await client.post(path, json=bodies[n % len(bodies)])
                else:
                    response = await client.get(path)
                if 200 <= response.status_code < 300:
                    latencies.append(time.perf_counter() - started)
                else:
                    errors += 1

        began = time.perf_counter()
        await asyncio.gather(*(worker() for _ in range(work.connections)))
        elapsed = time.perf_counter() - began
    done = len(latencies) + errors
    return Result(
        done, done / elapsed, percentile(latencies, 50), percentile(latencies, 99), errors
    )
