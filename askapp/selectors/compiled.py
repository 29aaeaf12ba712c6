"""Reads on every ask's path, compiled to SQL once a process and run with new values.

Building a queryset and compiling it to SQL cost an ask more than the database took to
answer it: the recent-turns read, with its withheld subquery, about 3 ms; the token and its
user about 1 ms. A `CompiledRead` compiles a `values_list` queryset once, built from
sentinel values standing for those that change from call to call (an owner, a conversation
id, a token key), and remembers where each sentinel's prepared value sits among the
statement's parameters. A call puts the real values there, prepared by the same field as the
lookup prepares them, runs the statement, and converts the rows as the ORM would (the
backend's and the fields' converters). Everything else the queryset holds is fixed in the
statement: the caller keys its cache by it (a clearance, the window's length).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.db import connections
from django.db.models import Field, QuerySet


@dataclass(frozen=True, slots=True)
class Slot:
    """A value that changes between calls: the sentinel it was compiled with, and the
    field that prepares a real one for the database (the lookup's target field)."""

    sentinel: Any
    field: Field[Any, Any]


class CompiledRead:
    """A values_list queryset's SQL, compiled once, run as `rows(name=value, ...)`."""

    def __init__(
        self,
        queryset: QuerySet[Any, Any],
        slots: Mapping[str, Slot],
        *,
        unconverted: frozenset[int] = frozenset(),
    ) -> None:
        """`unconverted`: the indexes of columns given as the database gives them, for a
        caller that only compares them with each other (an id made a UUID on every row cost
        more than the row)."""
        self.using = queryset.db
        connection = connections[self.using]
        compiler = queryset.query.get_compiler(using=self.using)
        self.sql, params = compiler.as_sql()
        self._params = list(params)
        self._slots = {
            name: (slot.field, _positions(self._params, _prepare(slot, connection), name))
            for name, slot in slots.items()
        }
        selected = [column[0] for column in compiler.select[: compiler.col_count]]
        self._converters = [
            (index, tuple(functions), expression)
            for index, (functions, expression) in compiler.get_converters(selected).items()
            if index not in unconverted
        ]

    def rows(self, **values: Any) -> list[tuple[Any, ...]]:
        connection = connections[self.using]
        params = list(self._params)
        for name, (field, positions) in self._slots.items():
            prepared = field.get_db_prep_value(values[name], connection)
            for position in positions:
                params[position] = prepared
        with connection.cursor() as cursor:
            cursor.execute(self.sql, params)
            fetched = cursor.fetchall()
        if not self._converters:
            return [tuple(row) for row in fetched]
        return [self._convert(row, connection) for row in fetched]

    def _convert(self, row: Sequence[Any], connection: Any) -> tuple[Any, ...]:
        values = list(row)
        for index, functions, expression in self._converters:
            value = values[index]
            for convert in functions:
                value = convert(value, expression, connection)
            values[index] = value
        return tuple(values)


def _prepare(slot: Slot, connection: Any) -> Any:
    return slot.field.get_db_prep_value(slot.sentinel, connection)


def _positions(params: list[Any], prepared: Any, name: str) -> tuple[int, ...]:
    found = tuple(i for i, param in enumerate(params) if type(param) is type(prepared)
                  and param == prepared)  # fmt: skip
    if not found:
        raise ValueError(f"the sentinel for {name!r} is not among the statement's parameters")
    return found
