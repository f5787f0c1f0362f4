"""Casino table-game management and dealer-assist system.

Nothing is imported here, so that ``python -m casino.audit_verify`` runs with the standard
library and ``cryptography`` alone. The Celery app (``casino.celery``) is loaded when Django
starts (``casino.core.apps``); ``celery -A casino`` finds it there too.
"""
