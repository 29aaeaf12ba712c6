"""Reads over the knowledge base."""

from __future__ import annotations

from askapp.models import Document, Fact
from askapp.selectors.clearance import allowed, visible_entities, visible_metrics


def knowledge_base_counts(*, clearance: frozenset[str]) -> dict[str, int]:
    """How much of the knowledge base the reader may see, for the landing page."""
    levels = allowed(clearance)
    return {
        "facts": Fact.objects.filter(classification__in=levels).count(),
        "entities": visible_entities(clearance=clearance).count(),
        "metrics": visible_metrics(clearance=clearance).count(),
        "documents": Document.objects.filter(classification__in=levels).count(),
    }
