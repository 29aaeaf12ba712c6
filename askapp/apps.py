from django.apps import AppConfig


class AskappConfig(AppConfig):
    name = "askapp"
    verbose_name = "askapp"
    default_auto_field = "django.db.models.BigAutoField"
