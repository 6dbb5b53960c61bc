"""Club formats (issue 40): streets among the variants, and the one stake of a lump-sum game
or a best-of match (RULES 3.10, `stakes.lump_sum_stake`)."""

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('ledger', '0021_delete_empty_game'),
    ]

    operations = [
        migrations.AddField(
            model_name='game',
            name='lump_sum_stake',
            field=models.DecimalField(blank=True, decimal_places=4, help_text="A lump-sum game's or a best-of match's one stake (RULES 3.10)", max_digits=9, null=True),
        ),
        migrations.AlterField(
            model_name='game',
            name='variant',
            field=models.CharField(choices=[('gin', 'Gin'), ('oklahoma', 'Oklahoma gin'), ('hollywood', 'Hollywood gin'), ('box', 'Three-handed (in the box)'), ('captain', 'Captain play'), ('partnership', 'Partnership gin'), ('cap-it', 'CAP-IT'), ('streets', 'Streets')], max_length=20),
        ),
    ]
