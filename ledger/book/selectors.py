"""Reads of a table's book, a player's page and the standings (no writes).

Where each number comes from (one source each, never a second scoring path):

- Money (each evening, totals, by month, the running balance, money in the standings and
  head-to-head): sums of ``MoneyPosting`` rows, the ledger's postings of each game. The
  head-to-head money is from the per-game ``GameStanding.money_minor``, which is the same
  result's money the posting was made from (the posted money of one game by one player).
- Outstanding: the unpaid ``SettlementPayment`` rows of the live settlements (an evening
  reopened has none until it is settled again). Positive = owed to the player.
- Who owes whom now: the core's ``fewest_payments`` over those outstanding amounts.
- Games, wins, gins, undercuts, boxes, shutouts, points: ``GameStanding`` rows, written by
  the services from the core's result of each game (``ledger.book.stats``); the standings
  read their per-evening sums (``EveningStanding``), rebuilt with them.

The book of a table is kept per currency (one ``Book`` each). It covers the settled
evenings; evenings not settled yet are listed apart as open (with their current money) and
count in no total. The player page and the standings cover every finished or abandoned
game (a game in progress has no result to count yet).

Every function runs a fixed number of queries whatever the number of evenings, games and
hands (aggregates in the database, then a pass in Python over one row per evening and
player): ``tests/ledger/test_book_queries.py`` holds that at 26 and 260 evenings.
"""

from __future__ import annotations

import datetime
import json
from collections import defaultdict
from dataclasses import dataclass, field

from django.db import connection
from django.db.models import Count, Exists, Max, Min, OuterRef, Q, Sum

from ledger.models import (
    BookSettlement,
    Game,
    GamePlayer,
    GameStanding,
    GameStatus,
    MoneyPosting,
    Player,
    Session,
    SettlementPayment,
    Table,
)
from ledger.rules.facts import LOWER_WINS_VARIANTS, game_facts, lower_wins, setup_sides
from ledger.rules.money import fewest_payments, format_minor
from ledger.selectors.evenings import evening_numbers, live_settlements

ENDED = ~Q(status=GameStatus.IN_PROGRESS)


def _int(expression) -> Count:
    """How many rows have a true boolean column (COUNT ... FILTER, on SQLite and PostgreSQL)."""
    return Count("pk", filter=Q(**{expression: True}))


FIGURES = {
    "games": Count("id"),
    "wins": _int("won"),
    "evenings": Count("session_id", distinct=True),
    "hands_played": Sum("hands_played"),
    "hands_won": Sum("hands_won"),
    "boxes": Sum("boxes"),
    "gins": Sum("gins"),
    "big_gins": Sum("big_gins"),
    "undercuts_made": Sum("undercuts_made"),
    "undercuts_suffered": Sum("undercuts_suffered"),
    "shutouts": _int("shutout"),
    "hand_points": Sum("hand_points"),
}


#: The figures that count whole games, alike in every variant (the rest count hands).
EVERY_GAME = ("games", "wins", "evenings", "win_rate")


def _figures(row: dict) -> dict:
    out = {name: int(row.get(name) or 0) for name in FIGURES}
    out["win_rate"] = round(100 * out["wins"] / out["games"]) if out["games"] else 0
    out["points_per_hand"] = (round(out["hand_points"] / out["hands_played"], 1)
                              if out["hands_played"] else 0)
    return out


def _live_settled(session_ref: str = "pk"):
    return Exists(live_settlements().filter(session=OuterRef(session_ref)))


# -- the book ----------------------------------------------------------------------------------

@dataclass
class BookLine:
    """One player's line in a book."""

    player: Player
    evenings: int = 0
    games: int = 0
    wins: int = 0
    gins: int = 0
    undercuts: int = 0
    money: int = 0          # over the settled evenings
    outstanding: int = 0    # unpaid: positive = owed to him
    open_money: int = 0     # over the open evenings (not in ``money``)
    currency: str = "USD"


