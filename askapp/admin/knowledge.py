"""The knowledge base in the admin: entities, metrics, facts and documents.

Saving a document goes through the service, so its chunks (and the full-text index that
follows them) always match the text. A RESTRICTED document's text is shown only to users
with `askapp.change_restricted_document`: anyone else sees that the row exists, its title
and classification, never its body or chunks, and cannot change or delete it (ADR 0004).

Facts and documents show how many answers cite them, counted in the citation index by one
subquery per changelist (never a scan of the answers' frozen sources), linked to those
answers in the review list.
"""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.db import models
from django.db.models import (
    BooleanField,
    Case,
    Count,
    IntegerField,
    OuterRef,
    QuerySet,
    Subquery,
    Value,
    When,
)
from django.db.models.functions import Coalesce
from django.forms import Field
from django.http import HttpRequest
from django.urls import reverse
from django.utils.html import format_html

from askapp.admin.guard import GuardedAdmin, field_lookups, related_lookups
from askapp.models import Chunk, Citation, Classification, Document, Entity, Fact, Metric
from askapp.services.knowledge import document_save

RESTRICTED_PERMISSION = "askapp.change_restricted_document"
CITES_PARAMETER = "cites"


def may_see_restricted(request: HttpRequest) -> bool:
    return request.user.has_perm(RESTRICTED_PERMISSION)


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


@admin.register(Metric)
class MetricAdmin(GuardedAdmin):
    list_display = ("name", "aliases", "updated")
    search_fields = ("name",)
    readonly_fields = ("created", "updated")


@admin.register(Fact)
class FactAdmin(GuardedAdmin):
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
        return super().get_queryset(request).annotate(citing_answers=citing_answers("fact"))

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
class DocumentAdmin(GuardedAdmin):
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
        """Each row carries its citing answers' count, and whether this reader may follow the
        link to them: those answers quote the document, so for a RESTRICTED one only readers
        holding the permission may (it was cited before it became RESTRICTED: no RESTRICTED
        passage reaches an answer)."""
        linked: Any = Value(True)
        if not may_see_restricted(request):
            linked = Case(
                When(classification=Classification.RESTRICTED, then=Value(False)),
                default=Value(True),
                output_field=BooleanField(),
            )
        return (
            super()
            .get_queryset(request)
            .annotate(citing_answers=citing_answers("document"), citing_linked=linked)
        )

    @admin.display(description="cited by", ordering="citing_answers")
    def cited_by(self, document: Document) -> str:
        count = getattr(document, "citing_answers", None)
        if document.pk is None or not count:
            return "none"
        if not getattr(document, "citing_linked", False):
            return "1 answer" if count == 1 else f"{count} answers"
        return citing_answers_link(count, f"document:{document.pk}")

    def save_model(self, request: HttpRequest, obj: Document, form: Any, change: bool) -> None:
        document_save(document=obj)

    def get_fields(self, request: HttpRequest, obj: Document | None = None) -> list[Any]:
        fields = list(super().get_fields(request, obj))
        return [f for f in fields if f != "body"] if self._is_hidden(request, obj) else fields

    def get_inlines(self, request: HttpRequest, obj: Document | None) -> Any:
        return () if self._is_hidden(request, obj) else self.inlines

    def has_change_permission(self, request: HttpRequest, obj: Document | None = None) -> bool:
        return not self._is_hidden(request, obj) and super().has_change_permission(request, obj)

    def has_delete_permission(self, request: HttpRequest, obj: Document | None = None) -> bool:
        return not self._is_hidden(request, obj) and super().has_delete_permission(request, obj)

    def formfield_for_choice_field(
        self, db_field: models.Field[Any, Any], request: HttpRequest, **kwargs: Any
    ) -> Field:
        if db_field.name == "classification" and not may_see_restricted(request):
            # Whoever may not read RESTRICTED documents may not write one either.
            kwargs["choices"] = [
                choice for choice in Classification.choices if choice[0] != "RESTRICTED"
            ]
        return super().formfield_for_choice_field(db_field, request, **kwargs)

    @staticmethod
    def _is_hidden(request: HttpRequest, obj: Document | None) -> bool:
        restricted = obj is not None and obj.classification == Classification.RESTRICTED
        return restricted and not may_see_restricted(request)
