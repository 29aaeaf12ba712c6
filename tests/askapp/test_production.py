"""Production mode and the headers every response carries: HSTS, Secure cookies, the SSL
redirect and the proxy's SSL header with ASKAPP_SECURE=true; a Content-Security-Policy on
every page (the admin and login included); API responses private and never cached; an
Authorization header that is not a valid token refused; a write to an unknown API path a
JSON 404."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from django.test import Client
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from tests.factories import StaffFactory, UserFactory

pytestmark = pytest.mark.django_db
ROOT = Path(__file__).resolve().parents[2]


def _settings_with(**env: str) -> dict[str, Any]:
    script = (
        "import json, django; django.setup(); from django.conf import settings as s; "
        "print(json.dumps({k: getattr(s, k) for k in ('SECURE_HSTS_SECONDS', "
        "'SESSION_COOKIE_SECURE', 'CSRF_COOKIE_SECURE', 'SECURE_SSL_REDIRECT', "
        "'SECURE_PROXY_SSL_HEADER', 'SECURE_REDIRECT_EXEMPT')}))"
    )
    environment = {
        **{k: v for k, v in os.environ.items() if not k.startswith("ASKAPP_")},
        "DJANGO_SETTINGS_MODULE": "project.settings",
        "SECRET_KEY": "x" * 50,
        **env,
    }
    done = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, env=environment, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    return dict(json.loads(done.stdout))


def test_secure_mode_turns_on_hsts_secure_cookies_the_redirect_and_the_proxy_header() -> None:
    secure = _settings_with(ASKAPP_SECURE="true")
    assert secure["SECURE_HSTS_SECONDS"] >= 31536000
    assert secure["SESSION_COOKIE_SECURE"] and secure["CSRF_COOKIE_SECURE"]
    assert secure["SECURE_SSL_REDIRECT"]
    assert secure["SECURE_PROXY_SSL_HEADER"] == ["HTTP_X_FORWARDED_PROTO", "https"]
    plain = _settings_with()
    assert not plain["SECURE_SSL_REDIRECT"] and not plain["SESSION_COOKIE_SECURE"]


def test_in_secure_mode_http_is_redirected_except_the_health_check(settings: Any) -> None:
    settings.SECURE_SSL_REDIRECT = True
    settings.SECURE_REDIRECT_EXEMPT = [r"^healthz$"]
    settings.SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    settings.SECURE_HSTS_SECONDS = 31536000
    client = Client()
    assert client.get("/").status_code == 301
    assert client.get("/healthz").status_code == 200
    behind_proxy = client.get("/healthz", HTTP_X_FORWARDED_PROTO="https")
    assert behind_proxy["Strict-Transport-Security"].startswith("max-age=31536000")


@pytest.mark.parametrize(
    "path", ["/", "/conversations/", "/accounts/login/", "/admin/login/", "/admin/", "/v1/docs"]
)
def test_every_page_has_a_content_security_policy(settings: Any, path: str) -> None:
    settings.ASKAPP_ANONYMOUS_CHAT = True
    client = Client()
    if "login" not in path:
        client.force_login(StaffFactory(is_superuser=True))
    response = client.get(path)
    assert response.status_code == 200, path
    policy = response["Content-Security-Policy"]
    assert "script-src 'self'" in policy
    assert "frame-ancestors 'none'" in policy
    assert "unsafe-eval" not in policy


def test_a_login_page_refused_for_too_many_attempts_still_has_a_policy() -> None:
    assert "Content-Security-Policy" in Client().get("/accounts/login/")


@pytest.mark.parametrize(
    ("method", "path", "body"),
    [
        ("get", "/v1/conversations", None),
        ("post", "/v1/ask", {"question": "What was Apple's revenue in FY2023?"}),
        ("get", "/v1/conversations/00000000-0000-0000-0000-000000000000", None),
        ("get", "/v1/nothing-here", None),
    ],
)
def test_api_responses_are_private_and_vary_on_cookie_and_authorization(
    settings: Any, method: str, path: str, body: Any
) -> None:
    settings.ASKAPP_ANONYMOUS_CHAT = True
    response = getattr(APIClient(), method)(path, body, format="json")
    assert response["Cache-Control"] == "private, no-store"
    vary = {v.strip().lower() for v in response["Vary"].split(",")}
    assert {"cookie", "authorization"} <= vary


def test_a_bearer_header_that_is_no_valid_token_is_a_401(settings: Any) -> None:
    settings.ASKAPP_ANONYMOUS_CHAT = True
    client = APIClient()
    for header in ("Bearer not-a-token", "Basic YTpi", "Token nope", "Bearer"):
        client.credentials(HTTP_AUTHORIZATION=header)
        response = client.get("/v1/conversations")
        assert response.status_code == 401, header
        assert response.json()["error"]["code"] in ("authentication_failed", "not_authenticated")


def test_a_valid_token_is_accepted_as_bearer_too() -> None:
    user = UserFactory()
    token = Token.objects.create(user=user)
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {token.key}")
    assert client.get("/v1/conversations").status_code == 200


def test_a_write_to_an_unknown_api_path_is_a_json_404(settings: Any) -> None:
    settings.ASKAPP_ANONYMOUS_CHAT = True
    client = APIClient(enforce_csrf_checks=True)
    client.force_login(UserFactory())
    for method in ("post", "put", "patch", "delete"):
        response = getattr(client, method)("/v1/no-such-thing", {"a": 1}, format="json")
        assert response.status_code == 404, method
        assert response.json()["error"]["code"] == "not_found"
