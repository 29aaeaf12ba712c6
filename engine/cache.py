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
