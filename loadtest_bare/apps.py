from django.apps import AppConfig


class LoadtestBareConfig(AppConfig):
    name = "loadtest_bare"
    verbose_name = "Load test: bare endpoint"
    default_auto_field = "django.db.models.BigAutoField"
