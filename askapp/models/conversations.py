"""Conversations: who asked what, what the engine answered, and on what it rested.

Every turn is frozen at answer time (text, figures, sources, resolved intent, carried slots,
provider and model), so a reviewer reads what the user saw even after the knowledge base
changes. A question turn and its answer turn are written in one transaction; the answer points
to its question.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Collection, Sequence
from typing import Any, Protocol

from django.conf import settings
from django.db import models
from django.db.models import Q

from askapp.ids import time_ordered_uuid
from askapp.models.knowledge import Entity
from engine import Answer, ConversationSession, Figure, Intent, Remembered

INTERNAL_CLEARANCE_PERMISSION = "askapp.view_internal"


class Conversation(models.Model):
    """A chat. Owned by a user, or by an anonymous visitor when anonymous chat is on: the
    visitor is an opaque id kept in their session, never the session key itself, so nothing
    shown to staff can be replayed as someone's cookie (docs/adr/0031)."""

    id = models.UUIDField(primary_key=True, default=time_ordered_uuid, editable=False)
    # The (owner, -updated) index serves every per-owner read (ADR 0057).
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="conversations",
        db_index=False,
    )
    visitor = models.CharField(
        max_length=40,
        blank=True,
        help_text="The anonymous owner's opaque id (kept in their session), when owner is empty.",
    )
    title = models.CharField(max_length=200, blank=True)
    # Indexed where set (ADR 0069): most conversations have no scope.
    scope = models.ForeignKey(
        Entity,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="conversations",
        db_index=False,
        help_text="The entity questions that name none default to.",
    )
    last_position = models.PositiveIntegerField(
        default=0,
        help_text="Position of the last turn. An ask bumps it under the row lock, so positions "
        "stay strictly ordered and gap-free when asks run concurrently.",
    )
    created = models.DateTimeField(auto_now_add=True)
    updated = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-updated"]
        permissions = [
            ("view_internal", "Can get answers drawn from INTERNAL material"),
        ]
        constraints = [
            models.CheckConstraint(
                condition=Q(owner__isnull=False) | ~Q(visitor=""),
                name="conversation_has_an_owner",
            ),
        ]
        # Each index holds only the rows its reads can ask for (ADR 0069): a user's
        # conversation is never in the visitors' index nor a visitor's in the owners', and
        # one without a scope in no scope index, so a write keeps fewer pages up to date.
        indexes = [
            models.Index(
                fields=["owner", "-updated"],
                name="conversation_owner_recent",
                condition=Q(owner__isnull=False),
            ),
            models.Index(
                fields=["visitor", "-updated"],
                name="conversation_visitor_recent",
                condition=Q(owner__isnull=True),
            ),
            models.Index(
                fields=["scope"], name="conversation_scope", condition=Q(scope__isnull=False)
            ),
        ]

    def __str__(self) -> str:
        return self.title or f"Conversation {self.pk}"


class Turn(models.Model):
    """One message of a conversation: a question (role user) or an answer (role assistant)."""

    class Role(models.TextChoices):
        USER = "user", "User"
        ASSISTANT = "assistant", "Assistant"

    class Status(models.TextChoices):
        NONE = "", "None (supplied as history)"
        FOUND = "found", "Found"
        ANSWERED = "answered", "Answered"
        NOT_FOUND = "not_found", "Not found"
        BLOCKED = "blocked", "Blocked"
        CLARIFY = "clarify", "Clarify"
        ERROR = "error", "Error"

    class Origin(models.TextChoices):
        ASKED = "asked", "Asked"
        CLIENT_HISTORY = "client_history", "Supplied by a stateless client as history"

    id = models.UUIDField(primary_key=True, default=time_ordered_uuid, editable=False)
    # The (conversation, position) unique index serves every per-conversation read.
    conversation = models.ForeignKey(
        Conversation, on_delete=models.CASCADE, related_name="turns", db_index=False
    )
    position = models.PositiveIntegerField(help_text="1-based, gap-free within a conversation.")
    role = models.CharField(max_length=9, choices=Role.choices)
    origin = models.CharField(max_length=14, choices=Origin.choices, default=Origin.ASKED)
    text = models.TextField()
    status = models.CharField(
        max_length=9,
        choices=Status.choices,
        blank=True,
        help_text="How the question was dealt with; a question and its answer share it. "
        "A question whose answer failed is stored alone with status error.",
    )
    refused = models.BooleanField(
        default=False, help_text="Declined for lack of data (status not_found)."
    )
    figures = models.JSONField(default=list, blank=True)
    sources = models.JSONField(default=list, blank=True)
    intent = models.JSONField(
        default=dict, blank=True, help_text="The resolved intent the engine answered."
    )
    carried = models.JSONField(default=list, blank=True)
    reason = models.CharField(max_length=200, blank=True)
    choices = models.JSONField(default=list, blank=True)
    provider = models.CharField(max_length=50, blank=True)
    model = models.CharField(max_length=200, blank=True)
    latency_ms = models.PositiveIntegerField(null=True, blank=True)
    # Indexed where set (ADR 0069): a question answers nothing.
    answers = models.ForeignKey(
        "self",
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="answer_turns",
        db_index=False,
        help_text="For an answer: the question it answers.",
    )
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["position"]
        constraints = [
            models.UniqueConstraint(
                fields=["conversation", "position"], name="turn_unique_position"
            ),
            models.CheckConstraint(condition=Q(position__gte=1), name="turn_position_from_one"),
        ]
        indexes = [
            models.Index(fields=["status", "-created"], name="turn_status_recent"),
            models.Index(
                fields=["answers"], name="turn_answers", condition=Q(answers__isnull=False)
            ),
        ]

    def __str__(self) -> str:
        return f"{self.conversation_id}#{self.position} {self.role}"

    def to_engine(self) -> Answer:
        """What was frozen with the turn, as the engine's values (figures, sources, carried
        slots); a question reads as the status and intent it shares with its answer."""
        return Answer.from_dict(
            {
                "text": self.text,
                "status": self.status,
                "figures": self.figures,
                "sources": self.sources,
                "intent": self.intent,
                "carried": self.carried,
                "reason": self.reason,
                "choices": self.choices,
                "provider": self.provider,
                "model": self.model,
            }
        )


