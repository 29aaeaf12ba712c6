"""Writes to conversations other than asking (askapp/services/asking.py): create, rename,
delete, and feedback on answers."""

from __future__ import annotations

from django.db import IntegrityError, transaction

from askapp.errors import Invalid
from askapp.models import Conversation, Entity, Feedback, Turn
from askapp.owners import Owner


def conversation_create(
    *, owner: Owner, title: str = "", scope: Entity | None = None
) -> Conversation:
    return Conversation.objects.create(
        owner_id=owner.user_id,
        session_key="" if owner.user_id is not None else owner.session_key,
        title=title.strip(),
        scope=scope,
    )


@transaction.atomic
def conversations_adopt(*, session_key: str, user_id: int) -> int:
    """Give a user who just logged in the conversations (and feedback) they started as an
    anonymous visitor in this browser session. Returns how many conversations moved."""
    if not session_key:
        return 0
    moved = Conversation.objects.filter(owner__isnull=True, session_key=session_key).update(
        owner_id=user_id, session_key=""
    )
    Feedback.objects.filter(user__isnull=True, session_key=session_key).update(
        user_id=user_id, session_key=""
    )
    return moved


def conversation_rename(*, conversation: Conversation, title: str) -> Conversation:
    conversation.title = title.strip()
    conversation.save(update_fields=["title", "updated"])
    return conversation


def conversation_delete(*, conversation: Conversation) -> None:
    """Delete the conversation with its turns and their feedback."""
    conversation.delete()


def feedback_submit(
    *, turn: Turn, owner: Owner, value: str, comment: str = ""
) -> tuple[Feedback, bool]:
    """Record the reader's verdict on an answer; a second verdict replaces the first.
    Returns the feedback and whether it is new."""
    if turn.role != Turn.Role.ASSISTANT:
        raise Invalid(
            "Feedback is given on answers, and this turn is a question.", code="not_an_answer"
        )
    who: dict[str, object] = {"user_id": owner.user_id}
    if owner.user_id is None:
        who["session_key"] = owner.session_key
    values = {"value": value, "comment": comment.strip()}
    try:
        with transaction.atomic():
            feedback, created = Feedback.objects.update_or_create(turn=turn, **who, defaults=values)
    except IntegrityError:  # a concurrent first verdict won the race: replace it
        feedback = Feedback.objects.get(turn=turn, **who)
        feedback.value, feedback.comment = values["value"], values["comment"]
        feedback.save(update_fields=list(values))
        created = False
    return feedback, created
