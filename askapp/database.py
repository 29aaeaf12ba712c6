"""Connections as a shared, bounded resource (docs/adr/0032).

On PostgreSQL every process borrows connections from one psycopg pool (project/settings.py).
Two things follow, and live here:

- A borrowed connection goes back to the pool while the thread waits on a model:
  `ConnectionReleasingProvider` wraps the composition root's remote provider and hands the
  thread's connection back before each call (never inside a transaction), so a slow answer
  or a thousand open streams hold no connection while the model thinks (on SQLite it closes
  the connection: a thousand idle page caches cost more than a thousand reopenings). The
  next query borrows one again. The mock provider answers at once and is not wrapped.
- An empty pool is busy, not broken: when a request waited ASKAPP_DB_POOL_TIMEOUT seconds
  and got no connection, it answers 503 with Retry-After (askapp/outages.py, which also
  answers for a read-only or unreachable database), through the API's exception handler and
  the site's handler500.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator, Sequence
from typing import Any

from django.db import connection

from askapp.lanes import lanes

RETRY_AFTER_SECONDS = 1
BUSY_MESSAGE = "The database is busy; try again in a moment."


def pool_exhausted(exc: BaseException | None) -> bool:
    """Whether `exc` (or what it wraps) is the pool giving up on finding a connection."""
    try:
        from psycopg_pool import PoolTimeout
    except ImportError:  # no pool installed: nothing can be exhausted
        return False
    seen: set[int] = set()
    while exc is not None and id(exc) not in seen:
        if isinstance(exc, PoolTimeout):
            return True
        seen.add(id(exc))
        exc = exc.__cause__ or exc.__context__
    return False


def release_connection() -> None:
    """Hand this thread's connection back (to the pool on PostgreSQL; closed on a SQLite
    file, whose page cache would otherwise stay with an idle thread), unless a transaction
    holds it. The next query opens one again."""
    if connection.connection is not None and not connection.in_atomic_block:
        connection.close()


class ConnectionReleasingProvider:
    """A provider that gives the thread's database connection back before each call."""

    def __init__(self, provider: Any) -> None:
        self._provider = provider

    def complete(self, messages: Sequence[Any], **kwargs: Any) -> Any:
        release_connection()
        with lanes().outside():  # an answer stream's slot is not held while the model thinks
            return self._provider.complete(messages, **kwargs)

    def stream(self, messages: Sequence[Any]) -> Iterator[str]:
        release_connection()  # when the engine starts reading the answer, not before
        pieces = iter(self._provider.stream(messages))
        try:
            while True:
                with lanes().outside():  # nor while it waits for the next piece
                    piece = next(pieces, None)
                if piece is None:
                    return
                yield piece
        finally:
            getattr(pieces, "close", lambda: None)()

    def __getattr__(self, name: str) -> Any:  # name, model, and whatever else it offers
        return getattr(self._provider, name)

    def __repr__(self) -> str:
        return f"ConnectionReleasingProvider({self._provider!r})"


def remember_sqlite_statements() -> None:
    """Django's SQLite cursor rewrites every statement from `%s` to `?` placeholders with a
    regular expression, on every execute: for an ask's long statements (the recent turns with
    their withheld subqueries, the turns' insert) it cost more than SQLite took to plan them.
    The rewrite depends on the statement's text alone, so each text is rewritten once (an LRU
    of 512: statements are templates, their values are parameters) and gives the same `?`
    text; named (pyformat) parameters still go through Django's own conversion."""
    from django.db.backends.sqlite3 import base

    wrapper = base.SQLiteCursorWrapper
    if getattr(wrapper.convert_query, "remembered", False):
        return
    original = wrapper.convert_query

    @functools.lru_cache(maxsize=512)
    def qmark(query: str) -> str:
        return str(original(None, query))  # type: ignore[arg-type] (self is unused)

    def convert_query(self: Any, query: str, *, param_names: Any = None) -> str:
        if param_names is None:
            return qmark(query)
        return str(original(self, query, param_names=param_names))

    convert_query.remembered = True  # type: ignore[attr-defined]
    wrapper.convert_query = convert_query  # type: ignore[method-assign]
