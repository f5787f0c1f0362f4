"""Casino table-game management and dealer-assist system."""

from .celery import app as celery_app

__all__ = ["celery_app"]
