"""factory-boy factories for every model the tests build. One module, shared by all tests."""

from __future__ import annotations

from decimal import Decimal

import factory
from django.contrib.auth import get_user_model

from askapp.models import Chunk, Classification, Document, Entity, Fact, Metric

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
