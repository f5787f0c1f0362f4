from django.apps import AppConfig


class CoreConfig(AppConfig):
    name = "casino.core"
    label = "core"
    verbose_name = "Core"
