"""What the game page and the shared game page show, laid out for the screen: the game
loaded with its result, and the presentation's ``GamePage`` (ledger/presentation/game_page.py:
the sheet, the next hand's panel and form spec, the chart) with the sheet as django-tables2
tables."""

from __future__ import annotations

from django.db.models import prefetch_related_objects

from ledger.clock import table_today
from ledger.models import Game, Hand, Session
from ledger.presentation.game_page import GamePage
from ledger.presentation.words import person_name
from ledger.selectors.evenings import session_is_settled
from ledger.selectors.games import (
    game_live_entries,
    game_record,
    game_result,
    score,
    seats_with_players,
)
from ledger.selectors.hands import game_history

from .game_settings import change_rows
from .sheet_tables import (
    column_tables,
    fix_pattern,
    row_html,
    sheet_columns,
    sheet_rows,
    sheet_table,
    totals_table,
)

# -- loading a game and its result -----------------------------------------------------------

def load_game(game: Game) -> tuple[dict, list[Hand]]:
    """The core's result for ``game`` and its whole hand history, in a fixed number of
    queries whatever the number of hands (seats with players, and one query for every hand
    ever entered, from which the live ones are taken)."""
    prefetch_related_objects([game], seats_with_players())
    history = game_history(game)
    game.live_hands = sorted((h for h in history if h.voided_at is None),
                             key=lambda h: h.number)
    return game_result(game), history


def load_live(game: Game) -> tuple[dict, list[dict]]:
    """The core's result for ``game`` and the entries of its live hands (number order), read
    without the history: what a hand sent to the game needs before it is stored (its form's
    spec, the next number). ``load_game`` reads every hand as a row with who recorded it,
    for a page that shows them; a Save's answer shows only the new row."""
    prefetch_related_objects([game], seats_with_players())
    entries = game_live_entries(game)
    return score(game_record(game, hands=entries)), entries


def seat_names(game: Game) -> list[str]:
    """The game's players by name, in seat order."""
    return [seat.player.name for seat in game.seats.select_related("player").order_by("seat")]


def last_live_hand(game: Game) -> Hand | None:
    """The game's last live hand (the one undo would take back), from the hands read with
    the game if they were, else alone: a game of 300 hands need not be read for it."""
    hands = getattr(game, "live_hands", None)
    if hands is None:
        return game.hands.filter(voided_at__isnull=True).order_by("-number").first()
    return hands[-1] if hands else None


def new_evening(game: Game) -> dict:
    """What a rematch of ``game`` that opens a new evening would make of it: the players,
    the table's date today and the new evening's number that day."""
    today = table_today(game.session.table)
    number = Session.objects.filter(table_id=game.session.table_id, date=today).count() + 1
    return {"players": seat_names(game), "today": today, "number": number}


def game_page(game: Game, result: dict, history: list[Hand], *, owner: bool) -> GamePage:
    """The view-model of the page of ``game``; a settled evening offers nothing that changes
    a game (no ✎, undo, stakes, next game)."""
    settled = owner and session_is_settled(game.session)
    return GamePage.of(game, result, history=history, owner=owner, settled=settled)


def game_context(game: Game, result: dict, history: list[Hand], *, owner: bool,
                 page: GamePage | None = None) -> dict:
    """Everything the sheet shows, for the scorekeeper's page and the shared page alike:
    the page's view-model (``page``, made here when not given) with its sheet laid out as
    tables."""
    page = page or game_page(game, result, history, owner=owner)
    sheet = page.sheet
    return {
        **page.context(),
        "sheet": sheet_table(sheet, fix_url=fix_pattern(game.pk)
                             if owner and not page.settled else None),
        "totals": totals_table(sheet),
        "columns": column_tables(sheet),
        "changes": [{**row, "by": person_name(row["by"]) if owner else None}
                    for row in change_rows(game.changes.select_related("changed_by"))],
    }


def saved_context(page: GamePage, text: str, *, whole: bool, last: Hand | None) -> dict:
    """What a saved hand changes of the page (the view-model's ``saved``), with the totals
    and the sheet as tables: the whole sheet if ``whole``, else the new row alone."""
    sheet = page.sheet
    fix = fix_pattern(page.game.pk)
    context = {**page.saved(text, whole=whole, last=last),
               "totals": totals_table(sheet), "columns": column_tables(sheet)}
    if whole:
        context["sheet"] = sheet_table(sheet, fix_url=fix)
    else:
        columns = sheet_columns(sheet, fix_url=fix)
        context["new_rows"] = [
            row_html(record, css="just-saved")
            for record in sheet_rows(sheet, columns, fix_url=fix, rows=sheet.live_rows[-1:])]
    return context
