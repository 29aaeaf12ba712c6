"""Authorization beyond Django's model permissions: what a user's answers may draw on.

Classification is an allow-list (engine.types): PUBLIC for everyone who may chat, INTERNAL too
for users with askapp.view_internal (or superusers). RESTRICTED is in no one's clearance.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings

from askapp.auth import CLEARANCE_ATTRIBUTE, user_may_view_internal
from askapp.models import INTERNAL_CLEARANCE_PERMISSION
from engine import INTERNAL, PUBLIC

PUBLIC_ONLY: frozenset[str] = frozenset({PUBLIC})
WITH_INTERNAL: frozenset[str] = frozenset({PUBLIC, INTERNAL})
_MODEL_BACKEND = "django.contrib.auth.backends.ModelBackend"
_CLEARANCE_BACKEND = "askapp.auth.ClearanceBackend"


def clearance_for(user: Any) -> frozenset[str]:
    """Classifications a user's answers may draw on. RESTRICTED is in no one's clearance:
    it never reaches an answer, whoever asks."""
    if user is None or not user.is_authenticated or not user.is_active:
        return PUBLIC_ONLY
    if user.is_superuser:
        return WITH_INTERNAL
    read_with_the_user = getattr(user, CLEARANCE_ATTRIBUTE, None)  # askapp/auth.py
    if read_with_the_user is not None:
        return WITH_INTERNAL if read_with_the_user else PUBLIC_ONLY
    return WITH_INTERNAL if _has_internal_permission(user) else PUBLIC_ONLY


def _has_internal_permission(user: Any) -> bool:
    """`user.has_perm("askapp.view_internal")` in one small query instead of two.

    With Django's ModelBackend (or askapp's, which extends it) a permission comes from the
    user or one of their groups, which one query answers; ModelBackend would read every
    permission of both, in two queries, on each ask. Any other backend is asked the usual way.
    """
    if list(settings.AUTHENTICATION_BACKENDS) not in ([_MODEL_BACKEND], [_CLEARANCE_BACKEND]):
        return bool(user.has_perm(INTERNAL_CLEARANCE_PERMISSION))
    return user_may_view_internal(user.pk)
