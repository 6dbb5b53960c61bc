"""Undo the last hand of a game: it stays in the history, crossed out, and comes back in
the form of the next hand, ready to be saved again."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse

from ledger import access, cleaning, services
from ledger.models import GameStatus
from ledger.presentation import questions
from ledger.presentation.flash import hand_said
from ledger.presentation.notices import UNDO_OUT_OF_DATE, undone_text

from .actions import run_service
from .game_context import last_live_hand, load_game
from .params import BadParameter, bad_parameter_response, number_param
from .settled import refuse_if_settled


def hand_undo(request: HttpRequest, pk: int) -> HttpResponse:
    """GET: the question (the page for phones without JavaScript; the game page asks it
    in a dialog). POST: undo the last hand, then offer it again in the form."""
    game = access.game_for(request.user, pk)
    if refused := refuse_if_settled(request, game.session, game=game):
        return refused
    if request.method != "POST":
        result, _ = load_game(game)
        question = questions.undo_question(game, result, last=last_live_hand(game))
        if question is None:
            return redirect("ledger:game_detail", pk=game.pk)
        return render(request, "ledger/confirm.html", {
            "q": question, "table": game.session.table, "session": game.session,
            "game": game, "crumb_game": True})
    number = request.POST.get("number") or ""
    reason = (request.POST.get("reason") or "").strip() or "undone"
    if number and not cleaning.is_ascii_number(number):  # ('²' is a digit to str.isdigit())
        # the one answer to a number not written with the digits 0-9: a 400 naming it
        try:
            number_param(request.POST, "number", minimum=1)
        except BadParameter as exc:
            exc.message = f"{UNDO_OUT_OF_DATE} {exc.message}"
            return bad_parameter_response(request, exc)
    was_over = game.status == GameStatus.COMPLETE
    before, _ = load_game(game)
    game_url = reverse("ledger:game_detail", kwargs={"pk": game.pk})
    return run_service(
        request, lambda: services.hand_undo_last(game=game, undone_by=request.user,
                                                 reason=reason,
                                                 number=int(number) if number else None),
        success=lambda hand: undone_text(before["facts"]["hand_noun"], hand.number,
                                         hand_said(before, hand.number, hand.entry),
                                         reopened=was_over),
        # the next hand's form on the game page starts from the hand undone
        redirect_to=lambda hand: f"{game_url}?again={hand.pk}#next",
        failure_redirect=game_url)
