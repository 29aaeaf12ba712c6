"""The admin: the knowledge base (knowledge.py) and the review of answers (review.py)."""

from askapp.admin import knowledge, review

__all__ = ["knowledge", "review"]
