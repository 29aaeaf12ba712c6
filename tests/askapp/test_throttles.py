"""Request rates count per client as the server sees it, not as the client says it is, and
logins are limited per account and per address."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.cache import cache
from django.test import Client

from tests.factories import PASSWORD, StaffFactory, UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _fresh_counts(settings: Any) -> Any:
    settings.ASKAPP_ANONYMOUS_CHAT = True
    cache.clear()
    yield
    cache.clear()


def _list(client: Client, forwarded: str = "", remote: str = "203.0.113.7") -> int:
    headers = {"HTTP_X_FORWARDED_FOR": forwarded} if forwarded else {}
    return client.get("/v1/conversations", REMOTE_ADDR=remote, **headers).status_code


def test_a_fresh_forwarded_for_header_is_not_a_fresh_client(settings: Any) -> None:
    settings.ASKAPP_THROTTLE_ANON = "3/min"
    client = Client()
    codes = [_list(client, forwarded=f"198.51.100.{n}") for n in range(5)]
    assert codes == [200, 200, 200, 429, 429]


def test_a_throttled_answer_says_when_to_try_again(settings: Any) -> None:
    settings.ASKAPP_THROTTLE_ANON = "1/min"
    client = Client()
    _list(client)
    response = client.get("/v1/conversations", REMOTE_ADDR="203.0.113.7")
    assert response.status_code == 429
    assert 1 <= int(response["Retry-After"]) <= 60
    assert response.json()["error"]["code"] == "throttled"


def test_behind_trusted_proxies_the_address_they_saw_is_the_client(settings: Any) -> None:
    settings.ASKAPP_THROTTLE_ANON = "2/min"
    settings.ASKAPP_TRUSTED_PROXIES = 1
    client = Client()
    # The proxy appends the address it saw; what the client wrote before it is ignored.
    assert _list(client, "1.1.1.1, 192.0.2.10", remote="10.0.0.2") == 200
    assert _list(client, "2.2.2.2, 192.0.2.10", remote="10.0.0.2") == 200
    assert _list(client, "3.3.3.3, 192.0.2.10", remote="10.0.0.2") == 429
    assert _list(client, "192.0.2.11", remote="10.0.0.2") == 200  # another client


def _login(client: Client, path: str, username: str, password: str) -> Any:
    return client.post(
        path, {"username": username, "password": password}, REMOTE_ADDR="203.0.113.9"
    )


@pytest.mark.parametrize("path", ["/accounts/login/", "/admin/login/"])
def test_an_account_is_locked_for_the_window_after_too_many_failed_logins(
    settings: Any, path: str
) -> None:
    settings.ASKAPP_THROTTLE_LOGIN = "3/min"
    user = StaffFactory(username="ana")
    client = Client()
    for _ in range(3):
        assert "correct" in _login(client, path, "ana", "wrong").content.decode()
    locked = _login(client, path, "ana", PASSWORD)
    assert "Too many failed logins" in locked.content.decode()
    assert "_auth_user_id" not in client.session
    assert locked.status_code == 429
    assert user.pk


def test_an_address_is_limited_across_accounts(settings: Any) -> None:
    settings.ASKAPP_THROTTLE_LOGIN = "3/min"
    UserFactory(username="bo")
    client = Client()
    for name in ("x1", "x2", "x3"):
        _login(client, "/accounts/login/", name, "wrong")
    assert _login(client, "/accounts/login/", "bo", PASSWORD).status_code == 429


def test_a_successful_login_is_not_counted(settings: Any) -> None:
    settings.ASKAPP_THROTTLE_LOGIN = "2/min"
    UserFactory(username="cy")
    for _ in range(4):
        client = Client()
        assert _login(client, "/accounts/login/", "cy", PASSWORD).status_code == 302
