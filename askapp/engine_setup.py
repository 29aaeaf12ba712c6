"""The composition root: the one place askapp builds the engine's parts from settings.

The provider and the store are built once per process and shared by every request and
stream thread: the OpenAI client pools connections and is thread-safe (docs/adr/0008), and
the DatabaseStore caches the vocabulary behind a lock. Views and services ask `engine()` for
them; nothing else constructs a provider. A settings change (tests use override_settings)
drops the cached parts so the next call builds them anew.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.core.signals import setting_changed
from django.dispatch import receiver

from askapp.auth import CLEARANCE_ATTRIBUTE, user_may_view_internal
from askapp.database import ConnectionReleasingProvider
from askapp.models import INTERNAL_CLEARANCE_PERMISSION
from askapp.store import DatabaseStore
from engine.providers.base import Provider
from engine.providers.mock import MockProvider
from engine.providers.openai_compat import OpenAICompatibleProvider
from engine.store import KnowledgeStore
from engine.types import INTERNAL, PUBLIC

PUBLIC_ONLY: frozenset[str] = frozenset({PUBLIC})
WITH_INTERNAL: frozenset[str] = frozenset({PUBLIC, INTERNAL})
_MODEL_BACKEND = "django.contrib.auth.backends.ModelBackend"
_CLEARANCE_BACKEND = "askapp.auth.ClearanceBackend"


@dataclass(frozen=True, slots=True)
class Engine:
    """What the ask flow needs besides the question: where to read, whom to ask, how much
    of the conversation to give as context."""

    provider: Provider
    store: KnowledgeStore
    history_turns: int


@functools.cache
def engine() -> Engine:
    return Engine(
        provider=build_provider(),
        store=DatabaseStore(),
        history_turns=settings.ASKAPP_HISTORY_TURNS,
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


def clearance_for(user: Any) -> frozenset[str]:
    """Classifications a user's answers may draw on. RESTRICTED is in no one's clearance:
    it never reaches an answer, whoever asks."""
    if user is None or not user.is_authenticated or not user.is_active:
        return PUBLIC_ONLY
    if user.is_superuser:
        return WITH_INTERNAL
    read_with_the_user = getattr(user, CLEARANCE_ATTRIBUTE, None)  # askapp/auth.py
    if read_with_the_user is not None:
        return WITH_INTERNAL if read_with_the_user else PUBLIC_ONLY
    return WITH_INTERNAL if _has_internal_permission(user) else PUBLIC_ONLY


def _has_internal_permission(user: Any) -> bool:
    """`user.has_perm("askapp.view_internal")` in one small query instead of two.

    With Django's ModelBackend alone (askapp's configuration) a permission comes from the
    user or one of their groups, which one query answers; ModelBackend would read every
    permission of both, in two queries, on each ask. Any other backend is asked the usual way.
    """
    if list(settings.AUTHENTICATION_BACKENDS) not in ([_MODEL_BACKEND], [_CLEARANCE_BACKEND]):
        return bool(user.has_perm(INTERNAL_CLEARANCE_PERMISSION))
    return user_may_view_internal(user.pk)


@receiver(setting_changed)
def _forget_on_setting_change(*, setting: str, **_: Any) -> None:
    if setting.startswith("ASKAPP_"):
        engine.cache_clear()
