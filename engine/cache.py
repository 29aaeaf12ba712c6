"""Things built once per vocabulary version (a parser, name indexes) and kept for reuse."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable
from typing import Generic, TypeVar

from engine.types import Vocabulary

Built = TypeVar("Built")


Key = TypeVar("Key")


class Memo(Generic[Key, Built]):
    """A bounded, thread-safe LRU of values computed from their key alone: the caller keys
    by everything the value depends on. `get` is None on a miss; two threads may compute the
    same value once each (both results are equal)."""

    def __init__(self, *, size: int = 4096) -> None:
        self._size = size
        self._items: OrderedDict[Key, Built] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: Key) -> Built | None:
        with self._lock:
            value = self._items.get(key)
            if value is not None:
                self._items.move_to_end(key)
            return value

    def put(self, key: Key, value: Built) -> Built:
        with self._lock:
            self._items[key] = value
            self._items.move_to_end(key)
            while len(self._items) > self._size:
                self._items.popitem(last=False)
        return value

    def clear(self) -> None:
        with self._lock:
            self._items.clear()


class PerVocabulary(Generic[Built]):
    """`build(vocabulary)` kept per vocabulary version, the last `size` of them."""

    def __init__(self, build: Callable[[Vocabulary], Built], *, size: int = 8) -> None:
        self._build = build
        self._built: Memo[str, Built] = Memo(size=size)

    def __call__(self, vocabulary: Vocabulary) -> Built:
        key = vocabulary.version or str(id(vocabulary))
        built = self._built.get(key)
        return self._built.put(key, self._build(vocabulary)) if built is None else built


_VISIBLE: Memo[tuple[str, frozenset[str]], Vocabulary] = Memo(size=16)


def visible_vocabulary(vocabulary: Vocabulary, clearance: frozenset[str]) -> Vocabulary:
    """`vocabulary.visible_to(clearance)`, worked out once per version and clearance (each
    question would otherwise walk every name)."""
    if not vocabulary.version:
        return vocabulary.visible_to(clearance)
    key = (vocabulary.version, clearance)
    visible = _VISIBLE.get(key)
    return _VISIBLE.put(key, vocabulary.visible_to(clearance)) if visible is None else visible


class PerSnapshot(Generic[Key, Built]):
    """A Memo that holds while its values' source stays the very same object (a store's
    vocabulary, which a store hands out again until the knowledge base changes): a value put
    for another object empties it first, so nothing computed from an older knowledge base is
    ever found, nor kept alive. The source is checked and the Memo used under one lock, so a
    value of the older source is never put after a newer one emptied it."""

    def __init__(self, *, size: int = 4096) -> None:
        self._memo: Memo[Key, Built] = Memo(size=size)
        self._of: object = None
        self._lock = threading.Lock()

    def get(self, source: object, key: Key) -> Built | None:
        with self._lock:
            return self._memo.get(key) if source is self._of else None

    def put(self, source: object, key: Key, value: Built) -> Built:
        with self._lock:
            if source is not self._of:
                self._memo.clear()
                self._of = source
            return self._memo.put(key, value)
