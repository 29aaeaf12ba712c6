"""askapp's models: the knowledge base (knowledge.py), conversations (conversations.py) and
their review (review.py)."""

from askapp.models.conversations import (
    INTERNAL_CLEARANCE_PERMISSION,
    Conversation,
    Feedback,
    SessionTurn,
    Turn,
    session_from_turns,
)
from askapp.models.knowledge import Chunk, Classification, Document, Entity, Fact, Metric
from askapp.models.review import AnswerTurn, Citation, Review

__all__ = [
    "INTERNAL_CLEARANCE_PERMISSION",
    "AnswerTurn",
    "Chunk",
    "Citation",
    "Classification",
    "Conversation",
    "Document",
    "Entity",
    "Fact",
    "Feedback",
    "Metric",
    "Review",
    "SessionTurn",
    "Turn",
    "session_from_turns",
]
