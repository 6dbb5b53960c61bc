"""A game's corrections in words: the "Stakes and rules" screen's list of changes
(``GameChange`` rows), the message after a change, the money a change would move (asked
before it is made), and the game's stake as it stands.
"""

from __future__ import annotations

from django.utils.translation import pgettext

from ledger.models import ChangeKind, Game, GameChange, GameStatus
from ledger.selectors.games import game_posted_money

from .catalog import SETTING_LABELS, choice_text, facts_for
from .elision import gettext  # a name filled in with French elision
from .money import amount_text, decimal_text, format_money
from .stakes import NO_STAKE, ante_sentence, stake_sentence


def signed(units: int, currency: str) -> str:
    """Money as the screens show a result: +2.02, −2.02 (a real minus), 0.00, in minor
    units (the ``signed`` template filter, for messages)."""
    return format_money(units, currency, minor=True, sign=True)


def money_lines(game: Game, old: dict[str, int], new: dict[str, int]) -> list[dict]:
    """Each player whose money changes, seat order: name, old and new, signed."""
    names = [seat.player.name for seat in game.seats.select_related("player").order_by("seat")]
    return [{"name": name, "old": signed(old.get(name, 0), game.currency),
             "new": signed(new.get(name, 0), game.currency)}
            for name in names if old.get(name, 0) != new.get(name, 0)]


def change_label(change: GameChange) -> str:
    if change.kind == ChangeKind.ABANDON:
        return pgettext("game of cards", "Game")
    if change.kind == ChangeKind.RULE:
        return SETTING_LABELS.get(change.name, change.name.replace("_", " "))  # said here
    if change.name == "rate":
        return gettext("Stake")
    if change.name == "per_points":
        return gettext("Per points")
    if change.name == "ante":
        return gettext("Ante")
    if change.name == "lump_sum_stake":
        return gettext("Lump sum")
    if change.name.startswith("stake of "):  # the name the service stores the change under
        return gettext("%(name)s's own stake") % {"name": change.name[len("stake of "):]}
    return change.name


def change_value(change: GameChange, value) -> str:
    if value is None:
        if change.name.startswith("stake of "):
            return gettext("same as the game")
        return gettext(NO_STAKE) if change.name == "rate" else pgettext("setting", "none")
    if isinstance(value, bool):
        return choice_text(value)
    if change.kind == ChangeKind.ABANDON:
        return str(GameStatus(value).label).lower() if value in GameStatus.values \
            else str(value)
    if change.kind == ChangeKind.RULE:
        return choice_text(value)
    if change.name in ("rate", "ante", "lump_sum_stake") or change.name.startswith("stake of "):
        return format_money(value, change.game.currency)  # "0,05" on a German page
    return str(value).replace("_", " ")


def change_rows(changes) -> list[dict]:
    """GameChange rows as the game page lists them."""
    return [{"at": change.changed_at, "by": change.changed_by, "what": change_label(change),
             "old": change_value(change, change.old), "new": change_value(change, change.new),
             "reason": change.reason, "after_hand": change.after_hand,
             "money_changed": change.money_changed, "kind": change.kind}
            for change in changes]


def done_message(game: Game, made: list[GameChange]) -> str:
    parts = [f"{row['what']} {row['old']} → {row['new']}" for row in change_rows(made)]
    text = gettext("Changed: %(changes)s.") % {"changes": "; ".join(parts)}
    if any(change.money_changed for change in made):
        money = game_posted_money(game)
        text += " " + gettext("Money now: %(money)s.") % {"money": ", ".join(
            f"{name} {signed(amount, game.currency)}" for name, amount in money.items())}
    return text


def stake_text(game: Game, seats) -> str:
    """The game's stake in words: "$0.01 per point; own stakes: Ann 0.02", "ante $1.00",
    "no ante", "not for money". The sentences take the record's decimal text (the amount
    is written in the language in force there); the own stakes are written here."""
    def money(value):
        return amount_text(value, game.currency)

    def exact(value):
        return decimal_text(value, game.currency)

    if facts_for(game).ante_staked:
        return ante_sentence(exact(game.ante), game.currency) if game.ante \
            else gettext("no ante")
    text = stake_sentence(None if game.rate is None else exact(game.rate), game.currency,
                          game.per_points)
    own = [f"{seat.player.name} {money(seat.stake)}" for seat in seats if seat.stake]
    if own:
        text = gettext("%(stake)s; own stakes: %(stakes)s") % {"stake": text,
                                                               "stakes": ", ".join(own)}
    if game.lump_sum_stake is not None:
        lump = format_money(exact(game.lump_sum_stake), game.currency, show_currency=True)
        if game.rate is None and not own:
            return gettext("lump sum %(amount)s") % {"amount": lump}
        text = gettext("%(stake)s; lump sum %(amount)s") % {"stake": text, "amount": lump}
    return text
