"""How askapp is served: granian, one worker process per core, on project.asgi (ADR 0032).

    python -m project.serve [--host H] [--port P] [--workers N]

`bin/serve`, the real-server tests (tests/live.py) and the benchmarks all start the server
through `command()`, so what is measured and tested is what runs. The host, port and
worker count default to HOST, PORT and WEB_CONCURRENCY, and WEB_CONCURRENCY to the number
of cores this process may run on.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

APPLICATION = "project.asgi:application"
# Threads per worker process that run Django's sync stack (ASKAPP_WEB_THREADS).
WEB_THREADS = 8
# Connections one worker holds at once. granian's default (its backlog over the workers)
# would refuse answer streams long before ASKAPP_STREAM_THREADS is reached.
CONNECTIONS_PER_WORKER = 4096


def cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def web_concurrency() -> int:
    raw = os.environ.get("WEB_CONCURRENCY", "").strip()
    if not raw:
        return cores()
    if not raw.isdigit() or int(raw) < 1:
        sys.exit(f"WEB_CONCURRENCY must be a whole number >= 1, got {raw!r}")
    return int(raw)


def command(
    *,
    host: str,
    port: int,
    workers: int,
    application: str = APPLICATION,
) -> list[str]:
    """The server's command line (the granian of this interpreter's environment). granian
    reads GRANIAN_* variables for what is not given here (GRANIAN_ACCESS_LOG=1 logs requests)."""
    granian = Path(sys.executable).with_name("granian")
    return [
        str(granian), "--interface", "asginl", application,
        "--host", host, "--port", str(port), "--workers", str(workers),
        "--backlog", str(CONNECTIONS_PER_WORKER * workers),
        "--backpressure", str(CONNECTIONS_PER_WORKER),
        "--no-ws", "--log-level", "warning",
    ]  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--host", default=os.environ.get("HOST", "127.0.0.1"))
    parser.add_argument("--port", type=int, default=int(os.environ.get("PORT", "8000")))
    parser.add_argument("--workers", type=int, default=None)
    args = parser.parse_args()
    workers = args.workers or web_concurrency()
    argv = command(host=args.host, port=args.port, workers=workers)
    os.execv(argv[0], argv)


if __name__ == "__main__":
    main()
