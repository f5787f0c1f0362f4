"""Tables, seats, limit/rule changes, table events and hands.

Models hold fields, constraints and small reads; the workflow is in ``services.py``.
"""

from typing import Any

from django.conf import settings
from django.db import models
from django.db.models import Q


class Table(models.Model):
    class Status(models.TextChoices):
        CLOSED = "closed"
        OPEN = "open"

    name = models.CharField(max_length=100, unique=True)
    game = models.CharField(max_length=40, help_text="a registered game's code")
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.CLOSED)
    dealer = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="dealt_tables",
    )
    seat_count = models.PositiveSmallIntegerField(default=7)
    # The game's table limits in minor units (its ``limits_schema``), checked by the game.
    limits = models.JSONField(default=dict)
    smallest_chip = models.PositiveIntegerField(default=1)
    # Game rules overriding the engine's defaults (pay tables, rake schedule, options).
    rules = models.JSONField(default=dict, blank=True)
    # What the game carries from hand to hand, owned by the game and changed only through its
    # between-hand actions and hooks (casino.rules.contract): the designated-player rotation,
    # the button, blinds and missed-blind markers, the bank and the kitty.
    game_state = models.JSONField(default=dict, blank=True)
    next_hand_number = models.PositiveIntegerField(default=1)
    created_at = models.DateTimeField(auto_now_add=True)
    # The head of the table's own audit chain (payouts/chain.py): its last entry's number and
    # seal, moved under the table's row lock, so tables never wait for each other to audit.
    audit_seq = models.PositiveBigIntegerField(default=0, help_text="its audit chain's last seq")
    audit_hash = models.CharField(
        max_length=64, default="0" * 64, help_text="its audit chain's last seal"
    )

    class Meta:
        constraints = [
            models.CheckConstraint(condition=Q(seat_count__gte=2), name="table_two_seats_or_more"),
        ]
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name


class Seat(models.Model):
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seats")
    number = models.PositiveSmallIntegerField()
    player = models.CharField(max_length=100, blank=True, help_text="empty when nobody sits here")
    sitting_out = models.BooleanField(default=False)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["table", "number"], name="seat_number_once_per_table")
        ]
        ordering = ["table", "number"]

    def __str__(self) -> str:
        return f"{self.table} seat {self.number}"

    @property
    def in_play(self) -> bool:
        return bool(self.player) and not self.sitting_out


class TableChange(models.Model):
    """A requested change of limits, rules or rotation policy: what it changes. Who asked,
    why, and the decision are its request in the approvals queue (``self.approval``)."""

    table = models.ForeignKey(Table, on_delete=models.PROTECT, related_name="changes")
    changes = models.JSONField(help_text="the requested new values")
    before = models.JSONField(help_text="the table's values when requested")
    applies_from_hand = models.PositiveIntegerField(null=True, blank=True)

    class Meta:
        ordering = ["-id"]

    def __str__(self) -> str:
        return f"change {self.pk} of table {self.table_id}"


class TableEvent(models.Model):
    """Something that happened at a table between hands, as its game reported it (an offer of
    the designated-player position, a new banker, a returning player's choice), audited."""

    table = models.ForeignKey(Table, on_delete=models.PROTECT, related_name="events")
    hand = models.ForeignKey("Hand", null=True, blank=True, on_delete=models.PROTECT)
    kind = models.CharField(max_length=40)
    data = models.JSONField(default=dict)
    by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT)
    at = models.DateTimeField()

    class Meta:
        ordering = ["at", "id"]
        indexes = [models.Index(fields=["table", "-at", "-id"], name="tableevent_recent")]

    def __str__(self) -> str:
        return f"{self.kind} at table {self.table_id}"


class Hand(models.Model):
    class Status(models.TextChoices):
        OPEN = "open"
        SETTLED = "settled"
        VOIDED = "voided"

    table = models.ForeignKey(Table, on_delete=models.PROTECT, related_name="hands")
    number = models.PositiveIntegerField()
    game = models.CharField(max_length=40)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.OPEN)
    # A request on the hand waits for the floor (a void, a payout sign-off, a correction):
    # the hand takes nothing else until it is decided. Kept on the hand's row, which every
    # write to the hand locks, so a writer that waited for the lock reads it as it is now.
    held = models.BooleanField(default=False, help_text="a request on it waits for the floor")
    # Frozen when the hand opens.
    rules = models.JSONField(help_text="effective rules, limits, pay tables and rake")
    config = models.JSONField(
        default=dict,
        blank=True,
        help_text="the hand's set-up, as its game decided it when it opened",
    )
    seats = models.JSONField(help_text="seats in play when the hand opened")
    opened_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="opened_hands"
    )
    opened_at = models.DateTimeField()
    closed_at = models.DateTimeField(null=True, blank=True)
    void_reason = models.TextField(blank=True)
    voided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="voided_hands",
    )
    # The engine's state after the hand's stored actions, signed and bound to their count
    # (``tables.live``): the next live action starts from it instead of replaying the hand.
    # Never a source of truth: missing, stale or unverified, the hand is replayed from its
    # actions. Cleared once the hand is complete.
    live_snapshot = models.BinaryField(
        null=True,
        blank=True,
        editable=False,
        help_text="the engine's state after the stored actions, signed (tables.live)",
    )

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["table", "number"], name="hand_number_once_per_table"),
            # Hands are numbered from 1 at each table (``Table.next_hand_number``).
            models.CheckConstraint(condition=Q(number__gte=1), name="hand_numbered_from_one"),
            models.UniqueConstraint(
                fields=["table"], condition=Q(status="open"), name="one_open_hand_per_table"
            ),
        ]
        ordering = ["table", "-number"]

    def __str__(self) -> str:
        return f"{self.table} hand {self.number}"

    @property
    def settlement(self) -> Any:
        """The settlement in force: the latest correction, else the hand's settlement (None
        while the hand is unsettled). Reads ``settlements`` (prefetch it for lists)."""
        in_force = [row for row in self.settlements.all() if row.kind != "reversal"]
        return max(in_force, key=lambda row: row.pk) if in_force else None


class HandAction(models.Model):
    """One action of a live hand, in order: the hand's operation log."""

    hand = models.ForeignKey(Hand, on_delete=models.PROTECT, related_name="actions")
    index = models.PositiveIntegerField()
    action = models.JSONField()
    by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT)
    at = models.DateTimeField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["hand", "index"], name="action_index_once_per_hand")
        ]
        ordering = ["hand", "index"]

    def __str__(self) -> str:
        return f"hand {self.hand_id} action {self.index}"
