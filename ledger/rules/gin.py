"""Two-hand gin and Oklahoma gin (RULES §2, §3.1, §3.2)."""

from __future__ import annotations

from .common import Play, result, settle_sides
from .hand import read_gin_hand, score_gin_hand
from .problems import record_problem
from .record import Game
from .variants import REGISTRY


def next_dealer(dealer: str, outcome, rule: str, pair: tuple[str, str]) -> str:
    """Who deals the next hand between the two players of ``pair``."""
    if outcome.winner is None:  # a drawn hand is redealt by the same dealer
        return dealer
    if rule == "winner_deals":
        return outcome.winner
    return pair[1] if dealer == pair[0] else pair[0]


def first_dealer(game: Game, problems: list, allowed=None, default=None) -> str | None:
    dealer = game.setup.get("first_dealer", default)
    allowed = game.players if allowed is None else allowed
    if dealer is None:
        problems.append(record_problem("first_dealer_missing", "setup.first_dealer",
                                       "missing (who deals the first hand)"))
    elif dealer not in allowed:
        problems.append(record_problem("first_dealer_invalid", "setup.first_dealer",
                                       f"{dealer!r} is not one of {', '.join(allowed)}"))
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


def score_two_hand(game: Game, problems: list) -> dict | None:
    oklahoma = REGISTRY[game.variant].upcard  # every hand has an up-card
    rules = game.rules
    pair = (game.players[0], game.players[1])
    dealer = first_dealer(game, problems)
    if dealer is None:
        return None
    roles = dict.fromkeys(pair, "player")
    play = Play(game, problems, pair)
    for number, where, raw in play.hands():
        hand = play.checked(read_gin_hand(raw, where, problems, oklahoma=oklahoma))
        if hand is None:
            continue
        outcome = play.checked(score_gin_hand(hand, pair, where, problems, rules,
                                              oklahoma=oklahoma))
        if outcome is None:
            continue
        if outcome.winner is not None:
            play.win(number, outcome.winner, outcome.points)
        extra = {"upcard": hand.upcard} if oklahoma else None
        play.entries.append(hand_entry(number, dealer, outcome, pair, play.hand_points, roles,
                                       extra))
        dealer = next_dealer(dealer, outcome, rules["dealer_rule"], pair)
    complete = play.complete()
    if complete is None:
        return None
    totals = play.totals(complete)
    money, payments = settle_sides(game, totals, complete, {p: [p] for p in pair})
    return result(game, hands=play.entries, totals=totals, complete=complete,
                  winner=play.winner, next_={"dealer": dealer, "roles": dict(roles)},
                  money=money, payments=payments)
