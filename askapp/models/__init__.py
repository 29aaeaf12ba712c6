"""askapp's models: the knowledge base (knowledge.py) and conversations (conversations.py)."""

from askapp.models.conversations import (
    INTERNAL_CLEARANCE_PERMISSION,
    Conversation,
    Feedback,
    Turn,
)
from askapp.models.knowledge import Chunk, Classification, Document, Entity, Fact, Metric

__all__ = [
    "INTERNAL_CLEARANCE_PERMISSION",
    "Chunk",
    "Classification",
    "Conversation",
    "Document",
    "Entity",
    "Fact",
    "Feedback",
    "Metric",
    "Turn",
]
