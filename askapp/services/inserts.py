"""New rows inserted, and saved rows' columns updated, with statements compiled once: the
ask's turns, its new conversation, and the question stored first and settled by the answer.

`Model.objects.bulk_create` builds and compiles an InsertQuery on every call, which cost an
ask more than SQLite took to run it. `insert_new` keeps the part that matters, each field's
`pre_save` (the creation stamps) and `get_db_prep_save` (the value as the database takes it),
and reuses the INSERT text for a model and a number of rows. It serves models whose primary
key is set before saving (the UUIDs of turns and conversations): there is nothing to read
back, so nothing is.

Preparing each field's value through Django cost an ask more than the database took to run
both INSERTs (about 200 us for a conversation and two turns, docs/adr/0073). Where a value's
type settles what `get_db_prep_save` makes of it, the value is made here directly: a plain
field's value of its own type as it is, a UUID (a key or a reference to one) as the backend
takes it, a JSON list or object dumped once a statement (a question and its answer share
their intent and carried slots). Anything else goes through the field, as before.
"""

from __future__ import annotations

import functools
import json
import uuid
from collections.abc import Iterable, Sequence
from typing import Any

from django.db import connections, models
from django.db.models import Field, Model
from django.utils import timezone


def insert_new(instances: Sequence[Model], *, using: str = "default") -> None:
    """INSERT these new instances, all of one model and with their primary keys set, in one
    statement; afterwards they are saved instances, as after bulk_create."""
    if not instances:
        return
    model = type(instances[0])
    connection = connections[using]
    adapt = connection.ops.adapt_integerfield_value
    native_uuid = connection.features.has_native_uuid_field
    dumped: dict[int, str] = {}  # id of a JSON value -> its text, for this statement
    stamp, stamp_text = None, None
    params: list[Any] = []
    for instance in instances:
        if type(instance) is not model or instance.pk is None:
            raise ValueError("insert_new takes new instances of one model, their pk set")
        instance._prepare_related_fields_for_save(operation_name="insert_new")
        for field, kind, plain in _plan(model, connection.vendor):
            value = getattr(instance, field.attname) if kind is not _THROUGH else None
            # Each branch is what get_db_prep_save makes of a value of that type.
            if kind is _PLAIN_VALUE and type(value) is plain:
                params.append(value if plain is not int else adapt(value, _internal_type(field)))
            elif kind is _UUID and type(value) is uuid.UUID:
                params.append(value if native_uuid else value.hex)
            elif kind is _UUID and value is None and field.is_relation:
                params.append(None)
            elif kind is _JSON and type(value) in (list, dict):
                text = dumped.get(id(value)) if value else _EMPTY[type(value)]
                if text is None:
                    text = dumped[id(value)] = json.dumps(value)
                params.append(text)
            elif kind is _STAMP:
                # auto_now(_add)'s pre_save: now. One moment for the whole statement.
                if stamp is None:
                    stamp = timezone.now()
                    stamp_text = field.get_db_prep_save(stamp, connection)
                setattr(instance, field.attname, stamp)
                params.append(stamp_text)
            else:
                params.append(
                    field.get_db_prep_save(field.pre_save(instance, add=True), connection)
                )
    with connection.cursor() as cursor:
        cursor.execute(_sql(model, len(instances), connection.alias, connection.vendor), params)
    for instance in instances:
        instance._state.adding = False
        instance._state.db = using


def update_columns(instance: Model, names: Iterable[str], *, using: str = "default") -> None:
    """UPDATE the columns `names` of this saved instance's row to the instance's values (as
    `Model.objects.filter(pk=...).update(...)` would, without building the query)."""
    model = type(instance)
    connection = connections[using]
    fields = _named_fields(model, tuple(names))
    params = [f.get_db_prep_save(getattr(instance, f.attname), connection) for f in fields]
    params.append(model._meta.pk.get_db_prep_value(instance.pk, connection))
    with connection.cursor() as cursor:
        cursor.execute(_update_sql(model, fields, connection.alias), params)


@functools.lru_cache(maxsize=64)
def _named_fields(model: type[Model], names: tuple[str, ...]) -> tuple[Field[Any, Any], ...]:
    return tuple(model._meta.get_field(name) for name in names)


@functools.lru_cache(maxsize=64)
def _update_sql(model: type[Model], fields: tuple[Field[Any, Any], ...], using: str) -> str:
    quote = connections[using].ops.quote_name
    columns = ", ".join(f"{quote(field.column)} = %s" for field in fields)
    pk = quote(model._meta.pk.column)
    return f"UPDATE {quote(model._meta.db_table)} SET {columns} WHERE {pk} = %s"


@functools.cache
def _fields(model: type[Model]) -> tuple[Field[Any, Any], ...]:
    return tuple(model._meta.concrete_fields)


# Fields whose pre_save is the attribute and whose value, when it is already of this exact
# Python type, get_db_prep_save passes through as it is (integers through the backend's
# adapt_integerfield_value). Exact classes only: a subclass may prepare its values otherwise.
_PLAIN: dict[type[Field[Any, Any]], type] = {
    models.CharField: str,
    models.TextField: str,
    models.BooleanField: bool,
    models.IntegerField: int,
    models.PositiveIntegerField: int,
    models.PositiveSmallIntegerField: int,
    models.SmallIntegerField: int,
    models.BigIntegerField: int,
}


_PLAIN_VALUE, _UUID, _JSON, _STAMP, _THROUGH = "plain", "uuid", "json", "stamp", "through"
_EMPTY: dict[type, str] = {list: "[]", dict: "{}"}


@functools.lru_cache(maxsize=64)
def _plan(model: type[Model], vendor: str) -> tuple[tuple[Field[Any, Any], str, type | None], ...]:
    """Each concrete field, with how its value is made ready (and for a plain field the type
    it stores as it is). Exact classes only, whose pre_save is the attribute: a subclass may
    prepare its values otherwise."""
    return tuple((field, *_kind(field, vendor)) for field in _fields(model))


def _kind(field: Field[Any, Any], vendor: str) -> tuple[str, type | None]:
    if type(field) in _PLAIN:
        return _PLAIN_VALUE, _PLAIN[type(field)]
    if type(field) is models.UUIDField:
        return _UUID, None
    if type(field) is models.ForeignKey and type(field.target_field) is models.UUIDField:
        return _UUID, None  # None is NULL; a UUID goes as the key it refers to goes
    if type(field) is models.DateTimeField and (field.auto_now or field.auto_now_add):
        return _STAMP, None
    if type(field) is models.JSONField and field.encoder is None and vendor != "postgresql":
        # PostgreSQL takes psycopg's Jsonb wrapper, not text.
        return _JSON, None
    return _THROUGH, None


@functools.cache
def _internal_type(field: Field[Any, Any]) -> str:
    return field.get_internal_type()


@functools.lru_cache(maxsize=64)
def _sql(model: type[Model], rows: int, using: str, vendor: str) -> str:
    quote = connections[using].ops.quote_name
    columns = ", ".join(quote(field.column) for field in _fields(model))
    row = "(" + ", ".join(["%s"] * len(_fields(model))) + ")"
    return f"INSERT INTO {quote(model._meta.db_table)} ({columns}) VALUES {', '.join([row] * rows)}"
