"""The whole demo evening: imported, scored and settled with the exact numbers of the
records (RULES.md worked examples 5, 9, 11 and 13, and a partnership game worked by hand)."""

from __future__ import annotations

import json

import pytest
from django.core.management import call_command

from ledger import services
from ledger.models import GameStatus, Hand, Session
from ledger.selectors.evenings import session_games, session_nets
from ledger.selectors.exports import dump_json, session_export
from ledger.selectors.games import game_posted_money, game_result, money_to_minor

from .conftest import DEMO_SESSION

pytestmark = pytest.mark.django_db

# Per game, in minor units (cents).
EXPECTED_GAMES = [
    ("gin", GameStatus.COMPLETE, {"Ann": 202, "Bob": -202}),  # example 5, standard
    ("box", GameStatus.COMPLETE, {"Carla": 155, "Dev": -163, "Eve": 8}),  # example 9
    ("captain", GameStatus.ABANDONED,  # example 11
     {"Bob": 180, "Finn": 180, "Ann": -120, "Carla": -120, "Dev": -120}),
    # Us (Eve, Bob) 125 hand points + 2 boxes + game = 275, Them 14 + 1 box = 39;
    # net 236 at 0.02 a side: 4.72, 2.36 per member.
    ("partnership", GameStatus.COMPLETE, {"Eve": 236, "Bob": 236, "Carla": -236, "Finn": -236}),
    ("cap-it", GameStatus.COMPLETE,  # example 13
     {"Dev": 1000, "Ann": -400, "Finn": -300, "Eve": -300}),
]
EXPECTED_NETS = {"Ann": -318, "Bob": 214, "Carla": -201, "Dev": 717, "Eve": -56, "Finn": -356}


def test_load_demo_imports_scores_and_settles_the_evening(keeper):
    call_command("load_demo", stdout=open("/dev/null", "w"))
    call_command("load_demo", stdout=open("/dev/null", "w"))  # idempotent
    session = Session.objects.get()
    # the demo account is a plain scorekeeper of the demo table: no admin on a club server
    demo = session.table.scorekeepers.get(username="demo")
    assert not demo.is_staff and not demo.is_superuser and demo.check_password("demo")
    games = session_games(session)
    assert [(g.variant, g.status) for g in games] == [(v, s) for v, s, _ in EXPECTED_GAMES]
    for game, (_, _, money) in zip(games, EXPECTED_GAMES, strict=True):
        posted = {name: amount for name, amount in game_posted_money(game).items()
                  if amount}
        assert posted == money, game
        result = game_result(game)
        assert money_to_minor(result["money"], "USD") == {
            name: money.get(name, 0) for name in result["money"]
        }
    assert Hand.objects.count() == 7 + 6 + 1 + 3 + 5
    assert session_nets(session) == EXPECTED_NETS

    settlement = services.session_settle(session=session, settled_by=keeper)
    assert settlement.nets == EXPECTED_NETS
    payments = list(settlement.payments.select_related("payer", "payee"))
    # No group of players squares up on its own, so the fewest payments are 6 - 1.
    assert len(payments) == 5
    balance = dict.fromkeys(EXPECTED_NETS, 0)
    for payment in payments:
        assert EXPECTED_NETS[payment.payer.name] < 0 < EXPECTED_NETS[payment.payee.name]
        balance[payment.payer.name] += payment.amount_minor
        balance[payment.payee.name] -= payment.amount_minor
    assert balance == {name: -net for name, net in EXPECTED_NETS.items()}


def test_demo_record_round_trips(tmp_path, keeper):
    record = json.loads(DEMO_SESSION.read_text())
    session = services.session_import(record=record, imported_by=keeper)
    first = dump_json(session_export(session))
    again = services.session_import(record=json.loads(first), imported_by=keeper)
    assert dump_json(session_export(again)) == first
