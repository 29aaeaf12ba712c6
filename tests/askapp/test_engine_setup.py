"""The composition root: clearance from the view_internal permission, and the per-question
store that reads each fact series once."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import AnonymousUser, Group, Permission

from askapp.permissions import PUBLIC_ONLY, WITH_INTERNAL, clearance_for
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def _permission() -> Permission:
    return Permission.objects.get(content_type__app_label="askapp", codename="view_internal")


def test_ordinary_and_anonymous_users_get_public_only() -> None:
    assert clearance_for(UserFactory()) == PUBLIC_ONLY
    assert clearance_for(AnonymousUser()) == PUBLIC_ONLY
    assert clearance_for(None) == PUBLIC_ONLY


def test_the_permission_given_to_the_user_adds_internal() -> None:
    user = UserFactory()
    user.user_permissions.add(_permission())

    assert clearance_for(user) == WITH_INTERNAL


def test_the_permission_given_to_a_group_adds_internal() -> None:
    user = UserFactory()
    group = Group.objects.create(name="analysts")
    group.permissions.add(_permission())
    user.groups.add(group)

    assert clearance_for(user) == WITH_INTERNAL


def test_superusers_are_cleared_and_inactive_users_are_not() -> None:
    assert clearance_for(UserFactory(is_superuser=True)) == WITH_INTERNAL
    inactive = UserFactory(is_active=False)
    inactive.user_permissions.add(_permission())
    assert clearance_for(inactive) == PUBLIC_ONLY


def test_restricted_is_in_no_clearance() -> None:
    assert "RESTRICTED" not in PUBLIC_ONLY | WITH_INTERNAL


def test_clearance_agrees_with_has_perm_under_other_backends(settings: Any) -> None:
    settings.AUTHENTICATION_BACKENDS = [
        "django.contrib.auth.backends.ModelBackend",
        "django.contrib.auth.backends.AllowAllUsersModelBackend",
    ]
    user = UserFactory()
    assert clearance_for(user) == PUBLIC_ONLY
    user.user_permissions.add(_permission())
    user = type(user).objects.get(pk=user.pk)  # has_perm caches per instance

    assert clearance_for(user) == WITH_INTERNAL


def test_azure_deployment_settings_reach_the_provider(settings) -> None:  # type: ignore[no-untyped-def]
    from askapp.engine_setup import build_provider

    settings.ASKAPP_PROVIDER = "openai"
    settings.ASKAPP_OPENAI_BASE_URL = None
    settings.ASKAPP_OPENAI_API_KEY = "azure-key-for-a-test-only"
    settings.ASKAPP_OPENAI_MODEL = "my-deployment"
    settings.ASKAPP_OPENAI_AZURE_ENDPOINT = "https://example-resource.openai.azure.com"
    settings.ASKAPP_OPENAI_API_VERSION = "2024-10-21"

    provider = build_provider()

    client = provider._client  # type: ignore[attr-defined]
    assert type(client).__name__ == "AzureOpenAI"
    assert str(client.base_url) == "https://example-resource.openai.azure.com/openai/"
    assert provider.model == "my-deployment"
