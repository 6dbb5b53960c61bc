"""The "Stakes and rules" screen of a game: correct a stake or a rule setting written down
wrongly (RULES §4), before the session is settled; every change is recorded (GameChange).

The write is ``services.game_change_settings`` with only what changed (stakes and rules
together: both or neither). When it would alter the money of a finished game the service
refuses (``ConfirmationRequired``, with the money before and after); the screen then shows
it and asks. The confirmation carries the money it showed: if the change the scorekeeper
confirms moves the money to other amounts (values edited in between, another scorekeeper's
change), nothing is written and the screen asks again.
"""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext

from ledger import access, cleaning, services
from ledger.exceptions import ConfirmationRequired, LedgerError, RecordRefused
from ledger.forms import GameSettingsForm
from ledger.models import GameStatus
from ledger.presentation.catalog import PRESET_LABELS, VARIANT_NAMES
from ledger.presentation.changes import (
    change_rows,
    done_message,
    money_lines,
    stake_text,
)
from ledger.presentation.refusals import refusal_words
from ledger.selectors.evenings import session_is_settled

from .settled import refuse_if_settled

__all__ = ["change_rows", "confirmed_money", "game_settings", "money_token"]


def money_token(money: dict[str, int]) -> str:
    """The money a confirmation was shown for, compared again when it is confirmed."""
    return ",".join(f"{name}:{amount}" for name, amount in sorted(money.items()))


def confirmed_money(token: str | None) -> dict[str, int] | None:
    """The money a confirmation was given for (``money_token``), or None."""
    if not token:
        return None
    money = {}
    for part in token.split(","):
        name, _, amount = part.rpartition(":")
        if not cleaning.is_plain_int(amount):  # int() reads '١٢' as 12
            return None
        money[name] = int(amount)
    return money


# -- the screen ------------------------------------------------------------------------------

def game_settings(request: HttpRequest, pk: int) -> HttpResponse:
    game = access.game_for(request.user, pk)
    if refused := refuse_if_settled(request, game.session, game=game):
        return refused
    seats = list(game.seats.select_related("player").order_by("seat"))
    settled = session_is_settled(game.session)
    confirm = None
    status = 200
    if request.method == "POST":
        form = GameSettingsForm(request.POST, game=game, seats=seats)
        if form.is_valid():
            stake, rules = form.stake_changes(), form.rule_changes()
            confirmed = request.POST.get("confirm_money") if request.POST.get("confirm") else None
            if not stake and not rules:
                form.add_error(None, gettext("Nothing to change: every value is as it was."))
            else:
                try:
                    made = services.game_change_settings(
                        game=game, changed_by=request.user, stake=stake, rules=rules,
                        reason=form.cleaned_data["reason"].strip(),
                        confirm_money=confirmed_money(confirmed))
                except ConfirmationRequired as ask:
                    confirm = {"lines": money_lines(game, ask.old_money, ask.new_money),
                               "token": money_token(ask.new_money),
                               "again": confirmed is not None}
                except RecordRefused as exc:
                    form.add_problems(exc.details)
                except LedgerError as exc:
                    form.add_error(None, refusal_words(exc))
                else:
                    messages.success(request, done_message(game, made))
                    return redirect("ledger:game_detail", pk=game.pk)
        status = 200 if confirm else 422
    else:
        form = GameSettingsForm(game=game, seats=seats)
    return render(request, "ledger/game_settings.html", {
        "game": game, "session": game.session, "table": game.session.table, "form": form,
        "variant_label": VARIANT_NAMES.get(game.variant, game.variant),
        "preset_label": PRESET_LABELS.get(game.preset, game.preset),
        "settled": settled, "confirm": confirm, "stake_now": stake_text(game, seats),
        "finished": game.status != GameStatus.IN_PROGRESS,
        "changes": change_rows(game.changes.select_related("changed_by")),
    }, status=status)
