"""The database's own id (:class:`~casino.core.models.DatabaseIdentity`)."""

from __future__ import annotations

import uuid

from django.db import IntegrityError, transaction

from .models import DatabaseIdentity


def database_id() -> str:
    """This database's id, written at ``migrate``; written now if it is missing (a test
    database emptied between tests)."""
    row = DatabaseIdentity.objects.filter(pk=1).values_list("uuid", flat=True).first()
    if row is not None:
        return row
    try:
        with transaction.atomic():
            return DatabaseIdentity.objects.create(pk=1, uuid=str(uuid.uuid4())).uuid
    except IntegrityError:  # written by another process meanwhile
        return DatabaseIdentity.objects.values_list("uuid", flat=True).get(pk=1)
