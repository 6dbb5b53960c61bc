"""Two-hand gin and Oklahoma gin (RULES §2, §3.1, §3.2)."""

from __future__ import annotations

from .club import boxes_for, club_boxes_on
from .common import Play, game_totals, result, settle, settle_sides
from .hand import read_gin_hand, score_gin_hand
from .problems import record_problem
from .record import Game
from .settings import club_setting
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


def hand_boxes(outcome, rules: dict) -> int:
    """The boxes a two-hand game's hand earns its winner with the club boxes on (RULES
    §3.7): 1, plus ``gin_boxes`` for a gin and ``undercut_boxes`` for an undercut, doubled
    with the hand's points by a spade Oklahoma up-card."""
    return boxes_for(outcome.winner, [outcome], lambda player: player, rules,
                     doubled=outcome.doubled)


def score_two_hand(game: Game, problems: list) -> dict | None:
    spec = REGISTRY[game.variant]
    oklahoma = spec.upcard  # every hand has an up-card
    rules = game.rules
    pair = (game.players[0], game.players[1])
    dealer = first_dealer(game, problems)
    if dealer is None:
        return None
    roles = dict.fromkeys(pair, "player")
    play = Play(game, problems, pair)
    counted_boxes = club_boxes_on(rules)
    if counted_boxes:
        play.boxes = dict.fromkeys(pair, 0)
    # RULES 3.10: a match of best_of hands, the first to win (best_of + 1) / 2 wins it
    match = spec.straight and club_setting(rules, "straight_format") == "best_of"
    needed = (club_setting(rules, "best_of") + 1) // 2 if match else None
    if match:
        play.ending = f"when a player won {needed} hands of the best of " \
                      f"{club_setting(rules, 'best_of')}"
    for number, where, raw in play.hands():
        hand = play.checked(read_gin_hand(raw, where, problems, oklahoma=oklahoma))
        if hand is None:
            continue
        outcome = play.checked(score_gin_hand(hand, pair, where, problems, rules,
                                              oklahoma=oklahoma))
        if outcome is None:
            continue
        extra = {"upcard": hand.upcard} if oklahoma else {}
        if outcome.winner is not None:
            if match:
                play.hand_points[outcome.winner] += outcome.points
                play.hands_won[outcome.winner] += 1
                if play.ended_at is None and play.hands_won[outcome.winner] >= needed:
                    play.ended_at, play.winner = number, outcome.winner
            else:
                play.win(number, outcome.winner, outcome.points)
        if counted_boxes:
            extra["boxes"] = hand_boxes(outcome, rules) if outcome.winner is not None else 0
            if outcome.winner is not None:
                play.boxes[outcome.winner] += extra["boxes"]
        play.entries.append(hand_entry(number, dealer, outcome, pair, play.hand_points, roles,
                                       extra or None))
        dealer = next_dealer(dealer, outcome, rules["dealer_rule"], pair)
    complete = play.complete()
    if complete is None:
        return None
    extra_out = {}
    if match:
        # no target and no end bonuses: totals show hand points and hands won
        totals = game_totals(play.hand_points, play.hands_won, play.winner, rules,
                             complete=False)
        extra_out["match"] = {"best_of": club_setting(rules, "best_of"), "needed": needed,
                              "hands_won": dict(play.hands_won), "winner": play.winner}
    else:
        totals = play.totals(complete)
    if match or (spec.straight and club_setting(rules, "money_mode") == "lump_sum"):
        money, payments = lump_sum_money(game, totals, play.winner, complete,
                                         doubled=not match)
    else:
        money, payments = settle_sides(game, totals, complete, {p: [p] for p in pair})
    return result(game, hands=play.entries, totals=totals, complete=complete,
                  winner=play.winner, next_={"dealer": dealer, "roles": dict(roles)},
                  money=money, payments=payments, **extra_out)


def lump_sum_money(game: Game, totals: dict, winner, complete: bool, *,
                   doubled: bool) -> tuple[dict, list]:
    """RULES 3.10: the loser pays the winner the ``lump_sum_stake`` whatever the points;
    twice that on a shutout in a lump-sum game (``doubled``; a match's never doubles). An
    unfinished or abandoned game settles nothing."""
    exact = None
    if game.stakes is not None and complete and winner is not None:
        amount = game.stakes.lump_sum
        if doubled and totals[winner].get("shutout"):
            amount *= 2
        exact = {p: amount if p == winner else -amount for p in game.players}
    return settle(game, exact)
