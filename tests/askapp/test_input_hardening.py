"""Inputs that used to crash the server before a view ran now get a clear 4xx: a form posted
in a charset other than UTF-8, a JSON body too big or too deep for the API. Every error page
carries the request id its log line carries."""

from __future__ import annotations

import logging
import re
import uuid
from typing import Any

import pytest
from django.test import Client
from rest_framework.test import APIClient

pytestmark = pytest.mark.django_db

FORM = "application/x-www-form-urlencoded; charset={}"
FORM_PAGES = ("/accounts/login/", "/admin/login/", "/ask", f"/c/{uuid.uuid4()}/rename")


@pytest.fixture(autouse=True)
def _anonymous_chat(settings: Any) -> None:
    settings.ASKAPP_ANONYMOUS_CHAT = True


@pytest.mark.parametrize(
    "charset", ["utf-16", "zlib", "rot13", "idna", "hex", "no-such-codec", "latin-1"]
)
@pytest.mark.parametrize("path", FORM_PAGES)
def test_a_form_in_another_charset_is_a_400_not_a_500(path: str, charset: str) -> None:
    client = Client(raise_request_exception=False)
    response = client.generic("POST", path, b"username=a&password=b", FORM.format(charset))
    assert response.status_code == 400, response.content[:300]
    assert "UTF-8" in response.content.decode()


@pytest.mark.parametrize("charset", ["utf-8", "UTF-8"])
def test_a_form_in_utf8_is_read(charset: str) -> None:
    response = Client().generic(
        "POST", "/accounts/login/", b"username=a&password=b", FORM.format(charset)
    )
    assert response.status_code in (200, 403)  # the form, or its CSRF check: read either way


def test_an_api_body_in_another_charset_is_a_400_in_the_error_shape() -> None:
    client = APIClient(raise_request_exception=False)
    response = client.generic(
        "POST", "/v1/ask", '{"question": "hi"}'.encode("utf-16"), "application/json; charset=utf-16"
    )
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "unsupported_charset"


@pytest.mark.parametrize("path", ["/v1/ask", "/v1/ask/stream"])
def test_an_api_body_over_the_limit_is_a_413_before_it_is_parsed(path: str, settings: Any) -> None:
    client = APIClient(raise_request_exception=False)
    body = b'{"question": "' + b"a" * (settings.DATA_UPLOAD_MAX_MEMORY_SIZE + 1) + b'"}'
    response = client.post(path, body, content_type="application/json")
    assert response.status_code == 413
    assert response.json()["error"]["code"] == "request_too_large"


@pytest.mark.parametrize("path", ["/v1/ask", "/v1/ask/stream"])
def test_deeply_nested_json_is_a_400_before_it_is_parsed(path: str) -> None:
    client = APIClient(raise_request_exception=False)
    depth = 100_000
    body = b'{"question": "x", "history": ' + b"[" * depth + b"]" * depth + b"}"
    response = client.post(path, body, content_type="application/json")
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "too_deep"


def test_nesting_inside_a_string_is_only_text() -> None:
    client = APIClient()
    question = "[" * 200 + "{" * 200
    response = client.post("/v1/ask", {"question": question}, format="json")
    assert response.status_code == 200


def test_every_response_carries_a_request_id() -> None:
    first = Client().get("/healthz")
    second = Client().get("/healthz")
    assert re.fullmatch(r"[0-9a-f]{16}", first["X-Request-ID"])
    assert first["X-Request-ID"] != second["X-Request-ID"]


def test_a_failing_page_is_logged_with_the_request_id_its_error_page_shows(
    settings: Any, caplog: pytest.LogCaptureFixture
) -> None:
    settings.ROOT_URLCONF = "tests.askapp.failing_urls"
    client = Client(raise_request_exception=False)
    with caplog.at_level(logging.ERROR, logger="django.request"):
        response = client.get("/broken/")
    assert response.status_code == 500
    request_id = response["X-Request-ID"]
    assert f"Reference: {request_id}" in response.content.decode()
    logged = [r for r in caplog.records if r.name == "django.request"]
    assert logged and all(r.request_id == request_id for r in logged)
    assert logged[0].exc_info is not None


def test_the_log_format_names_the_request_id(settings: Any) -> None:
    handler = settings.LOGGING["handlers"]["console"]
    assert "request_id" in settings.LOGGING["formatters"][handler["formatter"]]["format"]
