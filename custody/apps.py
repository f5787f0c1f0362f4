from django.apps import AppConfig


class CustodyConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "custody"
    verbose_name = "Chip custody"
