"""Theoretical figures stored once per rules version, and the nightly hold flags.

A :class:`Theory` is one figure of ``casino.rules.theory`` (a game's house hold, or a High
Card Flush bonus bet's return) for one version of what it depends on: the row's key is the
game, the measure and ``digest``, the SHA-256 of the canonical JSON of those inputs
(``Spec.digest``), so a table whose pay tables or rake change gets a new row and every table
with the same rules shares one. Ratios (hold, returns) are floats; money stays in minor units.
"""

from __future__ import annotations

from django.db import models
from django.utils import timezone


class Theory(models.Model):
    class Method(models.TextChoices):
        EXACT = "exact"
        SIMULATION = "simulation"

    class Status(models.TextChoices):
        COMPUTING = "computing"
        READY = "ready"
        FAILED = "failed"

    game = models.CharField(max_length=40)
    measure = models.CharField(max_length=40, help_text="house, flush_bonus, straight_flush_bonus")
    digest = models.CharField(max_length=64, help_text="SHA-256 of the inputs' canonical JSON")
    method = models.CharField(max_length=10, choices=Method.choices)
    inputs = models.JSONField(help_text="what the figure depends on (strategy, limits, rules)")
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.COMPUTING)
    value = models.FloatField(null=True, blank=True)
    low = models.FloatField(null=True, blank=True, help_text="95% interval, lower bound")
    high = models.FloatField(null=True, blank=True, help_text="95% interval, upper bound")
    spread = models.FloatField(
        default=0.0, help_text="one hand's standard deviation about the value (simulation)"
    )
    mean_handle = models.FloatField(
        null=True, blank=True, help_text="mean handle (chips wagered) per hand"
    )
    hands = models.PositiveIntegerField(null=True, blank=True, help_text="hands simulated")
    seed = models.BigIntegerField(null=True, blank=True)
    detail = models.JSONField(default=dict, blank=True)
    error = models.TextField(blank=True)
    requested_at = models.DateTimeField(default=timezone.now)
    computed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["game", "measure", "digest"], name="theory_once_per_rules_version"
            )
        ]
        ordering = ["game", "measure", "-computed_at"]
        verbose_name_plural = "theories"

    def __str__(self) -> str:
        return f"{self.game} {self.measure} {self.digest[:12]} ({self.status})"

    @property
    def ready(self) -> bool:
        return self.status == self.Status.READY


class HoldFlag(models.Model):
    """A gaming day on which a table's actual hold fell outside its theoretical interval.

    One row per table, day and rules version (a day with a change approved mid-way is judged
    per version). ``low`` and ``high`` are the interval the day's hold was judged against:
    the theoretical figure's own interval widened for the day's number of hands."""

    table = models.ForeignKey("tables.Table", on_delete=models.PROTECT, related_name="hold_flags")
    day = models.DateField(help_text="the gaming day")
    theory = models.ForeignKey(Theory, on_delete=models.PROTECT, related_name="flags")
    actual = models.FloatField(help_text="win / handle")
    expected = models.FloatField()
    low = models.FloatField()
    high = models.FloatField()
    hands = models.PositiveIntegerField()
    handle = models.BigIntegerField(help_text="chips wagered, minor units")
    win = models.BigIntegerField()
    flagged_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["table", "day", "theory"], name="hold_flag_once_per_table_day_version"
            )
        ]
        ordering = ["-day", "table"]

    def __str__(self) -> str:
        return f"{self.table} {self.day}: hold {self.actual:.4f} outside {self.low:.4f}-{self.high:.4f}"
