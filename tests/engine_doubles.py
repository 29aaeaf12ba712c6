"""Test doubles for the engine: a provider that records every message sequence it is sent."""

from __future__ import annotations

import copy
import json
from collections.abc import Iterator, Sequence
from typing import Any

from engine.providers.base import Completion, Message, ToolSchema
from engine.providers.mock import MockProvider


class RecordingProvider:
    """Wraps a provider and keeps a deep copy of every request, in order."""

    def __init__(self, inner: Any | None = None) -> None:
        self.inner = inner or MockProvider()
        self.name = self.inner.name
        self.model = self.inner.model
        self.requests: list[list[dict[str, Any]]] = []

    def complete(
        self, messages: Sequence[Message], *, tools: Sequence[ToolSchema] | None = None
    ) -> Completion:
        self.requests.append(copy.deepcopy([dict(m) for m in messages]))
        return self.inner.complete(messages, tools=tools)

    def stream(self, messages: Sequence[Message]) -> Iterator[str]:
        self.requests.append(copy.deepcopy([dict(m) for m in messages]))
        yield from self.inner.stream(messages)

    def wire(self) -> str:
        """Everything sent, as one JSON text (what a canary search should look through)."""
        return json.dumps(self.requests, ensure_ascii=False, sort_keys=True)
