"""A fake OpenAI-compatible chat-completions server on 127.0.0.1, over real sockets.

A test queues scripted replies, points a real `openai` client at `server.base_url`, and then
reads back every request exactly as it arrived on the wire:

    def test_something(openai_server: FakeOpenAIServer) -> None:
        openai_server.reply(error(429, retry_after="2"), completion("Revenue was 1,320."))
        ...  # drive the provider at openai_server.base_url
        assert len(openai_server.requests) == 2
        assert openai_server.requests[-1].json["messages"] == [...]

Replies are served first in, first out, one per POST to any path ending in
`/chat/completions` (so `/v1/chat/completions`, `/chat/completions` and Azure's
`/openai/deployments/<name>/chat/completions?api-version=...` all work). A request that finds
no reply queued gets HTTP 418, which no client retries, so a missing script fails loudly.

Builders for replies: `completion`, `tool_call`, `stream`, `tool_call_stream`, `error`, `raw`,
`slow` (answer late, to trip the client's timeout), `cut_stream` (drop the socket mid-stream),
`cut_body` (drop the socket half-way through a plain body) and `held` (pause a stream after
some deltas until the test releases it, to see what a client does before the model finishes).
`refused_base_url()` names a port with nothing listening, for connection-refused tests.
"""

from __future__ import annotations

import json
import socket
import sys
import threading
import time
from collections import deque
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest

HOST = "127.0.0.1"
MODEL = "fake-model"
_CREATED = 1_700_000_000  # a fixed timestamp keeps every reply byte-for-byte reproducible


# --- what the server saw ------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class RecordedRequest:
    """One request exactly as received: method, raw path (with query), headers, body bytes."""

    method: str
    path: str
    headers: tuple[tuple[str, str], ...]  # in wire order, names as the client spelled them
    body: bytes

    @property
    def json(self) -> Any:
        return json.loads(self.body)

    @property
    def messages(self) -> list[dict[str, Any]]:
        messages: list[dict[str, Any]] = self.json["messages"]
        return messages

    def header(self, name: str) -> str | None:
        """The value of a header, matched case-insensitively; None when absent."""
        wanted = name.lower()
        return next((value for key, value in self.headers if key.lower() == wanted), None)


# --- what the server says -----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Reply:
    """One scripted reply.

    A plain reply sends `body` with a Content-Length. A streamed reply (`events` is not None)
    sends `text/event-stream` with chunked transfer encoding, one `data: <event>` per event;
    with `cut=True` the socket is dropped after the events, before the chunked body ends (for
    a plain reply: after half the body). `delay` holds the reply back (the server is released
    early when it stops); `hold` pauses a stream part-way, see `Hold`.
    """

    status: int = 200
    body: bytes = b""
    content_type: str = "application/json"
    headers: tuple[tuple[str, str], ...] = ()
    events: tuple[str, ...] | None = None
    cut: bool = False
    delay: float = 0.0
    hold: Hold | None = None


class Hold:
    """A pause inside a streamed reply: the server sends the role chunk and the first
    `after_deltas` deltas, then waits until the test calls `release()` (or `limit` seconds
    pass, or the server stops) before it sends the rest.

    `passed` tells whether the server has gone on past the pause. A test that sees a delta
    while `passed` is False knows the model had not finished: no clock is read to know it.
    """

    def __init__(self, after_deltas: int, *, limit: float = 10.0) -> None:
        self.after_deltas = after_deltas
        self.limit = limit
        self._released = threading.Event()
        self._passed = threading.Event()
        self.gave_up = False  # the limit ran out before anyone released the pause

    @property
    def passed(self) -> bool:
        return self._passed.is_set()

    def release(self) -> None:
        self._released.set()

    def wait(self, stopping: threading.Event) -> None:
        """Block the serving thread at the pause (the server's own stop also releases it)."""
        deadline = time.monotonic() + self.limit  # a safety net only: no test asserts on time
        while not (self._released.is_set() or stopping.is_set()):
            if time.monotonic() >= deadline:
                self.gave_up = True
                break
            self._released.wait(0.01)
        self._passed.set()


def completion(
    content: str | None = None,
    *,
    tool_calls: Sequence[Mapping[str, Any]] = (),
    finish_reason: str | None = None,
    model: str = MODEL,
) -> Reply:
    """A non-streamed chat completion: an answer, or tool calls (see `tool_call`)."""
    message: dict[str, Any] = {"role": "assistant", "content": content}
    if tool_calls:
        message["tool_calls"] = [dict(call) for call in tool_calls]
    reason = finish_reason or ("tool_calls" if tool_calls else "stop")
    payload = {
        "id": "chatcmpl-fake",
        "object": "chat.completion",
        "created": _CREATED,
        "model": model,
        "choices": [{"index": 0, "message": message, "finish_reason": reason}],
        "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2},
    }
    return Reply(body=json.dumps(payload).encode())


