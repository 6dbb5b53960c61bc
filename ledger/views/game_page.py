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
from ledger.forms import HandForm, ReasonForm, TargetForm, new_target_form, next_hand_form
from ledger.models import Game, ShareLink
from ledger.presentation.game_page import GamePage
from ledger.selectors.evenings import rematch_evening
from ledger.selectors.hands import game_history

from .game_context import (
    game_context,
    game_page,
    last_live_hand,
    load_game,
    new_evening,
    saved_context,
)
from .params import number_param, refuses_bad_parameters


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
                status: int = 200, target_form: TargetForm | None = None) -> HttpResponse:
    """The whole game page; ``form``: the hand form as typed (refused, or kept after
    another phone recorded the hand first), drawn with ``status``; ``target_form``: a
    streets game's target change as typed (refused)."""
    page = game_page(game, result, history, owner=True)
    context = game_context(game, result, history, owner=True, page=page)
    again = None
    if form is None and not page.ended and not page.settled:
        number = page.panel["number"]
        again = _undone_hand(request, history, number)
        # just undone: its entry, ready to be saved again
        form = next_hand_form(result, number=number,
                              again=again.entry if again is not None else None)
    live_links = list(ShareLink.objects.filter(table=game.session.table,
                                               revoked_at__isnull=True))
    share_game = next((link for link in live_links if link.game_id == game.pk), None)
    # a game with no hand at all (none saved, none undone) and no report from its tables
    # is deleted (started by mistake), one with hands abandoned
    empty = not page.settled and not history and not game.table_reports.exists()
    rematch = (new_evening(game) if page.ended and page.settled
               and rematch_evening(game) is None else None)
    context.update({
        "form": form,
        "share_game": share_game,
        "print_game": reverse("scoresheets:game_pdf", kwargs={"pk": game.pk}),
        "print_blank": reverse("scoresheets:blank_pdf", kwargs={"pk": game.pk}),
        "undo_form": ReasonForm(),
        "again": again,
        **page.owner_parts(last=last_live_hand(game), empty=empty, share_link=share_game,
                           rematch=rematch),
        # a share link asked for in the tools menu is shown there, open
        "tools_open": request.GET.get("tools") == "share" and share_game is not None,
    })
    if context.get("streets") and not page.ended and not page.settled:  # RULES 3.9
        context["target_form"] = target_form or new_target_form()
    return render(request, "ledger/game_detail.html", context, status=status)


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
    page = GamePage.of(game, result, history=history, record=record, owner=True,
                       last=None if whole else 1)
    return {**saved_context(page, text, whole=whole, last=last or last_live_hand(game)),
            "form": form or next_hand_form(result, number=page.panel["number"]),
            # the phone's copy of the record (the hand form's #game-record), not read again
            "game_record": record}


def to_game(request, game: Game) -> HttpResponse:
    """Back to the whole game page: a redirect, or for htmx a page load (HX-Location), so
    that a page is never swapped into the hand form's card."""
    url = reverse("ledger:game_detail", kwargs={"pk": game.pk})
    if request.htmx:
        response = HttpResponse(status=204)
        response["HX-Location"] = url
        return response
    return redirect(url)
