"""Signed checkpoints and the Merkle tree over the settlements (``payouts/checkpoints.py``),
and what the database refuses from now on (PostgreSQL):

- checkpoints, key hand-overs, tree leaves and nodes are append-only;
- a settlement is reversed and replaced at most once (a unique constraint, everywhere);
- a settlement without the audit entry that stores it (``hand_settle``, or ``hand_correct``
  for a reversal or a correction), checked at commit;
- an audit check written other than queued, deleted, or changed once it is done; a check
  finishing without its sealed ``audit_check`` entry stating the same verdict (at commit).
"""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

from casino.core.triggers import append_only, drop_append_only, run_on_postgres

APPEND_ONLY = (
    "payouts_auditcheckpoint",
    "payouts_auditkeyhandover",
    "payouts_auditleaf",
    "payouts_audittreenode",
)
CREATE = [
    r"""
CREATE OR REPLACE FUNCTION casino_settlement_audited() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF NOT EXISTS (
        SELECT 1 FROM payouts_auditentry e
        WHERE e.hand_id = NEW.hand_id AND (
            (NEW.kind = 'settlement' AND e.action = 'hand_settle'
                AND e.after ->> 'settlement' = NEW.id::text)
            OR (NEW.kind = 'reversal' AND e.action = 'hand_correct'
                AND e.after -> 'reversal' ->> 'settlement' = NEW.id::text)
            OR (NEW.kind = 'correction' AND e.action = 'hand_correct'
                AND e.after -> 'correction' ->> 'settlement' = NEW.id::text))
    ) THEN
        RAISE EXCEPTION 'casino: settlement % of hand % has no audit entry storing it: settlements are stored through the system',
            NEW.id, NEW.hand_id USING ERRCODE = 'insufficient_privilege';
    END IF;
    RETURN NULL;
END
$$;
""",
    r"""
CREATE OR REPLACE FUNCTION casino_audit_check_guard() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'DELETE' THEN
        RAISE EXCEPTION 'casino: audit check % cannot be deleted', OLD.id
            USING ERRCODE = 'insufficient_privilege';
    END IF;
    IF TG_OP = 'INSERT' THEN
        IF NEW.status <> 'pending' OR NEW.stage <> 'queued' OR NEW.finished_at IS NOT NULL
                OR NEW.report <> '{}'::jsonb THEN
            RAISE EXCEPTION 'casino: an audit check is written queued, with no verdict'
                USING ERRCODE = 'insufficient_privilege';
        END IF;
        RETURN NEW;
    END IF;
    IF OLD.stage = 'done' THEN
        RAISE EXCEPTION 'casino: audit check % is finished (%): its verdict is sealed and stays as it is',
            OLD.id, OLD.status USING ERRCODE = 'insufficient_privilege';
    END IF;
    IF (NEW.id, NEW.full, NEW.requested_by_id, NEW.requested_at)
            IS DISTINCT FROM (OLD.id, OLD.full, OLD.requested_by_id, OLD.requested_at)
        OR (NEW.status = 'pending') <> (NEW.stage <> 'done')
        OR NEW.status NOT IN ('pending', 'passed', 'failed') THEN
        RAISE EXCEPTION 'casino: audit check % cannot be changed that way: only a finishing check gets its verdict',
            OLD.id USING ERRCODE = 'insufficient_privilege';
    END IF;
    RETURN NEW;
END
$$;
""",
    r"""
CREATE OR REPLACE FUNCTION casino_audit_check_sealed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF NOT EXISTS (
        SELECT 1 FROM payouts_auditentry e
        WHERE e.table_id IS NULL AND e.action = 'audit_check'
          AND e.subject = 'audit_check:' || NEW.id AND e.after ->> 'status' = NEW.status
    ) THEN
        RAISE EXCEPTION 'casino: audit check % finished % without its sealed audit entry',
            NEW.id, NEW.status USING ERRCODE = 'insufficient_privilege';
    END IF;
    RETURN NULL;
END
$$;
""",
    "CREATE CONSTRAINT TRIGGER payouts_settlement_audited AFTER INSERT ON payouts_settlement "
    "DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION casino_settlement_audited()",
    "CREATE TRIGGER payouts_auditcheck_guard BEFORE INSERT OR UPDATE OR DELETE "
    "ON payouts_auditcheck FOR EACH ROW EXECUTE FUNCTION casino_audit_check_guard()",
    "CREATE TRIGGER payouts_auditcheck_no_truncate BEFORE TRUNCATE ON payouts_auditcheck "
    "FOR EACH STATEMENT EXECUTE FUNCTION casino_append_only()",
    "CREATE CONSTRAINT TRIGGER payouts_auditcheck_sealed AFTER UPDATE ON payouts_auditcheck "
    "DEFERRABLE INITIALLY DEFERRED FOR EACH ROW "
    "WHEN (OLD.stage <> 'done' AND NEW.stage = 'done') "
    "EXECUTE FUNCTION casino_audit_check_sealed()",
    *(statement for table in APPEND_ONLY for statement in append_only(table)),
]
DROP = [
    *(statement for table in APPEND_ONLY for statement in drop_append_only(table)),
    "DROP TRIGGER IF EXISTS payouts_auditcheck_sealed ON payouts_auditcheck",
    "DROP TRIGGER IF EXISTS payouts_auditcheck_no_truncate ON payouts_auditcheck",
    "DROP TRIGGER IF EXISTS payouts_auditcheck_guard ON payouts_auditcheck",
    "DROP TRIGGER IF EXISTS payouts_settlement_audited ON payouts_settlement",
    "DROP FUNCTION IF EXISTS casino_audit_check_sealed()",
    "DROP FUNCTION IF EXISTS casino_audit_check_guard()",
    "DROP FUNCTION IF EXISTS casino_settlement_audited()",
]


