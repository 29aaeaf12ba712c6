"""askapp's answer engine: pure Python, never imports Django, DRF or askapp.

Everything a caller needs is importable from here; the submodules are the engine's own
business (askapp imports `engine` only, and a test holds it to that).

    from engine import Engine, MockProvider, InMemoryStore

    engine = Engine(store, provider)  # once; gate, parser, pipeline and limits are optional
    answer = engine.answer("What was Apple's revenue in FY2023?", history=..., session=...)
    for event in engine.stream(question, ...):  # meta, delta..., sources, then done
        ...

`answer_question(question, store, provider, **options)` and `answer_question_stream` are the
same in one call. The OpenAI-compatible provider and the evaluation helpers load on first use,
so a deterministic caller never pays for importing the `openai` client.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from engine.answer import (
    Asked,
    Engine,
    HistoryTurn,
    Limits,
    answer_question,
    answer_question_stream,
    final_answer,
)
from engine.chunks import CHUNK_WORDS, split_into_chunks
from engine.errors import (
    EngineError,
    ProviderBadResponse,
    ProviderError,
    ProviderRateLimited,
    ProviderTimeout,
    ProviderUnavailable,
    StoreError,
    ToolError,
)
from engine.gate import GateResult, SecurityGate
from engine.grounding import Mention, figure_spans, figures_in
from engine.intent import Ambiguity, Intent
from engine.narrative import (
    EntityLinker,
    Linker,
    OverlapReranker,
    Pipeline,
    Reranker,
    Retriever,
    StoreRetriever,
    default_pipeline,
)
from engine.numbers import format_value
from engine.parser import IntentParser, parser_for
from engine.passages import cited_pieces
from engine.periods import normalise_period
from engine.plan import lookup_intent, question_for
from engine.providers.base import Completion, Message, Provider, ToolCall
from engine.providers.mock import MockProvider
from engine.session import SCOPE, ConversationSession, Remembered
from engine.store import InMemoryStore, KnowledgeStore
from engine.timeframe import period_sort_key
from engine.topic import Topic, intent_topic
from engine.types import (
    CLASSIFICATIONS,
    DEFAULT_CLEARANCE,
    INTERNAL,
    PUBLIC,
    RESTRICTED,
    SHOWABLE,
    STATUSES,
    Answer,
    Carried,
    Choice,
    Event,
    Fact,
    Figure,
    Holding,
    Passage,
    Source,
    Status,
    Term,
    Vocabulary,
    decimal_text,
    least_restrictive,
    showable,
)

if TYPE_CHECKING:
    from engine.evaluate import OUTCOMES, Scored, run_cases, table
    from engine.providers.openai_compat import OpenAICompatibleProvider

# Loaded on first use: the name, and the module that holds it.
_ON_FIRST_USE = {
    "OpenAICompatibleProvider": "engine.providers.openai_compat",
    "OUTCOMES": "engine.evaluate",
    "Scored": "engine.evaluate",
    "run_cases": "engine.evaluate",
    "table": "engine.evaluate",
}


def __getattr__(name: str) -> Any:
    module = _ON_FIRST_USE.get(name)
    if module is None:
        raise AttributeError(f"module 'engine' has no attribute {name!r}")
    return getattr(importlib.import_module(module), name)


__all__ = [
    "CHUNK_WORDS",
    "CLASSIFICATIONS",
    "DEFAULT_CLEARANCE",
    "INTERNAL",
    "OUTCOMES",
    "PUBLIC",
    "RESTRICTED",
    "SCOPE",
    "SHOWABLE",
    "STATUSES",
    "Ambiguity",
    "Answer",
    "Asked",
    "Carried",
    "Choice",
    "Completion",
    "ConversationSession",
    "Engine",
    "EngineError",
    "EntityLinker",
    "Event",
    "Fact",
    "Figure",
    "GateResult",
    "HistoryTurn",
    "Holding",
    "InMemoryStore",
    "Intent",
    "IntentParser",
    "KnowledgeStore",
    "Limits",
    "Linker",
    "Mention",
    "Message",
    "MockProvider",
    "OpenAICompatibleProvider",
    "OverlapReranker",
    "Passage",
    "Pipeline",
    "Provider",
    "ProviderBadResponse",
    "ProviderError",
    "ProviderRateLimited",
    "ProviderTimeout",
    "ProviderUnavailable",
    "Remembered",
    "Reranker",
    "Retriever",
    "Scored",
    "SecurityGate",
    "Source",
    "Status",
    "StoreError",
    "StoreRetriever",
    "Term",
    "ToolCall",
    "ToolError",
    "Topic",
    "Vocabulary",
    "answer_question",
    "answer_question_stream",
    "cited_pieces",
    "decimal_text",
    "default_pipeline",
    "figure_spans",
    "figures_in",
    "final_answer",
    "format_value",
    "intent_topic",
    "least_restrictive",
    "lookup_intent",
    "normalise_period",
    "parser_for",
    "period_sort_key",
    "question_for",
    "run_cases",
    "showable",
    "split_into_chunks",
    "table",
]
