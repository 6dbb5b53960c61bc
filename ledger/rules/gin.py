"""Two-hand gin and Oklahoma gin (RULES §2, §3.1, §3.2)."""

from __future__ import annotations

from .common import (
    abandoned_complete_message,
    ended_message,
    game_totals,
    result,
    settle,
    side_money,
)
from .hand import read_gin_hand, score_gin_hand
from .record import Game


def next_dealer(dealer: str, outcome, rule: str, pair: tuple[str, str]) -> str:
    """Who deals the next hand between the two players of ``pair``."""
    if outcome.winner is None:  # a drawn hand is redealt by the same dealer
        return dealer
    if rule == "winner_deals":
        return outcome.winner
    return pair[1] if dealer == pair[0] else pair[0]


def first_dealer(game: Game, problems: list[str], allowed=None, default=None) -> str | None:
    dealer = game.setup.get("first_dealer", default)
    allowed = game.players if allowed is None else allowed
    if dealer is None:
        problems.append("setup.first_dealer: missing (who deals the first hand)")
    elif dealer not in allowed:
        problems.append(f"setup.first_dealer: {dealer!r} is not one of {', '.join(allowed)}")
        return None
    return dealer


def hand_entry(number, dealer, outcome, players, running, roles, extra=None) -> dict:
    points = dict.fromkeys(players, 0)
    if outcome.winner is not None:
        points[outcome.winner] = outcome.points
    entry = {"number": number, "dealer": dealer, "result": outcome.result,
             "winner": outcome.winner, "points": points, "running": dict(running),
             "roles": roles}
    entry.update(outcome.fields())
    if extra:
        entry.update(extra)
    return entry


def score_two_hand(game: Game, problems: list[str]) -> dict | None:
    oklahoma = game.variant == "oklahoma"
    rules = game.rules
    pair = (game.players[0], game.players[1])
    dealer = first_dealer(game, problems)
    if dealer is None:
        return None
    roles = dict.fromkeys(pair, "player")
    hand_points = dict.fromkeys(pair, 0)
    hands_won = dict.fromkeys(pair, 0)
    hands = []
    ended_at = winner = None
    broken = False
    target = rules["target"]
    for number, raw in enumerate(game.hands, 1):
        where = f"hand {number}"
        if ended_at is not None and not broken:
            problems.append(ended_message(where, ended_at))
            break
        hand = read_gin_hand(raw, where, problems, oklahoma=oklahoma)
        if hand is None or broken:
            broken = True
            continue
        outcome = score_gin_hand(hand, pair, where, problems, rules, oklahoma=oklahoma)
        if outcome is None:
            broken = True
            continue
        if outcome.winner is not None:
            hand_points[outcome.winner] += outcome.points
            hands_won[outcome.winner] += 1
        extra = {"upcard": hand.upcard} if oklahoma else None
        hands.append(hand_entry(number, dealer, outcome, pair, hand_points, roles, extra))
        dealer = next_dealer(dealer, outcome, rules["dealer_rule"], pair)
        if outcome.winner is not None and hand_points[outcome.winner] >= target:
            ended_at, winner = number, outcome.winner
    if broken:
        return None
    if ended_at is not None and game.abandoned:
        problems.append(abandoned_complete_message(ended_at))
        return None
    complete = ended_at is not None
    totals = game_totals(hand_points, hands_won, winner, rules, complete=complete)
    exact = None
    if game.stakes is not None and (complete or game.abandoned):
        # An abandoned game settles on hand points only (RULES §2).
        key = "final" if complete else "hand_points"
        exact = side_money({p: totals[p][key] for p in pair}, {p: [p] for p in pair},
                           game.stakes.of, rules["balance_division"])
    money, payments = settle(game, exact)
    return result(game, hands=hands, totals=totals, complete=complete, winner=winner,
                  next_={"dealer": dealer, "roles": dict(roles)},
                  money=money, payments=payments)
