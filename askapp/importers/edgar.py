"""Fetching a company's documents from SEC EDGAR (data.sec.gov), the way the SEC asks.

- Every request carries the User-Agent the SEC requires: who is asking and a contact address
  (`ASKAPP_SEC_USER_AGENT`, e.g. `Example Corp analyst@example.com`). EDGAR refuses requests
  without one.
- At most `per_second` requests a second (the SEC's fair-access limit is 10), spaced by the
  injected clock and sleep, so tests need not wait and never reach the internet.
- HTTP 429 and 5xx, timeouts and dropped connections are retried with exponential backoff (a
  server's Retry-After is honoured up to `max_retry_after` seconds); a connection that cannot
  be made at all is tried once more. When the attempts are spent, EdgarError says what failed,
  and that the machine looks offline when EDGAR could not be reached.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

import httpx

SEC_BASE_URL = "https://data.sec.gov"


class EdgarError(Exception):
    """EDGAR could not give the document; the message says why and what to do."""


@dataclass
class EdgarClient:
    user_agent: str
    base_url: str = SEC_BASE_URL
    per_second: float = 10.0
    retries: int = 4
    connect_retries: int = 1  # when no connection can be made at all
    backoff: float = 1.0  # seconds before the first retry; doubled each time
    max_retry_after: float = 60.0
    timeout: float = 30.0
    clock: Callable[[], float] = time.monotonic
    sleep: Callable[[float], None] = time.sleep
    transport: httpx.BaseTransport | None = None
    _next_start: float = field(default=float("-inf"), init=False)

    def __post_init__(self) -> None:
        if "@" not in self.user_agent:
            raise EdgarError(
                "the SEC requires a User-Agent naming you and a contact e-mail address "
                f"(e.g. 'Example Corp analyst@example.com'), got {self.user_agent!r}"
            )
        self._http = httpx.Client(
            base_url=self.base_url.rstrip("/"),
            headers={"User-Agent": self.user_agent, "Accept-Encoding": "gzip, deflate"},
            timeout=self.timeout,
            transport=self.transport,
        )

    def companyfacts_url(self, cik: int) -> str:
        return f"{self._http.base_url}/api/xbrl/companyfacts/CIK{cik:010d}.json"

    def companyfacts(self, cik: int) -> str:
        """The companyfacts JSON of the company with this CIK, as text."""
        response = self._get(f"/api/xbrl/companyfacts/CIK{cik:010d}.json")
        if response.status_code == 404:
            raise EdgarError(f"EDGAR has no XBRL financial data for CIK {cik:010d} (HTTP 404)")
        return response.text

    def tickers(self, cik: int) -> tuple[str, ...]:
        """The company's ticker symbols, from its EDGAR submissions document (none if absent)."""
        response = self._get(f"/submissions/CIK{cik:010d}.json")
        if response.status_code == 404:
            return ()
        try:
            tickers = response.json().get("tickers") or []
        except (ValueError, AttributeError):
            raise EdgarError(f"{response.url} did not answer a JSON object") from None
        return tuple(t for t in tickers if isinstance(t, str) and t.strip())

    def close(self) -> None:
        self._http.close()

    def __enter__(self) -> EdgarClient:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def _get(self, path: str) -> httpx.Response:
        """The response (2xx or 404), after retries; any other outcome is an EdgarError."""
        url = f"{self._http.base_url}{path}"
        for attempt in range(self.retries + 1):
            self._wait_for_turn()
            try:
                response = self._http.get(path)
            except httpx.TransportError as exc:
                failure, wait = f"{type(exc).__name__}: {exc}", self._backoff(attempt)
                # No connection at all (no network, no DNS) rarely heals within seconds:
                # one more try, then say so, rather than keep an offline user waiting.
                connect = isinstance(exc, httpx.ConnectError)
                if attempt == (
                    min(self.retries, self.connect_retries) if connect else self.retries
                ):
                    raise EdgarError(_unreachable(url, failure, attempt + 1)) from None
            else:
                if response.is_success or response.status_code == 404:
                    return response
                if not _retryable(response.status_code) or attempt == self.retries:
                    raise EdgarError(_refused(url, response, attempt + 1))
                wait = self._retry_after(response) or self._backoff(attempt)
                if wait > self.max_retry_after:
                    raise EdgarError(_refused(url, response, attempt + 1))
            self.sleep(wait)
        raise AssertionError("unreachable")  # the loop returns or raises

    def _wait_for_turn(self) -> None:
        """Space request starts 1/per_second apart, however fast the caller asks."""
        now = self.clock()
        if now < self._next_start:
            self.sleep(self._next_start - now)
            now = self._next_start
        self._next_start = now + 1.0 / self.per_second

    def _backoff(self, attempt: int) -> float:
        return self.backoff * 2.0**attempt

    @staticmethod
    def _retry_after(response: httpx.Response) -> float | None:
        try:
            return max(0.0, float(response.headers.get("Retry-After", "")))
        except ValueError:
            return None  # absent, or an HTTP date: back off as usual


def _retryable(status: int) -> bool:
    return status == 429 or status >= 500


def _tries(attempts: int) -> str:
    return "1 attempt" if attempts == 1 else f"{attempts} attempts"


def _unreachable(url: str, failure: str, attempts: int) -> str:
    return (
        f"cannot reach {httpx.URL(url).host} for {url} ({failure}; {_tries(attempts)}): "
        "are you offline? Check the network connection (or a proxy) and try again"
    )


def _refused(url: str, response: httpx.Response, attempts: int) -> str:
    message = f"EDGAR answered HTTP {response.status_code} for {url} ({_tries(attempts)})"
    if response.status_code == 403:
        message += (
            ": the SEC refuses requests whose User-Agent does not name the requester and a "
            "contact address; check ASKAPP_SEC_USER_AGENT"
        )
    elif response.status_code == 429:
        message += ": too many requests; wait a few minutes before fetching again"
    return message