def tool_call(name: str, arguments: str, *, id: str = "call_1") -> dict[str, Any]:
    """One tool call as the model writes it; `arguments` is raw JSON text, sent verbatim."""
    return {"id": id, "type": "function", "function": {"name": name, "arguments": arguments}}


def stream(
    *deltas: str, finish_reason: str | None = "stop", done: bool = True, model: str = MODEL
) -> Reply:
    """A streamed answer: a role chunk, one chunk per delta, a finish chunk, then `[DONE]`.

    `finish_reason=None` leaves out the finish chunk and `done=False` the `[DONE]` line, so a
    stream can end cleanly on the wire yet unfinished in the protocol.
    """
    chunks = [_chunk({"role": "assistant", "content": ""}, model=model)]
    chunks += [_chunk({"content": delta}, model=model) for delta in deltas]
    if finish_reason is not None:
        chunks.append(_chunk({}, finish_reason=finish_reason, model=model))
    return Reply(
        content_type="text/event-stream",
        events=(*chunks, "[DONE]") if done else tuple(chunks),
    )


def tool_call_stream(*calls: Mapping[str, Any], model: str = MODEL) -> Reply:
    """A streamed tool-call answer, each call's arguments split in two deltas, as OpenAI does."""
    chunks = [_chunk({"role": "assistant", "content": None}, model=model)]
    for index, call in enumerate(calls):
        arguments: str = call["function"]["arguments"]
        half = len(arguments) // 2
        head = {"id": call["id"], "type": "function"}
        first = {"name": call["function"]["name"], "arguments": arguments[:half]}
        chunks.append(_tool_delta(index, {**head, "function": first}, model))
        chunks.append(_tool_delta(index, {"function": {"arguments": arguments[half:]}}, model))
    chunks.append(_chunk({}, finish_reason="tool_calls", model=model))
    return Reply(content_type="text/event-stream", events=(*chunks, "[DONE]"))


def error(
    status: int,
    message: str = "scripted failure",
    *,
    retry_after: str | None = None,
    headers: Mapping[str, str] | None = None,
) -> Reply:
    """An HTTP error with OpenAI's error body; `retry_after` sets the Retry-After header."""
    extra = dict(headers or {})
    if retry_after is not None:
        extra["Retry-After"] = retry_after
    body = {"error": {"message": message, "type": "fake_error", "param": None, "code": None}}
    return Reply(status=status, body=json.dumps(body).encode(), headers=tuple(extra.items()))


def raw(body: bytes, *, status: int = 200, content_type: str = "application/json") -> Reply:
    """Any body at all, for answers a client cannot read."""
    return Reply(status=status, body=body, content_type=content_type)


def slow(seconds: float, reply: Reply | None = None) -> Reply:
    """`reply` (an empty completion by default), held back `seconds` before any byte is sent."""
    return replace(reply or completion(""), delay=seconds)


def held(reply: Reply, hold: Hold) -> Reply:
    """A streamed `reply` that pauses at `hold` (after the role chunk and hold.after_deltas)."""
    if reply.events is None:
        raise ValueError("only a streamed reply can be held")
    return replace(reply, hold=hold)


def cut_body(reply: Reply | None = None) -> Reply:
    """A plain reply (an empty completion by default) whose headers promise the whole body,
    but the socket closes after half of it."""
    return replace(reply or completion(""), cut=True)


def cut_stream(*deltas: str) -> Reply:
    """A stream dropped mid-way: the role chunk and `deltas`, then the socket closes before the
    finish chunk, `[DONE]` and the end of the chunked body. No deltas: cut before any text."""
    return replace(stream(*deltas, finish_reason=None, done=False), cut=True)


def _chunk(delta: Mapping[str, Any], *, finish_reason: str | None = None, model: str) -> str:
    choice = {"index": 0, "delta": dict(delta), "finish_reason": finish_reason}
    payload = {
        "id": "chatcmpl-fake",
        "object": "chat.completion.chunk",
        "created": _CREATED,
        "model": model,
        "choices": [choice],
    }
    return json.dumps(payload)


def _tool_delta(index: int, call: Mapping[str, Any], model: str) -> str:
    return _chunk({"tool_calls": [{"index": index, **call}]}, model=model)


# --- the server ---------------------------------------------------------------------------------


@dataclass
class _Script:
    """State shared by the handler threads, behind one lock."""

    lock: threading.Lock = field(default_factory=threading.Lock)
    replies: deque[Reply] = field(default_factory=deque)
    requests: list[RecordedRequest] = field(default_factory=list)
    released: threading.Event = field(default_factory=threading.Event)

    def take(self, request: RecordedRequest) -> Reply:
        """Record the request, then answer it with the next queued reply."""
        routed = request.path.split("?", 1)[0].endswith("/chat/completions")
        with self.lock:
            self.requests.append(request)
            if routed and self.replies:
                return self.replies.popleft()
        if not routed:
            return error(404, f"fake server: no route for {request.path}")
        return error(418, "fake server: no reply was scripted for this request")


