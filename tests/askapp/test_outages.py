"""A database that is read-only or out of reach is an outage: 503 with Retry-After, in the
error shape on the API and as a page with its reference elsewhere, never a generic 500."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from django.db import connection
from django.test import Client

from tests.askapp.reviewing import knowledge_base
from tests.live import LiveServer


@pytest.fixture
def read_only(transactional_db: None, settings: Any) -> Iterator[None]:
    """The test database, switched to refusing writes (and back)."""
    settings.ASKAPP_ANONYMOUS_CHAT = True
    knowledge_base()
    on, off = (
        ("PRAGMA query_only = ON", "PRAGMA query_only = OFF")
        if connection.vendor == "sqlite"
        else (
            "SET SESSION CHARACTERISTICS AS TRANSACTION READ ONLY",
            "SET SESSION CHARACTERISTICS AS TRANSACTION READ WRITE",
        )
    )
    with connection.cursor() as cursor:
        cursor.execute(on)
    yield
    with connection.cursor() as cursor:
        cursor.execute(off)


def test_asking_of_a_read_only_database_is_a_503_in_the_error_shape(read_only: None) -> None:
    client = Client(raise_request_exception=False)
    response = client.post(
        "/v1/ask", {"question": "What was Apple's revenue in FY2023?"},
        content_type="application/json",
    )  # fmt: skip
    assert response.status_code == 503, response.content
    assert response.json()["error"]["code"] == "database_read_only"
    assert int(response["Retry-After"]) > 0


def test_a_page_of_a_read_only_database_is_a_503_page_with_its_reference(
    read_only: None,
) -> None:
    client = Client(raise_request_exception=False)
    response = client.post("/ask", {"question": "What was Apple's revenue in FY2023?"})
    assert response.status_code == 503
    page = response.content.decode()
    assert "read-only" in page and f"Reference: {response['X-Request-ID']}" in page
    assert "Retry-After" in response


@pytest.fixture(scope="module")
def unreachable(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    folder = Path(tmp_path_factory.mktemp("unreachable"))
    # Nothing listens on port 9: the database refuses every connection.
    env = {"DATABASE_URL": "postgres://askapp@127.0.0.1:9/askapp"}
    with LiveServer(database=folder / "unused.sqlite3", env=env) as server:
        yield server


def test_an_unreachable_database_is_a_503_on_the_api_and_the_pages(
    unreachable: LiveServer,
) -> None:
    api = httpx.post(f"{unreachable.url}/v1/ask", json={"question": "Apple revenue FY2023?"})
    assert api.status_code == 503
    # On PostgreSQL the pool stands between askapp and the server: a database it cannot
    # connect to leaves it without a connection to give (busy); either way, a 503.
    assert api.json()["error"]["code"] in ("database_unavailable", "database_busy")
    assert int(api.headers["Retry-After"]) > 0
    page = httpx.get(f"{unreachable.url}/")
    assert page.status_code == 503
    assert "Retry-After" in page.headers
    assert httpx.get(f"{unreachable.url}/healthz").status_code == 200
