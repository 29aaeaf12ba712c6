"""Who owns what a request reads or writes: a user, or (anonymous chat) a visitor.

existing_owner(request)   the user, or the visitor the session names; None otherwise
                          (reads: a visitor without an id owns nothing yet)
request_owner(request)    always an owner: a visitor without an id is given one, kept in
                          their session (writes: the conversation must belong to someone)

A visitor's id is random and opaque, stored in the session's data: it is never the session
key, so what staff may see of a conversation (the admin shows neither) cannot be replayed as
the visitor's cookie, and it outlives a change of session key (docs/adr/0031).
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass

from django.db.models import Q
from django.http import HttpRequest

VISITOR_SESSION_KEY = "askapp_visitor"


@dataclass(frozen=True, slots=True)
class Owner:
    """Who a conversation belongs to: a user, or (anonymous chat) a visitor's opaque id."""

    user_id: int | None = None
    visitor: str = ""

    def __post_init__(self) -> None:
        if self.user_id is None and not self.visitor:
            raise ValueError("an owner is a user or a visitor")

    def conversations(self) -> Q:
        if self.user_id is not None:
            return Q(owner_id=self.user_id)
        return Q(owner__isnull=True, visitor=self.visitor)

    def turns(self) -> Q:
        if self.user_id is not None:
            return Q(conversation__owner_id=self.user_id)
        return Q(conversation__owner__isnull=True, conversation__visitor=self.visitor)


def session_visitor(request: HttpRequest) -> str:
    """The visitor id the request's session holds, or ''."""
    return str(request.session.get(VISITOR_SESSION_KEY) or "")


def existing_owner(request: HttpRequest) -> Owner | None:
    """The user, or the visitor the session already names; None when it names none."""
    if request.user.is_authenticated:
        return Owner(user_id=request.user.pk)
    visitor = session_visitor(request)
    return Owner(visitor=visitor) if visitor else None


def request_owner(request: HttpRequest) -> Owner:
    """The user, or the visitor, given an id (kept in the session, saved now) when new."""
    owner = existing_owner(request)
    if owner is not None:
        return owner
    visitor = secrets.token_hex(16)
    request.session[VISITOR_SESSION_KEY] = visitor
    request.session.save()
    return Owner(visitor=visitor)
