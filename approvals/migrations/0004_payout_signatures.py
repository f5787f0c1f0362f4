"""A payout sign-off's signatures, one row each, written once (append-only on PostgreSQL):
the settlement is stored when every tier it reaches has its signatures."""

import django.db.models.deletion
import django.utils.timezone
from django.conf import settings
from django.db import migrations, models

from casino.core.triggers import append_only, drop_append_only, run_on_postgres

TABLE = "approvals_signature"


class Migration(migrations.Migration):

    dependencies = [
        ('approvals', '0003_decided_once'),
        ('core', '0003_append_only_function'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name='Signature',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('roles', models.JSONField(help_text="the signer's roles when signing")),
                ('tier', models.PositiveSmallIntegerField(help_text="the tier (its index in the request's tiers) the signature counted for")),
                ('note', models.TextField(blank=True)),
                ('signed_at', models.DateTimeField(default=django.utils.timezone.now)),
                ('approval', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='signatures', to='approvals.approval')),
                ('signed_by', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, to=settings.AUTH_USER_MODEL)),
            ],
            options={
                'ordering': ['signed_at', 'id'],
                'constraints': [models.UniqueConstraint(fields=('approval', 'signed_by'), name='one_signature_per_person')],
            },
        ),
        migrations.RunPython(run_on_postgres(append_only(TABLE)), run_on_postgres(drop_append_only(TABLE))),
    ]
