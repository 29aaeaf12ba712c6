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

from django.db.models import BooleanField, Exists, OuterRef, Q, QuerySet, Value
from django.db.models.expressions import Combinable

from askapp.models import Citation, Classification, Document, Entity, Fact, Metric
from engine import CLASSIFICATIONS, RESTRICTED

KNOWN = frozenset(Classification.values)
WITHHELD_TEXT = (
    "This answer is withheld: it drew on material you are not cleared to see now (it was "
    "reclassified after the answer was given)."
)


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


# --- answers given before a reclassification --------------------------------------------------


def cited_beyond(clearance: frozenset[str]) -> Q:
    """Citations of material the clearance does not hold: the fact or document as it is
    today, or, once it is deleted, as it was when it was cited."""
    ok = allowed(clearance)
    return (
        (Q(fact__isnull=False) & ~Q(fact__classification__in=ok))
        | (Q(document__isnull=False) & ~Q(document__classification__in=ok))
        | (Q(fact__isnull=True, document__isnull=True) & ~Q(classification__in=ok))
    )


def cites_beyond(clearance: frozenset[str], turn: str = "pk") -> Combinable:
    """Annotation for Turn querysets: True for a turn that itself cites material beyond the
    clearance (an answer; a question cites nothing). `withheld` marks its question too; a
    read that holds both turns of an exchange can mark the question from its answer's mark
    (askapp/selectors/conversations.py: the recent-turns read)."""
    if sees_everything(clearance):
        return Value(False, output_field=BooleanField())
    return Exists(Citation.objects.filter(cited_beyond(clearance)).filter(turn=OuterRef(turn)))


def withheld(clearance: frozenset[str], turn: str = "pk") -> Combinable:
    """Annotation for Turn querysets: True for an answer that cites material beyond the
    clearance, and for the question it answers (whose resolved names came from the same
    place). Such an exchange shows WITHHELD_TEXT instead of its text, is no history for a
    model, and no search matches it."""
    if sees_everything(clearance):
        return Value(False, output_field=BooleanField())
    beyond = Citation.objects.filter(cited_beyond(clearance))
    return cites_beyond(clearance, turn) | Exists(beyond.filter(turn__answers=OuterRef(turn)))


def turns_shown(clearance: frozenset[str]) -> Q:
    """Turns a reader with this clearance may read (and search): those not withheld."""
    if sees_everything(clearance):
        return Q()
    beyond = Citation.objects.filter(cited_beyond(clearance))
    return ~Q(Exists(beyond.filter(turn=OuterRef("pk")))) & ~Q(
        Exists(beyond.filter(turn__answers=OuterRef("pk")))
    )


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
