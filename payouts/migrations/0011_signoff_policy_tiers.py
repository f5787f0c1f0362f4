"""Large-payout sign-off as tiers: a policy per table, game or the house (tiers of a
threshold, a role and a count of signatures; a regulator-notice line) replaces the single
line and net limits. A table's or game's limits become one tier of one floor manager above
the lower of the two (a win is now judged by the larger of a party's biggest line and its
net), with Mississippi's notice line."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models



def limits_to_tiers(apps, schema_editor):
    SignoffLimit = apps.get_model("payouts", "SignoffLimit")
    SignoffPolicy = apps.get_model("payouts", "SignoffPolicy")
    exponent = settings.CURRENCY_EXPONENT
    for row in SignoffLimit.objects.all():
        SignoffPolicy.objects.create(
            table_id=row.table_id,
            game=row.game,
            tiers=[{"above": min(row.line, row.net), "role": "floor_manager", "count": 1}],
            notice=100_000 * 10**exponent,
            set_by_id=row.set_by_id,
        )


class Migration(migrations.Migration):

    dependencies = [
        ('payouts', '0010_audit_chunk_work'),
        ('tables', '0011_audit_sees_every_row'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name='SignoffPolicy',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('game', models.CharField(blank=True, help_text='a game code, for all its tables', max_length=40)),
                ('tiers', models.JSONField(help_text='[{"above": 119999, "role": "floor_manager", "count": 1}]')),
                ('notice', models.BigIntegerField(blank=True, help_text='the regulator-notice line (at or above), minor units', null=True)),
                ('set_at', models.DateTimeField(auto_now=True)),
                ('set_by', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, to=settings.AUTH_USER_MODEL)),
                ('table', models.OneToOneField(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='signoff_policy', to='tables.table')),
            ],
        ),
        migrations.RunPython(limits_to_tiers, migrations.RunPython.noop),
        migrations.DeleteModel(
            name='SignoffLimit',
        ),
        migrations.AddConstraint(
            model_name='signoffpolicy',
            constraint=models.CheckConstraint(condition=models.Q(('table__isnull', True), ('game', ''), _connector='OR'), name='signoff_policy_for_a_table_a_game_or_the_house'),
        ),
        migrations.AddConstraint(
            model_name='signoffpolicy',
            constraint=models.UniqueConstraint(condition=models.Q(('game', ''), _negated=True), fields=('game',), name='signoff_policy_once_per_game'),
        ),
        migrations.AddConstraint(
            model_name='signoffpolicy',
            constraint=models.UniqueConstraint(condition=models.Q(('game', ''), ('table__isnull', True)), fields=('game',), name='signoff_policy_once_for_the_house'),
        ),
        migrations.AddConstraint(
            model_name='signoffpolicy',
            constraint=models.CheckConstraint(condition=models.Q(('notice__isnull', True), ('notice__gt', 0), _connector='OR'), name='signoff_policy_notice_positive'),
        ),
    ]
