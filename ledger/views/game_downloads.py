"""A game's hands as CSV (django-tables2's export of the sheet table)."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse

from ledger import access
from ledger.models import Game
from ledger.presentation.sheet import game_sheet

from .downloads import csv_response
from .game_context import load_game
from .sheet_tables import export_dataset


def game_export(request: HttpRequest, pk: int) -> HttpResponse:
    """The hands as CSV (django-tables2's export of the sheet table)."""
    game = access.game_for(request.user, pk)
    result, _ = load_game(game)
    return export_response(game, result)


def export_response(game: Game, result: dict) -> HttpResponse:
    """The CSV of the game's sheet: the hands with their points and running totals, the
    voided ones marked, then the totals and the money (inert: ``downloads``)."""
    dataset = export_dataset(game_sheet(game, result=result))
    name = f"{game.session.table.name}-{game.session.date}-game-{game.sequence}.csv"
    return csv_response(dataset.headers, list(dataset), name)
