"""The knowledge base in the admin: entities, metrics, facts and documents.

Saving a document goes through the service, so its chunks (and the full-text index that
follows them) always match the text.

Every list, filter, search, form choice and page here shows only what the reader's clearance
holds (askapp.permissions.admin_clearance; docs/adr/0029, which supersedes ADR 0004's "the row
is listed, its body hidden"): a fact or document of a classification the reader may not see is
not listed and its page does not exist for them; an entity or metric name is shown only when
some fact or document the reader may see names it. Holders of
askapp.change_restricted_document see everything.

Facts and documents show how many answers cite them, counted in the citation index by one
subquery per changelist (never a scan of the answers' frozen sources), linked to those
answers in the review list.
"""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.db import models
from django.db.models import Count, IntegerField, OuterRef, Q, QuerySet, Subquery
from django.db.models.functions import Coalesce
from django.forms import Field
from django.http import HttpRequest
from django.urls import reverse
from django.utils.html import format_html

from askapp.admin.guard import GuardedAdmin, field_lookups, related_lookups
from askapp.models import Chunk, Citation, Classification, Document, Entity, Fact, Metric
from askapp.permissions import request_clearance
from askapp.selectors.clearance import (
    allowed,
    entities_named,
    metrics_named,
    visible_entities,
    visible_metrics,
)
from askapp.services.knowledge import document_save

CITES_PARAMETER = "cites"


class NamedOnlyFilter(admin.RelatedOnlyFieldListFilter):
    """The entities (or metrics) rows point to, among those whose names the reader may see."""

    def field_choices(self, field: Any, request: HttpRequest, model_admin: Any) -> Any:
        pks = (
            model_admin.get_queryset(request)
            .distinct()
            .values_list(f"{self.field_path}__pk", flat=True)
        )
        clearance = request_clearance(request)
        named = entities_named if field.related_model is Entity else metrics_named
        return field.get_choices(
            include_blank=False,
            limit_choices_to=Q(pk__in=pks) & named(clearance),
            ordering=self.field_admin_ordering(field, request, model_admin),
        )


class ClearanceChoices:
    """A classification select offers only what the reader may see (and so write); the
    entity, metric and source-document pickers only what the reader may see."""

    def formfield_for_choice_field(
        self, db_field: models.Field[Any, Any], request: HttpRequest, **kwargs: Any
    ) -> Field:
        if db_field.name == "classification":
            levels = allowed(request_clearance(request))
            kwargs["choices"] = [c for c in Classification.choices if c[0] in levels]
        return super().formfield_for_choice_field(db_field, request, **kwargs)  # type: ignore[misc]

    def formfield_for_foreignkey(
        self, db_field: models.ForeignKey[Any, Any], request: HttpRequest, **kwargs: Any
    ) -> Any:
        clearance = request_clearance(request)
        if db_field.related_model is Entity:
            kwargs["queryset"] = visible_entities(clearance=clearance)
        elif db_field.related_model is Metric:
            kwargs["queryset"] = visible_metrics(clearance=clearance)
        elif db_field.related_model is Document:
            kwargs["queryset"] = Document.objects.filter(classification__in=allowed(clearance))
        return super().formfield_for_foreignkey(db_field, request, **kwargs)  # type: ignore[misc]


def citing_answers(pointer: str) -> Coalesce:
    """How many answers cite the outer row, where `pointer` is Citation's field for it."""
    counts = (
        Citation.objects.filter(**{pointer: OuterRef("pk")})
        .order_by()
        .values(pointer)
        .annotate(answers=Count("turn", distinct=True))
        .values("answers")
    )
    return Coalesce(Subquery(counts, output_field=IntegerField()), 0)


def citing_answers_link(count: int | None, cites: str) -> str:
    """ "3 answers", linked to those answers in the review list."""
    if not count:
        return "none"
    url = reverse("admin:askapp_answerturn_changelist")
    label = "1 answer" if count == 1 else f"{count} answers"
    return format_html('<a href="{}?{}={}">{}</a>', url, CITES_PARAMETER, cites, label)


@admin.register(Entity)
class EntityAdmin(GuardedAdmin):
    list_display = ("name", "aliases", "updated")
    search_fields = ("name",)
    readonly_fields = ("created", "updated")

    def get_queryset(self, request: HttpRequest) -> QuerySet[Entity]:
        return super().get_queryset(request).filter(entities_named(request_clearance(request)))


@admin.register(Metric)
class MetricAdmin(GuardedAdmin):
    list_display = ("name", "aliases", "updated")
    search_fields = ("name",)
    readonly_fields = ("created", "updated")

    def get_queryset(self, request: HttpRequest) -> QuerySet[Metric]:
        return super().get_queryset(request).filter(metrics_named(request_clearance(request)))


@admin.register(Fact)
class FactAdmin(ClearanceChoices, GuardedAdmin):
    list_display = (
        "entity", "metric", "period", "value", "unit", "classification", "source", "cited_by",
    )  # fmt: skip
    list_filter = (
        ("entity", admin.RelatedOnlyFieldListFilter),
        ("metric", admin.RelatedOnlyFieldListFilter),
        "period",
        "classification",
        "unit",
    )
    allowed_lookups = (
        related_lookups("entity") | related_lookups("metric") | field_lookups("period")
        | field_lookups("classification") | field_lookups("unit")
    )  # fmt: skip
    search_fields = ("entity__name", "metric__name", "period", "source")
    list_select_related = ("entity", "metric")
    autocomplete_fields = ("entity", "metric", "source_document")
    readonly_fields = ("cited_by", "created", "updated")

    def get_queryset(self, request: HttpRequest) -> QuerySet[Fact]:
        levels = allowed(request_clearance(request))
        facts = super().get_queryset(request).filter(classification__in=levels)
        return facts.annotate(citing_answers=citing_answers("fact"))

    @admin.display(description="cited by", ordering="citing_answers")
    def cited_by(self, fact: Fact) -> str:
        if fact.pk is None:
            return "none"
        return citing_answers_link(getattr(fact, "citing_answers", None), f"fact:{fact.pk}")


class ChunkInline(admin.TabularInline):
    """The passages search reads, as the service cut them: shown, never edited by hand."""

    model = Chunk
    fields = ("ordinal", "text")
    readonly_fields = ("ordinal", "text")
    extra = 0
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Document)
class DocumentAdmin(ClearanceChoices, GuardedAdmin):
    list_display = (
        "title", "classification", "entity", "period", "source", "cited_by", "updated",
    )  # fmt: skip
    list_filter = ("classification", ("entity", admin.RelatedOnlyFieldListFilter), "period")
    allowed_lookups = (
        field_lookups("classification") | related_lookups("entity") | field_lookups("period")
    )
    # Never the body: a match on a RESTRICTED body would reveal its words to anyone.
    search_fields = ("title", "key", "source")
    list_select_related = ("entity",)
    autocomplete_fields = ("entity",)
    readonly_fields = ("cited_by", "created", "updated")
    inlines = (ChunkInline,)

    def get_queryset(self, request: HttpRequest) -> QuerySet[Document]:
        levels = allowed(request_clearance(request))
        documents = super().get_queryset(request).filter(classification__in=levels)
        return documents.annotate(citing_answers=citing_answers("document"))

    @admin.display(description="cited by", ordering="citing_answers")
    def cited_by(self, document: Document) -> str:
        if document.pk is None:
            return "none"
        count = getattr(document, "citing_answers", None)
        return citing_answers_link(count, f"document:{document.pk}")

    def save_model(self, request: HttpRequest, obj: Document, form: Any, change: bool) -> None:
        document_save(document=obj)