def anchor_run_row(apps, schema_editor):
    apps.get_model("payouts", "AuditAnchorRun").objects.get_or_create(pk=1)


class Migration(migrations.Migration):
    dependencies = [
        ("payouts", "0008_chains_per_table"),
        ("tables", "0011_audit_sees_every_row"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name="AuditAnchorRun",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("at", models.DateTimeField(blank=True, null=True)),
                (
                    "problem",
                    models.TextField(
                        blank=True, help_text="why the last run did not anchor, when it could not"
                    ),
                ),
            ],
        ),
        migrations.CreateModel(
            name="AuditCheckpoint",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("number", models.PositiveBigIntegerField(unique=True)),
                ("at", models.DateTimeField()),
                (
                    "verified",
                    models.BooleanField(
                        default=False,
                        help_text="written by a passed audit check, stating what it verified",
                    ),
                ),
                ("statement", models.JSONField()),
                ("signature", models.CharField(help_text="Ed25519, base64", max_length=100)),
            ],
            options={
                "ordering": ["number"],
            },
        ),
        migrations.CreateModel(
            name="AuditKeyHandover",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("at", models.DateTimeField()),
                ("statement", models.JSONField()),
                ("old_signature", models.CharField(max_length=100)),
                ("new_signature", models.CharField(max_length=100)),
            ],
            options={
                "ordering": ["at", "id"],
            },
        ),
        migrations.CreateModel(
            name="AuditLeaf",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("position", models.PositiveBigIntegerField(unique=True)),
                ("hash", models.CharField(max_length=64)),
            ],
            options={
                "ordering": ["position"],
            },
        ),
        migrations.CreateModel(
            name="AuditTreeNode",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("level", models.PositiveSmallIntegerField()),
                ("index", models.PositiveBigIntegerField()),
                ("hash", models.CharField(max_length=64)),
            ],
        ),
        migrations.AddConstraint(
            model_name="settlement",
            constraint=models.UniqueConstraint(
                condition=models.Q(("corrects__isnull", False)),
                fields=("corrects", "kind"),
                name="settlement_corrected_once",
            ),
        ),
        migrations.AddField(
            model_name="auditleaf",
            name="settlement",
            field=models.OneToOneField(
                on_delete=django.db.models.deletion.PROTECT,
                related_name="leaf",
                to="payouts.settlement",
            ),
        ),
        migrations.AddConstraint(
            model_name="audittreenode",
            constraint=models.UniqueConstraint(fields=("level", "index"), name="tree_node_once"),
        ),
        migrations.AddConstraint(
            model_name="audittreenode",
            constraint=models.CheckConstraint(
                condition=models.Q(("level__gte", 1)), name="tree_node_above_leaves"
            ),
        ),
        migrations.RunPython(anchor_run_row, migrations.RunPython.noop),
        migrations.RunPython(run_on_postgres(CREATE), run_on_postgres(DROP)),
    ]
