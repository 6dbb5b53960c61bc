"""A game's hands as CSV or XLSX (django-tables2's export of the sheet table), with who
reported what for each saved hand (issue 23) when the tables reported, or what the other
player of a two-hand game said of it."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.utils import translation

from ledger import access
from ledger.models import Game
from ledger.presentation.reports import hand_report_lines
from ledger.presentation.sheet import game_sheet
from ledger.selectors import table_reports
from ledger.selectors.hands import game_history

from . import downloads
from .game_context import load_game
from .params import BadParameter, bad_parameter_response
from .sheet_tables import export_dataset


def game_export(request: HttpRequest, pk: int) -> HttpResponse:
    """The hands as CSV (``?_export=xlsx``: as XLSX; any other ``_export`` is a 400)."""
    game = access.game_for(request.user, pk)
    export = request.GET.get("_export", "csv")
    if export not in downloads.FORMATS:
        return bad_parameter_response(request, BadParameter("_export", (
            f"The parameter '_export': a game's hands are downloaded as "
            f"{' or '.join(f.upper() for f in downloads.FORMATS)} "
            f"(_export=csv or _export=xlsx), not {export[:20]!r}.")))
    result, _ = load_game(game)
    return export_response(game, result, export=export)


def export_response(game: Game, result: dict, *, export: str = "csv") -> HttpResponse:
    """The game's sheet: the hands with their points and running totals, the voided ones
    marked, who reported what (when the tables reported), then the totals and the money
    (inert: ``downloads``)."""
    by_hand, said = table_reports.hand_reports(game), table_reports.hand_confirmations(game)
    with translation.override(game.session.table.language):  # the table's, as its paper
        # (who reported what too: it was English under the German head "Gemeldet von")
        reported = (hand_report_lines(game_history(game), by_hand, said,
                                      rules=result["rules"]) if by_hand or said else None)
        dataset = export_dataset(game_sheet(game, result=result), reported)
    name = f"{game.session.table.name}-{game.session.date}-game-{game.sequence}.{export}"
    headers, rows = list(dataset.headers), list(dataset)
    if export == "xlsx":
        return downloads.xlsx_response(headers, rows, name, title=f"Game {game.sequence}")
    return downloads.csv_response(headers, rows, name)
