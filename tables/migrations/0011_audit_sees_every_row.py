"""The database refuses what no service writes to a hand (PostgreSQL):

- a hand numbered below 1 (a check constraint, on every database);
- a hand written other than open, or deleted, or truncated;
- a change to what it froze when it opened (table, number, game, rules, set-up, seats, who
  opened it and when);
- a status move other than open to settled or voided, and any change to a settled or voided
  hand's status, closing time or void (``held`` alone may still change: a request waits);
- a status move without the audit entry that records it in the same transaction (a
  ``hand_settle`` or ``hand_void`` entry of the hand's table, checked at commit);
- an action recorded on a hand that is not open.
"""

from django.conf import settings
from django.db import migrations, models

from casino.core.triggers import run_on_postgres

CREATE = [
    r"""
CREATE OR REPLACE FUNCTION casino_hand_guard() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'DELETE' THEN
        RAISE EXCEPTION 'casino: hand % of table % cannot be deleted: hands are kept',
            OLD.number, OLD.table_id USING ERRCODE = 'insufficient_privilege';
    END IF;
    IF TG_OP = 'INSERT' THEN
        IF NEW.status <> 'open' OR NEW.closed_at IS NOT NULL OR NEW.voided_by_id IS NOT NULL
                OR NEW.void_reason <> '' THEN
            RAISE EXCEPTION 'casino: hand % of table % must be written open (it was %): a hand is settled or voided through the system',
                NEW.number, NEW.table_id, NEW.status USING ERRCODE = 'check_violation';
        END IF;
        RETURN NEW;
    END IF;
    IF (NEW.id, NEW.table_id, NEW.number, NEW.game, NEW.rules, NEW.config, NEW.seats,
            NEW.opened_by_id, NEW.opened_at)
        IS DISTINCT FROM (OLD.id, OLD.table_id, OLD.number, OLD.game, OLD.rules, OLD.config,
            OLD.seats, OLD.opened_by_id, OLD.opened_at) THEN
        RAISE EXCEPTION 'casino: what hand % of table % froze when it opened cannot change',
            OLD.number, OLD.table_id USING ERRCODE = 'insufficient_privilege';
    END IF;
    IF OLD.status <> 'open' AND (NEW.status, NEW.closed_at, NEW.void_reason, NEW.voided_by_id)
            IS DISTINCT FROM (OLD.status, OLD.closed_at, OLD.void_reason, OLD.voided_by_id) THEN
        RAISE EXCEPTION 'casino: hand % of table % is %, and stays so (a correction is a new, audited record)',
            OLD.number, OLD.table_id, OLD.status USING ERRCODE = 'insufficient_privilege';
    END IF;
    IF NEW.status NOT IN ('open', 'settled', 'voided') THEN
        RAISE EXCEPTION 'casino: % is not a status of a hand', NEW.status
            USING ERRCODE = 'check_violation';
    END IF;
    RETURN NEW;
END
$$;
""",
    r"""
CREATE OR REPLACE FUNCTION casino_hand_closed_audited() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF NOT EXISTS (
        SELECT 1 FROM payouts_auditentry e
        WHERE e.hand_id = NEW.id AND e.table_id = NEW.table_id
          AND e.action = CASE NEW.status WHEN 'settled' THEN 'hand_settle' ELSE 'hand_void' END
    ) THEN
        RAISE EXCEPTION 'casino: hand % of table % was marked % without the audit entry that records it',
            NEW.number, NEW.table_id, NEW.status USING ERRCODE = 'insufficient_privilege';
    END IF;
    RETURN NULL;
END
$$;
""",
    r"""
CREATE OR REPLACE FUNCTION casino_action_on_open_hand() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    state text;
BEGIN
    SELECT status INTO state FROM tables_hand WHERE id = NEW.hand_id;
    IF state IS DISTINCT FROM 'open' THEN
        RAISE EXCEPTION 'casino: hand % is %: no action is recorded on it', NEW.hand_id, state
            USING ERRCODE = 'insufficient_privilege';
    END IF;
    RETURN NEW;
END
$$;
""",
    "CREATE TRIGGER tables_hand_guard BEFORE INSERT OR UPDATE OR DELETE ON tables_hand "
    "FOR EACH ROW EXECUTE FUNCTION casino_hand_guard()",
    "CREATE TRIGGER tables_hand_no_truncate BEFORE TRUNCATE ON tables_hand "
    "FOR EACH STATEMENT EXECUTE FUNCTION casino_append_only()",
    "CREATE CONSTRAINT TRIGGER tables_hand_closed_audited AFTER UPDATE ON tables_hand "
    "DEFERRABLE INITIALLY DEFERRED FOR EACH ROW WHEN (OLD.status IS DISTINCT FROM NEW.status) "
    "EXECUTE FUNCTION casino_hand_closed_audited()",
    "CREATE TRIGGER tables_handaction_open_hand BEFORE INSERT ON tables_handaction "
    "FOR EACH ROW EXECUTE FUNCTION casino_action_on_open_hand()",
]
DROP = [
    "DROP TRIGGER IF EXISTS tables_handaction_open_hand ON tables_handaction",
    "DROP TRIGGER IF EXISTS tables_hand_closed_audited ON tables_hand",
    "DROP TRIGGER IF EXISTS tables_hand_no_truncate ON tables_hand",
    "DROP TRIGGER IF EXISTS tables_hand_guard ON tables_hand",
    "DROP FUNCTION IF EXISTS casino_action_on_open_hand()",
    "DROP FUNCTION IF EXISTS casino_hand_closed_audited()",
    "DROP FUNCTION IF EXISTS casino_hand_guard()",
]


class Migration(migrations.Migration):
    dependencies = [
        ("tables", "0010_hand_held"),
        ("payouts", "0008_chains_per_table"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddConstraint(
            model_name="hand",
            constraint=models.CheckConstraint(
                condition=models.Q(("number__gte", 1)), name="hand_numbered_from_one"
            ),
        ),
        migrations.RunPython(run_on_postgres(CREATE), run_on_postgres(DROP)),
    ]
