"""The model provider Protocol: OpenAI-shaped messages and tools in, a completion out."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

Message = Mapping[str, Any]  # OpenAI chat message: {"role", "content", "tool_calls"?, ...}
ToolSchema = Mapping[str, Any]  # OpenAI tool: {"type": "function", "function": {...}}


@dataclass(frozen=True, slots=True)
class ToolCall:
    id: str
    name: str
    arguments: str  # raw JSON text, exactly as the model wrote it


@dataclass(frozen=True, slots=True)
class Completion:
    content: str | None
    tool_calls: tuple[ToolCall, ...] = ()


class Provider(Protocol):
    name: str
    model: str

    def complete(
        self, messages: Sequence[Message], *, tools: Sequence[ToolSchema] | None = None
    ) -> Completion:
        """One chat-completions round: the model either calls tools or answers."""
        ...

    def stream(self, messages: Sequence[Message]) -> Iterator[str]:
        """A text answer (no tools), as content deltas in order."""
        ...
