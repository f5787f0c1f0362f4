from django.apps import AppConfig


class FilingsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "filings"
    verbose_name = "Tax and cash-reporting records"
