"""The same players again, after a game ended (``services.game_rematch`` says where: this
evening while it is open, a new evening when it is settled)."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse

from ledger import access, services
from ledger.presentation import questions
from ledger.presentation.notices import rematch_text
from ledger.presentation.words import evening_label
from ledger.selectors.evenings import rematch_evening

from .actions import run_service
from .game_context import new_evening, seat_names


def game_rematch(request: HttpRequest, pk: int) -> HttpResponse:
    """Same players again (``services.game_rematch`` says where and how). When the evening
    is settled and a new evening would be opened, that is asked first: GET (or a POST
    without ``new_evening=1``) shows the question, the game page asks it in a dialog."""
    game = access.game_for(request.user, pk)
    needs_new = rematch_evening(game) is None
    if request.method != "POST" or (needs_new and request.POST.get("new_evening") != "1"):
        if not needs_new:
            return redirect(reverse("ledger:game_detail", kwargs={"pk": game.pk}) + "#over")
        return render(request, "ledger/confirm.html", {
            "q": questions.rematch_question(game, **new_evening(game)),
            "table": game.session.table, "session": game.session})
    return run_service(
        request, lambda: services.game_rematch(game=game, started_by=request.user),
        success=lambda new: _started_text(game, new),
        redirect_to=lambda new: reverse("ledger:game_detail", args=[new.pk]),
        failure_redirect=reverse("ledger:game_detail", args=[game.pk]))


def _started_text(game, new) -> str:
    """"Game 4 started: ...", naming both evenings when the new game opened a new one."""
    moved = new.session_id != game.session_id
    return rematch_text(
        new.sequence, seat_names(new),
        settled_evening=evening_label(game.session) if moved else "",
        new_evening=evening_label(new.session) if moved else "")
