"""The admin: the knowledge base (knowledge.py), the review of answers (review.py), and
users, groups and tokens (accounts.py), all behind the guard in guard.py."""

from askapp.admin import accounts, knowledge, review

__all__ = ["accounts", "knowledge", "review"]
