"""Every limit or rule change requested before the queue existed joins it, decided as it was."""

from django.db import migrations


def queue_changes(apps, schema_editor):
    Approval = apps.get_model("approvals", "Approval")
    TableChange = apps.get_model("tables", "TableChange")
    Approval.objects.bulk_create(
        Approval(
            kind="limit_change",
            status=change.status,
            table_id=change.table_id,
            change_id=change.pk,
            reason=change.reason,
            detail={"changes": change.changes, "before": change.before},
            requested_by_id=change.requested_by_id,
            requested_at=change.requested_at,
            decided_by_id=change.decided_by_id,
            decided_at=change.decided_at,
            note=change.decision_note,
        )
        for change in TableChange.objects.filter(approval__isnull=True)
    )


class Migration(migrations.Migration):
    dependencies = [
        ("approvals", "0001_initial"),
        ("tables", "0007_alter_tablechange_status"),
    ]

    operations = [migrations.RunPython(queue_changes, migrations.RunPython.noop)]
