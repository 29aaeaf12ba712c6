"""Selectors: reads from the database that views and commands share (keyword-only, typed)."""
