from django.db import migrations, models


class Migration(migrations.Migration):
    """The key's row is written with its answer (``casino/core/idempotency.py``): a row without
    a status only ever existed inside an uncommitted transaction, so none is stored."""

    dependencies = [("core", "0007_custody_roles")]

    operations = [
        migrations.AlterField(
            model_name="idempotencyrecord",
            name="response_status",
            field=models.PositiveSmallIntegerField(),
        ),
    ]
