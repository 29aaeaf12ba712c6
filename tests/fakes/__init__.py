"""Fakes for the engine's side effects: stand-ins that tests drive and inspect."""
