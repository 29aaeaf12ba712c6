"""Identifiers of conversations and turns: UUIDs whose leading bits are the time they were made.

A random (version 4) UUID as a primary key puts each new row's index entry on a random page
of the index: every ask dirtied a different page of each of the turn, conversation and
citation indexes keyed by one, SQLite wrote each to its log at commit and read it back into
every other connection's cache, and as the tables grow those pages stop fitting in memory.
A version 7 UUID (RFC 9562) starts with the Unix time in milliseconds, so new rows' entries
land together at the end of the index, as an integer key's would; its other 74 bits are
random (from the operating system's CSPRNG), so an id still cannot be guessed from another.
"""

from __future__ import annotations

import os
import time
import uuid

_VERSION_7 = 0x7 << 76
_VARIANT = 0x2 << 62
_RANDOM_A = (1 << 12) - 1
_RANDOM_B = (1 << 62) - 1


def time_ordered_uuid() -> uuid.UUID:
    """A new version 7 UUID: 48 bits of Unix milliseconds, then 74 random bits."""
    milliseconds = time.time_ns() // 1_000_000
    random = int.from_bytes(os.urandom(10))
    value = (
        (milliseconds & ((1 << 48) - 1)) << 80
        | _VERSION_7
        | (random >> 62 & _RANDOM_A) << 64
        | _VARIANT
        | random & _RANDOM_B
    )
    return uuid.UUID(int=value)