@dataclass
class BookEvening:
    session_id: int
    date: datetime.date
    place: str
    settled: bool
    number: int = 1                             # which evening of its date: "(2)"
    cells: list = field(default_factory=list)  # per book player: units, or None
    unpaid: int = 0                             # unpaid payments of its live settlement
    payments: int = 0
    named: list = field(default_factory=list)   # [(player name, units)] of players in it


@dataclass
class Book:
    table: Table
    currency: str
    lines: list[BookLine]
    evenings: list[BookEvening]        # settled, newest first
    open_evenings: list[BookEvening]   # not settled yet, newest first
    owed: list[tuple[Player, Player, int]]
    outstanding_ids: list[int]
    history: list[BookSettlement]
    columns: list[Player] = field(default_factory=list)  # the players of ``cells``

    @property
    def column_lines(self) -> list[BookLine]:
        """The lines of the players of ``columns``, in that order."""
        by_player = {line.player.pk: line for line in self.lines}
        return [by_player[player.pk] for player in self.columns]


def table_books(table: Table) -> list[Book]:
    """The table's books, one per currency (most evenings first). Seven queries."""
    sessions = list(
        Session.objects.filter(table=table).annotate(settled=_live_settled())
        .order_by("-date", "-id").values("id", "date", "place", "currency", "settled")
    )
    players = {player.pk: player for player in Player.objects.filter(table=table)}
    nets: dict[int, dict[int, int]] = defaultdict(dict)
    for session_id, player_id, total in (
        MoneyPosting.objects.filter(game__session__table=table)
        .values("game__session_id", "player_id").annotate(total=Sum("amount_minor"))
        .values_list("game__session_id", "player_id", "total")
    ):
        nets[session_id][player_id] = int(total or 0)
    played: dict[int, set[int]] = defaultdict(set)  # session -> players with a finished game
    for session_id, player_id in (
        GameStanding.objects.filter(table=table).filter(ENDED)
        .values_list("session_id", "player_id").distinct().order_by()
    ):
        played[session_id].add(player_id)
    settled_ids = [session["id"] for session in sessions if session["settled"]]
    figures: dict[tuple[str, int], dict] = {
        (row["currency"], row["player_id"]): row
        for row in GameStanding.objects.filter(table=table, session_id__in=settled_ids)
        .filter(ENDED).values("currency", "player_id").annotate(**FIGURES).order_by()
    }
    unpaid, counts = [], defaultdict(int)
    for payment in (
        SettlementPayment.objects.filter(settlement__session_id__in=settled_ids)
        .filter(settlement__void__isnull=True)
        .values("id", "payer_id", "payee_id", "amount_minor", "paid_at",
                "settlement__currency", "settlement__session_id").order_by("id")
    ):
        counts[payment["settlement__session_id"]] += 1
        if payment["paid_at"] is None:
            unpaid.append(payment)
    numbers = evening_numbers(table.pk)
    history = list(BookSettlement.objects.filter(table=table)
                   .select_related("settled_by", "undo__undone_by")
                   .order_by("-settled_at", "-id")[:10])
    for entry in history:  # its undo (BookSettlementUndo) or None, for the page
        entry.undone = getattr(entry, "undo", None)

    by_currency: dict[str, list[dict]] = defaultdict(list)
    for session in sessions:
        by_currency[session["currency"]].append(session)
    books = []
    for currency, rows in sorted(by_currency.items(), key=lambda item: -len(item[1])):
        ids = {row["id"] for row in rows}
        involved = {pid for sid in ids for pid in (set(nets[sid]) | played[sid])}
        lines = {pid: BookLine(player=players[pid], currency=currency) for pid in
                 sorted(involved, key=lambda pid: players[pid].name.lower())}
        order = list(lines)
        evenings, open_evenings = [], []
        for row in rows:
            evening = BookEvening(
                session_id=row["id"], date=row["date"], place=row["place"],
                settled=bool(row["settled"]), payments=counts.get(row["id"], 0),
                number=numbers.get(row["id"], 1),
            )
            for pid in order:
                units = nets[row["id"]].get(pid, 0 if pid in played[row["id"]] else None)
                evening.cells.append(units)
                if units is not None and not evening.settled:
                    evening.named.append((players[pid].name, units))
            for pid, units in nets[row["id"]].items():
                if evening.settled:
                    lines[pid].money += units
                else:
                    lines[pid].open_money += units
            (evenings if evening.settled else open_evenings).append(evening)
        for pid, line in lines.items():
            row = figures.get((currency, pid))
            if row:
                line.evenings, line.games, line.wins = row["evenings"], row["games"], row["wins"]
                line.gins, line.undercuts = int(row["gins"] or 0), int(row["undercuts_made"] or 0)
        outstanding_ids = []
        unpaid_by_session: dict[int, int] = defaultdict(int)
        for payment in unpaid:
            if payment["settlement__currency"] != currency:
                continue
            outstanding_ids.append(payment["id"])
            unpaid_by_session[payment["settlement__session_id"]] += 1
            for pid, sign in ((payment["payee_id"], 1), (payment["payer_id"], -1)):
                if pid not in lines:
                    lines[pid] = BookLine(player=players[pid], currency=currency)
                lines[pid].outstanding += sign * payment["amount_minor"]
        for evening in evenings:
            evening.unpaid = unpaid_by_session.get(evening.session_id, 0)
        owed_nets = {str(pid): line.outstanding for pid, line in lines.items()
                     if line.outstanding}
        owed = [(players[int(p.payer)], players[int(p.payee)], p.units)
                for p in fewest_payments(owed_nets)]
        books.append(Book(
            table=table, currency=currency, lines=list(lines.values()), evenings=evenings,
            open_evenings=open_evenings, owed=owed, outstanding_ids=outstanding_ids,
            history=[entry for entry in history if entry.currency == currency],
            columns=[players[pid] for pid in order],
        ))
    return books


