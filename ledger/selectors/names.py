"""Names as played.

A game stores its hands and setup with each player's name as it was when the game began
(``GamePlayer.played_as``); the player may be renamed since. Everything read from a game
speaks the current names (the person is the same, and a table's book across evenings
needs one name per person): ``games.game_record`` maps the stored names to the current
ones, and the services map an entry typed with current names back before storing it
(``games.entry_as_stored``), so that one game's rows always use one set of names. Where
a name stands in a record is the core's to say: ``ledger.rules.names``."""

from __future__ import annotations


def names_now(seats) -> dict[str, str]:
    """Stored name -> current name, for the seats whose player was renamed."""
    return {seat.played_as: seat.player.name for seat in seats
            if seat.played_as and seat.played_as != seat.player.name}
