"""manage.py demo_admin: make sure the demo has an admin user, without ever resetting one."""

from __future__ import annotations

import os
import secrets
from pathlib import Path
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand

PASSWORD_FILE = Path(settings.BASE_DIR) / "var" / "demo-admin-password.txt"


class Command(BaseCommand):
    help = (
        "Create the superuser 'admin' when no superuser exists. The password is "
        "DEMO_ADMIN_PASSWORD if set, otherwise a random one, printed once and kept in "
        "var/demo-admin-password.txt. An existing superuser is left alone."
    )

    def handle(self, *args: Any, **options: Any) -> None:
        users = get_user_model().objects
        if users.filter(is_superuser=True).exists():
            self.stdout.write(f"An admin user exists already ({self._where_password_is()}).")
            return
        password = os.environ.get("DEMO_ADMIN_PASSWORD") or secrets.token_urlsafe(12)
        users.create_superuser(username="admin", email="", password=password)
        if not os.environ.get("DEMO_ADMIN_PASSWORD"):
            PASSWORD_FILE.parent.mkdir(parents=True, exist_ok=True)
            PASSWORD_FILE.write_text(password + "\n", encoding="utf-8")
            PASSWORD_FILE.chmod(0o600)
        self.stdout.write(f"Created the admin user: username admin, password {password}")

    def _where_password_is(self) -> str:
        if PASSWORD_FILE.exists():
            return f"its first password is in {PASSWORD_FILE.relative_to(settings.BASE_DIR)}"
        return "its password is the one you set"
