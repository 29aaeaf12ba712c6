"""Who owns what a request reads or writes: a user, or (anonymous chat) a browser session.

existing_owner(request)   the user, or the anonymous session if it exists; None otherwise
                          (reads: a visitor without a session owns nothing yet)
request_owner(request)    always an owner: an anonymous visitor's session is created and
                          saved first (writes: the conversation must belong to someone)
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Q
from django.http import HttpRequest


@dataclass(frozen=True, slots=True)
class Owner:
    """Who a conversation belongs to: a user, or (anonymous chat) a browser session."""

    user_id: int | None = None
    session_key: str = ""

    def __post_init__(self) -> None:
        if self.user_id is None and not self.session_key:
            raise ValueError("an owner is a user or a session")

    def conversations(self) -> Q:
        if self.user_id is not None:
            return Q(owner_id=self.user_id)
        return Q(owner__isnull=True, session_key=self.session_key)

    def turns(self) -> Q:
        if self.user_id is not None:
            return Q(conversation__owner_id=self.user_id)
        return Q(conversation__owner__isnull=True, conversation__session_key=self.session_key)


def existing_owner(request: HttpRequest) -> Owner | None:
    """The user, or the anonymous session the request already has; None when it has none."""
    if request.user.is_authenticated:
        return Owner(user_id=request.user.pk)
    key = request.session.session_key
    return Owner(session_key=key) if key else None


def request_owner(request: HttpRequest) -> Owner:
    """The user, or the anonymous session, saved first when the visitor has none yet."""
    owner = existing_owner(request)
    if owner is not None:
        return owner
    request.session.save()
    return Owner(session_key=request.session.session_key or "")
