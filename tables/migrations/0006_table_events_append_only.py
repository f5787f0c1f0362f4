"""Table events are append-only on PostgreSQL, like the hand action log: ``casino_append_only()``
refuses UPDATE, DELETE and TRUNCATE (see core ``0003``)."""

from django.db import migrations

TABLE = "tables_tableevent"


def add_trigger(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    schema_editor.execute(
        f"CREATE TRIGGER {TABLE}_append_only BEFORE UPDATE OR DELETE ON {TABLE} "
        "FOR EACH ROW EXECUTE FUNCTION casino_append_only()"
    )
    schema_editor.execute(
        f"CREATE TRIGGER {TABLE}_no_truncate BEFORE TRUNCATE ON {TABLE} "
        "FOR EACH STATEMENT EXECUTE FUNCTION casino_append_only()"
    )


def remove_trigger(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    schema_editor.execute(f"DROP TRIGGER IF EXISTS {TABLE}_append_only ON {TABLE}")
    schema_editor.execute(f"DROP TRIGGER IF EXISTS {TABLE}_no_truncate ON {TABLE}")


class Migration(migrations.Migration):
    dependencies = [("tables", "0005_one_game_contract")]

    operations = [migrations.RunPython(add_trigger, remove_trigger)]
