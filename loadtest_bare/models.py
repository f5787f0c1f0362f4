from django.db import models


class BareRow(models.Model):
    """One row per ``POST /bare/``: who sent it and when."""

    user_id = models.BigIntegerField()
    at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"bare row {self.pk}"
