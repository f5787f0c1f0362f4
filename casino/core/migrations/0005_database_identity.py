"""The database's id, written once here (every signed audit checkpoint names it), and
append-only on PostgreSQL."""

import uuid

from django.db import migrations, models

from casino.core.triggers import append_only, drop_append_only, run_on_postgres

TABLE = "core_databaseidentity"


def write_id(apps, schema_editor):
    DatabaseIdentity = apps.get_model("core", "DatabaseIdentity")
    DatabaseIdentity.objects.get_or_create(pk=1, defaults={"uuid": str(uuid.uuid4())})


class Migration(migrations.Migration):
    dependencies = [("core", "0004_idempotency_claim_first")]

    operations = [
        migrations.CreateModel(
            name="DatabaseIdentity",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("uuid", models.CharField(max_length=36, unique=True)),
                ("created_at", models.DateTimeField(auto_now_add=True)),
            ],
            options={
                "constraints": [
                    models.CheckConstraint(condition=models.Q(id=1), name="one_database_id")
                ]
            },
        ),
        migrations.RunPython(write_id, migrations.RunPython.noop),
        migrations.RunPython(
            run_on_postgres(append_only(TABLE)), run_on_postgres(drop_append_only(TABLE))
        ),
    ]
