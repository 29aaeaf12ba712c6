"""Conversations and turns get time-ordered ids (docs/adr/0057): a later row's id sorts after
an earlier one's, so new index entries land at the end of their index; the rest of the id is
random, so no id can be guessed from another."""

from __future__ import annotations

import time
import uuid

from askapp.ids import time_ordered_uuid
from askapp.models import Conversation, Turn


def _milliseconds(value: uuid.UUID) -> int:
    return value.int >> 80


def test_new_conversations_and_turns_take_version_7_ids_stamped_now() -> None:
    before = time.time_ns() // 1_000_000

    ids = [Conversation(visitor="v").pk, Turn(role="user", text="q").pk]

    after = time.time_ns() // 1_000_000
    assert [i.version for i in ids] == [7, 7]
    assert all(before <= _milliseconds(i) <= after for i in ids)


def test_an_id_made_in_a_later_millisecond_sorts_after_an_earlier_one() -> None:
    earlier = time_ordered_uuid()
    time.sleep(0.002)

    later = time_ordered_uuid()

    assert earlier < later and earlier.hex < later.hex  # as stored, too: hex text on SQLite


def test_ids_made_in_the_same_millisecond_are_all_different() -> None:
    ids = [time_ordered_uuid() for _ in range(10_000)]

    assert len(set(ids)) == len(ids)
    assert len({i.int & ((1 << 62) - 1) for i in ids}) == len(ids)  # the random part differs
