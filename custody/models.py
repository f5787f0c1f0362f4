"""Chip custody: the chips themselves, as a pit accounts for them.

- A **chip set** is a property's denominations (chips with their colours, and the cash notes
  the count team counts), with the variance thresholds the property reports and notifies at.
- A table's **inventory** (its tray) is counted by denomination when it opens (the
  **opener**, proposed from the last closer: "auto-roll") and when it closes (the
  **closer**), each signed by a dealer and a floor manager, two different people.
- **Fills** (chips from the cage to a table) and **credits** (chips from a table to the cage)
  are **slips** numbered per property, kind and calendar year with no gaps: a void slip keeps
  its number.
- The **drop** is the counted contents of a table's drop box for a gaming day (cash and
  chips by denomination), entered and signed by two members of the count team; a correction
  is a new count that names the one it corrects, which stays.

An amount is always a count per denomination (``{"500": 20}``: twenty chips of 5.00) and its
total in minor units. Who signed what is a :class:`Signature` (append-only on PostgreSQL, as
the drop counts are); every step is audited in the table's chain.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone


class ChipSet(models.Model):
    property_name = models.CharField(max_length=100, unique=True, help_text="the property's name")
    currency = models.CharField(max_length=3, default="USD")
    report_variance_above = models.PositiveBigIntegerField(
        default=2_500,
        help_text="a closer further than this from the expected tray (minor units) needs a "
        "reason, waits for review and is reported",
    )
    notify_variance_above = models.PositiveBigIntegerField(
        default=10_000,
        help_text="a variance above this (minor units) is also notified to the regulator",
    )

    def __str__(self) -> str:
        return f"chips of {self.property_name}"


class Denomination(models.Model):
    class Form(models.TextChoices):
        CHIP = "chip"
        CASH = "cash", "cash note"

    chip_set = models.ForeignKey(ChipSet, on_delete=models.CASCADE, related_name="denominations")
    form = models.CharField(max_length=4, choices=Form.choices, default=Form.CHIP)
    value = models.PositiveBigIntegerField(help_text="minor units")
    colour = models.CharField(max_length=40, blank=True, help_text="a chip's colour, in words")
    hex = models.CharField(max_length=7, blank=True, help_text="the colour a page draws it in")

    class Meta:
        ordering = ["form", "value"]
        constraints = [
            models.UniqueConstraint(
                fields=["chip_set", "form", "value"], name="denomination_once_per_set"
            ),
            models.CheckConstraint(condition=Q(value__gt=0), name="denomination_above_zero"),
        ]

    def __str__(self) -> str:
        return f"{self.form} {self.value}"


class Inventory(models.Model):
    """A table's tray counted by denomination: an opener or a closer."""

    class Kind(models.TextChoices):
        OPENER = "opener"
        CLOSER = "closer"

    class Status(models.TextChoices):
        COUNTED = "counted", "counted, waiting for the second signature"
        SIGNED = "signed"
        WITHDRAWN = "withdrawn"

    table = models.ForeignKey("tables.Table", on_delete=models.PROTECT, related_name="inventories")
    kind = models.CharField(max_length=6, choices=Kind.choices)
    status = models.CharField(max_length=9, choices=Status.choices, default=Status.COUNTED)
    gaming_day = models.DateField()
    counts = models.JSONField(help_text="chips per denomination: {value: count}")
    total = models.BigIntegerField(help_text="minor units")
    # An opener proposes the table's last closer ("auto-roll"): what was proposed, and whether
    # the count differed from it.
    proposed = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    # A closer: the opener of its window, the tray the system expected and the difference.
    opener = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.PROTECT, related_name="closers"
    )
    expected = models.BigIntegerField(null=True, blank=True)
    variance = models.BigIntegerField(null=True, blank=True, help_text="counted − expected")
    reason = models.TextField(blank=True)
    counted_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT)
    counted_at = models.DateTimeField(default=timezone.now)
    signed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-counted_at", "-id"]
        constraints = [
            models.UniqueConstraint(
                fields=["table"],
                condition=Q(status="counted"),
                name="one_unsigned_inventory_per_table",
            ),
        ]
        indexes = [models.Index(fields=["table", "kind", "-signed_at"], name="inventory_recent")]

    def __str__(self) -> str:
        return f"{self.kind} {self.pk} of table {self.table_id}"


class SlipSeries(models.Model):
    """The last number given to a property's slips of one kind in one calendar year; its row
    is locked while a slip takes the next, so numbers never repeat and never skip."""

    property_name = models.CharField(max_length=100)
    kind = models.CharField(max_length=6)
    year = models.PositiveSmallIntegerField()
    last = models.PositiveIntegerField(default=0)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["property_name", "kind", "year"], name="one_series_a_year"
            )
        ]

    def __str__(self) -> str:
        return f"{self.kind} slips of {self.year}: {self.last}"


