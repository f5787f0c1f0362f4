"""Settlements with their payout lines, the sealed audit chain and audit checks.

Settlements, their seat rows and payout lines and the audit entries are append-only: on
PostgreSQL a trigger refuses UPDATE, DELETE and TRUNCATE (migration ``0002``); a correction
is a new audited record.
"""

from django.conf import settings
from django.db import models


class Settlement(models.Model):
    """A settled hand: its history and the engine's full result.

    ``history`` is the hand as the one game contract stores every hand, ``{game, rules,
    config, actions}``; replaying it through the game reproduces ``result`` exactly, and the
    audit check re-settles every stored hand that way.
    """

    class Kind(models.TextChoices):
        SETTLEMENT = "settlement", "settlement"
        REVERSAL = "reversal", "reversal of a settlement"
        CORRECTION = "correction", "corrected settlement"

    hand = models.ForeignKey("tables.Hand", on_delete=models.PROTECT, related_name="settlements")
    kind = models.CharField(
        max_length=12,
        choices=Kind.choices,
        default=Kind.SETTLEMENT,
        help_text="a hand's settlement; a correction adds a reversal of the settlement in force "
        "(every amount negated) and the corrected settlement",
    )
    corrects = models.ForeignKey(
        "self",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="corrected_by",
        help_text="the settlement a reversal cancels and a correction replaces",
    )
    history = models.JSONField(help_text="the hand: {game, rules, config, actions}")
    result = models.JSONField()
    rake = models.BigIntegerField()
    settled_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT)
    settled_at = models.DateTimeField()

    class Meta:
        ordering = ["-settled_at", "-id"]
        constraints = [
            models.UniqueConstraint(
                fields=["hand"], condition=models.Q(kind="settlement"), name="hand_settled_once"
            ),
            models.CheckConstraint(
                condition=models.Q(kind="settlement", corrects__isnull=True)
                | (~models.Q(kind="settlement") & models.Q(corrects__isnull=False)),
                name="only_corrections_correct",
            ),
        ]

    def __str__(self) -> str:
        return f"settlement {self.pk} of hand {self.hand_id}"


class SeatSettlement(models.Model):
    """One party's result: a seat (from 1), or the house (seat 0, role ``house``) in a game the
    house banks."""

    settlement = models.ForeignKey(Settlement, on_delete=models.PROTECT, related_name="seats")
    seat = models.PositiveSmallIntegerField()
    role = models.CharField(max_length=20)
    status = models.CharField(max_length=10)
    hand_description = models.CharField(max_length=200, blank=True)
    rake = models.BigIntegerField()
    net = models.BigIntegerField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["settlement", "seat"], name="seat_once_per_settlement")
        ]
        ordering = ["settlement", "seat"]

    def __str__(self) -> str:
        return f"settlement {self.settlement_id} seat {self.seat}"


class PayoutLine(models.Model):
    seat = models.ForeignKey(SeatSettlement, on_delete=models.PROTECT, related_name="lines")
    wager = models.CharField(max_length=40)
    stake = models.BigIntegerField()
    outcome = models.CharField(max_length=10)
    amount = models.BigIntegerField(help_text="won (+) or lost (-)")
    odds = models.CharField(max_length=20, blank=True)
    against = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="the opposing seat, on a bank's line"
    )
    capped_from = models.BigIntegerField(
        null=True, blank=True, help_text="the payout before the per-hand cap"
    )

    class Meta:
        ordering = ["seat", "id"]

    def __str__(self) -> str:
        return f"{self.wager} {self.outcome} {self.amount}"


