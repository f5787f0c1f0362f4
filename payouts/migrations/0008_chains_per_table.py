"""The audit log becomes one chain per table (and the house chain for entries about no
table), so tables never wait on one lock to audit; audit checks run in chunks.

Existing entries are renumbered within their chain and re-sealed in their old order, and each
chain's head is written to its table's row (the house chain's to ``AuditChainHead``). Like
migration 0002, this is a one-time format upgrade of a pre-production log done while the old
chain is intact (it refuses to run on a broken one), not a way to repair one. Anchors written
before it describe the old single chain: start a new ``AUDIT_ANCHOR_FILE`` after it (keep the
old one with the records of the upgrade).
"""

import hashlib
import hmac
import json

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

SEALED = (
    "seq",
    "at",
    "actor_id",
    "actor_name",
    "action",
    "table_id",
    "hand_id",
    "subject",
    "before",
    "after",
    "prev_hash",
)
GENESIS = "0" * 64


def _seal(fields):
    content = {name: fields[name] for name in SEALED}
    content["at"] = content["at"].isoformat()
    text = json.dumps(content, sort_keys=True, separators=(",", ":"), default=str)
    return hmac.new(settings.AUDIT_KEY.encode(), text.encode(), hashlib.sha256).hexdigest()


def rechain(apps, schema_editor):
    AuditEntry = apps.get_model("payouts", "AuditEntry")
    AuditChainHead = apps.get_model("payouts", "AuditChainHead")
    Table = apps.get_model("tables", "Table")
    postgres = schema_editor.connection.vendor == "postgresql"
    if postgres:
        schema_editor.execute(
            "ALTER TABLE payouts_auditentry DISABLE TRIGGER payouts_auditentry_append_only"
        )
    heads = {}
    prev = GENESIS
    for entry in AuditEntry.objects.order_by("seq"):
        fields = {name: getattr(entry, name) for name in SEALED}
        if entry.prev_hash != prev or not hmac.compare_digest(entry.hash, _seal(fields)):
            raise RuntimeError(
                f"audit entry {entry.seq} does not verify: the chain is broken; run the audit "
                "check on the previous version and resolve it before upgrading"
            )
        prev = entry.hash
        seq, last = heads.get(entry.table_id, (0, GENESIS))
        entry.seq, entry.prev_hash = seq + 1, last
        entry.hash = _seal({name: getattr(entry, name) for name in SEALED})
        entry.save(update_fields=["seq", "prev_hash", "hash"])
        heads[entry.table_id] = (entry.seq, entry.hash)
    for table_id, (seq, last) in heads.items():
        if table_id is None:
            AuditChainHead.objects.update_or_create(pk=1, defaults={"seq": seq, "last_hash": last})
        else:
            Table.objects.filter(pk=table_id).update(audit_seq=seq, audit_hash=last)
    if None not in heads:
        AuditChainHead.objects.update_or_create(pk=1, defaults={"seq": 0, "last_hash": GENESIS})
    if postgres:
        schema_editor.execute(
            "ALTER TABLE payouts_auditentry ENABLE TRIGGER payouts_auditentry_append_only"
        )


def stages(apps, schema_editor):
    AuditCheck = apps.get_model("payouts", "AuditCheck")
    AuditCheck.objects.filter(stage__in=["chain", "hands"]).update(stage="checking")


class Migration(migrations.Migration):
    dependencies = [
        ("payouts", "0007_settlement_corrections"),
        ("tables", "0009_table_audit_chain_head"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name="AuditCheckChunk",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("after_seq", models.PositiveBigIntegerField()),
                ("after_hash", models.CharField(max_length=64)),
                ("through_seq", models.PositiveBigIntegerField()),
                (
                    "last",
                    models.BooleanField(
                        default=False, help_text="ends its chain's part of the check"
                    ),
                ),
                (
                    "hands_after",
                    models.PositiveIntegerField(
                        default=0,
                        help_text="the table's hands numbered above this must all be in the chain",
                    ),
                ),
                (
                    "anchored",
                    models.JSONField(
                        blank=True,
                        default=list,
                        help_text="anchored heads inside the stretch: [seq, seal, at]",
                    ),
                ),
                ("done", models.BooleanField(default=False)),
                ("result", models.JSONField(blank=True, default=dict)),
            ],
            options={
                "ordering": ["id"],
            },
        ),
        migrations.AlterModelOptions(
            name="auditentry",
            options={"ordering": ["id"]},
        ),
        migrations.AddField(
            model_name="auditcheck",
            name="full",
            field=models.BooleanField(
                default=False,
                help_text="re-verify every chain from its first entry (not only since the last passed check)",
            ),
        ),
        migrations.AddField(
            model_name="auditcheck",
            name="plan",
            field=models.JSONField(
                blank=True,
                default=dict,
                help_text="what the check covers: the heads and anchors it started from, and problems found while dividing the work",
            ),
        ),
        migrations.AlterField(
            model_name="auditcheck",
            name="stage",
            field=models.CharField(
                choices=[
                    ("queued", "waiting for a worker"),
                    ("planning", "dividing the chains among the workers"),
                    ("checking", "verifying the chains and re-settling the hands"),
                    ("done", "everything checked"),
                ],
                default="queued",
                max_length=10,
            ),
        ),
        migrations.AlterField(
            model_name="auditentry",
            name="seq",
            field=models.PositiveBigIntegerField(
                help_text="1, 2, 3, ... without gaps in its chain"
            ),
        ),
        migrations.RunPython(rechain, migrations.RunPython.noop),
        migrations.RunPython(stages, migrations.RunPython.noop),
        migrations.AddConstraint(
            model_name="auditentry",
            constraint=models.UniqueConstraint(
                fields=("table", "seq"), name="auditentry_table_chain_seq"
            ),
        ),
        migrations.AddConstraint(
            model_name="auditentry",
            constraint=models.UniqueConstraint(
                condition=models.Q(("table__isnull", True)),
                fields=("seq",),
                name="auditentry_house_chain_seq",
            ),
        ),
        migrations.AddField(
            model_name="auditcheckchunk",
            name="audit_check",
            field=models.ForeignKey(
                on_delete=django.db.models.deletion.CASCADE,
                related_name="chunks",
                to="payouts.auditcheck",
            ),
        ),
        migrations.AddField(
            model_name="auditcheckchunk",
            name="table",
            field=models.ForeignKey(
                blank=True,
                null=True,
                on_delete=django.db.models.deletion.PROTECT,
                to="tables.table",
            ),
        ),
    ]
