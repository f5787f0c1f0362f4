"""The audit chain becomes a sealed, numbered chain; settlements become append-only.

- Entries get ``seq`` (1, 2, 3, ... in the order they were written) and are re-sealed with
  HMAC-SHA256 under ``AUDIT_KEY`` (the seal ``payouts/chain.py`` verifies). This re-sealing
  is a one-time format upgrade of a pre-production chain, done while the old chain is
  intact; it is not a way to repair a broken one.
- django-pgtrigger's protection (which any role could switch off with ``SET
  pgtrigger.ignore``) is replaced by ``casino_append_only()`` triggers that refuse UPDATE,
  DELETE and TRUNCATE on the audit entries, settlements, seat rows and payout lines.
"""

import hashlib
import hmac
import json

import pgtrigger.migrations
from django.conf import settings
from django.db import migrations, models

APPEND_ONLY = (
    "payouts_auditentry",
    "payouts_settlement",
    "payouts_seatsettlement",
    "payouts_payoutline",
)
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


def _seal(fields):
    content = {name: fields[name] for name in SEALED}
    content["at"] = content["at"].isoformat()
    text = json.dumps(content, sort_keys=True, separators=(",", ":"), default=str)
    return hmac.new(settings.AUDIT_KEY.encode(), text.encode(), hashlib.sha256).hexdigest()


def reseal(apps, schema_editor):
    AuditEntry = apps.get_model("payouts", "AuditEntry")
    AuditChainHead = apps.get_model("payouts", "AuditChainHead")
    prev, seq = "0" * 64, 0
    for entry in AuditEntry.objects.order_by("id"):
        seq += 1
        entry.seq, entry.prev_hash = seq, prev
        entry.hash = _seal({name: getattr(entry, name) for name in SEALED})
        entry.save(update_fields=["seq", "prev_hash", "hash"])
        prev = entry.hash
    AuditChainHead.objects.update_or_create(pk=1, defaults={"seq": seq, "last_hash": prev})


def add_triggers(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    for table in APPEND_ONLY:
        schema_editor.execute(
            f"CREATE TRIGGER {table}_append_only BEFORE UPDATE OR DELETE ON {table} "
            "FOR EACH ROW EXECUTE FUNCTION casino_append_only()"
        )
        schema_editor.execute(
            f"CREATE TRIGGER {table}_no_truncate BEFORE TRUNCATE ON {table} "
            "FOR EACH STATEMENT EXECUTE FUNCTION casino_append_only()"
        )


def remove_triggers(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    for table in APPEND_ONLY:
        schema_editor.execute(f"DROP TRIGGER IF EXISTS {table}_append_only ON {table}")
        schema_editor.execute(f"DROP TRIGGER IF EXISTS {table}_no_truncate ON {table}")


class Migration(migrations.Migration):
    dependencies = [
        ("payouts", "0001_initial"),
        ("core", "0003_append_only_function"),
    ]

    operations = [
        migrations.AlterModelOptions(name="auditentry", options={"ordering": ["seq"]}),
        pgtrigger.migrations.RemoveTrigger(
            model_name="auditentry", name="audit_entry_append_only"
        ),
        migrations.AddField(
            model_name="auditchainhead",
            name="seq",
            field=models.PositiveBigIntegerField(default=0, help_text="the last entry's seq"),
        ),
        migrations.AddField(
            model_name="auditentry",
            name="seq",
            field=models.PositiveBigIntegerField(null=True),
        ),
        migrations.RunPython(reseal, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="auditentry",
            name="seq",
            field=models.PositiveBigIntegerField(
                help_text="1, 2, 3, ... without gaps", unique=True
            ),
        ),
        migrations.AlterField(
            model_name="auditentry",
            name="hash",
            field=models.CharField(help_text="HMAC-SHA256 seal", max_length=64, unique=True),
        ),
        migrations.RunPython(add_triggers, remove_triggers),
    ]
