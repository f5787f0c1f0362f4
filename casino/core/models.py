from django.conf import settings
from django.db import models


class IdempotencyRecord(models.Model):
    """The first response to a state-changing POST sent with an ``Idempotency-Key``.

    A repeat with the same key and the same request gets this response back and
    changes nothing; the same key with a different request is a conflict (409).
    Keys are scoped per user. The row is written with the answer as the last statement of
    the request's own transaction, so of two requests with one key only one commits; the
    other waits on this row, rolls back and answers as the first did
    (``casino/core/idempotency.py``).
    """

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT)
    key = models.CharField(max_length=200)
    fingerprint = models.CharField(max_length=64, help_text="sha256 of method, path and body")
    response_status = models.PositiveSmallIntegerField()
    response_body = models.JSONField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "key"], name="idempotency_key_once_per_user")
        ]

    def __str__(self) -> str:
        return f"{self.user_id}:{self.key}"


class DatabaseIdentity(models.Model):
    """This database's id: a random UUID written once, when the database is migrated.

    Every signed audit checkpoint names it, so an anchor file or an export is bound to the
    database it describes: a check against another database's anchors says so in words
    instead of reporting entries removed. Append-only on PostgreSQL (core ``0005``)."""

    uuid = models.CharField(max_length=36, unique=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.CheckConstraint(condition=models.Q(id=1), name="one_database_id")]

    def __str__(self) -> str:
        return self.uuid