def book_json(books: list[Book]) -> list[dict]:
    """The books as ``table_book --json`` prints them (money as decimal strings)."""
    return [{
        "table": book.table.name,
        "currency": book.currency,
        "players": [{
            "name": line.player.name,
            "evenings": line.evenings,
            "games": line.games,
            "wins": line.wins,
            "gins": line.gins,
            "undercuts": line.undercuts,
            "money": format_minor(line.money, book.currency),
            "outstanding": format_minor(line.outstanding, book.currency),
        } for line in book.lines],
        "owed": [{"from": payer.name, "to": payee.name,
                  "amount": format_minor(units, book.currency)}
                 for payer, payee, units in book.owed],
    } for book in books]


# -- a player's page -----------------------------------------------------------------------------

# Two statements of the player page are written in SQL (portable: SQLite and PostgreSQL):
# the ORM spends longer building them than the database running them, and the
# head-to-head join would go through the game table for nothing. Same figures as FIGURES.
_T = GameStanding._meta.db_table
_P = Player._meta.db_table
_AGG = """COUNT(*), SUM(CASE WHEN won THEN 1 ELSE 0 END), COUNT(DISTINCT session_id),
    SUM(hands_played), SUM(hands_won), SUM(boxes), SUM(gins), SUM(big_gins),
    SUM(undercuts_made), SUM(undercuts_suffered), SUM(CASE WHEN shutout THEN 1 ELSE 0 END),
    SUM(hand_points)"""
