"""Fixtures for the API tests: a small knowledge base, clients, and a spy on the engine."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

import pytest
from django.core.cache import cache
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from askapp.models import Classification
from askapp.services.knowledge import document_upsert
from engine import Engine
from tests.factories import PASSWORD, EntityFactory, FactFactory, MetricFactory, UserFactory

APPLE_FY2023_REVENUE = Decimal("383285000000")
INTERNAL_CANARY = "CANARY-API-INTERNAL-4T7W"


@pytest.fixture(autouse=True)
def _api_settings(settings: Any, tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    settings.STATIC_ROOT = tmp_path_factory.mktemp("static")
    settings.ASKAPP_PROVIDER = "mock"
    settings.ASKAPP_ANONYMOUS_CHAT = True
    settings.ASKAPP_HISTORY_TURNS = 20
    settings.ASKAPP_THROTTLE_USER = "100000/min"
    settings.ASKAPP_THROTTLE_ANON = "100000/min"
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    cache.clear()  # throttle counts live in the cache
    yield
    cache.clear()


@pytest.fixture
def kb(db: None) -> None:
    """Apple's revenue for FY2022 and FY2023, its net income for FY2023, a PUBLIC note on the
    revenue dip and an INTERNAL one with a canary phrase."""
    apple = EntityFactory(name="Apple", aliases=["Apple", "Apple Inc.", "AAPL"])
    EntityFactory(name="Microsoft", aliases=["Microsoft", "MSFT"])
    revenue = MetricFactory(name="Revenue", aliases=["Revenue", "Net sales", "Sales"])
    income = MetricFactory(name="Net income", aliases=["Net income", "Net earnings"])
    FactFactory(
        entity=apple,
        metric=revenue,
        period="FY2023",
        value=APPLE_FY2023_REVENUE,
        source="10-K filed 2023-11-03",
    )
    FactFactory(
        entity=apple,
        metric=revenue,
        period="FY2022",
        value=Decimal("394328000000"),
        source="10-K filed 2022-10-28",
    )
    FactFactory(entity=apple, metric=income, period="FY2023", value=Decimal("96995000000"))
    document_upsert(
        key="apple-dip",
        title="Apple revenue dip in fiscal 2023",
        body="Apple's revenue dipped in fiscal 2023 because iPhone and Mac sales fell while "
        "services grew. The strong dollar also weighed on sales abroad.",
        classification=Classification.PUBLIC,
        entity=apple,
        period="FY2023",
        source="Analyst note",
    )
    document_upsert(
        key="apple-internal",
        title="Apple margin memo",
        body=f"Apple's services margin plan is internal. {INTERNAL_CANARY} marks this memo.",
        classification=Classification.INTERNAL,
        entity=apple,
        source="Internal memo",
    )


@pytest.fixture
def user(db: None) -> Any:
    return UserFactory(username="analyst")


@pytest.fixture
def api(user: Any) -> APIClient:
    """A client logged in with a browser session (CSRF checks on, as in a browser)."""
    client = APIClient(enforce_csrf_checks=False)
    client.login(username=user.username, password=PASSWORD)
    return client


@pytest.fixture
def token_api(user: Any) -> APIClient:
    client = APIClient()
    token, _ = Token.objects.get_or_create(user=user)
    client.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    return client


@dataclass
class EngineSpy:
    """Every call the ask service makes to the engine: the question and its keyword arguments."""

    calls: list[dict[str, Any]] = field(default_factory=list)

    @property
    def last(self) -> dict[str, Any]:
        return self.calls[-1]


@pytest.fixture
def engine_spy(monkeypatch: pytest.MonkeyPatch) -> EngineSpy:
    spy = EngineSpy()

    stream = Engine.stream

    def spying(engine: Engine, question: str, **kwargs: Any) -> Any:
        session = kwargs.get("session")
        spy.calls.append(
            {
                "question": question,
                **kwargs,
                "session_history": session.history() if session else None,
            }
        )
        return stream(engine, question, **kwargs)

    monkeypatch.setattr(Engine, "stream", spying)
    return spy


def sse_events(body: bytes) -> list[tuple[str, str]]:
    """(event, data) pairs of a server-sent-event body; comments come as ("", comment)."""
    events = []
    for block in body.decode().split("\n\n"):
        if not block:
            continue
        if block.startswith(":"):
            events.append(("", block[1:].strip()))
            continue
        lines = dict(line.split(": ", 1) for line in block.split("\n"))
        events.append((lines["event"], lines["data"]))
    return events


def streamed(response: Any) -> bytes:
    return b"".join(response.streaming_content)


Ask = Callable[..., Any]