class SessionTurn(Protocol):
    """What a session is rebuilt from: a stored Turn, or the few columns of one that
    askapp.selectors.conversations.conversation_with_recent_turns reads (a RecentTurn)."""

    @property
    def pk(self) -> Any: ...
    @property
    def role(self) -> str: ...
    @property
    def text(self) -> str: ...
    @property
    def status(self) -> str: ...
    @property
    def intent(self) -> dict[str, Any]: ...
    @property
    def figures(self) -> list[Any]: ...


def session_from_turns(
    turns: Sequence[SessionTurn],
    *,
    scope: str | None,
    withheld: Collection[Any] = (),
    withheld_text: str | None = None,
) -> ConversationSession:
    """The session the engine would hold after these turns (oldest first).

    Each question becomes one Remembered with its stored (resolved) intent, the text of
    its answer and the answer's stored figures (the results a later question may name, each
    with its role: docs/adr/0023). Blocked exchanges are left out, as the engine's session
    leaves them out; an answer whose question lies before the window is dropped.
    Client-supplied history has no intent (history never reaches the parser), so it carries
    no slot, only context.

    `withheld` names turns (by pk) of exchanges that cite material beyond the asker's
    clearance now (askapp.selectors.clearance.withheld): they are left out too, so their
    text never becomes history for a model nor their names carried slots. A reader's view of
    the window (the admin's history panel) passes `withheld_text` to show in their place.
    """
    remembered: list[Remembered] = []
    question: SessionTurn | None = None
    answers: list[str] = []
    results: list[Figure] = []

    def flush() -> None:
        if question is not None:
            intent = _stored_intent(question)
            found = tuple(results) if question.status == Turn.Status.FOUND else ()
            remembered.append(
                Remembered(question.text, intent, "\n\n".join(answers), question.status, found)
            )

    for turn in turns:
        if turn.status == Turn.Status.BLOCKED:
            continue
        if turn.pk in withheld:
            if withheld_text is None:
                continue
            # Shown to a reader: the question as asked, without the names it resolved to,
            # and the notice for its answer.
            text = turn.text if turn.role == Turn.Role.USER else withheld_text
            turn = Turn(pk=turn.pk, role=turn.role, text=text, status=turn.status)
        if turn.role == Turn.Role.USER:
            flush()
            question, answers, results = turn, [], []
        elif question is not None:
            answers.append(turn.text)
            results.extend(_stored_figures(turn))
    flush()
    return ConversationSession(scope=scope, turns=remembered)


# Every ask in a conversation reads its window's turns again. What a stored intent or stored
# figures decode to depends on nothing but their stored text, so a read that brings the text
# (a RecentTurn's `intent_json` and `figures_json`) is decoded once a process, into the
# engine's immutable values (docs/adr/0044).
DECODED_CACHED = 4096


def _stored_intent(question: Any) -> Intent:
    stored = getattr(question, "intent_json", None)
    if stored is not None:
        return intent_from_json(question.text, stored)
    return Intent.from_dict(question.text, question.intent or {})


def _stored_figures(answer: Any) -> Sequence[Figure]:
    stored = getattr(answer, "figures_json", None)
    if stored is not None:
        return figures_from_json(stored)
    return _figures(getattr(answer, "figures", None))


@functools.lru_cache(maxsize=DECODED_CACHED)
def intent_from_json(question: str, stored: str) -> Intent:
    """A question's intent from its stored JSON text."""
    return Intent.from_dict(question, json.loads(stored) or {})


@functools.lru_cache(maxsize=DECODED_CACHED)
def figures_from_json(stored: str) -> tuple[Figure, ...]:
    """An answer's figures from their stored JSON text (as `_figures` reads them)."""
    return tuple(_figures(json.loads(stored)))


def _figures(stored: Any) -> list[Figure]:
    """A stored answer's figures as the engine's; one that holds no number is left out."""
    figures = []
    for data in stored if isinstance(stored, list) else ():
        try:
            figures.append(Figure.from_dict(data))
        except (ValueError, TypeError, AttributeError):
            continue
    return figures


class Feedback(models.Model):
    """A reader's verdict on an answer: up or down, with an optional comment."""

    class Value(models.TextChoices):
        UP = "up", "Up"
        DOWN = "down", "Down"

    turn = models.ForeignKey(Turn, on_delete=models.CASCADE, related_name="feedback")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="answer_feedback",
    )
    visitor = models.CharField(max_length=40, blank=True)
    value = models.CharField(max_length=4, choices=Value.choices)
    comment = models.TextField(blank=True)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created"]
        verbose_name_plural = "feedback"
        constraints = [
            models.UniqueConstraint(
                fields=["turn", "user"],
                condition=Q(user__isnull=False),
                name="feedback_one_per_user",
            ),
            models.UniqueConstraint(
                fields=["turn", "visitor"],
                condition=Q(user__isnull=True),
                name="feedback_one_per_visitor",
            ),
        ]
        indexes = [models.Index(fields=["value", "-created"], name="feedback_value_recent")]

    def __str__(self) -> str:
        return f"{self.value} on {self.turn_id}"
