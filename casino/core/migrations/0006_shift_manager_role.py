"""The shift manager's role: a floor manager with the shift's authority, whose signature a
large-payout sign-off tier may ask for (``casino/core/roles.py``)."""

from django.db import migrations


def create_group(apps, schema_editor):
    Group = apps.get_model("auth", "Group")
    Group.objects.get_or_create(name="shift_manager")


def drop_group(apps, schema_editor):
    apps.get_model("auth", "Group").objects.filter(name="shift_manager").delete()


class Migration(migrations.Migration):
    dependencies = [("core", "0005_database_identity")]

    operations = [migrations.RunPython(create_group, drop_group)]
