"""What one ask costs in-process, and where (`python -m bench profile`).

Runs asks through Django's test client (the whole middleware stack, DRF, the engine and the
database, no HTTP server) over a copy of the demo database on SQLite (or a PostgreSQL
database when DATABASE_URL is set by the caller), with the settings a served process has:
stateless asks (the bench's five lookups in turn), stateless asks of distinct questions
(none asked twice: what no reading kept from an earlier question can make cheaper; each
figure asked once first, so that every series and parser is warm), then asks in a
conversation of `turns` turns, timing each kind and printing the heaviest functions of a
cProfile of each.

Run it in a process of its own: it configures Django for the copied database.
"""

from __future__ import annotations

import cProfile
import io
import os
import pstats
import time
from pathlib import Path
from typing import Any

from bench.questions import FORMS, LOOKUPS, distinct_lookups

ROOT = Path(__file__).resolve().parent.parent


ROUNDS = 3


def _timed(ask: Any, bodies: list[dict[str, Any]]) -> tuple[float, float]:
    """Wall and CPU seconds an ask, over `bodies`."""
    wall, cpu = time.perf_counter(), time.process_time()
    for body in bodies:
        ask(body)
    return (time.perf_counter() - wall) / len(bodies), (time.process_time() - cpu) / len(bodies)


def run(*, database: Path, asks: int, turns: int, top: int) -> None:
    from tests.live import api_token, base_env

    token = api_token(database)
    for key, value in base_env(database).items():
        os.environ.setdefault(key, value)
    import django

    django.setup()
    from django.test import Client

    from tests.live import HOST

    client = Client(HTTP_AUTHORIZATION=f"Token {token}", HTTP_HOST=HOST)

    def ask(body: dict[str, Any]) -> dict[str, Any]:
        response = client.post("/v1/ask", body, content_type="application/json")
        assert response.status_code == 200, response.content
        return dict(response.json())

    conversation = None
    for n in range(turns // 2):  # the long conversation, which also warms every cache
        body: dict[str, Any] = {"question": LOOKUPS[n % len(LOOKUPS)]}
        if conversation:
            body["conversation"] = conversation
        conversation = ask(body)["conversation"]
    stateless = [{"question": LOOKUPS[n % len(LOOKUPS)]} for n in range(asks)]
    chained = [{**body, "conversation": conversation} for body in stateless]
    questions = distinct_lookups()
    for question in questions[:: len(FORMS)]:  # each figure once (one of its phrasings)
        ask({"question": question})
    fresh = iter([q for n, q in enumerate(questions) if n % len(FORMS)])
    distinct = [[{"question": next(fresh)} for _ in range(asks)] for _ in range(ROUNDS + 1)]

    print(f"{asks} asks of each kind, in-process (the Django test client), database "
          f"{os.environ['DATABASE_URL'].split(':', 1)[0]}")  # fmt: skip
    kinds = (("stateless", [stateless] * (ROUNDS + 1)), ("stateless, distinct questions", distinct),
             (f"in a {turns}-turn conversation", [chained] * (ROUNDS + 1)))  # fmt: skip
    for name, each in kinds:
        rounds = [_timed(ask, bodies) for bodies in each[:ROUNDS]]
        wall, cpu = min(w for w, _ in rounds), min(c for _, c in rounds)
        print(f"  {name}: {wall * 1000:.2f} ms wall, {cpu * 1000:.2f} ms CPU an ask "
              f"(the best of {ROUNDS} rounds)")  # fmt: skip
    for name, each in kinds:
        bodies = each[ROUNDS]
        profiler = cProfile.Profile()
        profiler.enable()
        for body in bodies:
            ask(body)
        profiler.disable()
        calls = pstats.Stats(profiler).total_calls  # type: ignore[attr-defined]
        print(f"--- asks {name}: {calls / len(bodies):,.0f} Python function calls an ask ---")
        for order in ("cumulative", "tottime"):
            out = io.StringIO()
            pstats.Stats(profiler, stream=out).sort_stats(order).print_stats(top)
            print(f"--- asks {name}, by {order} ---")
            print(out.getvalue().split("\n\n", 1)[-1].strip().replace(str(ROOT), ""))


if __name__ == "__main__":  # python -m bench.profile DATABASE [asks] [turns]: a copy of yours
    import shutil
    import sys
    import tempfile

    from tests.live import copy_database

    with tempfile.TemporaryDirectory(prefix="askapp-profile-") as scratch:
        copy = copy_database(Path(sys.argv[1]), Path(scratch))
        args = [int(a) for a in sys.argv[2:4]]
        run(database=copy, asks=args[0] if args else 300, turns=args[1] if args[1:] else 200,
            top=40)  # fmt: skip
        shutil.rmtree(scratch, ignore_errors=True)
