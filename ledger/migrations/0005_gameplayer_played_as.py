"""Seats remember the name a player had when the game began (``GamePlayer.played_as``), so a
player can be renamed without breaking the stored hands that name him."""

from django.db import migrations, models


def fill_played_as(apps, schema_editor):
    GamePlayer = apps.get_model("ledger", "GamePlayer")
    for seat in GamePlayer.objects.select_related("player").iterator():
        seat.played_as = seat.player.name
        seat.save(update_fields=["played_as"])


class Migration(migrations.Migration):

    dependencies = [
        ("ledger", "0004_table_name_per_scorekeeper"),
    ]

    operations = [
        migrations.AddField(
            model_name="gameplayer",
            name="played_as",
            field=models.CharField(
                blank=True, max_length=60,
                help_text="The player's name when the game began: the name its hands and "
                          "setup are stored under (a later rename does not change them; every "
                          "page shows the current name)",
            ),
        ),
        migrations.RunPython(fill_played_as, migrations.RunPython.noop),
    ]
