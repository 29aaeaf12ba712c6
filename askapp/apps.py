from django.apps import AppConfig
from django.contrib.admin import apps as admin_apps


class AskappConfig(AppConfig):
    default = True
    name = "askapp"
    verbose_name = "askapp"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from askapp import writer  # noqa: F401 (connects the SQLite WAL receiver)
        from askapp.requestid import install_record_factory

        install_record_factory()


class AskappAdminConfig(admin_apps.AdminConfig):
    """Django's admin with askapp's site (askapp/admin_site.py) as `admin.site`."""

    default = False
    default_site = "askapp.admin_site.AskappAdminSite"
