"""Abandon a game (it ends where it stands and settles on hand points), or delete one
started by mistake (no hand yet). Both ask first (ledger/presentation/questions.py): in a dialog on
the game page, and without JavaScript on a page of their own (the GET); the POST acts."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext

from ledger import access, services
from ledger.models import GameStatus
from ledger.presentation import questions
from ledger.presentation.notices import ABANDONED

from .actions import run_service
from .game_context import load_game
from .settled import refuse_if_settled


def game_abandon(request: HttpRequest, pk: int) -> HttpResponse:
    """GET: the question. POST: abandon."""
    game = access.game_for(request.user, pk)
    if refused := refuse_if_settled(request, game.session, game=game):
        return refused
    if request.method != "POST":
        if game.status != GameStatus.IN_PROGRESS:  # nothing to ask: the game says so
            return redirect("ledger:game_detail", pk=game.pk)
        result, _ = load_game(game)
        return render(request, "ledger/confirm.html", {
            "q": questions.abandon_question(game, result), "table": game.session.table,
            "session": game.session, "game": game, "crumb_game": True})
    reason = (request.POST.get("reason") or "").strip()
    return run_service(
        request, lambda: services.game_abandon(game=game, abandoned_by=request.user,
                                               reason=reason),
        success=ABANDONED, redirect_to=reverse("ledger:game_detail", args=[game.pk]))


def game_delete(request: HttpRequest, pk: int) -> HttpResponse:
    """GET: the question. POST: delete the game (refused, with the reason, when it has a
    hand, money or reports, or its evening is settled); then the evening."""
    game = access.game_for(request.user, pk)
    if refused := refuse_if_settled(request, game.session, game=game):
        return refused
    if request.method != "POST":
        return render(request, "ledger/confirm.html", {
            "q": questions.delete_question(game), "table": game.session.table,
            "session": game.session, "game": game, "crumb_game": True})
    return run_service(
        request, lambda: services.game_delete(game=game, deleted_by=request.user),
        success=lambda n: gettext("Game %(n)s deleted.") % {"n": n},
        redirect_to=lambda n: reverse("ledger:session_detail", args=[game.session_id]),
        failure_redirect=reverse("ledger:game_detail", args=[game.pk]))
