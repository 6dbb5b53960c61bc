"""A big table built fast, for the book's query-count test and bench/bench_book.py.

Eight games an evening, each a gin game of ``hands`` hands between two of six players that
ends exactly at its last hand (the target is the leader's total then). The core scores each
of the eight game templates once; every evening reuses those results with its players
rotated, and the rows are written with bulk_create: the games, seats, hands, the money
(one POST batch a game), the ``GameStanding`` rows (built by the services' own
``standing_rows`` from the same result), and for settled evenings the settlement (the core's
``fewest_payments``) with its payments, paid for all but the last ``unpaid`` evenings. What
it stores is what the services would store for the same games (the test compares a sample).
"""

from __future__ import annotations

import datetime
import random

from django.db import transaction
from django.utils import timezone

from ledger import rules as core
from ledger.models import (
    BatchKind,
    EveningStanding,
    Game,
    GamePlayer,
    GameStanding,
    GameStatus,
    Hand,
    MoneyPosting,
    Player,
    PostingBatch,
    Session,
    SessionSettlement,
    SettlementPayment,
)
from ledger.rules.money import fewest_payments, to_minor
from ledger.services.standings import standing_rows, store_evenings

PLAYERS = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay"]
PAIRS = [(0, 1), (2, 3), (4, 5), (0, 2), (1, 3), (4, 0), (5, 1), (2, 4)]


def game_template(seed: int, hands: int) -> dict:
    """A gin record between placeholders A and B that ends exactly at hand ``hands``."""
    rng = random.Random(seed)
    entries = []
    for i in range(hands - 1):
        knocker, other = ("A", "B") if rng.random() < 0.55 else ("B", "A")
        roll = rng.random()
        if i % 9 == 4:
            entries.append({"draw": True})
        elif roll < 0.12:
            entries.append({"knocker": knocker,
                            "deadwood": {knocker: 0, other: rng.randint(5, 40)}})
        elif roll < 0.2:
            entries.append({"knocker": knocker, "deadwood": {knocker: 8, other: 6}})
        else:
            entries.append({"knocker": knocker,
                            "deadwood": {knocker: rng.randint(1, 10), other: rng.randint(12, 40)}})
    record = {"format": "tablestakes.game/1", "variant": "gin", "preset": "standard",
              "rules": {"target": 100_000}, "players": ["A", "B"],
              "stakes": {"rate": "0.05", "per_points": 1, "currency": "USD"},
              "setup": {"first_dealer": "A"}, "abandoned": False, "hands": entries}
    running = core.score_record(record)["hands"][-1]["running"] if entries else {"A": 0, "B": 0}
    leader, other = ("A", "B") if running["A"] >= running["B"] else ("B", "A")
    record["hands"] = [*entries, {"knocker": leader, "deadwood": {leader: 2, other: 30}}]
    record["rules"] = {"target": running[leader] + 28}
    return record


def rename(result: dict, names: dict[str, str]) -> dict:
    """The parts of a result ``standing_rows`` reads, with the placeholders renamed."""
    def keyed(mapping):
        return {names.get(k, k): v for k, v in mapping.items()}

    hands = []
    for hand in result["hands"]:
        hands.append({**hand, "winner": names.get(hand.get("winner"), hand.get("winner")),
                      "knocker": names.get(hand.get("knocker"), hand.get("knocker")),
                      "roles": keyed(hand.get("roles") or {})})
    return {**result, "players": [names[n] for n in result["players"]], "hands": hands,
            "totals": keyed(result["totals"]), "money": keyed(result["money"]),
            "stats": keyed(result.get("stats") or {}),
            "winner": names.get(result.get("winner"), result.get("winner"))}


def renamed_entry(entry: dict, names: dict[str, str]) -> dict:
    if "knocker" not in entry:
        return entry
    return {"knocker": names[entry["knocker"]],
            "deadwood": {names[k]: v for k, v in entry["deadwood"].items()}}


