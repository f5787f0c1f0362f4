"""What waits for a second person: one queue of limit changes, voids, payout sign-offs and
corrections, each decided by a floor manager other than the one who asked."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone


class Approval(models.Model):
    class Kind(models.TextChoices):
        LIMIT_CHANGE = "limit_change", "limit or rule change"
        VOID = "void", "void of an open hand"
        PAYOUT = "payout", "large-payout sign-off"
        CORRECTION = "correction", "correction of a settled hand"
        VARIANCE = "variance", "table inventory variance"

    class Status(models.TextChoices):
        PENDING = "pending"
        APPROVED = "approved"
        REJECTED = "rejected"
        WITHDRAWN = "withdrawn"

    kind = models.CharField(max_length=20, choices=Kind.choices)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    table = models.ForeignKey("tables.Table", on_delete=models.PROTECT, related_name="approvals")
    hand = models.ForeignKey(
        "tables.Hand", null=True, blank=True, on_delete=models.PROTECT, related_name="approvals"
    )
    change = models.OneToOneField(
        "tables.TableChange",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="approval",
    )
    reason = models.TextField(blank=True)
    detail = models.JSONField(
        default=dict, blank=True, help_text="what is to be approved, as the approver sees it"
    )
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="requested_approvals"
    )
    requested_at = models.DateTimeField(default=timezone.now)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="decided_approvals",
    )
    decided_at = models.DateTimeField(null=True, blank=True)
    note = models.TextField(blank=True)

    class Meta:
        ordering = ["-requested_at", "-id"]
        indexes = [models.Index(fields=["status", "kind"], name="approval_queue")]
        constraints = [
            models.UniqueConstraint(
                fields=["hand", "kind"],
                condition=Q(status="pending", hand__isnull=False),
                name="one_pending_request_per_hand_and_kind",
            )
        ]

    def __str__(self) -> str:
        return f"{self.kind} {self.pk} ({self.status})"


class Signature(models.Model):
    """One person's signature on a large-payout sign-off (``payouts/signoff.py``): the
    settlement is stored once every tier it reaches has its signatures. Written once, never
    changed (append-only on PostgreSQL); each is audited in the table's chain."""

    approval = models.ForeignKey(Approval, on_delete=models.PROTECT, related_name="signatures")
    signed_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT)
    roles = models.JSONField(help_text="the signer's roles when signing")
    tier = models.PositiveSmallIntegerField(
        help_text="the tier (its index in the request's tiers) the signature counted for"
    )
    note = models.TextField(blank=True)
    signed_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["signed_at", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["approval", "signed_by"], name="one_signature_per_person"
            )
        ]

    def __str__(self) -> str:
        return f"signature of {self.signed_by_id} on {self.approval_id}"
