"""Who may use the chat API: a logged-in user (session or token), or anyone when anonymous
chat is on, in which case the browser session owns the conversations."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from rest_framework.authentication import SessionAuthentication
from rest_framework.permissions import SAFE_METHODS, BasePermission
from rest_framework.request import Request


class MayChat(BasePermission):
    message = "Log in, or send an API token (Authorization: Token <key>), to use this API."

    def has_permission(self, request: Request, view: Any) -> bool:
        if request.user and request.user.is_authenticated:
            return True
        if not settings.ASKAPP_ANONYMOUS_CHAT:
            return False
        if request.method not in SAFE_METHODS and _has_session_cookie(request):
            # DRF checks CSRF only for logged-in session users; an anonymous session owns
            # conversations too, so another site must not write to them either.
            SessionAuthentication().enforce_csrf(request)
        return True


def _has_session_cookie(request: Request) -> bool:
    return settings.SESSION_COOKIE_NAME in request.COOKIES
