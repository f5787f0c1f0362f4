from django.apps import AppConfig


class TabletConfig(AppConfig):
    name = "tablet"
    verbose_name = "Dealer tablet"
