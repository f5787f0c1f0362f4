"""The tax and cash-reporting records a large payout cannot pass without: the patron who won
(a minimal identity), the W-2G, the MTL entry, the gaming day's CTR, and the settlements the
regulator is notified of (``docs/signoff.md``).

Records are entered on a pending payout sign-off (``approvals.Approval``) by a floor
manager who signs it; they count once the settlement is stored (``settlement`` set). A
patron's ID and taxpayer numbers are shown masked (the last four characters) on every page
and in every export; the full numbers stay in the database for the filing itself.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone


def masked(value: str) -> str:
    """A number shown with its last four characters only: ``•••• 6789`` (``••••`` for a
    number of four or fewer)."""
    kept = "".join(ch for ch in value if ch.isalnum())
    return f"•••• {kept[-4:]}" if len(kept) > 4 else "••••"


class Patron(models.Model):
    """The winner's identity, as little as the filings need: a name and a government ID
    (always), an address and a taxpayer id (for a W-2G or a CTR). One record per ID."""

    class IdKind(models.TextChoices):
        DRIVERS_LICENCE = "drivers_licence", "driver's licence"
        STATE_ID = "state_id", "state ID card"
        PASSPORT = "passport", "passport"
        MILITARY_ID = "military_id", "military ID"
        OTHER = "other", "other government ID"

    name = models.CharField(max_length=200)
    id_kind = models.CharField(max_length=20, choices=IdKind.choices)
    id_number = models.CharField(max_length=40)
    address = models.CharField(max_length=300, blank=True)
    tin = models.CharField(max_length=20, blank=True, help_text="taxpayer identification number")
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["id_kind", "id_number"], name="one_patron_per_id")
        ]

    def __str__(self) -> str:
        return f"patron {self.pk}"

    @property
    def id_masked(self) -> str:
        return masked(self.id_number)

    @property
    def tin_masked(self) -> str:
        return masked(self.tin) if self.tin else ""

    @property
    def complete(self) -> bool:
        """Enough for a W-2G or a CTR: an address and a taxpayer id besides the name and ID."""
        return bool(self.address.strip() and self.tin.strip())

    def shown(self) -> dict[str, str | int]:
        """The patron as pages, the API and exports show them: numbers masked."""
        return {
            "id": self.pk,
            "name": self.name,
            "id_kind": self.id_kind,
            "id_kind_label": str(self.get_id_kind_display()),
            "id_number": self.id_masked,
            "tin": self.tin_masked,
            "has_address": "yes" if self.address.strip() else "no",
        }


class PatronPayout(models.Model):
    """A held settlement's party named as a patron: the MTL entry when its win is above the
    MTL line (``mtl``), and one of the amounts the patron's gaming-day CTR total adds up."""

    approval = models.ForeignKey(
        "approvals.Approval", on_delete=models.PROTECT, related_name="patron_payouts"
    )
    table = models.ForeignKey("tables.Table", on_delete=models.PROTECT, related_name="+")
    hand = models.ForeignKey("tables.Hand", on_delete=models.PROTECT, related_name="+")
    seat = models.PositiveSmallIntegerField()
    patron = models.ForeignKey(Patron, on_delete=models.PROTECT, related_name="payouts")
    amount = models.BigIntegerField(help_text="the party's win on the hand, minor units")
    gaming_day = models.DateField()
    mtl = models.BooleanField(help_text="an MTL entry: the win is above the MTL line")
    settlement = models.ForeignKey(
        "payouts.Settlement", null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    entered_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT)
    entered_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["entered_at", "id"]
        constraints = [
            models.UniqueConstraint(fields=["approval", "seat"], name="one_patron_per_seat")
        ]
        indexes = [models.Index(fields=["patron", "gaming_day"], name="patron_day")]

    def __str__(self) -> str:
        return f"payout of seat {self.seat} on request {self.approval_id}"


class W2G(models.Model):
    """A W-2G record: a payout line that won at least the W-2G amount and multiple."""

    payout = models.ForeignKey(PatronPayout, on_delete=models.PROTECT, related_name="w2g")
    line = models.PositiveSmallIntegerField(help_text="the line's place among the seat's lines")
    name = models.CharField(max_length=40, help_text="the wager's name")
    wager = models.BigIntegerField(help_text="the wager it won on, minor units")
    amount = models.BigIntegerField(help_text="won, minor units")

    class Meta:
        ordering = ["id"]
        constraints = [models.UniqueConstraint(fields=["payout", "line"], name="one_w2g_per_line")]

    def __str__(self) -> str:
        return f"W-2G {self.pk}"


class CTR(models.Model):
    """A currency transaction report: a patron's recorded wins in a gaming day came to more
    than the CTR line with this payout (``total``, as it stood)."""

    patron = models.ForeignKey(Patron, on_delete=models.PROTECT, related_name="ctrs")
    gaming_day = models.DateField()
    total = models.BigIntegerField(help_text="the gaming day's total when recorded, minor units")
    approval = models.ForeignKey(
        "approvals.Approval", on_delete=models.PROTECT, related_name="ctrs"
    )
    settlement = models.ForeignKey(
        "payouts.Settlement", null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    filed_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT)
    filed_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["filed_at", "id"]

    def __str__(self) -> str:
        return f"CTR {self.pk}"


class RegulatorNotice(models.Model):
    """A stored settlement with a win at or above its policy's regulator-notice line."""

    settlement = models.OneToOneField(
        "payouts.Settlement", on_delete=models.PROTECT, related_name="regulator_notice"
    )
    approval = models.ForeignKey("approvals.Approval", on_delete=models.PROTECT, related_name="+")
    table = models.ForeignKey("tables.Table", on_delete=models.PROTECT, related_name="+")
    hand = models.ForeignKey("tables.Hand", on_delete=models.PROTECT, related_name="+")
    win = models.BigIntegerField()
    line = models.BigIntegerField()
    at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["-at", "-id"]

    def __str__(self) -> str:
        return f"regulator notice for settlement {self.settlement_id}"
