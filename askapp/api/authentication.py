"""How an API client proves who it is: a token, as `Authorization: Token <key>` or
`Authorization: Bearer <key>`. A request carrying an Authorization header that no
authenticator accepts (an unknown token, another scheme, a bare "Bearer") is refused with
401: it used to fall back to the session or to anonymous chat, so a client with a mistyped
key silently asked as nobody."""

from __future__ import annotations

from typing import Any

from rest_framework import authentication, exceptions
from rest_framework.request import Request

from askapp import auth

KEYWORDS = (b"token", b"bearer")


class TokenAuthentication(auth.TokenAuthentication):
    """askapp's token authentication (the user read with their clearance, askapp/auth.py),
    reading the Bearer scheme as well as Token."""

    def authenticate(self, request: Request) -> tuple[Any, Any] | None:
        parts = authentication.get_authorization_header(request).split()
        if not parts or parts[0].lower() not in KEYWORDS:
            return None
        if len(parts) != 2:
            raise exceptions.AuthenticationFailed("Send the token as: Authorization: Token <key>.")
        try:
            key = parts[1].decode()
        except UnicodeError:
            raise exceptions.AuthenticationFailed(
                "The token has characters no token has."
            ) from None
        return self.authenticate_credentials(key)


class UnknownAuthorization(authentication.BaseAuthentication):
    """Last before the session: an Authorization header still unanswered is a 401."""

    def authenticate(self, request: Request) -> None:
        if authentication.get_authorization_header(request).strip():
            raise exceptions.AuthenticationFailed(
                "The Authorization header holds no valid token (Authorization: Token <key>)."
            )
        return None

    def authenticate_header(self, request: Request) -> str:
        return 'Token realm="api"'
