"""askapp's admin site: Django's, with a login that counts failures (askapp/forms.py) and
answers 429 once an account or address is locked, as the site's own login does.

It lives outside the askapp.admin package: that package registers models on `admin.site`,
which is this class, built lazily on first use."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest, HttpResponse

from askapp.forms import AdminLoginForm


class AskappAdminSite(admin.AdminSite):
    login_form = AdminLoginForm

    def login(
        self, request: HttpRequest, extra_context: dict[str, Any] | None = None
    ) -> HttpResponse:
        response = super().login(request, extra_context)
        form = (getattr(response, "context_data", None) or {}).get("form")
        if getattr(form, "throttled", False):
            response.status_code = 429
        return response
