"""A fake SEC EDGAR (data.sec.gov) on 127.0.0.1, over real sockets.

A test publishes documents by path, may queue failures in front of them, points the real
httpx-based EdgarClient (or the import command, through ASKAPP_SEC_BASE_URL) at
`server.base_url`, and reads back every request as it arrived:

    def test_something(edgar: FakeEdgar) -> None:
        edgar.publish("/api/xbrl/companyfacts/CIK0000320193.json", b"{...}")
        edgar.fail("/api/xbrl/companyfacts/CIK0000320193.json", error(429, retry_after="2"))
        ...
        assert edgar.requests[0].header("User-Agent") == "Example Corp analyst@example.com"

A path with nothing published answers 404, as EDGAR does for an unknown CIK.
"""

from __future__ import annotations

import threading
from collections import deque
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest

from tests.fakes.openai_server import HOST, RecordedRequest, Reply, error, raw

__all__ = ["FakeEdgar", "Reply", "edgar_fixture", "error", "raw"]


class FakeEdgar:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._documents: dict[str, bytes] = {}
        self._queued: dict[str, deque[Reply]] = {}
        self._requests: list[RecordedRequest] = []
        self._httpd = _Server((HOST, 0), _Handler, self)
        self._thread = threading.Thread(
            target=self._httpd.serve_forever, kwargs={"poll_interval": 0.01}, daemon=True
        )

    @property
    def base_url(self) -> str:
        return f"http://{HOST}:{self._httpd.server_address[1]}"

    def publish(self, path: str, body: bytes) -> None:
        """Serve `body` (JSON) at `path` from now on."""
        with self._lock:
            self._documents[path] = body

    def fail(self, path: str, *replies: Reply) -> None:
        """Answer the next requests for `path` with these replies, in order, before the
        published document."""
        with self._lock:
            self._queued.setdefault(path, deque()).extend(replies)

    @property
    def requests(self) -> tuple[RecordedRequest, ...]:
        with self._lock:
            return tuple(self._requests)

    def answer(self, request: RecordedRequest) -> Reply:
        path = request.path.split("?", 1)[0]
        with self._lock:
            self._requests.append(request)
            queued = self._queued.get(path)
            if queued:
                return queued.popleft()
            if path in self._documents:
                return raw(self._documents[path])
        return error(404, f"fake EDGAR: nothing published at {path}")

    def __enter__(self) -> FakeEdgar:
        self._thread.start()
        return self

    def __exit__(self, *exc_info: object) -> None:
        self._httpd.shutdown()
        self._httpd.server_close()
        self._thread.join()


@pytest.fixture(name="edgar")
def edgar_fixture() -> Iterator[FakeEdgar]:
    with FakeEdgar() as server:
        yield server


class _Server(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, address: tuple[str, int], handler: type[_Handler], edgar: FakeEdgar):
        self.edgar = edgar
        super().__init__(address, handler)


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server: _Server

    def log_message(self, format: str, *args: Any) -> None:
        """Quiet: tests read `requests`, not a log."""

    def do_GET(self) -> None:
        request = RecordedRequest(
            method="GET", path=self.path, headers=tuple(self.headers.items()), body=b""
        )
        reply = self.server.edgar.answer(request)
        self.send_response(reply.status)
        self.send_header("Content-Type", reply.content_type)
        for name, value in reply.headers:
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(reply.body)))
        self.end_headers()
        self.wfile.write(reply.body)
