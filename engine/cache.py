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
