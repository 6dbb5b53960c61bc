"""The hand form of the game page: a hand saved, refused, or kept after another phone
recorded it first; and the preview of the hand as it is typed.

With JavaScript the form posts through htmx: a saved hand answers with only what it
changes (``_hand_saved``), a refused one with the form alone (``_entry_refused``), and
``hand_preview`` says as the hand is typed what the core would make of it. Without it, a
saved hand redirects to the game page and a refused one draws the page again (422)."""

from __future__ import annotations

import uuid

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext
from django.views.decorators.http import require_POST

from ledger import access, services
from ledger.exceptions import HandAlreadyRecorded, LedgerError, RecordRefused
from ledger.forms import HandForm, next_hand_form
from ledger.models import Game
from ledger.presentation.flash import outcome_text
from ledger.presentation.game_page import GamePage
from ledger.presentation.notices import GAME_OVER, kept_text
from ledger.presentation.refusals import refusal_words
from ledger.presentation.rows import preview_words
from ledger.selectors.games import accepts_hands
from ledger.selectors.hands import preview_hand

from .game_context import load_game, load_live
from .game_page import render_game, saved_parts, to_game
from .settled import refuse_if_settled


@require_POST
def hand_create(request: HttpRequest, pk: int) -> HttpResponse:
    game = access.game_for(request.user, pk)
    if refused := refuse_if_settled(request, game.session, game=game):
        return refused
    result, history = load_game(game)
    if not accepts_hands(game, result):
        messages.info(request, gettext(GAME_OVER))
        return to_game(request, game)
    form = next_hand_form(result, request.POST)
    if form.is_valid():
        try:
            outcome = services.hand_record(
                game=game, entry=form.entry(), recorded_by=request.user,
                idempotency_key=form.cleaned_data["key"], number=form.cleaned_data["number"])
        except RecordRefused as exc:
            form.add_problems(exc.details)
        except HandAlreadyRecorded as exc:
            return _kept_for_the_next_hand(request, game, exc)
        except LedgerError as exc:
            form.add_error(None, refusal_words(exc))
        else:
            if request.htmx and outcome.created:
                return _hand_saved(request, game, outcome_text(outcome), outcome=outcome)
            messages.success(request, outcome_text(outcome))
            return redirect(reverse("ledger:game_detail", kwargs={"pk": game.pk}))
    if request.htmx:
        return _entry_refused(request, game, result, form)
    return render_game(request, game, result, history, form=form, status=422)


def _entry_refused(request, game: Game, result: dict, form: HandForm) -> HttpResponse:
    """htmx: the refused form alone, in place, its reasons next to Save and at the fields
    (the page's script then brings the first marked field into view). Sent as 200 so that
    htmx swaps it in; without JavaScript the whole page comes back with 422."""
    page = GamePage.of(game, result, owner=True)
    return render(request, "ledger/_entry.html", {
        "game": game, "result": result, "form": form, "scoreboard": page.sheet.scores,
        "panel": page.panel, "view": page.sheet})


def _hand_saved(request, game: Game, text: str, *, form: HandForm | None = None,
                outcome=None) -> HttpResponse:
    """htmx: what a saved hand changes, not the whole page (``saved_parts``). A hand that
    ends the game reloads the page, which then opens on the winner and the money. ``form``:
    a hand kept after another phone recorded it first, drawn as typed over a sheet redrawn
    whole. ``outcome``: the service's, for a hand stored just now: the game as it is now
    from its result and the live hands read before it (``game.live_hands``), not read and
    scored all again."""
    if outcome is not None and not outcome.result.get("complete"):
        result, history = outcome.result, None  # read by saved_parts if the sheet goes whole
        game.live_hands = [*game.live_hands, outcome.hand]
    else:
        result, history = load_game(game)
    if not accepts_hands(game, result):
        messages.success(request, text)
        return to_game(request, game)
    return render(request, "ledger/_hand_saved.html",
                  saved_parts(game, result, history, text, form=form, whole=form is not None))


def _kept_for_the_next_hand(request, game: Game, exc: HandAlreadyRecorded) -> HttpResponse:
    """Another phone recorded this hand first. What was typed is not thrown away: it comes
    back in the form of the next hand, to be checked against the table and saved again (or
    cleared), and nothing is recorded until then."""
    result, history = load_game(game)
    if not accepts_hands(game, result):
        messages.warning(request, refusal_words(exc))
        return to_game(request, game)
    number = len(result["hands"]) + 1
    data = request.POST.copy()
    data.update({"number": str(number), "key": str(uuid.uuid4())})
    retry = next_hand_form(result, data)
    retry.is_valid()  # marks what no longer fits the next hand (its players may differ)
    retry.add_error(None, kept_text(refusal_words(exc), number))
    if request.htmx:  # the form as typed, and the sheet redrawn with the other phone's hand
        return _hand_saved(request, game, "", form=retry)
    return render_game(request, game, result, history, form=retry, status=409)


@require_POST
def hand_preview(request: HttpRequest, pk: int) -> HttpResponse:
    """htmx, as the hand is typed: what the core would make of it as the next hand (its
    words and points, or the core's refusal), from the game's record plus the typed hand
    through ``preview_hand``; nothing is stored. While the form is still
    incomplete it says nothing, unless something typed is already wrong (a letter)."""
    game = access.game_for(request.user, pk)
    result, entries = load_live(game)  # asked for as the hand is typed: no history read
    preview: dict = {}
    if accepts_hands(game, result):
        form = next_hand_form(result, request.POST)
        if form.is_valid():
            verdict = preview_hand(game, form.entry(), entries=entries)
            if "problems" in verdict:
                form.add_problems(verdict["problems"])
                preview["problems"] = form.problems
            else:
                preview = preview_words(verdict["hand"], verdict["result"])
        else:
            typed = [name for name in form.errors
                     if name in form.fields and (form.data.get(name) or "").strip()]
            preview["problems"] = [str(error) for name in typed for error in form.errors[name]]
    return render(request, "ledger/_hand_preview.html", {"preview": preview})
