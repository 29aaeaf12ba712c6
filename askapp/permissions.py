"""Authorization beyond Django's model permissions: what a user's answers may draw on.

Classification is an allow-list (engine.types): PUBLIC for everyone who may chat, INTERNAL too
for users with askapp.view_internal (or superusers). RESTRICTED is in no one's clearance.
"""

from __future__ import annotations

import functools
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group, Permission
from django.contrib.contenttypes.models import ContentType
from django.db import connection

from askapp.models import INTERNAL_CLEARANCE_PERMISSION
from engine import INTERNAL, PUBLIC

PUBLIC_ONLY: frozenset[str] = frozenset({PUBLIC})
WITH_INTERNAL: frozenset[str] = frozenset({PUBLIC, INTERNAL})
_MODEL_BACKEND = "django.contrib.auth.backends.ModelBackend"


def clearance_for(user: Any) -> frozenset[str]:
    """Classifications a user's answers may draw on. RESTRICTED is in no one's clearance:
    it never reaches an answer, whoever asks."""
    if user is None or not user.is_authenticated or not user.is_active:
        return PUBLIC_ONLY
    if user.is_superuser or _has_internal_permission(user):
        return WITH_INTERNAL
    return PUBLIC_ONLY


def _has_internal_permission(user: Any) -> bool:
    """`user.has_perm("askapp.view_internal")` in one small query instead of two.

    With Django's ModelBackend alone (askapp's configuration) a permission comes from the
    user or one of their groups, which one query answers; ModelBackend would read every
    permission of both, in two queries, on each ask. Any other backend is asked the usual way.
    """
    if list(settings.AUTHENTICATION_BACKENDS) != [_MODEL_BACKEND]:
        return bool(user.has_perm(INTERNAL_CLEARANCE_PERMISSION))
    app_label, codename = INTERNAL_CLEARANCE_PERMISSION.split(".")
    with connection.cursor() as cursor:
        cursor.execute(_permission_sql(), [app_label, codename, user.pk, user.pk])
        return cursor.fetchone() is not None


@functools.cache
def _permission_sql() -> str:
    """Is the permission the user's own, or one of their groups'? Plain SQL: the ORM's
    version of this join costs more to build than the database takes to answer it."""
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
        f"SELECT 1 FROM {table['permission']} p JOIN {table['content_type']} ct"
        " ON ct.id = p.content_type_id WHERE ct.app_label = %s AND p.codename = %s AND ("
        f" EXISTS (SELECT 1 FROM {table['user_permission']} up"
        f" WHERE up.permission_id = p.id AND up.{user_fk} = %s)"
        f" OR EXISTS (SELECT 1 FROM {table['user_group']} ug JOIN {table['group_permission']} gp"
        f" ON gp.group_id = ug.group_id WHERE gp.permission_id = p.id AND ug.{user_fk} = %s))"
    )
