"""The trigger function behind every append-only table (PostgreSQL only).

It refuses the statement outright and, unlike django-pgtrigger's triggers, consults no
session setting: no role can switch it off with ``SET``. Only the tables' owner can disable
or drop a trigger, and the app's database role is not the owner (README, "Production").
"""

from django.db import migrations

CREATE = """
CREATE OR REPLACE FUNCTION casino_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'casino: % on % is refused: the table is append-only (a correction is a new, audited record)', TG_OP, TG_TABLE_NAME
        USING ERRCODE = 'insufficient_privilege';
END
$$;
"""
DROP = "DROP FUNCTION IF EXISTS casino_append_only();"


def forwards(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(CREATE, params=None)


def backwards(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(DROP)


class Migration(migrations.Migration):
    dependencies = [("core", "0002_role_groups")]

    operations = [migrations.RunPython(forwards, backwards)]
