"""Hollywood gin: three games (columns) scored at once (RULES §3.3 and §6 "Hollywood").

A win goes into every open column the winner has already entered, and opens the lowest
open column he has not entered yet. A column that has ended takes no more scores. Each
column ends like a game, with its own boxes (one per hand entered there), game bonus and
shutout.
"""

from __future__ import annotations

from .club import club_boxes_on
from .common import Play, game_totals, result, settle, side_money
from .gin import first_dealer, hand_boxes, hand_entry, next_dealer
from .hand import read_gin_hand, score_gin_hand
from .record import Game

COLUMNS = 3
TOTAL_FIELDS = ("hand_points", "hands_won", "box_bonus", "game_bonus", "final")


class Column:
    __slots__ = ("hand_points", "hands_won", "boxes", "ended_at", "winner")

    def __init__(self, players):
        self.hand_points = dict.fromkeys(players, 0)
        self.hands_won = dict.fromkeys(players, 0)  # hands entered in this column
        self.boxes = dict.fromkeys(players, 0)  # with the club boxes on: theirs here
        self.ended_at = None
        self.winner = None

    def entered(self, player) -> bool:
        return self.hands_won[player] > 0


def columns_for_win(columns: list[Column], player) -> list[int]:
    """The columns (0-based) a win of ``player`` goes into."""
    chosen = [i for i, c in enumerate(columns) if c.ended_at is None and c.entered(player)]
    for i, column in enumerate(columns):
        if column.ended_at is None and not column.entered(player):
            chosen.append(i)
            break
    return sorted(chosen)


def score_hollywood(game: Game, problems: list) -> dict | None:
    rules = game.rules
    pair = (game.players[0], game.players[1])
    dealer = first_dealer(game, problems)
    if dealer is None:
        return None
    roles = dict.fromkeys(pair, "player")
    columns = [Column(pair) for _ in range(COLUMNS)]
    target = rules["target"]
    counted_boxes = club_boxes_on(rules)  # RULES §3.7: a column counts its hands' boxes
    play = Play(game, problems, pair)  # the loop; each column keeps its own score
    for number, where, raw in play.hands():
        hand = play.checked(read_gin_hand(raw, where, problems))
        if hand is None:
            continue
        outcome = play.checked(score_gin_hand(hand, pair, where, problems, rules))
        if outcome is None:
            continue
        entered = []
        boxes = hand_boxes(outcome, rules) if outcome.winner is not None else 0
        if outcome.winner is not None:
            entered = columns_for_win(columns, outcome.winner)
            for i in entered:
                column = columns[i]
                column.hand_points[outcome.winner] += outcome.points
                column.hands_won[outcome.winner] += 1
                column.boxes[outcome.winner] += boxes
                if column.hand_points[outcome.winner] >= target:
                    column.ended_at, column.winner = number, outcome.winner
        running = {p: sum(c.hand_points[p] for c in columns) for p in pair}
        extra = {"columns": [i + 1 for i in entered],
                 "column_running": [dict(c.hand_points) for c in columns]}
        if counted_boxes:
            extra["boxes"] = boxes
        play.entries.append(hand_entry(number, dealer, outcome, pair, running, roles, extra))
        dealer = next_dealer(dealer, outcome, rules["dealer_rule"], pair)
        if all(c.ended_at is not None for c in columns):
            play.ended_at = number  # the game ends when its three columns have
    complete = play.complete()
    if complete is None:
        return None
    column_out = []
    weighted = dict.fromkeys(pair, 0)
    for i, column in enumerate(columns):
        done = column.ended_at is not None
        totals = game_totals(column.hand_points, column.hands_won, column.winner, rules,
                             complete=done, boxes=column.boxes if counted_boxes else None)
        weight = 2 if i == COLUMNS - 1 and rules["hollywood_third_double"] else 1
        for p in pair:
            weighted[p] += weight * totals[p]["final"]
        column_out.append({"number": i + 1, "totals": totals, "complete": done,
                           "winner": column.winner, "ended_at": column.ended_at,
                           "weight": weight})
    totals = {}
    fields = TOTAL_FIELDS if not counted_boxes else (
        *TOTAL_FIELDS[:2], "boxes", *TOTAL_FIELDS[2:])
    for p in pair:
        totals[p] = {name: sum(c["totals"][p][name] for c in column_out)
                     for name in fields}
        totals[p]["shutout"] = any(c["totals"][p]["shutout"] for c in column_out)
    winner = None
    if complete and weighted[pair[0]] != weighted[pair[1]]:
        winner = max(pair, key=lambda p: weighted[p])
    exact = None
    if game.stakes is not None and (complete or game.abandoned):
        exact = side_money(weighted, {p: [p] for p in pair}, game.stakes.of,
                           rules["balance_division"])
    money, payments = settle(game, exact)
    return result(game, hands=play.entries, totals=totals, complete=complete, winner=winner,
                  next_={"dealer": dealer, "roles": dict(roles)}, money=money,
                  payments=payments, columns=column_out,
                  net={p: weighted[p] - weighted[q] for p, q in (pair, pair[::-1])})
