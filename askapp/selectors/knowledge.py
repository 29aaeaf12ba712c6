"""Reads over the knowledge base."""

from __future__ import annotations

from askapp.models import Document, Entity, Fact, Metric


def knowledge_base_counts() -> dict[str, int]:
    """How much the knowledge base holds, for the landing page."""
    return {
        "facts": Fact.objects.count(),
        "entities": Entity.objects.count(),
        "metrics": Metric.objects.count(),
        "documents": Document.objects.count(),
    }