class AuditEntry(models.Model):
    """One append-only entry of the audit chain: who did what, when, before and after.

    ``hash`` is an HMAC (keyed with ``AUDIT_KEY``, which the database never holds) over the
    entry's content, its sequence number and the previous entry's hash, so editing,
    removing or inserting an entry breaks the chain, and nobody without the key can seal a
    forged one. ``seq`` runs 1, 2, 3, ... without gaps. On PostgreSQL a trigger refuses
    UPDATE, DELETE and TRUNCATE (``payouts/migrations/0002``).
    """

    seq = models.PositiveBigIntegerField(unique=True, help_text="1, 2, 3, ... without gaps")
    at = models.DateTimeField()
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT
    )
    actor_name = models.CharField(max_length=150, blank=True)
    action = models.CharField(max_length=50)
    table = models.ForeignKey("tables.Table", null=True, blank=True, on_delete=models.PROTECT)
    hand = models.ForeignKey("tables.Hand", null=True, blank=True, on_delete=models.PROTECT)
    subject = models.CharField(max_length=100, help_text="what the entry is about, e.g. hand:12")
    before = models.JSONField(null=True, blank=True)
    after = models.JSONField(null=True, blank=True)
    prev_hash = models.CharField(max_length=64)
    hash = models.CharField(max_length=64, unique=True, help_text="HMAC-SHA256 seal")

    class Meta:
        ordering = ["seq"]
        # The compliance desk filters the log by action (and lists the actions there are).
        indexes = [models.Index(fields=["action"], name="auditentry_action")]

    def __str__(self) -> str:
        return f"{self.pk} {self.action} {self.subject}"


class AuditChainHead(models.Model):
    """A single row locked while appending, so entries chain one after another. The head
    itself is not trusted by the audit check: anchors written outside the database are
    (``payouts/chain.py``)."""

    seq = models.PositiveBigIntegerField(default=0, help_text="the last entry's seq")
    last_hash = models.CharField(max_length=64, default="0" * 64)

    def __str__(self) -> str:
        return self.last_hash


class AuditCheck(models.Model):
    """A run of the audit verification task: the chain and every stored settlement.

    While it runs, the task reports how far it has got (``stage``, ``checked`` of ``total``:
    the audit entries, then the hands), written in short transactions of their own so a
    reader sees them (``payouts/audit.py``)."""

    class Status(models.TextChoices):
        PENDING = "pending"
        PASSED = "passed"
        FAILED = "failed"

    class Stage(models.TextChoices):
        QUEUED = "queued", "waiting for the worker"
        CHAIN = "chain", "verifying the audit chain"
        HANDS = "hands", "re-settling every hand"
        DONE = "done", "everything checked"

    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT
    )
    requested_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    report = models.JSONField(default=dict, blank=True)
    stage = models.CharField(max_length=10, choices=Stage.choices, default=Stage.QUEUED)
    checked = models.PositiveBigIntegerField(
        default=0, help_text="audit entries and hands checked so far"
    )
    total = models.PositiveBigIntegerField(
        default=0, help_text="audit entries and hands to check (counted when the check starts)"
    )

    class Meta:
        ordering = ["-requested_at", "-id"]

    def __str__(self) -> str:
        return f"audit check {self.pk} ({self.status})"


class SignoffLimit(models.Model):
    """Above these amounts a settlement waits for a floor manager's signature: one payout line
    paying more than ``line``, or a party's net for the hand above ``net`` (minor units).

    A table's own limits come first, then its game's, then the house default (settings
    ``PAYOUT_SIGNOFF_LINE`` and ``PAYOUT_SIGNOFF_NET``)."""

    table = models.OneToOneField(
        "tables.Table",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="signoff_limit",
    )
    game = models.CharField(max_length=40, blank=True, help_text="a game code, for all its tables")
    line = models.BigIntegerField()
    net = models.BigIntegerField()
    set_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT)
    set_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [
            models.CheckConstraint(
                condition=(models.Q(table__isnull=False) & models.Q(game=""))
                | (models.Q(table__isnull=True) & ~models.Q(game="")),
                name="signoff_limit_for_a_table_or_a_game",
            ),
            models.UniqueConstraint(
                fields=["game"], condition=~models.Q(game=""), name="signoff_limit_once_per_game"
            ),
            models.CheckConstraint(
                condition=models.Q(line__gt=0) & models.Q(net__gt=0),
                name="signoff_limits_positive",
            ),
        ]

    def __str__(self) -> str:
        scope = f"table {self.table_id}" if self.table_id else self.game
        return f"sign-off above {self.line}/{self.net} at {scope}"