FIGURES_SQL = f"""
SELECT variant, {_AGG} FROM {_T} WHERE player_id = %s AND status <> %s GROUP BY variant
UNION ALL
SELECT NULL, {_AGG} FROM {_T} WHERE player_id = %s AND status <> %s"""
#: the head-to-head's reads: the player's finished (and abandoned) games, every player's
#: standing in them, and every seat of them with its player's name
_MY_GAMES = f"SELECT m.game_id FROM {_T} m WHERE m.player_id = %s AND m.status <> %s"
#: games of two players are summed by the database (most games: a player of ten years of
#: weekly evenings has some 4,000), per variant, opponent and currency; only the others
#: (three players and more, where the setup may make partners) are read game by game
_TWO = f"(SELECT COUNT(*) FROM {_T} c WHERE c.game_id = m.game_id) = 2"
H2H_TWO_SQL = f"""
SELECT m.variant, o.player_id, p.name, m.currency, COUNT(*),
    SUM(CASE WHEN m.won THEN 1 ELSE 0 END), SUM(CASE WHEN o.won THEN 1 ELSE 0 END),
    SUM(m.money_minor)
FROM {_T} m JOIN {_T} o ON o.game_id = m.game_id AND o.player_id <> m.player_id
JOIN {_P} p ON p.id = o.player_id
WHERE m.player_id = %s AND m.status <> %s AND {_TWO}
GROUP BY m.variant, o.player_id, p.name, m.currency"""
_MY_OTHER_GAMES = f"""SELECT m.game_id FROM {_T} m
WHERE m.player_id = %s AND m.status <> %s AND NOT {_TWO}"""
# the game-by-game reads, of the games ``{}`` selects (``_MY_OTHER_GAMES``, or all the
# player's games)
H2H_STANDINGS_SQL = f"""
SELECT game_id, player_id, won, money_minor, currency FROM {_T} WHERE game_id IN ({{}})"""
H2H_SEATS_SQL = f"""
SELECT s.game_id, s.player_id, s.played_as, p.name FROM {GamePlayer._meta.db_table} s
JOIN {_P} p ON p.id = s.player_id WHERE s.game_id IN ({{}})"""
H2H_SETUPS_SQL = f"""
SELECT id, variant, setup FROM {Game._meta.db_table} WHERE id IN ({{}})"""


def _two_may_be_partners(variant: str) -> bool:
    """Whether the core could put the two players of a game of ``variant`` on one side."""
    try:
        facts = game_facts(variant, 2)
    except ValueError:
        return False
    return bool(facts.named_sides or (facts.sides and facts.table_game))


def _setup(value) -> dict:
    """A game's setup as the database gives it (text on SQLite, decoded on PostgreSQL)."""
    if isinstance(value, str):
        try:
            value = json.loads(value)
        except ValueError:
            return {}
    return value if isinstance(value, dict) else {}


def _raw(sql: str, params: list) -> list[tuple]:
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.fetchall()


def game_sides(variant: str, setup: dict, seat_names: dict[str, int]) -> dict[int, str]:
    """Each player's side in a game (player id -> side), from the game's setup
    (docs/head-to-head.md): partnership's ``sides``; captain play for 5 or 7, the captains
    against the opponents (the sitter with them); every other game, each player alone.
    ``seat_names``: the names the setup uses (as played) -> player id."""
    sides = {pid: f"alone-{pid}" for pid in seat_names.values()}
    try:
        facts = game_facts(variant, len(seat_names))
    except ValueError:  # (a game whose seats do not make the variant: nobody has a side)
        return sides
    for side, members in setup_sides(facts, setup).items():
        for name in members if isinstance(members, list) else []:
            if name in seat_names:
                sides[seat_names[name]] = side
    return sides


