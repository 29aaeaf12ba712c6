"""The knowledge base every answer rests on: entities, metrics, facts and documents."""

from __future__ import annotations

from django.db import models

import engine


class Classification(models.TextChoices):
    PUBLIC = "PUBLIC", "Public"
    INTERNAL = "INTERNAL", "Internal"
    RESTRICTED = "RESTRICTED", "Restricted"


class Entity(models.Model):
    """A company (or any reporting unit); `aliases` are the other names questions use for it."""

    name = models.CharField(max_length=200, unique=True)
    aliases = models.JSONField(default=list, blank=True)
    created = models.DateTimeField(auto_now_add=True)
    updated = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["name"]
        verbose_name_plural = "entities"

    def __str__(self) -> str:
        return self.name

    def to_engine(self) -> engine.Term:
        return engine.Term(name=self.name, aliases=tuple(self.aliases))


class Metric(models.Model):
    """A reported line item (Revenue, Net income, ...); `aliases` are the other labels for it."""

    name = models.CharField(max_length=300, unique=True)
    aliases = models.JSONField(default=list, blank=True)
    created = models.DateTimeField(auto_now_add=True)
    updated = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name

    def to_engine(self) -> engine.Term:
        return engine.Term(name=self.name, aliases=tuple(self.aliases))


class Document(models.Model):
    """A report, memo or note. Its body is split into chunks, which the full-text index holds."""

    key = models.CharField(
        max_length=300, unique=True, help_text="Stable import key: re-importing updates this row."
    )
    title = models.CharField(max_length=300)
    body = models.TextField()
    classification = models.CharField(
        max_length=12, choices=Classification.choices, default=Classification.PUBLIC
    )
    entity = models.ForeignKey(
        Entity, null=True, blank=True, on_delete=models.SET_NULL, related_name="documents"
    )
    period = models.CharField(max_length=20, blank=True)
    source = models.CharField(max_length=500, blank=True)
    created = models.DateTimeField(auto_now_add=True)
    updated = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["title"]
        permissions = [
            ("change_restricted_document", "Can read and edit RESTRICTED documents"),
        ]
        indexes = [models.Index(fields=["classification"])]

    def __str__(self) -> str:
        return self.title


class Chunk(models.Model):
    """One passage of a document: the unit of retrieval and of citation."""

    document = models.ForeignKey(Document, on_delete=models.CASCADE, related_name="chunks")
    ordinal = models.PositiveIntegerField()
    text = models.TextField()

    class Meta:
        ordering = ["document_id", "ordinal"]
        constraints = [
            models.UniqueConstraint(fields=["document", "ordinal"], name="chunk_unique_ordinal"),
        ]

    def __str__(self) -> str:
        return f"{self.document_id}#{self.ordinal}"


class Fact(models.Model):
    """One reported figure: entity, metric, period, value and unit, with where it came from."""

    entity = models.ForeignKey(Entity, on_delete=models.PROTECT, related_name="facts")
    metric = models.ForeignKey(Metric, on_delete=models.PROTECT, related_name="facts")
    period = models.CharField(max_length=20, help_text="Normalised, e.g. FY2023 or FY2023 Q3.")
    value = models.DecimalField(max_digits=28, decimal_places=6)
    unit = models.CharField(max_length=40)
    classification = models.CharField(
        max_length=12, choices=Classification.choices, default=Classification.PUBLIC
    )
    source_document = models.ForeignKey(
        Document, null=True, blank=True, on_delete=models.SET_NULL, related_name="facts"
    )
    source = models.CharField(max_length=500, blank=True, help_text="Filing or table reference.")
    created = models.DateTimeField(auto_now_add=True)
    updated = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["entity__name", "metric__name", "period"]
        constraints = [
            models.UniqueConstraint(
                fields=["entity", "metric", "period"], name="fact_unique_entity_metric_period"
            ),
        ]
        indexes = [models.Index(fields=["metric", "period"])]

    def __str__(self) -> str:
        return f"{self.entity} · {self.metric} · {self.period}"

    def to_engine(self) -> engine.Fact:
        return engine.Fact(
            id=f"fact:{self.pk}",
            entity=self.entity.name,
            metric=self.metric.name,
            period=self.period,
            value=self.value,
            unit=self.unit,
            classification=self.classification,
            source=self.source,
            document_id=str(self.source_document_id) if self.source_document_id else None,
        )
