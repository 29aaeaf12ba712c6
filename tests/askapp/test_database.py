"""Database connections as a bounded resource: an exhausted pool is a 503 with Retry-After
in the error shape (never a 500), and no connection is held while a model answers."""

from __future__ import annotations

import os
from collections.abc import Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import httpx
import pytest
from django.db import OperationalError, connection
from django.test import Client

from askapp.database import ConnectionReleasingProvider, pool_exhausted
from askapp.services import asking
from tests.live import LiveServer, api_token, postgres_demo_database

QUESTION = "What was Apple's revenue in FY2023?"


def _pool_timeout() -> OperationalError:
    """What Django raises when psycopg's pool gave no connection in time."""
    from psycopg_pool import PoolTimeout

    try:
        try:
            raise PoolTimeout("couldn't get a connection after 3.00 sec")
        except PoolTimeout as exc:
            raise OperationalError(str(exc)) from exc
    except OperationalError as wrapped:
        return wrapped


@pytest.fixture
def empty_pool(monkeypatch: pytest.MonkeyPatch) -> None:
    def no_connection(**_: Any) -> Any:
        raise _pool_timeout()

    monkeypatch.setattr(asking, "conversation_with_recent_turns", no_connection)


@pytest.mark.django_db
@pytest.mark.usefixtures("empty_pool")
def test_an_api_request_that_finds_the_pool_empty_gets_503_with_retry_after(
    settings: Any,
) -> None:
    settings.ASKAPP_ANONYMOUS_CHAT = True
    body = {"question": QUESTION, "conversation": "8d7c36c4-0f3c-4c4d-9a55-0d6f1f1a3a10"}
    response = Client().post("/v1/ask", body, content_type="application/json")

    assert response.status_code == 503
    assert response["Retry-After"] == "1"
    assert response.json() == {
        "error": {
            "code": "database_busy",
            "message": "The database is busy; try again in a moment.",
        }
    }


@pytest.mark.django_db
def test_a_page_that_finds_the_pool_empty_gets_503_not_the_500_page(
    settings: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    settings.ASKAPP_ANONYMOUS_CHAT = True

    def no_connection(*_: Any, **__: Any) -> Any:
        raise _pool_timeout()

    monkeypatch.setattr("askapp.views.knowledge_base_counts", no_connection)
    response = Client(raise_request_exception=False).get("/")

    assert response.status_code == 503
    assert response["Retry-After"] == "1"
    assert response.json()["error"]["code"] == "database_busy"


def test_only_the_pools_timeout_counts_as_busy() -> None:
    assert pool_exhausted(_pool_timeout())
    assert not pool_exhausted(OperationalError("server closed the connection unexpectedly"))
    assert not pool_exhausted(None)


# --- PostgreSQL ----------------------------------------------------------------------------


def _postgres() -> None:
    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL: set DATABASE_URL=postgres://...")


class _Watching:
    """A provider that notes whether its thread held a database connection when called."""

    name, model = "watching", "watching-1"

    def __init__(self) -> None:
        self.held: list[bool] = []

    def complete(self, messages: Sequence[Any], **_: Any) -> Any:
        self.held.append(connection.connection is not None)

    def stream(self, messages: Sequence[Any]) -> Iterator[str]:
        self.held.append(connection.connection is not None)
        yield "text"


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_no_connection_is_held_while_the_model_answers() -> None:
    _postgres()
    watching = _Watching()
    provider = ConnectionReleasingProvider(watching)
    for call in (lambda: provider.complete([]), lambda: list(provider.stream([]))):
        connection.ensure_connection()
        call()
    assert watching.held == [False, False]
    assert provider.name == "watching"


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_a_real_server_with_a_one_connection_pool_answers_only_200_or_503(
    tmp_path: Any,
) -> None:
    _postgres()
    base = os.environ["DATABASE_URL"]
    url = postgres_demo_database(base, f"{connection.settings_dict['NAME']}_pool")
    token = api_token(tmp_path / "unused.sqlite3", env={"DATABASE_URL": url})
    env = {
        "DATABASE_URL": url,
        "ASKAPP_DB_POOL_SIZE": "1",
        "ASKAPP_DB_POOL_TIMEOUT": "0.01",
        "ASKAPP_WEB_THREADS": "16",
    }
    headers = {"Authorization": f"Token {token}"}
    with LiveServer(database=tmp_path / "unused.sqlite3", env=env) as server:

        def ask(_: int) -> httpx.Response:
            with httpx.Client(base_url=server.url, headers=headers, timeout=30) as client:
                return client.post("/v1/ask", json={"question": QUESTION})

        with ThreadPoolExecutor(16) as pool:
            responses = list(pool.map(ask, range(160)))

    statuses = {response.status_code for response in responses}
    busy = [response for response in responses if response.status_code == 503]
    assert statuses <= {200, 503}, [r.text[:300] for r in responses if r.status_code != 200]
    assert busy, "a one-connection pool with a 10 ms wait should have turned someone away"
    assert {r.headers["Retry-After"] for r in busy} == {"1"}
    assert {r.json()["error"]["code"] for r in busy} == {"database_busy"}
