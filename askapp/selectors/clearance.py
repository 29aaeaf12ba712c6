"""The one clearance rule, as queries: what a reader may see of the knowledge base.

A fact or document is shown when the reader's clearance holds its classification. An entity
or metric name carries the least restrictive classification among the facts and documents
that name it (the clearance needed to learn it exists), and is computed here rather than
stored: a name is visible when some material within the clearance names it (an EXISTS on an
indexed foreign key). A name no material names has no known classification, so only a reader
cleared for everything (RESTRICTED, in the admin) sees it. Answers and the chat page read
clearances without RESTRICTED (askapp.permissions.clearance_for); the admin adds it for
holders of change_restricted_document (askapp.permissions.admin_clearance). See docs/adr/0029.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.db.models import Exists, OuterRef, Q, QuerySet

from askapp.models import Classification, Document, Entity, Fact, Metric
from engine import CLASSIFICATIONS, RESTRICTED

KNOWN = frozenset(Classification.values)


def allowed(clearance: Iterable[str]) -> list[str]:
    """The known classifications within a clearance, for `classification__in`."""
    return sorted(KNOWN & set(clearance))


def sees_everything(clearance: Iterable[str]) -> bool:
    return RESTRICTED in set(clearance)


def entities_named(clearance: frozenset[str]) -> Q:
    """Entities some fact or document within the clearance names."""
    if sees_everything(clearance):
        return Q()
    levels = allowed(clearance)
    return Q(Exists(Fact.objects.filter(entity=OuterRef("pk"), classification__in=levels))) | Q(
        Exists(Document.objects.filter(entity=OuterRef("pk"), classification__in=levels))
    )


def metrics_named(clearance: frozenset[str]) -> Q:
    """Metrics some fact within the clearance names (documents name no metric)."""
    if sees_everything(clearance):
        return Q()
    levels = allowed(clearance)
    return Q(Exists(Fact.objects.filter(metric=OuterRef("pk"), classification__in=levels)))


def visible_entities(*, clearance: frozenset[str]) -> QuerySet[Entity]:
    return Entity.objects.filter(entities_named(clearance))


def visible_metrics(*, clearance: frozenset[str]) -> QuerySet[Metric]:
    return Metric.objects.filter(metrics_named(clearance))


def naming_levels(model: type[Entity] | type[Metric]) -> dict[str, Any]:
    """Annotations `named_<CLASSIFICATION>`: whether material of that classification names the
    row; `term_classification` reads the least restrictive one back."""
    pointer = "entity" if model is Entity else "metric"
    annotations: dict[str, Any] = {}
    for level in CLASSIFICATIONS:
        named = Exists(Fact.objects.filter(**{pointer: OuterRef("pk")}, classification=level))
        if model is Entity:
            in_documents = Document.objects.filter(entity=OuterRef("pk"), classification=level)
            named = named | Exists(in_documents)
        annotations[f"named_{level}"] = named
    return annotations


def term_classification(row: Any) -> str:
    """The least restrictive classification naming a row annotated by `naming_levels`."""
    return next((c for c in CLASSIFICATIONS if getattr(row, f"named_{c}", False)), "")
