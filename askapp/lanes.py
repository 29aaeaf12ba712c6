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

Later work also waits while anything urgent is under way in the process (docs/adr/0070): a
request the handler has accepted and not yet answered (`/healthz`, a page, a stream's view),
and a stream that has not yet handed its first event over. A slot freed then stays free, so
those run beside at most the later work already running, not beside a queue of it. So that
later work is never starved by a steady flow of requests, a later waiter that has waited
`patience` seconds goes in when no other later work is running: beside urgent work, at most
one thread does later work.
"""

from __future__ import annotations

import threading
import time
from collections import deque
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from django.conf import settings

PATIENCE = 5.0  # seconds later work waits for urgent work before it goes in anyway


class Urgent:
    """One urgent thing under way (`Lanes.urgent`); `end` it once it is done, from any
    thread (ending it again does nothing)."""

    def __init__(self, lanes: Lanes) -> None:
        self._lanes: Lanes | None = lanes

    def end(self) -> None:
        lanes, self._lanes = self._lanes, None
        if lanes is not None:
            lanes._urgent_ended()


class Lanes:
    """`slots` threads at a time; waiters served in order, first-event work before later
    work, and later work only when nothing urgent is under way (or it has waited `patience`
    seconds). A thread holds at most one slot (`enter` while holding one is a no-op)."""

    def __init__(
        self, slots: int, *, patience: float = PATIENCE, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self._lock = threading.Lock()
        self._free = slots
        self._first: deque[threading.Lock] = deque()
        self._resumed: deque[threading.Lock] = deque()
        self._later: deque[tuple[threading.Lock, float]] = deque()
        self._urgent = 0
        self._later_running = 0  # slots held by later work (neither first nor resumed)
        self._patience = patience
        self._clock = clock
        self._holding = threading.local()

    def urgent(self) -> Urgent:
        """Mark something urgent under way until the returned token is ended."""
        with self._lock:
            self._urgent += 1
        return Urgent(self)

    def _urgent_ended(self) -> None:
        with self._lock:
            self._urgent -= 1
            while self._free > 0 and (turn := self._next()) is not None:
                self._free -= 1
                turn.release()

    def _next(self) -> threading.Lock | None:
        """The waiter whose turn it is, taken off its queue (called holding `_lock`)."""
        if self._first:
            return self._first.popleft()
        if self._resumed:
            return self._resumed.popleft()
        if self._later and (self._urgent == 0 or self._patient()):
            self._later_running += 1
            return self._later.popleft()[0]
        return None

    def _patient(self) -> bool:
        """The oldest later waiter has waited long enough, and no later work runs."""
        waited = self._clock() - self._later[0][1]
        return waited >= self._patience and self._later_running == 0

    def enter(self, *, first: bool = False, resumed: bool = False) -> None:
        """Take a slot, waiting for one if none is free: `first` for work towards a first
        event, `resumed` for an answer going on after a wait (it goes before later work and
        does not wait for urgent work), neither for later work. A thread that has to wait
        gives its database connection back first (askapp/database.py): hundreds of streams
        waiting their turn would otherwise hold a PostgreSQL pool's every connection."""
        if getattr(self._holding, "slot", False):
            return
        with self._lock:
            ahead = self._first if first else (self._first or self._resumed)
            may = first or resumed or (not self._later and self._urgent == 0)
            if self._free > 0 and not ahead and may:
                self._free -= 1
                self._later_running += not (first or resumed)
                self._holding.slot = True
                self._holding.later = not (first or resumed)
                return
            turn = threading.Lock()
            turn.acquire()
            if first:
                self._first.append(turn)
            elif resumed:
                self._resumed.append(turn)
            else:
                self._later.append((turn, self._clock()))
        from askapp.database import release_connection  # which imports this module

        release_connection()
        turn.acquire()  # released by the `leave` that hands this thread its slot
        self._holding.slot = True
        self._holding.later = not (first or resumed)  # `_next` counted it in _later_running

    def leave(self) -> None:
        if not getattr(self._holding, "slot", False):
            return
        self._holding.slot = False
        with self._lock:
            if self._holding.later:
                self._later_running -= 1
            turn = self._next()
            if turn is None:
                self._free += 1
            else:
                turn.release()

    def holding(self) -> bool:
        return bool(getattr(self._holding, "slot", False))

    @contextmanager
    def outside(self) -> Iterator[None]:
        """Give this thread's slot up for a slow wait (a model call) and wait for one again
        after it, as an answer that goes on. Nothing for a thread that holds none."""
        if not self.holding():
            yield
            return
        self.leave()
        try:
            yield
        finally:
            self.enter(resumed=True)


_LANES: Lanes | None = None
_MADE = threading.Lock()


def lanes() -> Lanes:
    global _LANES
    with _MADE:
        if _LANES is None:
            _LANES = Lanes(settings.ASKAPP_STREAM_RUNNING)
        return _LANES
