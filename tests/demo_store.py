"""The shipped demo knowledge base as an in-memory store, for engine tests (no database):
the evaluation's own reader of data/demo/, so tests and `engine.evaluate offtarget` agree."""

from __future__ import annotations

from engine.evaluate.demo import DEMO, demo_store

__all__ = ["DEMO", "demo_store"]
