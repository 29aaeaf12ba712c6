"""The admin: a declarative view of the knowledge base for reviewers and editors.

Saving a document goes through the service, so its chunks (and the full-text index that
follows them) always match the text. A RESTRICTED document's text is shown only to users
with `askapp.change_restricted_document`: anyone else sees that the row exists, its title
and classification, never its body or chunks, and cannot change or delete it.
"""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.db import models
from django.forms import Field
from django.http import HttpRequest

from askapp.models import Chunk, Classification, Document, Entity, Fact, Metric
from askapp.services.knowledge import document_save

RESTRICTED_PERMISSION = "askapp.change_restricted_document"


def may_see_restricted(request: HttpRequest) -> bool:
    return request.user.has_perm(RESTRICTED_PERMISSION)


@admin.register(Entity)
class EntityAdmin(admin.ModelAdmin):
    list_display = ("name", "aliases", "updated")
    search_fields = ("name",)
    readonly_fields = ("created", "updated")


@admin.register(Metric)
class MetricAdmin(admin.ModelAdmin):
    list_display = ("name", "aliases", "updated")
    search_fields = ("name",)
    readonly_fields = ("created", "updated")


@admin.register(Fact)
class FactAdmin(admin.ModelAdmin):
    list_display = ("entity", "metric", "period", "value", "unit", "classification", "source")
    list_filter = ("classification", "unit", "metric", "entity")
    search_fields = ("entity__name", "metric__name", "period", "source")
    list_select_related = ("entity", "metric")
    autocomplete_fields = ("entity", "metric", "source_document")
    readonly_fields = ("created", "updated")


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
class DocumentAdmin(admin.ModelAdmin):
    list_display = ("title", "classification", "entity", "period", "source", "updated")
    list_filter = ("classification", "entity")
    # Never the body: a match on a RESTRICTED body would reveal its words to anyone.
    search_fields = ("title", "key", "source")
    list_select_related = ("entity",)
    autocomplete_fields = ("entity",)
    readonly_fields = ("created", "updated")
    inlines = (ChunkInline,)

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
