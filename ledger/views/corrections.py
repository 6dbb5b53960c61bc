"""Correct a recorded hand: the corrected hand replaces it, the old one stays in the
history (``Hand.replaces``), and the game is scored again."""

from __future__ import annotations

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse

from ledger import access, services
from ledger.forms import HandForm, initial_from_entry, new_hand_initial
from ledger.presentation.catalog import VARIANT_NAMES
from ledger.presentation.game_page import hand_spec
from ledger.presentation.notices import corrected_text
from ledger.presentation.rows import hand_row
from ledger.selectors.games import entry_as_played

from .actions import refusals_to
from .game_context import load_game
from .settled import refuse_if_settled


def hand_correct(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    game = access.game_for(request.user, pk)
    result, history = load_game(game)
    if not 1 <= number <= len(result["hands"]):
        raise Http404("No such hand")
    if refused := refuse_if_settled(request, game.session, game=game):
        return refused
    hand = next(h for h in game.live_hands if h.number == number)
    spec = hand_spec(result, result["hands"][number - 1])
    if request.method == "POST":
        form = HandForm(request.POST, spec=spec, correcting=True)
        if form.is_valid():
            # the hand the form was opened on, even if it was corrected or undone since
            # (the service then refuses; a repeat of this very correction is recognized)
            opened = next((h for h in history if h.pk == form.cleaned_data["hand"]
                           and h.number == number), hand)
            with refusals_to(form):
                services.hand_correct(
                    hand=opened, entry=form.entry(), corrected_by=request.user,
                    reason=form.cleaned_data["reason"],
                    idempotency_key=form.cleaned_data["key"])
                messages.success(request, corrected_text(number))
                return redirect(reverse("ledger:game_detail", kwargs={"pk": game.pk})
                                + f"#hand-{number}")
        status = 422
    else:
        form = HandForm(spec=spec, correcting=True, initial={
            **new_hand_initial(number), "hand": hand.pk,
            **initial_from_entry(spec, entry_as_played(game, hand.entry))})
        status = 200
    return render(request, "ledger/hand_correct.html", {
        "game": game, "session": game.session, "table": game.session.table, "form": form,
        "number": number, "entered_as": hand_row(result["hands"][number - 1], result).text,
        "variant_label": VARIANT_NAMES.get(game.variant, game.variant),
        "hand_result": result["hands"][number - 1],
    }, status=status)
