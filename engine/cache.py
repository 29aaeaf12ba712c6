"""Things built once per vocabulary version (a parser, name indexes) and kept for reuse."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable
from typing import Generic, TypeVar

from engine.types import Vocabulary

Built = TypeVar("Built")


class PerVocabulary(Generic[Built]):
    """A small LRU of `build(vocabulary)` keyed by the vocabulary's version; safe across
    threads (two threads may build the same thing once each; both results are equal)."""

    def __init__(self, build: Callable[[Vocabulary], Built], *, size: int = 8) -> None:
        self._build = build
        self._size = size
        self._items: OrderedDict[str, Built] = OrderedDict()
        self._lock = threading.Lock()

    def __call__(self, vocabulary: Vocabulary) -> Built:
        key = vocabulary.version or str(id(vocabulary))
        with self._lock:
            if key in self._items:
                self._items.move_to_end(key)
                return self._items[key]
        built = self._build(vocabulary)
        with self._lock:
            self._items[key] = built
            while len(self._items) > self._size:
                self._items.popitem(last=False)
        return built


_VISIBLE: OrderedDict[tuple[str, frozenset[str]], Vocabulary] = OrderedDict()
_VISIBLE_LOCK = threading.Lock()
_VISIBLE_SIZE = 16


def visible_vocabulary(vocabulary: Vocabulary, clearance: frozenset[str]) -> Vocabulary:
    """`vocabulary.visible_to(clearance)`, worked out once per version and clearance (each
    question would otherwise walk every name)."""
    if not vocabulary.version:
        return vocabulary.visible_to(clearance)
    key = (vocabulary.version, clearance)
    with _VISIBLE_LOCK:
        if key in _VISIBLE:
            _VISIBLE.move_to_end(key)
            return _VISIBLE[key]
    visible = vocabulary.visible_to(clearance)
    with _VISIBLE_LOCK:
        _VISIBLE[key] = visible
        while len(_VISIBLE) > _VISIBLE_SIZE:
            _VISIBLE.popitem(last=False)
    return visible


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


class PerSnapshot(Generic[Key, Built]):
    """A Memo that holds while its values' source stays the very same object (a store's
    vocabulary, which a store hands out again until the knowledge base changes): a value put
    for another object empties it first, so nothing computed from an older knowledge base is
    ever found, nor kept alive."""

    def __init__(self, *, size: int = 4096) -> None:
        self._size = size
        self._items: OrderedDict[Key, Built] = OrderedDict()
        self._of: object = None
        self._lock = threading.Lock()

    def get(self, source: object, key: Key) -> Built | None:
        with self._lock:
            if source is not self._of:
                return None
            value = self._items.get(key)
            if value is not None:
                self._items.move_to_end(key)
            return value

    def put(self, source: object, key: Key, value: Built) -> Built:
        with self._lock:
            if source is not self._of:
                self._items.clear()
                self._of = source
            self._items[key] = value
            while len(self._items) > self._size:
                self._items.popitem(last=False)
        return value
