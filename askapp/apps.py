from django.apps import AppConfig
from django.contrib.admin import apps as admin_apps


class AskappConfig(AppConfig):
    default = True
    name = "askapp"
    verbose_name = "askapp"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from django.conf import settings

        from askapp import writer  # noqa: F401 (connects the SQLite WAL receiver)
        from askapp.database import remember_sqlite_statements
        from askapp.requestid import install_record_factory

        install_record_factory()
        if any(db["ENGINE"].endswith("sqlite3") for db in settings.DATABASES.values()):
            remember_sqlite_statements()


class AskappAdminConfig(admin_apps.AdminConfig):
    """Django's admin with askapp's site (askapp/admin_site.py) as `admin.site`."""

    default = False
    default_site = "askapp.admin_site.AskappAdminSite"
