"""Which answer streams may run Python now: a few at a time per process, first events first.

A server process has one interpreter lock. Its event loop needs it for every step of every
request (reading it, handing it to a thread, sending each frame), and so does every stream
thread that has work to do. With hundreds of streams busy at once (a burst of them starting,
each retrieving passages and sending its model request), the loop waited its turn among
hundreds of threads for every step, and a stream's first event waited behind the later work
of the streams opened before it (docs/adr/0045).

So a stream thread runs its Python work holding one of ASKAPP_STREAM_RUNNING slots of its
process, and waits for none of its slow things while holding it: the question's write ahead
(the group writer's thread does it) and the model's answer (the provider's wrapper leaves the
lane before each call, askapp/database.py) are waited on outside. Waiting streams get a slot
in order, those still working towards their first event (`first=True`) before any other.
Fewer threads contend for the lock, so the loop gets it quickly; and a stream's first event
waits for the first events before it, not for everyone's retrieval.
"""

from __future__ import annotations

import threading
from collections import deque
from collections.abc import Iterator
from contextlib import contextmanager

from django.conf import settings


class Lanes:
    """`slots` threads at a time; waiters served in order, first-event work before later
    work. A thread holds at most one slot (`enter` while holding one is a no-op)."""

    def __init__(self, slots: int) -> None:
        self._lock = threading.Lock()
        self._free = slots
        self._first: deque[threading.Lock] = deque()
        self._later: deque[threading.Lock] = deque()
        self._holding = threading.local()

    def enter(self, *, first: bool = False) -> None:
        """Take a slot, waiting for one if none is free. A thread that has to wait gives its
        database connection back first (askapp/database.py): hundreds of streams waiting
        their turn would otherwise hold a PostgreSQL pool's every connection."""
        if getattr(self._holding, "slot", False):
            return
        with self._lock:
            if self._free > 0 and not self._first and (first or not self._later):
                self._free -= 1
                self._holding.slot = True
                return
            turn = threading.Lock()
            turn.acquire()
            (self._first if first else self._later).append(turn)
        from askapp.database import release_connection  # which imports this module

        release_connection()
        turn.acquire()  # released by the `leave` that hands this thread its slot
        self._holding.slot = True

    def leave(self) -> None:
        if not getattr(self._holding, "slot", False):
            return
        self._holding.slot = False
        with self._lock:
            if self._first:
                self._first.popleft().release()
            elif self._later:
                self._later.popleft().release()
            else:
                self._free += 1

    def holding(self) -> bool:
        return bool(getattr(self._holding, "slot", False))

    @contextmanager
    def outside(self) -> Iterator[None]:
        """Give this thread's slot up for a slow wait (a model call) and wait for one again
        (as later work) after it. Nothing for a thread that holds none."""
        if not self.holding():
            yield
            return
        self.leave()
        try:
            yield
        finally:
            self.enter()


_LANES: Lanes | None = None
_MADE = threading.Lock()


def lanes() -> Lanes:
    global _LANES
    with _MADE:
        if _LANES is None:
            _LANES = Lanes(settings.ASKAPP_STREAM_RUNNING)
        return _LANES