def head_to_head(player: Player) -> tuple[list[dict], list[dict]]:
    """The player's finished (and abandoned) games against each other player and with each
    partner (docs/head-to-head.md): opponents are players on the other side of a game, and
    the money between two players is what one paid the other in their two-hand games.
    Returns (against, partners), by name then currency. From the book's sums: the games of
    two players (nearly all) are summed by the database per opponent and currency
    (``H2H_TWO_SQL``), and only the games of three or more, where the setup may make
    partners, are read game by game (their standings, seats and setups: three queries, each
    selecting the games with a subquery). Reading every game was 46% of the player page at
    ten years of weekly evenings (some 4,000 games), which grew with every evening."""
    mine = [player.pk, GameStatus.IN_PROGRESS]
    against: dict[tuple[int, str], dict] = {}
    partners: dict[tuple[int, str], dict] = {}
    names: dict[int, str] = {}
    sums = _raw(H2H_TWO_SQL, mine)
    # two players are each alone in every variant the core knows; were one ever to give
    # them sides, every game would be read one by one, as before
    by_game = any(_two_may_be_partners(variant) for variant, *_ in sums)
    for _variant, pid, name, currency, games, won, lost, money in [] if by_game else sums:
        names[pid] = name
        line = against.setdefault((pid, currency), {"games": 0, "my_wins": 0,
                                                    "their_wins": 0, "money": 0,
                                                    "money_games": 0})
        line["games"] += games
        line["my_wins"] += won
        line["their_wins"] += lost
        line["money"] += int(money)  # what the other paid the player: the game's money
        line["money_games"] += games
    which = _MY_GAMES if by_game else _MY_OTHER_GAMES
    rows: dict[int, dict[int, dict]] = defaultdict(dict)
    for game_id, pid, won, money_minor, currency in _raw(H2H_STANDINGS_SQL.format(which),
                                                         mine):
        rows[game_id][pid] = {"won": won, "money_minor": money_minor, "currency": currency}
    seats: dict[int, dict[str, int]] = defaultdict(dict)
    for game_id, pid, played_as, name in _raw(H2H_SEATS_SQL.format(which), mine):
        seats[game_id][played_as or name] = pid
        names[pid] = name
    setups: dict[int, tuple[str, dict]] = {
        game_id: (variant, _setup(setup))
        for game_id, variant, setup in _raw(H2H_SETUPS_SQL.format(which), mine)}
    for game_id, standing in rows.items():
        mine = standing.get(player.pk)
        if mine is None:
            continue
        variant, setup = setups.get(game_id, ("", {}))
        sides = game_sides(variant, setup, seats[game_id])
        two_hand = len(standing) == 2
        for pid, theirs in standing.items():
            if pid == player.pk:
                continue
            key = (pid, mine["currency"])
            if sides.get(pid) == sides.get(player.pk):
                line = partners.setdefault(key, {"games": 0, "won": 0})
                line["games"] += 1
                line["won"] += int(mine["won"])
                continue
            line = against.setdefault(key, {"games": 0, "my_wins": 0, "their_wins": 0,
                                            "money": 0, "money_games": 0})
            line["games"] += 1
            line["my_wins"] += int(mine["won"])
            line["their_wins"] += int(theirs["won"])
            if two_hand:  # what the other paid the player (or was paid): the game's money
                line["money"] += int(mine["money_minor"])
                line["money_games"] += 1

    def order(item):
        (pid, currency), _ = item
        return (names[pid].lower(), currency)

    head = [{"player_id": pid, "player__name": names[pid], "currency": currency, **line}
            for (pid, currency), line in sorted(against.items(), key=order)]
    withs = [{"player_id": pid, "player__name": names[pid], "currency": currency, **line}
             for (pid, currency), line in sorted(partners.items(), key=order)]
    return head, withs