class Slip(models.Model):
    """A fill (chips from the cage to the table) or a credit (chips from the table to the
    cage). A fill goes requested → issued (the cage signs what left) → received (the dealer
    and a floor manager sign at the table); a credit goes requested → issued (the dealer and
    a floor manager sign what left the table) → received (the cage signs)."""

    class Kind(models.TextChoices):
        FILL = "fill"
        CREDIT = "credit"

    class Status(models.TextChoices):
        REQUESTED = "requested"
        ISSUED = "issued", "on its way"
        RECEIVED = "received"
        VOID = "void"

    kind = models.CharField(max_length=6, choices=Kind.choices)
    property_name = models.CharField(max_length=100)
    year = models.PositiveSmallIntegerField()
    number = models.PositiveIntegerField()
    table = models.ForeignKey("tables.Table", on_delete=models.PROTECT, related_name="slips")
    gaming_day = models.DateField()
    status = models.CharField(max_length=9, choices=Status.choices, default=Status.REQUESTED)
    counts = models.JSONField(help_text="chips per denomination: {value: count}")
    total = models.BigIntegerField(help_text="minor units")
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    requested_at = models.DateTimeField(default=timezone.now)
    issued_at = models.DateTimeField(
        null=True, blank=True, help_text="its first side signed: the chips left"
    )
    completed_at = models.DateTimeField(null=True, blank=True, help_text="received")
    void_reason = models.TextField(blank=True)
    voided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    prints = models.PositiveIntegerField(default=0, help_text="times printed (a reprint is >1)")

    class Meta:
        ordering = ["-year", "kind", "-number"]
        constraints = [
            models.UniqueConstraint(
                fields=["property_name", "kind", "year", "number"], name="slip_number_once"
            ),
            models.CheckConstraint(condition=Q(number__gte=1), name="slip_numbered_from_one"),
        ]

    def __str__(self) -> str:
        return f"{self.kind} {self.year}-{self.number}"

    @property
    def at_table(self) -> Any:
        """When the chips moved at the table (a fill's arrival, a credit's departure): the
        moment its window counts it; None until then."""
        return self.completed_at if self.kind == self.Kind.FILL else self.issued_at

    @property
    def label(self) -> str:
        """As printed: ``F-2026-000042``."""
        return f"{'F' if self.kind == self.Kind.FILL else 'C'}-{self.year}-{self.number:06d}"


class DropCount(models.Model):
    """The counted contents of a table's drop box for a gaming day. Never changed: a
    correction is a new count naming the one it corrects (``corrects``), with its reason;
    the latest of a box's counts is the one in force once both counters signed it."""

    table = models.ForeignKey("tables.Table", on_delete=models.PROTECT, related_name="drops")
    gaming_day = models.DateField()
    cash = models.JSONField(help_text="notes per denomination: {value: count}")
    chips = models.JSONField(help_text="chips per denomination: {value: count}")
    cash_total = models.BigIntegerField()
    chips_total = models.BigIntegerField()
    total = models.BigIntegerField()
    corrects = models.OneToOneField(
        "self", null=True, blank=True, on_delete=models.PROTECT, related_name="correction"
    )
    reason = models.TextField(blank=True, help_text="why a correction corrects")
    counted_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT)
    counted_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["-gaming_day", "table", "-id"]
        constraints = [
            models.UniqueConstraint(
                fields=["table", "gaming_day"],
                condition=Q(corrects__isnull=True),
                name="one_drop_box_per_table_and_day",
            ),
        ]

    def __str__(self) -> str:
        return f"drop count {self.pk} of table {self.table_id}"


class Signature(models.Model):
    """One person's signature on an inventory, a slip or a drop count, with the step it
    signed for (``dealer``, ``floor``, ``cage``, ``count``) and their roles then."""

    class Step(models.TextChoices):
        DEALER = "dealer"
        FLOOR = "floor", "floor manager"
        CAGE = "cage"
        COUNT = "count", "counter"

    inventory = models.ForeignKey(
        Inventory, null=True, blank=True, on_delete=models.PROTECT, related_name="signatures"
    )
    slip = models.ForeignKey(
        Slip, null=True, blank=True, on_delete=models.PROTECT, related_name="signatures"
    )
    drop = models.ForeignKey(
        DropCount, null=True, blank=True, on_delete=models.PROTECT, related_name="signatures"
    )
    step = models.CharField(max_length=6, choices=Step.choices)
    signed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="custody_signatures"
    )
    roles = models.JSONField(help_text="the signer's roles when signing")
    signed_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["signed_at", "id"]
        constraints = [
            models.CheckConstraint(
                condition=(
                    Q(inventory__isnull=False, slip__isnull=True, drop__isnull=True)
                    | Q(inventory__isnull=True, slip__isnull=False, drop__isnull=True)
                    | Q(inventory__isnull=True, slip__isnull=True, drop__isnull=False)
                ),
                name="signature_of_one_record",
            ),
            models.UniqueConstraint(
                fields=["inventory", "signed_by"], name="one_signature_per_inventory_person"
            ),
            models.UniqueConstraint(
                fields=["slip", "signed_by"], name="one_signature_per_slip_person"
            ),
            models.UniqueConstraint(
                fields=["drop", "signed_by"], name="one_signature_per_drop_person"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.step} signature of {self.signed_by_id}"
