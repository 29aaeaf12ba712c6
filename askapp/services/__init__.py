"""Services: every write to the database goes through a function here (keyword-only, typed)."""
