from django.apps import AppConfig


class AskappConfig(AppConfig):
    name = "askapp"
    verbose_name = "askapp"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from askapp import writer  # noqa: F401 (connects the SQLite WAL receiver)