class FakeOpenAIServer:
    """The server: start it (or use it as a context manager), queue replies, read requests."""

    def __init__(self) -> None:
        self._script = _Script()
        self._httpd = _HTTPServer((HOST, 0), _Handler, self._script)
        self._thread = threading.Thread(
            target=self._httpd.serve_forever, kwargs={"poll_interval": 0.01}, daemon=True
        )

    @property
    def port(self) -> int:
        return int(self._httpd.server_address[1])

    @property
    def origin(self) -> str:
        return f"http://{HOST}:{self.port}"

    @property
    def base_url(self) -> str:
        """What an OpenAI client takes as `base_url`."""
        return f"{self.origin}/v1"

    def reply(self, *replies: Reply) -> None:
        """Queue replies, served one per request in this order."""
        with self._script.lock:
            self._script.replies.extend(replies)

    @property
    def requests(self) -> tuple[RecordedRequest, ...]:
        with self._script.lock:
            return tuple(self._script.requests)

    @property
    def pending(self) -> int:
        """How many queued replies no request has taken yet."""
        with self._script.lock:
            return len(self._script.replies)

    def start(self) -> FakeOpenAIServer:
        self._thread.start()
        return self

    def stop(self) -> None:
        self._script.released.set()  # wake any reply still holding back (`slow`, `held`)
        self._httpd.shutdown()
        self._httpd.server_close()
        self._thread.join()

    def __enter__(self) -> FakeOpenAIServer:
        return self.start()

    def __exit__(self, *exc_info: object) -> None:
        self.stop()


@pytest.fixture(name="openai_server")
def openai_server_fixture() -> Iterator[FakeOpenAIServer]:
    """A started fake server, stopped after the test. Import `openai_server_fixture` into a
    test module (or a conftest) and ask for `openai_server`."""
    with FakeOpenAIServer() as server:
        yield server


def refused_base_url() -> str:
    """A base URL on a loopback port that was free a moment ago: connecting is refused."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind((HOST, 0))
        port = probe.getsockname()[1]
    return f"http://{HOST}:{port}/v1"


class _HTTPServer(ThreadingHTTPServer):
    daemon_threads = True
    block_on_close = False  # stop() releases held replies; it need not wait for each thread
    request_queue_size = 1024  # a benchmark opens a thousand slow streams at once

    def __init__(self, address: tuple[str, int], handler: type[_Handler], script: _Script):
        self.script = script
        super().__init__(address, handler)

    def handle_error(self, request: Any, client_address: Any) -> None:
        """A client that hangs up (a timeout, a cut) is expected here; anything else is a bug."""
        if not isinstance(sys.exc_info()[1], OSError):
            super().handle_error(request, client_address)


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"  # keep-alive and chunked streams, as real servers do
    disable_nagle_algorithm = True  # headers and body go out in separate writes
    server: _HTTPServer

    def log_message(self, format: str, *args: Any) -> None:
        """Quiet: tests read `requests`, not a log."""

    def do_POST(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        request = RecordedRequest(
            method="POST",
            path=self.path,
            headers=tuple(self.headers.items()),
            body=self.rfile.read(length),
        )
        reply = self.server.script.take(request)
        if reply.delay and self.server.script.released.wait(reply.delay):
            self.close_connection = True
            return
        try:
            self._send(reply)
        except OSError:
            self.close_connection = True  # the client gave up first (a timeout): nothing to do

    def _send(self, reply: Reply) -> None:
        self.send_response(reply.status)
        self.send_header("Content-Type", reply.content_type)
        for name, value in reply.headers:
            self.send_header(name, value)
        if reply.events is None:
            self.send_header("Content-Length", str(len(reply.body)))
            self.end_headers()
            if reply.cut:
                self.wfile.write(reply.body[: len(reply.body) // 2])
                self._drop_connection()
            else:
                self.wfile.write(reply.body)
            return
        self.send_header("Transfer-Encoding", "chunked")
        self.send_header("Cache-Control", "no-cache")
        self.end_headers()
        pause_at = reply.hold.after_deltas + 1 if reply.hold else None  # event 0: the role chunk
        for index, event in enumerate(reply.events):
            if reply.hold is not None and index == pause_at:
                reply.hold.wait(self.server.script.released)
            self._write_chunk(f"data: {event}\n\n".encode())
        if reply.cut:
            self._drop_connection()
        else:
            self._write_chunk(b"")  # the zero-length chunk ends the body cleanly

    def _write_chunk(self, data: bytes) -> None:
        self.wfile.write(f"{len(data):X}\r\n".encode() + data + b"\r\n")
        self.wfile.flush()

    def _drop_connection(self) -> None:
        self.close_connection = True
        self.wfile.flush()
        self.connection.shutdown(socket.SHUT_RDWR)
