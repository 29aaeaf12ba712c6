"""Users, groups and API tokens in the admin, under the same guard as askapp's own admins
(askapp/admin/guard.py): Django's and DRF's admins for them let a changelist URL filter on any
field, a regular expression included.

The admin's login counts failed logins per account and per address, as the site's does
(askapp/admin_site.py, askapp/api/throttles.py).

An API token is a password: its list shows whose it is and when it was made, never the key
(`manage.py create_api_token` prints a user's key to whoever runs the server).
"""

from __future__ import annotations

from django.contrib import admin
from django.contrib.auth import get_user_model
from django.contrib.auth.admin import GroupAdmin, UserAdmin
from django.contrib.auth.models import Group
from rest_framework.authtoken.admin import TokenAdmin
from rest_framework.authtoken.models import TokenProxy

from askapp.admin.guard import GuardedAdmin, date_lookups, field_lookups, related_lookups

User = get_user_model()


class GuardedUserAdmin(GuardedAdmin, UserAdmin):
    allowed_lookups = (
        field_lookups("is_staff") | field_lookups("is_superuser") | field_lookups("is_active")
        | related_lookups("groups")
    )  # fmt: skip


class GuardedGroupAdmin(GuardedAdmin, GroupAdmin):
    pass


class GuardedTokenAdmin(GuardedAdmin, TokenAdmin):
    list_display = ("user", "created")
    allowed_lookups = date_lookups("created")


for model, model_admin in ((User, GuardedUserAdmin), (Group, GuardedGroupAdmin),
                           (TokenProxy, GuardedTokenAdmin)):  # fmt: skip
    if admin.site.is_registered(model):
        admin.site.unregister(model)
    admin.site.register(model, model_admin)
