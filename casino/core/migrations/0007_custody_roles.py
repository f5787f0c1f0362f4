"""The chip-custody roles: the cage (issues fills, receives credits) and the count team
(counts the drop boxes) (``casino/core/roles.py``)."""

from django.db import migrations

NAMES = ("cage", "count_team")


def create_groups(apps, schema_editor):
    Group = apps.get_model("auth", "Group")
    for name in NAMES:
        Group.objects.get_or_create(name=name)


def drop_groups(apps, schema_editor):
    apps.get_model("auth", "Group").objects.filter(name__in=NAMES).delete()


class Migration(migrations.Migration):
    dependencies = [("core", "0006_shift_manager_role")]

    operations = [migrations.RunPython(create_groups, drop_groups)]
