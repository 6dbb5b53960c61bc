"""Three-handed gin, "in the box" (RULES §3.4).

The box player plays alone against the captain of a two-player team; the third player
sits out. Box wins: he stays, captain and sitter swap. Box loses: he sits out, the captain
goes into the box, the sitter becomes captain. A draw changes nothing. The box player deals
every hand. Scores are individual.
"""

from __future__ import annotations

from fractions import Fraction
from itertools import combinations

from .common import Play, result, settle
from .gin import hand_entry
from .hand import read_gin_hand, score_gin_hand
from .problems import record_problem
from .record import Game
from .roles import BOX, CAPTAIN, SITS_OUT


def rotate(box: str, captain: str, sitter: str, winner) -> tuple[str, str, str]:
    """Roles for the next hand: (box, captain, sitter)."""
    if winner is None:
        return box, captain, sitter
    if winner == box:
        return box, sitter, captain
    return captain, sitter, box


def box_roles(players, box, captain, sitter) -> dict:
    roles = {box: BOX, captain: CAPTAIN, sitter: SITS_OUT}
    return {p: roles[p] for p in players}


def score_box(game: Game, problems: list) -> dict | None:
    rules = game.rules
    players = game.players
    box, captain, sitter = players
    dealer = game.setup.get("first_dealer")
    if dealer is not None and dealer != box:
        problems.append(record_problem(
            "first_dealer_invalid", "setup.first_dealer",
            f"in the box the box player ({box}, the highest cut) deals every hand, "
            f"not {dealer!r}"))
        return None
    play = Play(game, problems, players)
    for number, where, raw in play.hands():
        hand = play.checked(read_gin_hand(raw, where, problems))
        if hand is None:
            continue
        describe = f"{box} is in the box against captain {captain}; {sitter} sits out"
        outcome = play.checked(score_gin_hand(hand, (box, captain), where, problems, rules,
                                              describe=describe))
        if outcome is None:
            continue
        if outcome.winner is not None:
            play.win(number, outcome.winner, outcome.points)
        roles = box_roles(players, box, captain, sitter)
        play.entries.append(hand_entry(number, box, outcome, players, play.hand_points, roles))
        box, captain, sitter = rotate(box, captain, sitter, outcome.winner)
    complete = play.complete()
    if complete is None:
        return None
    totals = play.totals(complete)
    exact = None
    if game.stakes is not None and (complete or game.abandoned):
        key = "final" if complete else "hand_points"  # abandoned: hand points only
        final = {p: totals[p][key] for p in players}
        if rules["three_hand_money"] == "box_team":
            pairs = [(box, other) for other in players if other != box]
        else:
            pairs = list(combinations(players, 2))
        exact = dict.fromkeys(players, Fraction(0))
        for a, b in pairs:
            # Each pair settles the difference at the lower of the two stakes.
            amount = (final[a] - final[b]) * min(game.stakes.of(a), game.stakes.of(b))
            exact[a] += amount
            exact[b] -= amount
    money, payments = settle(game, exact)
    next_ = {"dealer": box, "roles": box_roles(players, box, captain, sitter)}
    return result(game, hands=play.entries, totals=totals, complete=complete,
                  winner=play.winner, next_=next_, money=money, payments=payments)
