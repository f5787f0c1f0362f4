from django.apps import AppConfig


class HoldConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "hold"
    verbose_name = "Theoretical and actual hold"
