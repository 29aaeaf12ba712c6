"""Timestamps along an answer stream's way through the server, for the stream bench.

Off unless ASKAPP_STREAM_TRACE names a file. When on, each `/v1/ask/stream` request gets a
record that the handler, the view, the stream bridge and the ask flow stamp with wall-clock
times (`time.time()`, comparable with the bench client's on the same machine); when the
stream ends its record is appended to the file as one JSON line, keyed by the conversation
its `meta` event names:

    accept      the handler has the request (on the event loop, before the body is read)
    web         a web thread has started on it
    prepared    the view has authenticated, validated and read what the ask needs
    thread      a stream thread has started on it
    stored      the question is stored (ADR 0037: a new conversation's, before the engine)
    meta        the engine's first event is rendered, in the stream thread
    loop        the event loop has it, to send

and the CPU its threads spent (`spent`, seconds of `time.thread_time()`; the event loop's
share is not counted): `cpu_web` the web thread's (the view), `cpu_first` the stream thread's
up to the first event, `cpu_later` the stream thread's after it.
"""

from __future__ import annotations

import json
import os
import threading
import time
from typing import Any

PATH = os.environ.get("ASKAPP_STREAM_TRACE", "").strip()
SCOPE_KEY = "askapp.trace"

_local = threading.local()
_write = threading.Lock()


def begin(scope: dict[str, Any]) -> None:
    """Start a record for an HTTP request (the handler calls this first thing)."""
    if PATH:
        scope[SCOPE_KEY] = {"accept": time.time(), "pid": os.getpid()}


def of(scope: dict[str, Any] | None) -> dict[str, Any] | None:
    return scope.get(SCOPE_KEY) if PATH and scope is not None else None


def stamp(record: dict[str, Any] | None, name: str) -> None:
    if record is not None and name not in record:
        record[name] = time.time()


def spent(record: dict[str, Any] | None, name: str, since: float) -> None:
    """Add the CPU this thread spent since `since` (time.thread_time()) to `name`."""
    if record is not None:
        record[name] = record.get(name, 0.0) + time.thread_time() - since


def use(record: dict[str, Any] | None) -> None:
    """Make `record` this thread's, so that `mark` (from code that has no request) finds it."""
    _local.record = record


def mark(name: str) -> None:
    """Stamp this thread's record, if tracing is on and the thread has one."""
    if PATH:
        stamp(getattr(_local, "record", None), name)


def finish(record: dict[str, Any] | None, conversation: str) -> None:
    if record is None:
        return
    record["conversation"] = conversation
    line = json.dumps(record) + "\n"
    with _write, open(PATH, "a") as out:  # one short append per stream: O_APPEND keeps lines whole
        out.write(line)
