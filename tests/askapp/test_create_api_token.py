"""manage.py create_api_token prints a token that authenticates API requests."""

from __future__ import annotations

import pytest
from django.core.management import CommandError
from rest_framework.authtoken.models import Token

from tests.askapp.commands import failure, run
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def test_it_prints_a_new_token_and_then_the_same_one() -> None:
    user = UserFactory(username="scripts")

    first = run("create_api_token", "scripts")
    second = run("create_api_token", "scripts")

    key = first.stdout.strip()
    assert Token.objects.get(user=user).key == key
    assert second.stdout.strip() == key
    assert "new API token" in first.stderr
    assert "existing API token" in second.stderr


def test_rotate_replaces_the_token() -> None:
    UserFactory(username="scripts")
    old = run("create_api_token", "scripts").stdout.strip()

    new = run("create_api_token", "scripts", "--rotate").stdout.strip()

    assert new != old
    assert not Token.objects.filter(key=old).exists()


def test_the_token_authenticates_an_api_request(client) -> None:  # type: ignore[no-untyped-def]
    UserFactory(username="scripts")
    key = run("create_api_token", "scripts").stdout.strip()

    response = client.get("/v1/conversations", HTTP_AUTHORIZATION=f"Token {key}")

    assert response.status_code == 200


@pytest.mark.parametrize("username", ["nobody"])
def test_an_unknown_user_is_an_error(username: str) -> None:
    assert failure("create_api_token", username) == "No user is called 'nobody'."


def test_an_inactive_user_gets_no_token() -> None:
    UserFactory(username="gone", is_active=False)

    with pytest.raises(CommandError, match="inactive"):
        run("create_api_token", "gone")
