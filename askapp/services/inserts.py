"""New rows inserted with a statement compiled once: the ask's turns and its new conversation.

`Model.objects.bulk_create` builds and compiles an InsertQuery on every call, which cost an
ask more than SQLite took to run it. `insert_new` keeps the part that matters, each field's
`pre_save` (the creation stamps) and `get_db_prep_save` (the value as the database takes it),
and reuses the INSERT text for a model and a number of rows. It serves models whose primary
key is set before saving (the UUIDs of turns and conversations): there is nothing to read
back, so nothing is.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any

from django.db import connections
from django.db.models import Field, Model


def insert_new(instances: Sequence[Model], *, using: str = "default") -> None:
    """INSERT these new instances, all of one model and with their primary keys set, in one
    statement; afterwards they are saved instances, as after bulk_create."""
    if not instances:
        return
    model = type(instances[0])
    connection = connections[using]
    fields = _fields(model)
    params: list[Any] = []
    for instance in instances:
        if type(instance) is not model or instance.pk is None:
            raise ValueError("insert_new takes new instances of one model, their pk set")
        instance._prepare_related_fields_for_save(operation_name="insert_new")
        params += [f.get_db_prep_save(f.pre_save(instance, add=True), connection) for f in fields]
    with connection.cursor() as cursor:
        cursor.execute(_sql(model, len(instances), connection.alias, connection.vendor), params)
    for instance in instances:
        instance._state.adding = False
        instance._state.db = using


@functools.cache
def _fields(model: type[Model]) -> tuple[Field[Any, Any], ...]:
    return tuple(model._meta.concrete_fields)


@functools.lru_cache(maxsize=64)
def _sql(model: type[Model], rows: int, using: str, vendor: str) -> str:
    quote = connections[using].ops.quote_name
    columns = ", ".join(quote(field.column) for field in _fields(model))
    row = "(" + ", ".join(["%s"] * len(_fields(model))) + ")"
    return f"INSERT INTO {quote(model._meta.db_table)} ({columns}) VALUES {', '.join([row] * rows)}"