def player_page(player: Player) -> dict:
    """Everything the player page shows (nine queries)."""
    by_variant, overall = [], _figures({})
    for row in _raw(FIGURES_SQL, [player.pk, GameStatus.IN_PROGRESS] * 2):
        variant, figures = row[0], _figures(dict(zip(FIGURES, row[1:], strict=True)))
        if variant is None:
            overall = figures
        else:
            by_variant.append({"variant": variant, **figures})
    by_variant.sort(key=lambda row: (-row["games"], row["variant"]))
    # the "All" column: evenings, games and wins of every game; the hands, boxes and points
    # of the gin family only, as the standings keep them (CAP-IT's rounds, round wins and
    # penalty points are not gin hands, boxes and points: they stay in its own column)
    gin = [row for row in by_variant if not lower_wins(row["variant"])]
    every = _figures({name: sum(row[name] for row in gin) for name in FIGURES})
    every.update({name: overall[name] for name in EVERY_GAME})
    running: dict[str, list[tuple[datetime.date, int]]] = defaultdict(list)
    months: dict[datetime.date, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    for date, currency, total in (
        MoneyPosting.objects.filter(player=player)
        .values("game__session__date", "game__session_id", "currency")
        .annotate(total=Sum("amount_minor"))
        .order_by("game__session__date", "game__session_id")
        .values_list("game__session__date", "currency", "total")
    ):
        series = running[currency]
        series.append((date, (series[-1][1] if series else 0) + int(total or 0)))
        months[date.replace(day=1)][currency] += int(total or 0)
    money_by_month = [{"month": month, "amounts": sorted(months[month].items())}
                      for month in sorted(months, reverse=True)]
    totals = {currency: series[-1][1] for currency, series in running.items()}
    head, partners = head_to_head(player)
    outstanding: dict[str, int] = defaultdict(int)
    for payer_id, amount, currency in (
        SettlementPayment.objects.filter(
            settlement__in=live_settlements(), paid_at__isnull=True)
        .filter(Q(payer=player) | Q(payee=player))
        .values_list("payer_id", "amount_minor", "settlement__currency")
    ):
        outstanding[currency] += -amount if payer_id == player.pk else amount
    return {
        "player": player, "by_variant": by_variant, "overall": overall, "every": every,
        "apart": [row["variant"] for row in by_variant if lower_wins(row["variant"])],
        "money_by_month": money_by_month, "running": dict(running),
        "totals": sorted(totals.items()),
        "outstanding": [(currency, units)
                        for currency, units in sorted(outstanding.items()) if units],
        "head_to_head": head, "partners": partners,
    }


# -- standings -----------------------------------------------------------------------------------

def table_currencies(table: Table) -> tuple[list[str], list[int]]:
    """The table's currencies (most evenings first) and the years it played in (newest
    first), in one query."""
    rows = list(Session.objects.filter(table=table).values("currency")
                .annotate(n=Count("id"), first=Min("date"), last=Max("date"))
                .order_by("-n", "currency"))
    if not rows:
        return [], []
    first = min(row["first"] for row in rows).year
    last = max(row["last"] for row in rows).year
    return [row["currency"] for row in rows], list(range(last, first - 1, -1))


def standings(queryset, currency: str, *, lower_wins: bool = False) -> list[dict]:
    """One row per player from filtered ``EveningStanding`` rows (``queryset``: each
    evening's finished games added up per player and variant), for the standings table
    (two queries): the gin family's games, or with ``lower_wins`` CAP-IT's (like with
    like: its penalty points and rounds are not gin points and boxes). The money column is
    each game's money as stored with its figures: the very amount the ledger posted for
    that game and player (the same result;
    ``test_statistics_are_the_games_results_and_money_is_the_postings``)."""
    rows = []
    figures = {name: Sum(name) for name in FIGURES if name != "evenings"}
    if lower_wins:
        queryset = queryset.filter(variant__in=LOWER_WINS_VARIANTS)
    else:
        queryset = queryset.exclude(variant__in=LOWER_WINS_VARIANTS)
    found = list(queryset.filter(currency=currency).values("player_id")
                 .annotate(**figures, money=Sum("money_minor")).order_by())
    # grouped by the id alone, SQLite walks the (table, player) index without a temp tree
    names = dict(Player.objects.filter(pk__in=[row["player_id"] for row in found])
                 .values_list("pk", "name"))
    for row in found:
        units = int(row["money"] or 0)
        rows.append({"player_id": row["player_id"], "name": names[row["player_id"]],
                     **_figures(row), "money": units})
    rows.sort(key=lambda row: row["name"].lower())
    return rows
