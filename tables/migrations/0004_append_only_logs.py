"""A hand's action log and the rotation and bank event logs are append-only on PostgreSQL:
``casino_append_only()`` refuses UPDATE, DELETE and TRUNCATE (see core ``0003``)."""

from django.db import migrations

APPEND_ONLY = ("tables_handaction", "tables_rotationevent", "tables_bankevent")


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
    dependencies = [("tables", "0003_more_games"), ("core", "0003_append_only_function")]

    operations = [migrations.RunPython(add_triggers, remove_triggers)]
