"""Settlements with their payout lines, the sealed audit chain and audit checks.

Settlements, their seat rows and payout lines and the audit entries are append-only: on
PostgreSQL a trigger refuses UPDATE, DELETE and TRUNCATE (migration ``0002``); a correction
is a new audited record.
"""

from typing import ClassVar

from django.conf import settings
from django.db import models

from casino.audit_verify.formats import ENTRY_FIELDS


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
            # A settlement is reversed once and replaced once: a second reversal or
            # correction of it is refused.
            models.UniqueConstraint(
                fields=["corrects", "kind"],
                condition=models.Q(corrects__isnull=False),
                name="settlement_corrected_once",
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
    forged one. Entries chain per table (``table`` empty: the house chain); ``seq`` runs
    1, 2, 3, ... without gaps in each chain. On PostgreSQL a trigger refuses UPDATE, DELETE
    and TRUNCATE (``payouts/migrations/0002``).
    """

    seq = models.PositiveBigIntegerField(help_text="1, 2, 3, ... without gaps in its chain")
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

    # The fields ``hash`` seals (``payouts.chain.seal``): all but ``id`` and ``hash`` itself,
    # the ones a bundle's entry and its digest state too (``casino.audit_verify.formats``).
    SEALED_FIELDS: ClassVar[tuple[str, ...]] = ENTRY_FIELDS

    class Meta:
        ordering = ["id"]
        # The compliance desk filters the log by action (and lists the actions there are).
        indexes = [models.Index(fields=["action"], name="auditentry_action")]
        constraints = [
            # One entry per place in a chain: two writers cannot fork it.
            models.UniqueConstraint(fields=["table", "seq"], name="auditentry_table_chain_seq"),
            models.UniqueConstraint(
                fields=["seq"],
                condition=models.Q(table__isnull=True),
                name="auditentry_house_chain_seq",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.pk} {self.action} {self.subject}"


class AuditChainHead(models.Model):
    """The house chain's head (entries about no table): a single row locked while appending
    to it. A table's chain keeps its head in the table's row. Heads are not trusted by the
    audit check: anchors written outside the database are (``payouts/chain.py``)."""

    seq = models.PositiveBigIntegerField(default=0, help_text="the last entry's seq")
    last_hash = models.CharField(max_length=64, default="0" * 64)

    def __str__(self) -> str:
        return self.last_hash


class AuditCheck(models.Model):
    """A run of the audit check: every chain and the hands its entries record.

    Incremental by default: each chain is verified from where the last passed check anchored
    it (what was verified stays verified); ``full`` re-verifies everything from the first
    entry. The work is split into chunks (a stretch of one chain and the hands it finishes)
    that Celery workers take in parallel; the check's row shows how far they have got
    (``checked`` of ``total`` audit entries and hands), written in short transactions of
    their own so a reader sees it while the check runs (``payouts/audit.py``)."""

    class Status(models.TextChoices):
        PENDING = "pending"
        PASSED = "passed"
        FAILED = "failed"

    class Stage(models.TextChoices):
        QUEUED = "queued", "waiting for a worker"
        PLANNING = "planning", "dividing the chains among the workers"
        CHECKING = "checking", "verifying the chains and re-settling the hands"
        DONE = "done", "everything checked"

    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT
    )
    requested_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    full = models.BooleanField(
        default=False,
        help_text="re-verify every chain from its first entry (not only since "
        "the last passed check)",
    )
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    report = models.JSONField(default=dict, blank=True)
    stage = models.CharField(max_length=10, choices=Stage.choices, default=Stage.QUEUED)
    checked = models.PositiveBigIntegerField(
        default=0, help_text="audit entries and hands checked so far"
    )
    total = models.PositiveBigIntegerField(
        default=0, help_text="audit entries and hands to check (counted when the check starts)"
    )
    plan = models.JSONField(
        default=dict,
        blank=True,
        help_text="what the check covers: the heads and anchors it "
        "started from, and problems found while dividing the work",
    )

    class Meta:
        ordering = ["-requested_at", "-id"]

    def __str__(self) -> str:
        return f"audit check {self.pk} ({self.status})"


class AuditCheckChunk(models.Model):
    """One stretch of one chain for one worker: entries ``after_seq + 1`` to ``through_seq``
    of the table's chain (no table: the house chain), and the hands whose last entry in the
    check falls there. A chunk is done once; a worker lost mid-chunk leaves it to be taken
    again (the task is acknowledged late), so a check resumes where it stopped."""

    audit_check = models.ForeignKey(AuditCheck, on_delete=models.CASCADE, related_name="chunks")
    table = models.ForeignKey("tables.Table", null=True, blank=True, on_delete=models.PROTECT)
    after_seq = models.PositiveBigIntegerField()
    after_hash = models.CharField(max_length=64)
    through_seq = models.PositiveBigIntegerField()
    last = models.BooleanField(default=False, help_text="ends its chain's part of the check")
    work = models.JSONField(
        default=dict,
        blank=True,
        help_text="the rest of the chunk's part: hands and table events to check again, "
        "or the settlements' tree (payouts/audit_plan.py)",
    )
    anchored = models.JSONField(
        default=list, blank=True, help_text="anchored heads inside the stretch: [seq, seal, at]"
    )
    done = models.BooleanField(default=False)
    result = models.JSONField(default=dict, blank=True)

    class Meta:
        ordering = ["id"]

    def __str__(self) -> str:
        return f"audit check {self.audit_check_id} chunk {self.pk}"


class SignoffPolicy(models.Model):
    """Tiered large-payout sign-off at one table, every table of one game, or the house
    (``payouts/signoff.py`` reads it: a table's own, else its game's, else the house's, else
    the built-in default).

    ``tiers`` is an ordered list of ``{"above": minor units, "role": a signing role, "count":
    signatures}``: a settlement in which one party wins more than a tier's ``above`` needs
    that tier's signatures (and every lower tier's), each by a different person with the
    tier's role, never the one who asked. ``notice``: a settlement in which one party wins
    at least this much is flagged for notifying the regulator (``None``: no notice line)."""

    table = models.OneToOneField(
        "tables.Table",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="signoff_policy",
    )
    game = models.CharField(max_length=40, blank=True, help_text="a game code, for all its tables")
    tiers = models.JSONField(help_text='[{"above": 119999, "role": "floor_manager", "count": 1}]')
    notice = models.BigIntegerField(
        null=True, blank=True, help_text="the regulator-notice line (at or above), minor units"
    )
    set_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT)
    set_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [
            models.CheckConstraint(
                condition=models.Q(table__isnull=True) | models.Q(game=""),
                name="signoff_policy_for_a_table_a_game_or_the_house",
            ),
            models.UniqueConstraint(
                fields=["game"], condition=~models.Q(game=""), name="signoff_policy_once_per_game"
            ),
            models.UniqueConstraint(
                fields=["game"],
                condition=models.Q(table__isnull=True, game=""),
                name="signoff_policy_once_for_the_house",
            ),
            models.CheckConstraint(
                condition=models.Q(notice__isnull=True) | models.Q(notice__gt=0),
                name="signoff_policy_notice_positive",
            ),
        ]

    def __str__(self) -> str:
        scope = f"table {self.table_id}" if self.table_id else self.game or "the house"
        return f"sign-off tiers at {scope}"


# ---------------------------------------------------------------- signed checkpoints


class AuditCheckpoint(models.Model):
    """A signed statement of every audit chain's head and size and of the Merkle root over
    the settlements (``payouts/checkpoints.py``; the format is ``docs/audit-verify.md``).

    ``statement`` is what the Ed25519 ``signature`` covers (its canonical JSON). Checkpoints
    are numbered 1, 2, 3, ..., each naming the one before by its hash; the same records are
    appended to ``AUDIT_ANCHOR_FILE``. Append-only on PostgreSQL."""

    number = models.PositiveBigIntegerField(unique=True)
    at = models.DateTimeField()
    verified = models.BooleanField(
        default=False, help_text="written by a passed audit check, stating what it verified"
    )
    statement = models.JSONField()
    signature = models.CharField(max_length=100, help_text="Ed25519, base64")

    class Meta:
        ordering = ["number"]

    def __str__(self) -> str:
        return f"checkpoint {self.number}"

    def record(self) -> dict:
        """The checkpoint as the anchor file and a bundle hold it."""
        return {"type": "checkpoint", "statement": self.statement, "signature": self.signature}


class AuditKeyHandover(models.Model):
    """The signing key handed over to a new one: a statement naming both public keys,
    signed by both (``manage.py audit_key_handover``). Append-only on PostgreSQL."""

    at = models.DateTimeField()
    statement = models.JSONField()
    old_signature = models.CharField(max_length=100)
    new_signature = models.CharField(max_length=100)

    class Meta:
        ordering = ["at", "id"]

    def __str__(self) -> str:
        return f"key hand-over at {self.at}"

    def record(self) -> dict:
        return {
            "type": "key_handover",
            "statement": self.statement,
            "old_signature": self.old_signature,
            "new_signature": self.new_signature,
        }


class AuditLeaf(models.Model):
    """A settlement's leaf in the Merkle tree the checkpoints sign: its place (from 0, in
    the order the anchor job took the settlements in) and its leaf hash. Append-only."""

    position = models.PositiveBigIntegerField(unique=True)
    settlement = models.OneToOneField(Settlement, on_delete=models.PROTECT, related_name="leaf")
    hash = models.CharField(max_length=64)

    class Meta:
        ordering = ["position"]

    def __str__(self) -> str:
        return f"leaf {self.position} (settlement {self.settlement_id})"


class AuditTreeNode(models.Model):
    """A perfect subtree of the Merkle tree, once its last leaf is in: level ``L`` (from 1)
    and index ``i`` cover leaves ``i * 2**L`` to ``(i + 1) * 2**L - 1``. Roots and proofs
    are made of a few of them. Append-only."""

    level = models.PositiveSmallIntegerField()
    index = models.PositiveBigIntegerField()
    hash = models.CharField(max_length=64)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["level", "index"], name="tree_node_once"),
            models.CheckConstraint(condition=models.Q(level__gte=1), name="tree_node_above_leaves"),
        ]

    def __str__(self) -> str:
        return f"node {self.level}/{self.index}"


class AuditAnchorRun(models.Model):
    """When the anchor job last ran (a single row, locked while it runs so checkpoints are
    numbered in order). A run that finds nothing new still confirms the last checkpoint
    holds; ``GET /health/`` reports the age of the last run."""

    at = models.DateTimeField(null=True, blank=True)
    problem = models.TextField(
        blank=True, help_text="why the last run did not anchor, when it could not"
    )

    def __str__(self) -> str:
        return f"anchor run at {self.at}"
