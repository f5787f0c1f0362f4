"""A settlement stores the hand's history ``{game, rules, config, actions}`` (the one game
contract) in place of a per-game record."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("payouts", "0002_sealed_append_only_chain")]

    operations = [
        migrations.RenameField(model_name="settlement", old_name="record", new_name="history"),
        migrations.AlterField(
            model_name="settlement",
            name="history",
            field=models.JSONField(help_text="the hand: {game, rules, config, actions}"),
        ),
    ]
