"""factory-boy factories for every model the tests build. One module, shared by all tests."""

from __future__ import annotations

from decimal import Decimal

import factory
from django.contrib.auth import get_user_model
from django.utils import timezone

from askapp.models import (
    Chunk,
    Classification,
    Conversation,
    Document,
    Entity,
    Fact,
    Feedback,
    Metric,
    Review,
    Turn,
)

PASSWORD = "correct horse battery staple"


class EntityFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Entity
        django_get_or_create = ("name",)

    name = factory.Sequence(lambda n: f"Company {n}")
    aliases = factory.LazyAttribute(lambda entity: [entity.name])


class MetricFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Metric
        django_get_or_create = ("name",)

    name = factory.Sequence(lambda n: f"Metric {n}")
    aliases: list[str] = []


class FactFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Fact

    entity = factory.SubFactory(EntityFactory)
    metric = factory.SubFactory(MetricFactory)
    period = factory.Sequence(lambda n: f"FY{2000 + n % 100}")
    value = Decimal("1000")
    unit = "USD"
    classification = Classification.PUBLIC
    source = "10-K filed 2024-01-31"


class DocumentFactory(factory.django.DjangoModelFactory):
    """A saved document. Its chunks are not cut: build through the service for that."""

    class Meta:
        model = Document

    key = factory.Sequence(lambda n: f"document-{n}")
    title = factory.Sequence(lambda n: f"Document {n}")
    body = "Revenue grew because more customers bought the product."
    classification = Classification.PUBLIC
    source = "analyst note"


class ChunkFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Chunk

    document = factory.SubFactory(DocumentFactory)
    ordinal = factory.Sequence(lambda n: n)
    text = factory.LazyAttribute(lambda chunk: chunk.document.body)


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = get_user_model()
        django_get_or_create = ("username",)

    username = factory.Sequence(lambda n: f"user{n}")
    email = factory.LazyAttribute(lambda user: f"{user.username}@example.com")
    password = factory.django.Password(PASSWORD)


class StaffFactory(UserFactory):
    is_staff = True


class ConversationFactory(factory.django.DjangoModelFactory):
    """A user's conversation. Build turns with TurnFactory, or through the ask service."""

    class Meta:
        model = Conversation

    owner = factory.SubFactory(UserFactory)
    title = factory.Sequence(lambda n: f"Conversation {n}")


class TurnFactory(factory.django.DjangoModelFactory):
    """A stored turn. Positions must stay gap-free: give `position` when building several,
    and keep the conversation's `last_position` in step (see `exchange`)."""

    class Meta:
        model = Turn

    conversation = factory.SubFactory(ConversationFactory)
    position = factory.Sequence(lambda n: n + 1)
    role = Turn.Role.USER
    text = "What was Apple's revenue in FY2023?"
    status = Turn.Status.FOUND


class FeedbackFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Feedback

    turn = factory.SubFactory(TurnFactory, role=Turn.Role.ASSISTANT)
    user = factory.SubFactory(UserFactory)
    value = Feedback.Value.UP


def exchange(
    conversation: Conversation, question: str, answer: str, *, intent: dict | None = None,
    status: str = Turn.Status.FOUND,
) -> tuple[Turn, Turn]:  # fmt: skip
    """Store one question and its answer at the end of `conversation`, as an ask would."""
    first = conversation.last_position + 1
    asked = TurnFactory(
        conversation=conversation, position=first, text=question, intent=intent or {},
        status=status, refused=status == Turn.Status.NOT_FOUND,
    )  # fmt: skip
    answered = TurnFactory(
        conversation=conversation, position=first + 1, role=Turn.Role.ASSISTANT, text=answer,
        intent=intent or {}, status=status, refused=status == Turn.Status.NOT_FOUND,
        answers=asked,
    )  # fmt: skip
    conversation.last_position = first + 1
    conversation.save(update_fields=["last_position", "updated"])
    return asked, answered


class ReviewFactory(factory.django.DjangoModelFactory):
    """A reviewer's verdict on an answer turn."""

    class Meta:
        model = Review

    turn = factory.SubFactory(TurnFactory, role=Turn.Role.ASSISTANT)
    verdict = Review.Verdict.CORRECT
    reviewer = factory.SubFactory(StaffFactory)
    reviewed_at = factory.LazyFunction(timezone.now)
