"""Captain play for three players (RULES §3.5); five and seven players play at several
tables at once (``multitable.py``). The stake rule they share is in ``sides.py``.

Players are in cut order: the captain, the first opponent, the second opponent. The
captain plays every hand against one opponent; an opponent keeps playing until he loses a
hand (a draw is not a loss), then his partner plays. One score for the captain, one for
the opponents' side.
"""

from __future__ import annotations

from .common import Play, result, settle_sides
from .gin import first_dealer
from .hand import read_gin_hand, score_gin_hand
from .record import Game
from .roles import CAPTAIN, OPPONENT, SITS_OUT
from .sides import CAPTAINS, OPPONENTS, captain_stake


def score_captain(game: Game, problems: list) -> dict | None:
    rules = game.rules
    players = game.players
    captain, first, second = players
    dealer = first_dealer(game, problems, allowed=(captain, first), default=first)
    if dealer is None:
        return None
    active, waiting = first, second
    sides = {CAPTAINS: [captain], OPPONENTS: [first, second]}
    side_of = {captain: CAPTAINS, first: OPPONENTS, second: OPPONENTS}
    play = Play(game, problems, (CAPTAINS, OPPONENTS))
    for number, where, raw in play.hands():
        hand = play.checked(read_gin_hand(raw, where, problems))
        if hand is None:
            continue
        describe = f"captain {captain} against {active}; {waiting} sits out"
        outcome = play.checked(score_gin_hand(hand, (captain, active), where, problems, rules,
                                              describe=describe))
        if outcome is None:
            continue
        points = {CAPTAINS: 0, OPPONENTS: 0}
        side = None
        if outcome.winner is not None:
            side = side_of[outcome.winner]
            points[side] = outcome.points
            play.win(number, side, outcome.points)
        play.entries.append({
            "number": number, "dealer": dealer, "result": outcome.result, "winner": side,
            "player_winner": outcome.winner, "points": points,
            "running": dict(play.hand_points),
            "roles": _roles(captain, active, waiting, players), **outcome.fields()})
        # Who deals next.
        if outcome.winner is not None:
            if rules["dealer_rule"] == "winner_deals":
                dealer = outcome.winner
            else:
                dealer = captain if dealer != captain else None
        if outcome.winner == captain:  # the opponent lost: his partner plays
            active, waiting = waiting, active
        if dealer is None:
            dealer = active
    complete = play.complete()
    if complete is None:
        return None
    totals = play.totals(complete)
    money, payments = settle_sides(game, totals, complete, sides,
                                   captain_stake(game, [captain], [first, second])
                                   if game.stakes else None)
    next_roles = _roles(captain, active, waiting, players)
    return result(game, hands=play.entries, totals=totals, complete=complete,
                  winner=play.winner, next_={"dealer": dealer, "roles": next_roles,
                         "next_game_players": [first, second, captain]},
                  money=money, payments=payments, sides=sides)


def _roles(captain, active, waiting, players):
    roles = {captain: CAPTAIN, active: OPPONENT, waiting: SITS_OUT}
    return {p: roles[p] for p in players}
