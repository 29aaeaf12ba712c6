"""The held-out part of every question set: whole report pages nobody reads while tuning.

A page belongs to the held-out part when the first byte of the SHA-256 of its key is a
multiple of five (about a fifth of the pages). The key is the page itself (TAT-QA's table uid,
which PACIFIC shares, and ConvFinQA's report page), so a page held out in one set is held out
in every set that uses it, and a dialogue never straddles the two parts. Reports give both
parts; `--show` lists items of the tuning part only.
"""

from __future__ import annotations

import hashlib

TUNE = "tune"
HELD_OUT = "held-out"
PARTS = (TUNE, HELD_OUT)


def part_of(page: str) -> str:
    return HELD_OUT if hashlib.sha256(page.encode()).digest()[0] % 5 == 0 else TUNE
