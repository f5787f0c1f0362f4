"""A request is decided once (PostgreSQL): it is written pending, only its status, decider,
time and note change, once, from pending to approved, rejected or withdrawn; a decided
request stays as it was decided, and no request is deleted."""

from django.db import migrations

from casino.core.triggers import run_on_postgres

CREATE = [
    r"""
CREATE OR REPLACE FUNCTION casino_approval_guard() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'DELETE' THEN
        RAISE EXCEPTION 'casino: request % cannot be deleted', OLD.id
            USING ERRCODE = 'insufficient_privilege';
    END IF;
    IF TG_OP = 'INSERT' THEN
        IF NEW.status <> 'pending' OR NEW.decided_by_id IS NOT NULL OR NEW.decided_at IS NOT NULL
        THEN
            RAISE EXCEPTION 'casino: a request is written pending, undecided'
                USING ERRCODE = 'insufficient_privilege';
        END IF;
        RETURN NEW;
    END IF;
    IF OLD.status <> 'pending' THEN
        RAISE EXCEPTION 'casino: request % was % and stays so', OLD.id, OLD.status
            USING ERRCODE = 'insufficient_privilege';
    END IF;
    IF (NEW.id, NEW.kind, NEW.table_id, NEW.hand_id, NEW.change_id, NEW.reason, NEW.detail,
            NEW.requested_by_id, NEW.requested_at)
        IS DISTINCT FROM (OLD.id, OLD.kind, OLD.table_id, OLD.hand_id, OLD.change_id,
            OLD.reason, OLD.detail, OLD.requested_by_id, OLD.requested_at)
        OR NEW.status NOT IN ('pending', 'approved', 'rejected', 'withdrawn') THEN
        RAISE EXCEPTION 'casino: request % cannot be changed that way: only its decision is written',
            OLD.id USING ERRCODE = 'insufficient_privilege';
    END IF;
    RETURN NEW;
END
$$;
""",
    "CREATE TRIGGER approvals_approval_guard BEFORE INSERT OR UPDATE OR DELETE "
    "ON approvals_approval FOR EACH ROW EXECUTE FUNCTION casino_approval_guard()",
    "CREATE TRIGGER approvals_approval_no_truncate BEFORE TRUNCATE ON approvals_approval "
    "FOR EACH STATEMENT EXECUTE FUNCTION casino_append_only()",
]
DROP = [
    "DROP TRIGGER IF EXISTS approvals_approval_no_truncate ON approvals_approval",
    "DROP TRIGGER IF EXISTS approvals_approval_guard ON approvals_approval",
    "DROP FUNCTION IF EXISTS casino_approval_guard()",
]


class Migration(migrations.Migration):
    dependencies = [("approvals", "0002_existing_changes"), ("core", "0003_append_only_function")]

    operations = [migrations.RunPython(run_on_postgres(CREATE), run_on_postgres(DROP))]
