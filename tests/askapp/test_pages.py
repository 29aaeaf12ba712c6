"""The small things a daily user or a client trips over: HEAD, the icon, a page that is not
there, a trailing slash, and the API's schema and docs read in a browser."""

from __future__ import annotations

import json
from typing import Any

import pytest
import yaml
from django.test import Client

pytestmark = pytest.mark.django_db


@pytest.fixture
def anonymous_chat(settings: Any) -> None:
    settings.ASKAPP_ANONYMOUS_CHAT = True


@pytest.mark.parametrize(
    "path",
    ["/", "/conversations/", "/coverage/", "/healthz", "/v1/", "/v1/schema", "/v1/docs",
     "/v1/redoc", "/favicon.ico", "/accounts/login/"],
)  # fmt: skip
def test_head_is_answered_wherever_get_is(client: Client, anonymous_chat: None, path: str) -> None:
    get = client.get(path)
    head = client.head(path)

    assert get.status_code == 200
    assert head.status_code == 200
    assert head["Content-Type"] == get["Content-Type"]


def test_the_icon_is_served_where_clients_look_for_it(client: Client) -> None:
    response = client.get("/favicon.ico")

    assert response["Content-Type"] == "image/svg+xml"
    assert b"<svg" in response.content


def test_a_missing_page_is_branded_with_ways_back(client: Client) -> None:
    response = client.get("/no/such/page/")
    page = response.content.decode()

    assert response.status_code == 404
    assert "There is nothing here" in page
    assert 'href="/"' in page and 'href="/conversations/"' in page
    assert 'class="site-header"' in page


def test_an_api_path_that_names_nothing_stays_json(client: Client) -> None:
    response = client.get("/v1/no-such-thing")

    assert response.status_code == 404
    assert response.json()["error"]["code"] == "not_found"


@pytest.mark.parametrize(
    ("path", "kind"),
    [("/v1/docs/", "text/html"), ("/v1/schema/", "text/plain"), ("/v1/redoc/", "text/html"),
     ("/healthz/", "application/json"), ("/v1/conversations/", "application/json")],
)  # fmt: skip
def test_a_trailing_slash_on_a_documented_url_is_tolerated(
    client: Client, anonymous_chat: None, path: str, kind: str
) -> None:
    response = client.get(path)

    assert response.status_code == 200
    assert response["Content-Type"].startswith(kind)


def test_a_post_to_an_api_url_with_a_trailing_slash_is_the_same_post(
    client: Client, anonymous_chat: None
) -> None:
    response = client.post(
        "/v1/conversations/", {"title": "Slash"}, content_type="application/json"
    )

    assert response.status_code == 201
    assert response.json()["title"] == "Slash"


def test_the_schema_shows_in_a_browser_and_format_json_is_json(client: Client) -> None:
    browser = client.get("/v1/schema", HTTP_ACCEPT="text/html,application/xhtml+xml,*/*;q=0.8")
    as_json = client.get("/v1/schema?format=json", HTTP_ACCEPT="text/html,*/*;q=0.8")
    openapi = client.get("/v1/schema", HTTP_ACCEPT="application/vnd.oai.openapi")

    assert browser["Content-Type"] == "text/plain; charset=utf-8"
    assert not browser.get("Content-Disposition", "").startswith("attachment")  # shown
    assert yaml.safe_load(browser.content)["openapi"].startswith("3.")
    assert as_json["Content-Type"] == "application/json"
    assert json.loads(as_json.content)["info"]["title"] == "askapp API"
    assert openapi["Content-Type"].startswith("application/vnd.oai.openapi")


@pytest.mark.parametrize("path", ["/v1/docs", "/v1/redoc"])
def test_the_api_docs_load_nothing_from_another_host(client: Client, path: str) -> None:
    page = client.get(path).content.decode()
    script = client.get("/v1/docs?script=").content.decode() if path == "/v1/docs" else ""

    for text in (page, script):
        assert "http://" not in text and "https://" not in text and "//cdn" not in text
    assert "/static/drf_spectacular_sidecar/" in page


def test_a_server_error_is_branded_with_a_way_back(rf: Any) -> None:
    """Django renders 500.html without a request context (the error may lie there): the
    page stands alone, with links that need nothing from it."""
    from django.views.defaults import server_error

    response = server_error(rf.get("/"))
    page = response.content.decode()

    assert response.status_code == 500
    assert "Something went wrong on our side" in page
    assert 'href="/"' in page and 'href="/conversations/"' in page
