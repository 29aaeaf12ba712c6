"""Request rates, counted in the shared cache so that every server process counts together.

DRF's throttles keep a list of timestamps per client and write it back (read, modify, write:
two processes lose each other's requests), and take the client's address from any
X-Forwarded-For header, so a fresh header per request was a fresh client. Here:

- the count is one cache key per client and window, raised with the cache's atomic `incr`
  (Redis when REDIS_URL is set: one counter for all processes; the local-memory cache
  otherwise, for a single process);
- the client is the socket's address, unless ASKAPP_TRUSTED_PROXIES says how many proxies
  in front of the server append to X-Forwarded-For: then the address the farthest of them saw;
- login attempts are limited too: failed logins per account and per address
  (ASKAPP_THROTTLE_LOGIN), checked before the password is.

Windows are fixed (a burst may reach twice the rate across a window's edge); the rates are
read from settings on every request, so a deployment's ASKAPP_THROTTLE_* and a test's
override both take effect. See docs/adr/0031.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest
from rest_framework.throttling import BaseThrottle

PERIODS = {"s": 1, "m": 60, "h": 3600, "d": 86400}


def parse_rate(rate: str) -> tuple[int, int]:
    """'120/min' -> (120, 60): requests, and the window in seconds."""
    count, _, period = rate.partition("/")
    return int(count), PERIODS[period[0]]


def client_address(request: HttpRequest) -> str:
    """The client's address: the socket's, or behind ASKAPP_TRUSTED_PROXIES proxies the one
    the farthest trusted proxy wrote into X-Forwarded-For (what the client wrote there
    itself is never trusted)."""
    proxies = int(settings.ASKAPP_TRUSTED_PROXIES)
    remote = str(request.META.get("REMOTE_ADDR") or "")
    if proxies <= 0:
        return remote
    forwarded = [a.strip() for a in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",")]
    forwarded = [a for a in forwarded if a]
    return forwarded[-proxies] if len(forwarded) >= proxies else remote


class Counter:
    """Hits per key in fixed windows, in the shared cache."""

    def __init__(self, scope: str, *, clock: Callable[[], float] = time.time) -> None:
        self.scope = scope
        self.clock = clock

    def _key(self, key: str, window: int) -> str:
        return f"throttle:{self.scope}:{key}:{window}"

    def hit(self, key: str, rate: str) -> tuple[bool, float]:
        """Count one hit; whether it is within the rate, and seconds until the window ends."""
        limit, seconds = parse_rate(rate)
        now = self.clock()
        window = int(now // seconds)
        name = self._key(key, window)
        # One cache operation once the window has its key: raise it. Only the window's first
        # hit (the key missing) creates it; when another process created it in between, its
        # key (just made, with the window's whole timeout) is raised instead.
        try:
            count = cache.incr(name)
        except ValueError:
            count = 1 if cache.add(name, 1, timeout=seconds + 1) else cache.incr(name)
        return count <= limit, (window + 1) * seconds - now

    def over(self, key: str, rate: str) -> float | None:
        """Seconds to wait when `key` has used up the rate in this window, without counting."""
        limit, seconds = parse_rate(rate)
        now = self.clock()
        window = int(now // seconds)
        if int(cache.get(self._key(key, window)) or 0) >= limit:
            return (window + 1) * seconds - now
        return None


class _SharedThrottle(BaseThrottle):
    scope = ""
    setting = ""

    def __init__(self) -> None:
        self._wait: float | None = None

    def key(self, request: Any) -> str | None:
        raise NotImplementedError

    def allow_request(self, request: Any, view: Any) -> bool:
        key = self.key(request)
        if key is None:
            return True
        allowed, wait = Counter(self.scope).hit(key, str(getattr(settings, self.setting)))
        self._wait = None if allowed else wait
        return allowed

    def wait(self) -> float | None:
        return self._wait


class UserThrottle(_SharedThrottle):
    """ASKAPP_THROTTLE_USER per logged-in user."""

    scope = "user"
    setting = "ASKAPP_THROTTLE_USER"

    def key(self, request: Any) -> str | None:
        user = getattr(request, "user", None)
        return str(user.pk) if user is not None and user.is_authenticated else None


class AnonThrottle(_SharedThrottle):
    """ASKAPP_THROTTLE_ANON per client address, for requests without a login."""

    scope = "anon"
    setting = "ASKAPP_THROTTLE_ANON"

    def key(self, request: Any) -> str | None:
        user = getattr(request, "user", None)
        if user is not None and user.is_authenticated:
            return None
        return client_address(request)


# --- logins ---------------------------------------------------------------------------------


def _login_keys(request: HttpRequest, username: str) -> list[tuple[Counter, str]]:
    return [
        (Counter("login-account"), username.strip().casefold()[:150]),
        (Counter("login-address"), client_address(request)),
    ]


def login_wait(request: HttpRequest, username: str) -> int | None:
    """Seconds to wait when the account or the address has failed too often; else None."""
    rate = str(settings.ASKAPP_THROTTLE_LOGIN)
    waits = [counter.over(key, rate) for counter, key in _login_keys(request, username)]
    longest = max((w for w in waits if w is not None), default=None)
    return None if longest is None else max(1, round(longest))


def login_failed(request: HttpRequest, username: str) -> None:
    rate = str(settings.ASKAPP_THROTTLE_LOGIN)
    for counter, key in _login_keys(request, username):
        counter.hit(key, rate)
