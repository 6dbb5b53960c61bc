"""The printed documents' reads (issue 42): the session report reads the evening's hands as
their entries, in one query and without a ``Hand`` object each; a game's sheet reads its
hands and its seats once, not once for the record and again for the history."""

from __future__ import annotations

import json

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from ledger import services
from ledger.models import Game, Hand, Player, Session
from ledger.presentation.session import session_summary
from ledger.presentation.sheet import game_sheet
from ledger.selectors.evenings import session_game_records, session_games
from ledger.selectors.games import game_record

from .conftest import DEMO_SESSION

pytestmark = pytest.mark.django_db


@pytest.fixture
def evening(keeper):
    """The demo evening with a hand of game 1 corrected, game 2's last hand undone and Ann
    renamed Anna (stored entries in the old name, a voided hand in two games)."""
    session = services.session_import(record=json.loads(DEMO_SESSION.read_text()))
    one = Game.objects.get(session=session, sequence=1)
    services.hand_correct(hand=one.hands.get(number=2, voided_at__isnull=True),
                          entry={"knocker": "Bob", "deadwood": {"Ann": 20, "Bob": 3}},
                          corrected_by=keeper, reason="misread")
    services.hand_undo_last(game=Game.objects.get(session=session, sequence=2),
                            undone_by=keeper)
    services.player_rename(player=Player.objects.get(name="Ann"), name="Anna")
    return Session.objects.select_related("table").get(pk=session.pk)


def _reads(queries, table: str) -> int:
    return sum(f'FROM "{table}"' in query["sql"] for query in queries)


def test_session_records_are_each_games_record(evening):
    records = session_game_records(evening)
    games = session_games(evening)
    assert [game.sequence for game, _ in records] == [1, 2, 3, 4, 5]
    assert [record for _, record in records] == [game_record(game) for game in games]
    first = records[0][1]
    assert first["players"] == ["Anna", "Bob"]
    assert first["hands"][1] == {"knocker": "Bob", "deadwood": {"Anna": 20, "Bob": 3}}
    assert len(first["hands"]) == 7 and len(records[1][1]["hands"]) == 5


def test_session_summary_reads_the_hands_once_as_entries(evening, monkeypatch):
    built = []
    from_db = Hand.from_db.__func__
    monkeypatch.setattr(Hand, "from_db", classmethod(
        lambda cls, *args: built.append(1) or from_db(cls, *args)))
    with CaptureQueriesContext(connection) as queries:
        summary = session_summary(evening)
    assert _reads(queries, "ledger_hand") == 1
    assert built == []  # no Hand object: the entries alone
    assert len(queries) <= 7  # games, seats with players, hands, nets, settlement...
    assert [line.hands for line in summary.games] == [7, 5, 1, 3, 5]
    assert summary.players == ["Anna", "Bob", "Carla", "Dev", "Eve", "Finn"]
    # game 1 with hand 2 corrected: Bob's gin (14 + 25) became a knock worth 17, so Bob
    # 116 - 39 + 17 = 94, and Anna wins 318 - 94 = 224 points at a cent each
    first = summary.games[0]
    assert [(s.label, s.value) for s in first.scores] == [("Anna", 318), ("Bob", 94)]
    assert [(m.name, m.amount) for m in first.money] == [("Anna", "2.24"), ("Bob", "-2.24")]


def test_game_sheet_reads_its_hands_and_seats_once(evening):
    for sequence, voided in ((1, 1), (4, 0)):
        game = Game.objects.select_related("session__table").get(
            session=evening, sequence=sequence)
        with CaptureQueriesContext(connection) as queries:
            sheet = game_sheet(game)
        assert _reads(queries, "ledger_hand") == 1, sequence
        assert _reads(queries, "ledger_gameplayer") == 1, sequence
        assert len(sheet.voided_rows) == voided
        assert sheet.record == game_record(game)
    # the corrected hand in its place, before the hand that replaced it
    game = Game.objects.get(session=evening, sequence=1)
    rows = game_sheet(game).rows
    assert [(row.number, row.void) for row in rows[:3]] == [(1, False), (2, True), (2, False)]
