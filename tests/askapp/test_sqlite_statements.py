"""Django's SQLite placeholder rewrite is remembered per statement text (askapp/database.py):
the same `?` text as Django's own, each text rewritten once."""

from __future__ import annotations

import pytest
from django.db import connection
from django.db.backends.sqlite3 import base

from askapp.database import remember_sqlite_statements

STATEMENTS = [
    "SELECT 1",
    "SELECT %s",
    "SELECT * FROM t WHERE a = %s AND b LIKE '%%x%%' AND c IN (%s, %s)",
    "UPDATE t SET a = a + %s WHERE id = %s RETURNING a",
    "SELECT '%%s', %s",
]


def test_the_rewrite_is_djangos() -> None:
    remember_sqlite_statements()
    remember_sqlite_statements()  # once is enough; again changes nothing
    wrapper = base.SQLiteCursorWrapper
    assert wrapper.convert_query.remembered  # type: ignore[attr-defined]
    for query in STATEMENTS:
        expected = base.FORMAT_QMARK_REGEX.sub("?", query).replace("%%", "%")
        assert wrapper.convert_query(None, query) == expected  # type: ignore[arg-type]
        assert wrapper.convert_query(None, query) == expected  # type: ignore[arg-type]
    named = wrapper.convert_query(None, "SELECT %(a)s, %(b)s", param_names=["a", "b"])  # type: ignore[arg-type]
    assert named == "SELECT :a, :b"


@pytest.mark.django_db
def test_statements_run_with_their_values() -> None:
    if connection.vendor != "sqlite":
        pytest.skip("SQLite's cursor only")
    with connection.cursor() as cursor:
        for _ in range(2):
            cursor.execute("SELECT %s, '%%', %s", [7, "x"])
            assert cursor.fetchone() == (7, "%", "x")
        cursor.execute("SELECT %(a)s", {"a": 3})
        assert cursor.fetchone() == (3,)
