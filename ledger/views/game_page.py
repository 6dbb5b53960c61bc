"""The game page: the sheet, the score, the next hand's form, and what a saved hand changes
of it.

Views are thin: they read through ``ledger.access`` (a table's objects are visible only to
its scorekeepers, 404 otherwise) and ``ledger.selectors``, write only through
``ledger.services``, and show only numbers from the core's result. Every form is a plain
POST followed by a redirect (post/redirect/get); a refused form is drawn again with what was
typed and the core's problem at the field and next to Save. The page's actions have their
own modules: ``hand_entry`` (the hand form and its preview), ``queue`` (hands sent by the
phone's queue), ``undo``, ``corrections``, ``abandon``, ``rematch`` and ``game_downloads``
(the CSV); they draw the page with ``render_game`` and its parts with ``saved_parts``."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse

from ledger import access, cleaning
from ledger.forms import HandForm, ReasonForm, initial_from_entry, new_hand_initial
from ledger.models import Game, GameStatus, ShareLink
from ledger.presentation.dates import evening_words
from ledger.presentation.flash import open_games_text, winner_sentence
from ledger.presentation.sheet import game_sheet
from ledger.selectors.evenings import rematch_evening
from ledger.selectors.hands import game_history

from . import confirm
from .game_context import (
    game_context,
    hand_spec,
    load_game,
    next_panel,
    seat_names,
    sheet_chart,
)
from .params import number_param, refuses_bad_parameters
from .sheet_tables import (
    column_tables,
    fix_pattern,
    row_html,
    sheet_columns,
    sheet_rows,
    sheet_table,
    totals_table,
)


@refuses_bad_parameters
def game_detail(request: HttpRequest, pk: int) -> HttpResponse:
    game = access.game_for(request.user, pk)
    number_param(request.GET, "again", minimum=1)  # '?again=²': 400, naming it
    result, history = load_game(game)
    response = render_game(request, game, result, history)
    if request.GET.get("kept") == "1":
        # the copy the phone keeps for opening the page offline (static/ledger/offline.js):
        # the messages wait for the page the scorekeeper sees next
        messages.get_messages(request).used = False
    return response


def render_game(request, game: Game, result: dict, history, form: HandForm | None = None,
                status: int = 200) -> HttpResponse:
    """The whole game page; ``form``: the hand form as typed (refused, or kept after
    another phone recorded the hand first), drawn with ``status``."""
    context = game_context(game, result, history, owner=True)
    again = None
    if form is None and context["panel"] is not None and not context["settled"]:
        spec = hand_spec(game.variant, result, result["next"])
        initial = new_hand_initial(context["panel"]["number"])
        again = _undone_hand(request, history, context["panel"]["number"])
        if again is not None:  # just undone: its entry, ready to be saved again
            initial.update(initial_from_entry(spec, again.entry))
        form = HandForm(spec=spec, initial=initial)
    live_links = list(ShareLink.objects.filter(table=game.session.table,
                                               revoked_at__isnull=True))
    share_game = next((link for link in live_links if link.game_id == game.pk), None)
    context.update({
        "form": form,
        "share_game": share_game,
        "print_game": reverse("scoresheets:game_pdf", kwargs={"pk": game.pk}),
        "print_blank": reverse("scoresheets:blank_pdf", kwargs={"pk": game.pk}),
        "undo_form": ReasonForm(),
        "again": again,
        "undo_question": None if context["settled"] else confirm.undo_question(game, result),
        **game_end(game, result, history, settled=context["settled"]),
        "revoke_question": confirm.revoke_question(share_game) if share_game else None,
        "settled_text": evening_words(game.session.date) if context["settled"] else "",
        "open_games_text": open_games_text(result),
        "rematch": context["ended"],
        "rematch_question": (confirm.rematch_question(game, seat_names(game))
                             if context["ended"] and context["settled"]
                             and rematch_evening(game) is None else None),
        "winner_sentence": winner_sentence(result),
        # a share link asked for in the tools menu is shown there, open
        "tools_open": request.GET.get("tools") == "share" and share_game is not None,
    })
    return render(request, "ledger/game_detail.html", context, status=status)


def game_end(game: Game, result: dict, history, *, settled: bool) -> dict:
    """How the game can be ended early: a game with no hand at all (none saved, none
    undone) and no report from its tables is deleted (started by mistake), one in progress
    with hands is abandoned; each asks first. Nothing in a settled evening."""
    if settled:
        return {"abandon_question": None, "delete_question": None}
    empty = not history and not game.table_reports.exists()
    playing = game.status == GameStatus.IN_PROGRESS
    return {"abandon_question": (confirm.abandon_question(game, result)
                                 if playing and not empty else None),
            "delete_question": confirm.delete_question(game) if empty else None}


def _undone_hand(request, history, number: int):
    """The hand just undone (``?again=<its id>``), if it was hand ``number`` of this game
    and was undone, not corrected: the form for the next hand starts from it."""
    wanted = request.GET.get("again") or ""
    if not cleaning.is_ascii_number(wanted):  # (game_detail answers 400 for it first)
        return None
    hand = next((h for h in history if h.pk == int(wanted)), None)
    if hand is None or hand.voided_at is None or hand.number != number:
        return None
    if any(h.replaces_id == hand.pk for h in history):
        return None
    return hand


def saved_parts(game: Game, result: dict, history, text: str, *,
                form: HandForm | None = None, whole: bool = False,
                record: dict | None = None, last=None) -> dict:
    """The context of ``ledger/_hand_saved.html``: the next hand's form and who plays it
    (with the saved hand in words), and out of band the score, the new row of the sheet
    (the whole sheet for CAP-IT's five rounds, a first hand, or ``whole``: several hands
    new to the page), the running totals, the totals table and the undo button. Also what
    the phone's queue (ledger/views/queue.py) sends back after the last hand it sent.

    ``history``: every Hand row of the game, or None: it is read here only for a sheet sent
    whole (a new row alone shows no voided hand, so none is scored again for it).
    ``record``: the game's record as scored for ``result``, and ``last``: the hand just
    saved (its undo button), if the caller has them."""
    whole = whole or result["facts"]["rounds"] or len(result["hands"]) == 1
    if whole and history is None:
        history = game_history(game)
    sheet = game_sheet(game, record=record, result=result, history=history, owner=True,
                       last=None if whole else 1)
    panel = next_panel(game.variant, result)
    fix = fix_pattern(game.pk)
    context = {
        "game": game, "session": game.session, "table": game.session.table,
        "result": result, "keys": sheet.layout.keys, "view": sheet, "owner": True,
        "scoreboard": sheet.scores, "target": result["rules"].get("target"),
        "panel": panel, "saved_text": text, "oob": True, "whole": whole,
        "form": form or HandForm(spec=hand_spec(game.variant, result, result["next"]),
                                 initial=new_hand_initial(panel["number"])),
        "chart": sheet_chart(game, sheet, result),
        "totals": totals_table(sheet), "columns": column_tables(sheet),
        "ended": False, "abandoned": False, "last_number": len(result["hands"]),
        "undo_question": confirm.undo_question(game, result, last=last),
        # a hand was just saved: the game is abandoned now, not deleted
        "abandon_question": confirm.abandon_question(game, result), "delete_question": None,
    }
    if whole:
        context["sheet"] = sheet_table(sheet, fix_url=fix)
    else:
        columns = sheet_columns(sheet, fix_url=fix)
        context["new_rows"] = [
            row_html(record, css="just-saved")
            for record in sheet_rows(sheet, columns, fix_url=fix, rows=sheet.live_rows[-1:])]
    return context


def to_game(request, game: Game) -> HttpResponse:
    """Back to the whole game page: a redirect, or for htmx a page load (HX-Location), so
    that a page is never swapped into the hand form's card."""
    url = reverse("ledger:game_detail", kwargs={"pk": game.pk})
    if request.htmx:
        response = HttpResponse(status=204)
        response["HX-Location"] = url
        return response
    return redirect(url)
