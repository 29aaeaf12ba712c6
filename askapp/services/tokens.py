"""API tokens (DRF's TokenAuthentication): one per user."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from rest_framework.authtoken.models import Token


@transaction.atomic
def api_token_issue(*, user: Any, rotate: bool = False) -> tuple[Token, bool]:
    """The user's token, created if missing; `rotate` replaces an existing one.
    Returns the token and whether it is new."""
    if rotate:
        Token.objects.filter(user=user).delete()
    return Token.objects.get_or_create(user=user)
