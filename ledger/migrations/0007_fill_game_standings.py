"""Fill the book's GameStanding rows of every game stored before they existed.

Each game is scored by the core from its stored record (the same ``game_record`` the
services score) and its rows are built by the same ``standing_rows`` the services use, so
an old game's figures are exactly what a new game's would be. Re-running replaces them.
"""

from django.db import migrations


def fill(apps, schema_editor):
    from ledger import rules as core
    from ledger.selectors.games import game_record
    from ledger.services.standings import standing_rows

    Game = apps.get_model("ledger", "Game")
    GameStanding = apps.get_model("ledger", "GameStanding")
    games = Game.objects.select_related("session").prefetch_related("seats__player")
    for game in games.iterator(chunk_size=200):
        seats = sorted(game.seats.all(), key=lambda seat: seat.seat)
        record = game_record(game, seats=seats, hands=[
            hand.entry for hand in game.hands.filter(voided_at__isnull=True).order_by("number")
        ])
        try:
            result = core.score_record(record)
        except core.RecordError:
            continue  # a game the core refuses has no figures (none should exist)
        GameStanding.objects.filter(game_id=game.pk).delete()
        GameStanding.objects.bulk_create(standing_rows(
            GameStanding, game=game, session=game.session, result=result, status=game.status,
            players={seat.player.name: seat.player for seat in seats},
        ))


class Migration(migrations.Migration):

    dependencies = [
        ("ledger", "0006_book_standings_voids_archive"),
    ]

    operations = [
        migrations.RunPython(fill, migrations.RunPython.noop),
    ]
