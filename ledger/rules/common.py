"""Pieces every game shares: end-of-game bonuses (RULES §2), settling money in minor units,
and the shape of a result."""

from __future__ import annotations

from fractions import Fraction

from .money import allocate_zero_sum, fewest_payments, format_minor, lower_amount_prevails
from .record import RESULT_FORMAT, Game


def game_totals(hand_points: dict, hands_won: dict, winner, rules: dict, *,
                complete: bool) -> dict:
    """Totals per player or side: hand points, boxes, game bonus, shutout and final.

    Bonuses only come with a complete game (``winner`` reached the target). Shutout: every
    other competitor won no hand (in a three-handed game, neither other player).
    """
    totals = {}
    shutout = complete and rules["shutout_mode"] != "none" and all(
        won == 0 for key, won in hands_won.items() if key != winner)
    for key, points in hand_points.items():
        if not complete:
            totals[key] = {"hand_points": points, "hands_won": hands_won[key],
                           "box_bonus": 0, "game_bonus": 0, "shutout": False,
                           "final": points}
            continue
        box_bonus = rules["box_bonus"] * hands_won[key]
        game_bonus = rules["game_bonus"] if key == winner else 0
        is_shutout = shutout and key == winner
        final = points + box_bonus + game_bonus
        if is_shutout:
            mode = rules["shutout_mode"]
            if mode == "double_total":
                final *= 2
            elif mode == "game_bonus_double":
                game_bonus *= 2
                final = points + box_bonus + game_bonus
            elif mode == "double_hand_points":
                final = 2 * points + box_bonus + game_bonus
        totals[key] = {"hand_points": points, "hands_won": hands_won[key],
                       "box_bonus": box_bonus, "game_bonus": game_bonus,
                       "shutout": is_shutout, "final": final}
    return totals


def side_money(net: dict, sides: dict[str, list[str]], stake_of, division: str) -> dict:
    """Exact money of two sides settling ``net`` points (keyed by side) under the lower
    amount prevails rule; ``stake_of(player)`` is his stake per point."""
    (side_a, points_a), (side_b, points_b) = net.items()
    difference = points_a - points_b
    if difference == 0:
        return {p: Fraction(0) for members in sides.values() for p in members}
    winner, loser = (side_a, side_b) if difference > 0 else (side_b, side_a)
    return lower_amount_prevails(
        abs(difference),
        {p: stake_of(p) for p in sides[winner]},
        {p: stake_of(p) for p in sides[loser]},
        division=division,
    )


def settle(game: Game, exact: dict | None) -> tuple[dict, list]:
    """Round exact money per player to minor units (summing to zero) and plan payments."""
    players = game.players
    currency = game.stakes.currency if game.stakes else "USD"
    if exact is None or game.stakes is None:
        units = [0] * len(players)
    else:
        units = allocate_zero_sum([Fraction(exact.get(p, 0)) for p in players],
                                  game.stakes.scale)
    return units_result(players, units, currency)


def units_result(players: list[str], units: list[int], currency: str) -> tuple[dict, list]:
    money = {p: format_minor(u, currency) for p, u in zip(players, units, strict=False)}
    payments = [
        {"from": pay.payer, "to": pay.payee, "amount": format_minor(pay.units, currency)}
        for pay in fewest_payments(dict(zip(players, units, strict=False)))
    ]
    return money, payments


def result(game: Game, *, hands: list, totals: dict, complete: bool, winner, next_: dict,
           money: dict, payments: list, **extra) -> dict:
    out = {
        "format": RESULT_FORMAT,
        "variant": game.variant,
        "preset": game.preset,
        "rules": dict(game.rules),
        "players": list(game.players),
        "abandoned": game.abandoned,
        "hands": hands,
        "totals": totals,
        "complete": complete,
        "winner": winner,
        "next": next_,
        "money": money,
        "payments": payments,
    }
    out.update(extra)
    if game.stakes is not None:
        out["currency"] = game.stakes.currency
    return out


def ended_message(where: str, ended_at: int) -> str:
    return (f"{where}: the game ended at hand {ended_at}, when the target was reached; "
            f"no hand can follow it")


def abandoned_complete_message(ended_at: int) -> str:
    return (f"hand {ended_at}: abandoned: the record is marked abandoned, but the game "
            f"reached its target at this hand")
