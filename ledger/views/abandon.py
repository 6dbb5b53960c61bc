"""Abandon a game: it ends where it stands and settles on hand points."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.urls import reverse
from django.views.decorators.http import require_POST

from ledger import access, services
from ledger.presentation.notices import ABANDONED

from .actions import run_service
from .settled import refuse_if_settled


@require_POST
def game_abandon(request: HttpRequest, pk: int) -> HttpResponse:
    game = access.game_for(request.user, pk)
    if refused := refuse_if_settled(request, game.session, game=game):
        return refused
    reason = (request.POST.get("reason") or "").strip()
    return run_service(
        request, lambda: services.game_abandon(game=game, abandoned_by=request.user,
                                               reason=reason),
        success=ABANDONED, redirect_to=reverse("ledger:game_detail", args=[game.pk]))
