"""One SQLite writer at a time, queued in the kernel rather than in SQLite's busy handler.

SQLite takes one writer at a time. A writer that finds the lock taken sleeps in its busy
handler, which backs off up to 100 ms a try: under concurrent asks that made multi-second
tails, and which waiter wins is luck, not order. So the ask's write transaction first takes
a lock of its own: a thread lock for the threads of this process, then an exclusive
`flock` on `<database>-writer.lock` for the processes sharing the file (the server's
workers, a management command). A waiter sleeps in the kernel and wakes as soon as the
lock is free. Nothing changes on PostgreSQL, whose row locks already queue writers, or for
an in-memory database, which one process owns.
"""

from __future__ import annotations

import fcntl
import functools
import os
import threading
from collections.abc import Iterator
from contextlib import contextmanager

from django.db import connection
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.backends.signals import connection_created
from django.dispatch import receiver

_THREADS = threading.Lock()


@contextmanager
def one_writer() -> Iterator[None]:
    """Hold the database's writer lock (SQLite files only) for the block."""
    if connection.vendor != "sqlite" or connection.is_in_memory_db():
        yield
        return
    descriptor = _lock_file(str(connection.settings_dict["NAME"]), os.getpid())
    with _THREADS:
        fcntl.flock(descriptor, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(descriptor, fcntl.LOCK_UN)


@functools.cache
def _lock_file(database: str, pid: int) -> int:
    """This process's descriptor of the database's lock file, opened once and kept. Per
    process: a descriptor inherited across fork shares its lock with the parent's."""
    return os.open(f"{database}-writer.lock", os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)


@receiver(connection_created)
def _write_ahead_log(sender: object, connection: BaseDatabaseWrapper, **_: object) -> None:
    """Put a SQLite file in WAL mode (readers beside the writer), once: the mode is kept in
    the file, and setting it on every connection takes a lock that can be busy."""
    if connection.vendor != "sqlite" or connection.is_in_memory_db():
        return
    with connection.cursor() as cursor:
        cursor.execute("PRAGMA journal_mode")
        if cursor.fetchone()[0].lower() != "wal":
            cursor.execute("PRAGMA journal_mode=WAL")
