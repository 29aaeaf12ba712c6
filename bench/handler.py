"""What the server's web thread pays a request, in-process (`python -m bench handler`).

Drives `ThreadedASGIHandler._respond`, the whole sync request cycle a pool thread runs under
`bin/serve` (request_started, the middleware, the view, the response's close), with a
synthetic ASGI scope: no HTTP server, no event loop, so neither the load on a shared machine
nor the load generator moves the Python function calls it counts. Prints thread CPU a
request (the best of three rounds) and cProfile's calls a request for the floor's view
(bench/floor.py, in a process of its own), `/healthz`, `/v1/ask` stateless and `/v1/ask` in a
conversation of `turns` turns (docs/adr/0080).

Run it in a process of its own: it configures Django for the copied database.
"""

from __future__ import annotations

import cProfile
import io
import json
import os
import pstats
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bench.questions import LOOKUPS

ROOT = Path(__file__).resolve().parent.parent
ROUNDS = 3
PROFILED = 200


def _scope(method: str, path: str, headers: list[tuple[bytes, bytes]], body: bytes) -> dict:
    length = [(b"content-length", str(len(body)).encode())] if body else []
    return {"type": "http", "method": method, "path": path, "raw_path": path.encode(),
            "root_path": "", "query_string": b"", "headers": headers + length,
            "client": ("127.0.0.1", 5000), "server": ("127.0.0.1", 8000),
            "http_version": "1.1", "scheme": "http"}  # fmt: skip


def _measure(handler: Any, request: Callable[[], Any], count: int) -> tuple[float, float]:
    """Thread CPU seconds a request (the best of ROUNDS) and Python calls a request."""
    for _ in range(20):
        request()
    best = min(_cpu(request, count) for _ in range(ROUNDS))
    profiler = cProfile.Profile()
    profiler.enable()
    for _ in range(PROFILED):
        request()
    profiler.disable()
    return best, pstats.Stats(profiler).total_calls / PROFILED  # type: ignore[attr-defined]


def _cpu(request: Callable[[], Any], count: int) -> float:
    began = time.thread_time()
    for _ in range(count):
        request()
    return (time.thread_time() - began) / count


def _requester(handler: Any, method: str, path: str, headers: list[tuple[bytes, bytes]],
               body: Callable[[], bytes] = lambda: b"") -> Callable[[], Any]:  # fmt: skip
    def request() -> Any:
        data = body()
        response = handler._respond(_scope(method, path, headers, data), io.BytesIO(data))
        assert response.status_code == 200, (response.status_code, response.content[:300])
        return response

    return request


def _print(name: str, cpu: float, calls: float) -> None:
    print(f"  {name}: {cpu * 1e6:,.0f} us CPU, {calls:,.0f} Python calls a request", flush=True)


def floor(count: int) -> None:
    """The floor's view through the same handler (DJANGO_SETTINGS_MODULE=bench.floor)."""
    import django

    django.setup(set_prefix=False)
    from project.handler import ThreadedASGIHandler

    handler = ThreadedASGIHandler(threads=1)
    _print("floor view", *_measure(handler, _requester(handler, "GET", "/floor", []), count))


def run(*, database: Path, count: int, turns: int) -> None:
    from tests.live import HOST, api_token, base_env

    token = api_token(database)
    env = base_env(database)
    print(f"in-process, the server's handler ({count} requests a round, best of {ROUNDS}):")
    subprocess.run([sys.executable, "-m", "bench.handler", "--floor", str(count)], cwd=ROOT,
                   env={**env, "DJANGO_SETTINGS_MODULE": "bench.floor"}, check=True)  # fmt: skip
    for key, value in env.items():
        os.environ.setdefault(key, value)
    import django

    django.setup(set_prefix=False)
    from project.handler import ThreadedASGIHandler

    handler = ThreadedASGIHandler(threads=1)
    host = [(b"host", HOST.encode())]
    _print("/healthz", *_measure(handler, _requester(handler, "GET", "/healthz", host), count))
    asker = [*host, (b"authorization", f"Token {token}".encode()),
             (b"content-type", b"application/json")]  # fmt: skip
    asked = iter(range(10**9))

    def ask(conversation: str | None = None) -> Callable[[], bytes]:
        def body() -> bytes:
            data: dict[str, Any] = {"question": LOOKUPS[next(asked) % len(LOOKUPS)]}
            if conversation:
                data["conversation"] = conversation
            return json.dumps(data).encode()

        return body

    stateless = _requester(handler, "POST", "/v1/ask", asker, ask())
    _print("/v1/ask stateless", *_measure(handler, stateless, count))
    conversation = json.loads(stateless().content)["conversation"]
    chained = _requester(handler, "POST", "/v1/ask", asker, ask(conversation))
    for _ in range(turns // 2 - 1):
        chained()
    _print(f"/v1/ask in a {turns}-turn conversation", *_measure(handler, chained, count))


if __name__ == "__main__" and sys.argv[1:2] == ["--floor"]:
    sys.path.insert(0, str(ROOT))
    floor(int(sys.argv[2]))
