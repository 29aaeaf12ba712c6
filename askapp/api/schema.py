"""The OpenAPI schema generator, adjusted to what the API does."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from drf_spectacular.openapi import AutoSchema


class ApiSchema(AutoSchema):
    def get_auth(self) -> list[dict[str, Any]]:
        """With anonymous chat on, no credentials are needed: the session owns the chats."""
        auth: list[dict[str, Any]] = super().get_auth()
        if settings.ASKAPP_ANONYMOUS_CHAT and auth and {} not in auth:
            auth.append({})
        return auth


def forbid_conversation_with_history(result: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
    """An ask takes `conversation` or `history`, never both: say so in the schema."""
    schemas = result.get("components", {}).get("schemas", {})
    for name in ("AskInputRequest", "AskInput"):
        if name in schemas:
            schemas[name]["not"] = {"required": ["conversation", "history"]}
    return result
