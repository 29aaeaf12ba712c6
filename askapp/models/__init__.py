"""askapp's models: the knowledge base (knowledge.py) and conversations (conversations.py)."""

from askapp.models.knowledge import Chunk, Classification, Document, Entity, Fact, Metric

__all__ = ["Chunk", "Classification", "Document", "Entity", "Fact", "Metric"]
