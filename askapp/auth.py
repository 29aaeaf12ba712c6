"""Authentication that reads a user's clearance in the query that reads the user.

Every ask needs to know whether its user may draw on INTERNAL material (the
`askapp.view_internal` permission, their own or a group's). Django's ModelBackend would load
every permission in two more queries, and even one small query is a round trip on each ask.
Both ways a request authenticates, the session (`ClearanceBackend.get_user`) and an API
token (`TokenAuthentication`), instead read the user with a `may_view_internal` column,
which askapp.engine_setup.clearance_for uses when it is there.
"""

from __future__ import annotations

import functools
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.backends import ModelBackend
from django.contrib.auth.models import Group, Permission
from django.contrib.contenttypes.models import ContentType
from django.db import connection, connections
from django.db.models.expressions import RawSQL
from rest_framework import authentication, exceptions
from rest_framework.authtoken.models import Token

from askapp import store
from askapp.models import INTERNAL_CLEARANCE_PERMISSION
from askapp.selectors.compiled import CompiledRead, Slot

CLEARANCE_ATTRIBUTE = "may_view_internal"
# The knowledge base's version, read in the same statement as the user (None: not read):
# the ask's question takes it as the store's probe (askapp/store.py: probed), one statement
# fewer an ask.
KNOWLEDGE_VERSION_ATTRIBUTE = "askapp_knowledge_version"


def may_view_internal() -> RawSQL:
    """True when the user of the row (the user table in the query) holds the permission
    directly or through a group."""
    user_model = get_user_model()
    column = f"{user_model._meta.db_table}.{user_model._meta.pk.column}"
    return RawSQL(clearance_sql(column), _permission_name())


def user_may_view_internal(user_id: Any) -> bool:
    """The same question for one user id, in one query of its own."""
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT {clearance_sql('%s')}", [*_permission_name(), user_id, user_id])
        return bool(cursor.fetchone()[0])


def _permission_name() -> list[str]:
    return INTERNAL_CLEARANCE_PERMISSION.split(".")


@functools.cache
def clearance_sql(user: str) -> str:
    """EXISTS(the permission is the user's own or one of their groups'), with `user` the SQL
    for the user's id. Plain SQL: the ORM's version of this join costs more to build on every
    request than the database takes to answer it."""
    user_model = get_user_model()
    table = {
        "permission": Permission._meta.db_table,
        "content_type": ContentType._meta.db_table,
        "user_permission": user_model.user_permissions.through._meta.db_table,
        "user_group": user_model.groups.through._meta.db_table,
        "group_permission": Group.permissions.through._meta.db_table,
    }
    user_fk = user_model._meta.model_name + "_id"
    return (
        f"EXISTS (SELECT 1 FROM {table['permission']} p JOIN {table['content_type']} ct"
        " ON ct.id = p.content_type_id WHERE ct.app_label = %s AND p.codename = %s AND ("
        f" EXISTS (SELECT 1 FROM {table['user_permission']} up"
        f" WHERE up.permission_id = p.id AND up.{user_fk} = {user})"
        f" OR EXISTS (SELECT 1 FROM {table['user_group']} ug JOIN {table['group_permission']} gp"
        f" ON gp.group_id = ug.group_id WHERE gp.permission_id = p.id AND ug.{user_fk} = {user})))"
    )


class ClearanceBackend(ModelBackend):
    """Django's ModelBackend; a session's user comes with its clearance (one query)."""

    def get_user(self, user_id: Any) -> Any:
        user_model = get_user_model()
        using = user_model._default_manager.db
        read, width = _user_read(using)
        try:
            rows = read.rows(user=user_id)
        except (TypeError, ValueError):  # a session holding an id no user could have
            return None
        if not rows:
            return None
        user = _instance(user_model, rows[0][:width], using)
        _annotated(user, rows[0][width:])
        return user if self.user_can_authenticate(user) else None


class TokenAuthentication(authentication.TokenAuthentication):
    """DRF's token authentication; the token's user comes with its clearance (one query)."""

    def authenticate_credentials(self, key: str) -> tuple[Any, Token]:
        using = Token.objects.db
        read, end = _token_read(using)
        rows = read.rows(key=key)
        if not rows:
            raise exceptions.AuthenticationFailed("Invalid token.")
        width = len(Token._meta.concrete_fields)
        token = _instance(Token, rows[0][:width], using)
        user = _instance(get_user_model(), rows[0][width:end], using)
        if not user.is_active:
            raise exceptions.AuthenticationFailed("User inactive or deleted.")
        _annotated(user, rows[0][end:])
        token.user = user
        return user, token


def _annotated(user: Any, extra: tuple[Any, ...]) -> None:
    """The user's clearance, and the knowledge base's version when the read brought it."""
    setattr(user, CLEARANCE_ATTRIBUTE, extra[0])
    setattr(user, KNOWLEDGE_VERSION_ATTRIBUTE, extra[1] if len(extra) > 1 else None)


# Both reads are compiled to SQL once a process (askapp/selectors/compiled.py): building the
# queryset with its clearance column cost a request more than the query.
_SOME_USER = -(2**31) + 11
_SOME_KEY = "\x00a token"


@functools.lru_cache(maxsize=4)
def _user_read(using: str) -> tuple[CompiledRead, int]:
    """A user by id, every column (how many: the width), whether they may view INTERNAL
    material, and the knowledge base's version."""
    user_model = get_user_model()
    users = user_model._default_manager.using(using).filter(pk=_SOME_USER)
    columns = [field.name for field in user_model._meta.concrete_fields]
    annotated = users.annotate(**{CLEARANCE_ATTRIBUTE: may_view_internal(), **_version(using)})
    queryset = annotated.values_list(*columns, CLEARANCE_ATTRIBUTE, *_version(using))
    read = CompiledRead(queryset, {"user": Slot(_SOME_USER, user_model._meta.pk)})
    return read, len(columns)


@functools.lru_cache(maxsize=4)
def _token_read(using: str) -> tuple[CompiledRead, int]:
    """A token by key, every column of it and of its user (how many: the width), the user's
    clearance, and the knowledge base's version."""
    tokens = Token.objects.using(using).filter(key=_SOME_KEY)
    user_columns = [f"user__{f.name}" for f in get_user_model()._meta.concrete_fields]
    token_columns = [field.name for field in Token._meta.concrete_fields]
    queryset = tokens.annotate(clearance=may_view_internal(), **_version(using)).values_list(
        *token_columns, *user_columns, "clearance", *_version(using)
    )
    read = CompiledRead(queryset, {"key": Slot(_SOME_KEY, Token._meta.pk)})
    return read, len(token_columns) + len(user_columns)


def _version(using: str) -> dict[str, RawSQL]:
    """The knowledge base's version as a column, on the databases that keep it."""
    if connections[using].vendor not in store.VERSIONED:
        return {}
    return {KNOWLEDGE_VERSION_ATTRIBUTE: RawSQL(store.VERSION_SUBQUERY, [])}


def _instance(model: Any, values: tuple[Any, ...], using: str) -> Any:
    """A model instance from a row (read from `using`) holding each of its concrete columns,
    in order."""
    return model.from_db(using, _attnames(model), values)


@functools.cache
def _attnames(model: Any) -> list[str]:
    return [field.attname for field in model._meta.concrete_fields]