@transaction.atomic
def build_table(table, *, evenings: int, hands: int = 20, unpaid: int = 6,
                open_evenings: int = 1, start: datetime.date = datetime.date(2021, 1, 7)):
    """Fill ``table`` with ``evenings`` weekly evenings of eight games (the last
    ``open_evenings`` unsettled). Returns the players."""
    players = [Player.objects.get_or_create(table=table, name=name)[0] for name in PLAYERS]
    templates = [game_template(seed, hands) for seed in range(len(PAIRS))]
    results = [core.score_record(record) for record in templates]
    now = timezone.now()
    sessions = Session.objects.bulk_create(
        Session(table=table, date=start + datetime.timedelta(weeks=i), currency="USD",
                rate="0.05", per_points=1)
        for i in range(evenings)
    )
    games, plans = [], []
    for index, session in enumerate(sessions):
        for sequence, ((a, b), record, result) in enumerate(
                zip(PAIRS, templates, results, strict=True), start=1):
            a, b = players[(a + index) % 6], players[(b + index) % 6]
            names = {"A": a.name, "B": b.name}
            games.append(Game(session=session, sequence=sequence, variant="gin",
                              preset="standard", rules=dict(sorted(result["rules"].items())),
                              rate="0.05", per_points=1, currency="USD",
                              setup={"first_dealer": a.name}, status=GameStatus.COMPLETE,
                              started_at=now, finished_at=now))
            plans.append((session, record, rename(result, names), {"A": a, "B": b}))
    games = Game.objects.bulk_create(games, batch_size=500)
    seats, hand_rows, standings = [], [], []
    for game, (session, record, result, seat) in zip(games, plans, strict=True):
        seats += [GamePlayer(game=game, player=seat["A"], seat=0, played_as=seat["A"].name),
                  GamePlayer(game=game, player=seat["B"], seat=1, played_as=seat["B"].name)]
        names = {"A": seat["A"].name, "B": seat["B"].name}
        hand_rows += [Hand(game=game, number=n, entry=renamed_entry(entry, names),
                           recorded_at=now)
                      for n, entry in enumerate(record["hands"], start=1)]
        standings += standing_rows(GameStanding, game=game, session=session, result=result,
                                   status=game.status,
                                   players={seat[k].name: seat[k] for k in "AB"})
    GamePlayer.objects.bulk_create(seats, batch_size=1000)
    Hand.objects.bulk_create(hand_rows, batch_size=2000)
    GameStanding.objects.bulk_create(standings, batch_size=1000)
    store_evenings(GameStanding, EveningStanding, [session.pk for session in sessions])
    batches = PostingBatch.objects.bulk_create(
        [PostingBatch(game=game, number=1, kind=BatchKind.POST, memo="bench",
                      created_at=now) for game in games], batch_size=1000)
    postings, nets = [], {}
    by_name = {player.name: player for player in players}
    for batch, game, (session, _, result, _) in zip(batches, games, plans, strict=True):
        for name, amount in result["money"].items():
            units = to_minor(amount, "USD")
            if units:
                postings.append(MoneyPosting(batch=batch, game=game, player=by_name[name],
                                             amount_minor=units, currency="USD"))
                session_nets = nets.setdefault(session.pk, {})
                session_nets[name] = session_nets.get(name, 0) + units
    MoneyPosting.objects.bulk_create(postings, batch_size=2000)
    settled = sessions[:len(sessions) - open_evenings]
    settlements = SessionSettlement.objects.bulk_create(
        SessionSettlement(session=session, currency="USD", nets=nets.get(session.pk, {}),
                          settled_at=now) for session in settled)
    payments = []
    for index, settlement in enumerate(settlements):
        paid = index < len(settlements) - unpaid
        for order, payment in enumerate(fewest_payments(settlement.nets), start=1):
            payments.append(SettlementPayment(
                settlement=settlement, order=order, payer=by_name[payment.payer],
                payee=by_name[payment.payee], amount_minor=payment.units,
                paid_at=now if paid else None))
    SettlementPayment.objects.bulk_create(payments, batch_size=2000)
    return players
