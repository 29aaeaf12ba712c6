"""The composition root: the one place askapp builds the engine, from settings.

`the_engine()` is the one Engine of the process (store, provider, gate, parser, pipeline,
limits), shared by every request and stream thread: the OpenAI client pools connections and
is thread-safe (docs/adr/0008), the DatabaseStore caches the vocabulary behind a lock, and the
Engine holds no per-question state. The API, the chat page, the admin's replay and the
evaluate_cases command all answer with it; nothing else constructs an Engine or a provider. A
settings change (tests use override_settings) drops it, so the next call builds it anew.
"""

from __future__ import annotations

import functools
from typing import Any

from django.conf import settings
from django.core.signals import setting_changed
from django.dispatch import receiver

from askapp.database import ConnectionReleasingProvider
from askapp.store import DatabaseStore
from engine import (
    Engine,
    Limits,
    MockProvider,
    OpenAICompatibleProvider,
    Provider,
    SecurityGate,
    default_pipeline,
)


@functools.cache
def the_engine() -> Engine:
    store = DatabaseStore()
    return Engine(
        store=store,
        provider=build_provider(),
        gate=SecurityGate(),
        parser=None,  # one per vocabulary version: the names change as data is imported
        pipeline=default_pipeline(store),
        limits=Limits(),
    )


def build_provider() -> Provider:
    if settings.ASKAPP_PROVIDER == "openai":  # a remote model: no connection held while it thinks
        return ConnectionReleasingProvider(
            OpenAICompatibleProvider(
                base_url=settings.ASKAPP_OPENAI_BASE_URL,
                api_key=settings.ASKAPP_OPENAI_API_KEY,
                model=settings.ASKAPP_OPENAI_MODEL,
                timeout=settings.ASKAPP_OPENAI_TIMEOUT,
                max_retries=settings.ASKAPP_OPENAI_MAX_RETRIES,
                azure_endpoint=settings.ASKAPP_OPENAI_AZURE_ENDPOINT,
                api_version=settings.ASKAPP_OPENAI_API_VERSION,
            )
        )
    return MockProvider()


def waits_on_a_model(engine: Engine) -> bool:
    """Whether the engine's answers wait on a remote model (seconds a request holds, in which
    its process may die), rather than come from an in-process provider at once."""
    return isinstance(engine.provider, ConnectionReleasingProvider)


@receiver(setting_changed)
def _forget_on_setting_change(*, setting: str, **_: Any) -> None:
    if setting.startswith("ASKAPP_"):
        the_engine.cache_clear()
