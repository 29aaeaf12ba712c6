"""Django under ASGI without the single-thread funnel: each request runs the sync middleware
stack and view in a thread of a pool, as a threaded WSGI server would; only what must stay
async (an answer stream's body, client disconnects) runs on the event loop.

Django's own ASGIHandler runs a sync stack through asgiref's thread-sensitive executor,
which serialises every request of a process on one thread (docs/adr/0032). This handler
keeps the rest of Django's request cycle as it is (request_started and request_finished in
the thread that served the request, so database connections open and close where they are
used), and Django's own `send_response` for the bytes:

- an ordinary response is made and closed in the pool thread, then sent by the loop;
- a sync streaming response (a static file) is read out in the pool thread;
- an async streaming response (`/v1/ask/stream`) is closed in the pool thread (its body is
  an async iterator Django never closes there), then iterated on the loop while a listener
  waits for the client to go away; a disconnect cancels the sending, not the answer.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from django.core import signals
from django.core.exceptions import RequestAborted
from django.core.handlers.asgi import ASGIHandler, get_script_prefix
from django.core.handlers.base import BaseHandler
from django.http import HttpResponse, HttpResponseBase
from django.urls import set_script_prefix

from askapp import trace
from askapp.lanes import Urgent, lanes

Scope = dict[str, Any]


class ThreadedASGIHandler(ASGIHandler):
    """An ASGI application serving Django's sync stack from a pool of `threads` threads."""

    def __init__(self, *, threads: int) -> None:
        BaseHandler.__init__(self)
        self.load_middleware(is_async=False)
        self._pool = ThreadPoolExecutor(max_workers=threads, thread_name_prefix="askapp-web")

    async def __call__(self, scope: Scope, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            raise ValueError(f"askapp serves HTTP only, not {scope['type']!r}")
        trace.begin(scope)
        # Until its first bytes are ready, a request goes before the answer streams' later
        # work (askapp/lanes.py, docs/adr/0070).
        urgent = lanes().urgent()
        try:
            try:
                body_file = await self.read_body(receive)
            except RequestAborted:  # the client left before its body arrived
                return
            loop = asyncio.get_running_loop()
            response = await loop.run_in_executor(self._pool, self._respond, scope, body_file)
            if response.streaming and response.is_async:
                response.streaming_content = _ending_at_first(response.streaming_content, urgent)
                await self._stream(response, receive, send)
            else:
                urgent.end()
                await self.send_response(response, send)
        finally:
            urgent.end()

    def _respond(self, scope: Scope, body_file: Any) -> HttpResponseBase:
        """The whole sync request cycle, in a pool thread."""
        trace.stamp(trace.of(scope), "web")
        began = time.thread_time()
        try:
            set_script_prefix(get_script_prefix(scope))
            signals.request_started.send(sender=self.__class__, scope=scope)
            request, error_response = self.create_request(scope, body_file)
            response = error_response if request is None else self.get_response(request)
            sent = _read_out(response) if response.streaming and not response.is_async else response
            response.close()  # request_finished: this thread's connections are released
            return sent
        finally:
            body_file.close()
            trace.spent(trace.of(scope), "cpu_web", began)

    async def _stream(self, response: HttpResponseBase, receive: Any, send: Any) -> None:
        sending = asyncio.create_task(self.send_response(response, send))
        listening = asyncio.create_task(self.listen_for_disconnect(receive))
        await asyncio.wait([sending, listening], return_when=asyncio.FIRST_COMPLETED)
        for task in (sending, listening):
            task.cancel()
        await asyncio.gather(sending, listening, return_exceptions=True)


async def _ending_at_first(content: AsyncIterator[bytes], urgent: Urgent) -> AsyncIterator[bytes]:
    """`content`, ending `urgent` once its first piece is ready (or it ends without one)."""
    try:
        async for piece in content:
            urgent.end()
            yield piece
    finally:
        urgent.end()


def _read_out(streaming: Any) -> HttpResponse:
    """A sync streaming response (WhiteNoise's files, the admin's exports) as a plain one:
    iterating it on the loop would hop back to a thread for every chunk."""
    response = HttpResponse(b"".join(streaming), status=streaming.status_code)
    for header, value in streaming.items():
        response[header] = value
    response.cookies = streaming.cookies
    return response
