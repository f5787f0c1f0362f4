"""The chips wagered are the handle, not the drop (the drop is the counted contents of a
table's drop box): ``Theory.mean_drop`` becomes ``mean_handle`` and ``HoldFlag.drop``
becomes ``handle``. The columns are renamed; their values stay as they are."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("hold", "0001_initial"),
    ]

    operations = [
        migrations.RenameField(model_name="theory", old_name="mean_drop", new_name="mean_handle"),
        migrations.AlterField(
            model_name="theory",
            name="mean_handle",
            field=models.FloatField(
                blank=True, help_text="mean handle (chips wagered) per hand", null=True
            ),
        ),
        migrations.RenameField(model_name="holdflag", old_name="drop", new_name="handle"),
        migrations.AlterField(
            model_name="holdflag",
            name="handle",
            field=models.BigIntegerField(help_text="chips wagered, minor units"),
        ),
        migrations.AlterField(
            model_name="holdflag",
            name="actual",
            field=models.FloatField(help_text="win / handle"),
        ),
    ]
