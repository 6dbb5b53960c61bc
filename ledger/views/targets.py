"""A streets game's target changed between two deals (RULES 3.9): the small form under the
street cards. Refused by the core (``target_passed``): the page again, the reason at the
field."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.utils.translation import gettext
from django.views.decorators.http import require_POST

from ledger import access, services
from ledger.exceptions import LedgerError, RecordRefused
from ledger.forms import TargetForm
from ledger.presentation.notices import GAME_OVER
from ledger.presentation.refusals import refusal_words
from ledger.selectors.games import accepts_hands

from .game_context import load_game
from .game_page import render_game, to_game
from .settled import refuse_if_settled


@require_POST
def target_change(request: HttpRequest, pk: int) -> HttpResponse:
    game = access.game_for(request.user, pk)
    if refused := refuse_if_settled(request, game.session, game=game):
        return refused
    result, history = load_game(game)
    if not accepts_hands(game, result):
        messages.info(request, gettext(GAME_OVER))
        return to_game(request, game)
    form = TargetForm(request.POST)
    if form.is_valid():
        try:
            services.target_change(game=game, target=form.cleaned_data["target"],
                                   changed_by=request.user,
                                   idempotency_key=form.cleaned_data["key"])
        except RecordRefused as exc:
            form.add_problems(exc.details)
        except LedgerError as exc:
            form.add_error(None, refusal_words(exc))
        else:
            messages.success(request, gettext("Target changed to %(n)s for every open "
                                              "street.") % {"n": form.cleaned_data["target"]})
            return redirect("ledger:game_detail", pk=game.pk)
    return render_game(request, game, result, history, status=422, target_form=form)
