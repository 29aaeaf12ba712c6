"""askapp.middleware.MessageMiddleware: a request's message storage is made only when a
message is added or read, and messages still travel from one page to the next."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.messages.storage import default_storage
from django.test import Client

from askapp import middleware
from tests.factories import PASSWORD, ConversationFactory, UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def storages_made(monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    made: list[Any] = []

    def counted(request: Any) -> Any:
        storage = default_storage(request)
        made.append(storage)
        return storage

    monkeypatch.setattr(middleware, "default_storage", counted)
    return made


def test_a_request_that_touches_no_message_makes_no_storage(
    client: Client, storages_made: list[Any]
) -> None:
    response = client.get("/healthz")
    assert response.status_code == 200
    assert client.get("/v1/").status_code == 200
    assert storages_made == []
    assert "messages" not in response.cookies


def test_a_message_added_before_a_redirect_is_shown_on_the_next_page(
    client: Client, storages_made: list[Any]
) -> None:
    user = UserFactory(username="marta")
    client.login(username="marta", password=PASSWORD)
    conversation = ConversationFactory(owner=user, title="Harbour freight, first look")
    response = client.post(f"/c/{conversation.pk}/rename", {"title": "Harbour freight"})
    assert response.status_code == 302
    assert storages_made, "the rename added a message: its storage was made"
    page = client.get(response["Location"]).content.decode()
    assert "Conversation renamed." in page
    assert "Conversation renamed." not in client.get(response["Location"]).content.decode()
