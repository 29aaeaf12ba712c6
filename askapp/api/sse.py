"""The answer stream as server-sent events, and the bridge that keeps it unbuffered under ASGI.

Frames, in order (each `event: <name>` then one `data:` line of JSON, then a blank line):

    meta      {"conversation": id, "intent": {...}, "carried": [...], "provider", "model"}
    delta     {"text": "..."}            the answer's text, piece by piece (they join to it)
    sources   [...]                      what the answer rests on
    done      {"conversation", "turn"}   exactly the body POST /v1/ask returns
    error     {"error": {"code", "message"}, "conversation", "turn"}   instead of done

and `: keepalive` comment lines whenever nothing was sent for ASKAPP_SSE_KEEPALIVE seconds.

`answer_frames` is the whole stream as a sync generator. Under WSGI it is the response body
as is (a threaded server streams a sync iterator as it is read). Under ASGI, Django 5.2 would
buffer a sync iterator whole (docs/adr/0008), so `answer_frames_async` runs it in a worker
thread of a dedicated pool and hands frames to the event loop through a queue: a slow answer
holds one thread and no event-loop time, keepalives are sent while it pauses, and when the
client goes away the thread still runs the answer to its end and stores it (docs/adr/0019).
"""

from __future__ import annotations

import asyncio
import functools
import logging
import threading
import time
from collections.abc import AsyncIterator, Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from django.conf import settings
from django.db import connections
from rest_framework.renderers import JSONRenderer

from askapp import trace as tracing
from askapp.api.errors import error_body
from askapp.api.serializers import ask_body, turn_body
from askapp.errors import AskFailed
from askapp.lanes import lanes
from askapp.services import writeahead
from askapp.services.asking import PreparedAsk, Stored, ask_events
from engine import Event

logger = logging.getLogger(__name__)

KEEPALIVE = b": keepalive\n\n"
HEADERS = {"Cache-Control": "private, no-store", "X-Accel-Buffering": "no"}
_END = object()


def frame(kind: str, data: Any) -> bytes:
    """One event. The data is rendered by the JSON renderer /v1/ask uses, so `done` carries
    the very bytes /v1/ask would have sent."""
    return b"event: " + kind.encode() + b"\ndata: " + JSONRenderer().render(data) + b"\n\n"


def answer_frames(prepared: PreparedAsk) -> Iterator[bytes]:
    """Every frame of one answer. Closed early (a WSGI client went away), it still runs the
    answer to its end so that the turn is stored."""
    events = ask_events(prepared=prepared)
    finished = False
    try:
        for event in events:
            yield _render(prepared, event)
        finished = True
    except AskFailed as failed:
        finished = True
        yield frame("error", _failure(failed))
    finally:
        if not finished:
            _drain(events)


def _render(prepared: PreparedAsk, event: Event) -> bytes:
    if event.kind == "meta":
        return frame("meta", {"conversation": str(prepared.conversation.pk), **event.data})
    if event.kind == "delta":
        return frame("delta", {"text": event.data})
    if event.kind == "done":
        stored: Stored = event.data
        return frame("done", ask_body(stored))
    return frame(event.kind, event.data)


def _failure(failed: AskFailed) -> dict[str, Any]:
    body = error_body(failed.code, failed.message)
    body["conversation"] = str(failed.conversation.pk)
    body["turn"] = turn_body(failed.turn)
    return body


def _drain(events: Iterator[Event]) -> None:
    try:
        for _ in events:
            pass
    except AskFailed:
        pass  # stored with status error; nobody is listening for the error event


# --- ASGI ------------------------------------------------------------------------------------


@functools.cache
def _pool() -> ThreadPoolExecutor:
    return ThreadPoolExecutor(
        max_workers=settings.ASKAPP_STREAM_THREADS, thread_name_prefix="askapp-stream"
    )


async def answer_frames_async(
    prepared: PreparedAsk, *, keepalive: float | None = None, trace: dict[str, Any] | None = None
) -> AsyncIterator[bytes]:
    """`answer_frames` run in a worker thread, its frames forwarded as they come, with a
    keepalive comment after every `keepalive` seconds of silence."""
    wait = settings.ASKAPP_SSE_KEEPALIVE if keepalive is None else keepalive
    loop = asyncio.get_running_loop()
    frames: asyncio.Queue[Any] = asyncio.Queue()
    gone = threading.Event()

    def hand_over(item: Any) -> None:
        if gone.is_set():
            return  # the client left: the answer is still finished and stored, not sent
        try:
            loop.call_soon_threadsafe(frames.put_nowait, item)
        except RuntimeError:  # the event loop has closed (server shutdown)
            gone.set()

    def produce() -> None:
        tracing.use(trace)
        tracing.stamp(trace, "thread")
        began = time.thread_time()
        running = lanes()
        try:
            writeahead.store_question_first(prepared)  # committed with the others waiting
            tracing.stamp(trace, "stored")
            running.enter(first=True)
            first = True
            for item in answer_frames(prepared):
                tracing.stamp(trace, "meta")
                hand_over(item)
                if first:  # what follows the first event waits for others' first events
                    first = False
                    tracing.spent(trace, "cpu_first", began)
                    began = time.thread_time()
                    running.leave()
                    running.enter()
        except Exception:
            logger.exception("an answer stream failed")
            hand_over(frame("error", error_body("internal_error", "The answer failed.")))
        finally:
            running.leave()
            hand_over(_END)
            connections.close_all()  # this pool thread's own connections
            tracing.spent(trace, "cpu_later", began)
            tracing.use(None)
            tracing.finish(trace, str(prepared.conversation.pk))

    _pool().submit(produce)
    try:
        while True:
            try:
                item = await asyncio.wait_for(frames.get(), timeout=wait)
            except TimeoutError:
                yield KEEPALIVE
                continue
            if item is _END:
                return
            tracing.stamp(trace, "loop")
            yield item
    finally:
        gone.set()
