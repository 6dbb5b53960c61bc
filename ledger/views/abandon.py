"""Abandon a game: it ends where it stands and settles on hand points."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.views.decorators.http import require_POST

from ledger import access, services
from ledger.exceptions import LedgerError
from ledger.presentation.notices import ABANDONED

from .settled import refuse_if_settled


@login_required
@require_POST
def game_abandon(request: HttpRequest, pk: int) -> HttpResponse:
    game = access.game_for(request.user, pk)
    if refused := refuse_if_settled(request, game.session, game=game):
        return refused
    reason = (request.POST.get("reason") or "").strip()
    try:
        services.game_abandon(game=game, abandoned_by=request.user, reason=reason)
    except LedgerError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, ABANDONED)
    return redirect("ledger:game_detail", pk=game.pk)
