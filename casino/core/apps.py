from django.apps import AppConfig


class CoreConfig(AppConfig):
    name = "casino.core"
    label = "core"
    verbose_name = "Core"

    def ready(self) -> None:
        # The Celery app, so that every task (``shared_task``) binds to it in every process
        # that runs Django: the web server sends tasks through it, the workers run them.
        from casino import celery  # noqa: F401
