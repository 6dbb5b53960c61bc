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
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render

from ledger import access, cleaning, selectors, services
from ledger.exceptions import ConfirmationRequired, LedgerError, RecordRefused
from ledger.forms import SETTING_LABELS, VARIANT_LABELS, GameSettingsForm
from ledger.models import ChangeKind, Game, GameChange, GameStatus
from ledger.presentation.catalog import facts_for
from ledger.templatetags.money import signed as signed_text

from .settled import refuse_if_settled


def signed(units: int, currency: str) -> str:
    """Money as the screens show a result: +2.02, −2.02 (a real minus), 0.00: the
    ``signed`` template filter, for the flash messages written here."""
    return signed_text(selectors.minor_text(units, currency))


def money_token(money: dict[str, int]) -> str:
    """The money a confirmation was shown for, compared again when it is confirmed."""
    return ",".join(f"{name}:{amount}" for name, amount in sorted(money.items()))


def money_lines(game: Game, old: dict[str, int], new: dict[str, int]) -> list[dict]:
    """Each player whose money changes, seat order: name, old and new, signed."""
    names = [seat.player.name for seat in game.seats.select_related("player").order_by("seat")]
    return [{"name": name, "old": signed(old.get(name, 0), game.currency),
             "new": signed(new.get(name, 0), game.currency)}
            for name in names if old.get(name, 0) != new.get(name, 0)]


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


# -- how a change reads ----------------------------------------------------------------------

def change_label(change: GameChange) -> str:
    if change.kind == ChangeKind.ABANDON:
        return "Game"
    if change.kind == ChangeKind.RULE:
        return SETTING_LABELS.get(change.name, change.name.replace("_", " "))
    if change.name == "rate":
        return "Stake"
    if change.name == "per_points":
        return "Per points"
    if change.name == "ante":
        return "Ante"
    if change.name.startswith("stake of "):
        return f"{change.name[len('stake of '):]}'s own stake"
    return change.name


def change_value(change: GameChange, value) -> str:
    if value is None:
        if change.name.startswith("stake of "):
            return "same as the game"
        return "not for money" if change.name == "rate" else "none"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if change.kind == ChangeKind.ABANDON:
        return GameStatus(value).label.lower() if value in GameStatus.values else str(value)
    return str(value).replace("_", " ")


def change_rows(changes) -> list[dict]:
    """GameChange rows as the game page lists them."""
    return [{"at": change.changed_at, "by": change.changed_by, "what": change_label(change),
             "old": change_value(change, change.old), "new": change_value(change, change.new),
             "reason": change.reason, "after_hand": change.after_hand,
             "money_changed": change.money_changed, "kind": change.kind}
            for change in changes]


def _done_message(game: Game, made: list[GameChange]) -> str:
    parts = [f"{row['what']} {row['old']} → {row['new']}" for row in change_rows(made)]
    text = "Changed: " + "; ".join(parts) + "."
    if any(change.money_changed for change in made):
        money = selectors.game_posted_money(game)
        text += " Money now: " + ", ".join(
            f"{name} {signed(amount, game.currency)}" for name, amount in money.items()) + "."
    return text


def stake_text(game: Game, seats) -> str:
    """The game's stake in words: "0.01 USD per point; Ann 0.02", "ante 1.00 USD"."""
    def money(value):
        return selectors.decimal_text(value, game.currency)

    if facts_for(game).stake == "ante":
        return f"ante {money(game.ante)} {game.currency}" if game.ante else "no ante"
    per = game.per_points or 1
    points = "point" if per == 1 else f"{per} points"
    text = (f"{money(game.rate)} {game.currency} per {points}" if game.rate is not None
            else "not for money")
    own = [f"{seat.player.name} {money(seat.stake)}" for seat in seats if seat.stake]
    if own:
        text += "; own stakes: " + ", ".join(own)
    return text


# -- the screen ------------------------------------------------------------------------------

@login_required
def game_settings(request: HttpRequest, pk: int) -> HttpResponse:
    game = access.game_for(request.user, pk)
    if refused := refuse_if_settled(request, game.session, game=game):
        return refused
    seats = list(game.seats.select_related("player").order_by("seat"))
    settled = selectors.session_is_settled(game.session)
    confirm = None
    status = 200
    if request.method == "POST":
        form = GameSettingsForm(request.POST, game=game, seats=seats)
        if form.is_valid():
            stake, rules = form.stake_changes(), form.rule_changes()
            confirmed = request.POST.get("confirm_money") if request.POST.get("confirm") else None
            if not stake and not rules:
                form.add_error(None, "Nothing to change: every value is as it was.")
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
                    form.add_error(None, exc.message)
                else:
                    messages.success(request, _done_message(game, made))
                    return redirect("ledger:game_detail", pk=game.pk)
        status = 200 if confirm else 422
    else:
        form = GameSettingsForm(game=game, seats=seats)
    return render(request, "ledger/game_settings.html", {
        "game": game, "session": game.session, "table": game.session.table, "form": form,
        "variant_label": VARIANT_LABELS.get(game.variant, game.variant),
        "settled": settled, "confirm": confirm, "stake_now": stake_text(game, seats),
        "finished": game.status != GameStatus.IN_PROGRESS,
        "changes": change_rows(game.changes.select_related("changed_by")),
    }, status=status)
