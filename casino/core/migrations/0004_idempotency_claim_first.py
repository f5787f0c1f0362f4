from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("core", "0003_append_only_function")]

    operations = [
        migrations.AlterField(
            model_name="idempotencyrecord",
            name="response_status",
            field=models.PositiveSmallIntegerField(
                blank=True,
                help_text="empty only inside the first request's transaction",
                null=True,
            ),
        ),
        migrations.AlterField(
            model_name="idempotencyrecord",
            name="response_body",
            field=models.JSONField(blank=True, null=True),
        ),
    ]
