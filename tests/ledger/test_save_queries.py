"""Issue 21 item 14 (speed on a real phone): a hand sent by the game page's queue
(``ledger/views/queue.py`` hand_send, with the page's changed parts) costs a fixed number of
queries whatever the number of hands or of players, so that Save stays fast in a long game.

The ceilings are the counts measured when the service stopped reading each seat's player
one query at a time and the live hands as model instances (30 queries a post before,
whatever the hands; 25 after for two players), plus the one update that keeps the tables'
reports with the saved hand (issue 23): a change that reads per hand or per player again
fails here. The view and the service each read the seats with their players in one query
(a join), not two: 22 now."""

from __future__ import annotations

import uuid

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from ledger import services
from ledger.models import Game, Hand
from ledger.selectors.games import game_result
from tests.e2e.phone_games import next_entry, start
from tests.factories import gin_game

pytestmark = pytest.mark.django_db

#: the queries of one hand post with its parts (a two-player gin game), measured
MAX_QUERIES = 22


def knock(number: int, knocker: str = "Ann") -> dict:
    return {"key": str(uuid.uuid4()), "number": str(number), "parts": str(number),
            "t1_knocker": knocker, "t1_kind": "knock", "t1_c0": "3", "t1_c1": "20"}


def _game_of(session, keeper, hands: int):
    game = gin_game(session, keeper, rules={"target": 100_000})
    for number in range(1, hands + 1):
        services.hand_record(game=game, entry={"draw": True} if number % 2 else
                             {"knocker": "Bob", "deadwood": {"Bob": 1, "Ann": 9}},
                             recorded_by=keeper, idempotency_key=uuid.uuid4(), number=number)
    return game


def _post_counted(client, game, number, django_assert_max_num_queries):
    url = reverse("ledger:hand_send", args=[game.pk])
    with django_assert_max_num_queries(MAX_QUERIES) as captured:
        answer = client.post(url, knock(number))
    assert answer.status_code == 201, answer.content[:300]
    body = answer.json()
    assert body["status"] == "recorded" and body["number"] == number
    assert body["next"] == number + 1 and "score" in body["parts"]
    return len(captured.captured_queries)


def test_a_hand_post_costs_the_same_queries_at_3_and_at_60_hands(
        session, keeper, logged_in, django_assert_max_num_queries):
    short, long = _game_of(session, keeper, 3), _game_of(session, keeper, 60)
    at_3 = _post_counted(logged_in, short, 4, django_assert_max_num_queries)
    at_60 = _post_counted(logged_in, long, 61, django_assert_max_num_queries)
    assert at_3 == at_60
    # stored once, scored: Ann's knock of 3 against 20 is worth 17 to her
    hand = Hand.objects.get(game=long, number=61, voided_at__isnull=True)
    assert hand.entry == {"knocker": "Ann", "deadwood": {"Ann": 3, "Bob": 20}}
    assert game_result(long)["totals"]["Ann"]["hand_points"] == 17


def test_the_service_reads_the_seats_and_players_once(session, keeper):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    game = _game_of(session, keeper, 5)
    with CaptureQueriesContext(connection) as captured:
        services.hand_record(game=game, entry={"draw": True}, recorded_by=keeper,
                             idempotency_key=uuid.uuid4(), number=6)
    sql = [q["sql"] for q in captured.captured_queries]
    seats = [q for q in sql if q.startswith('SELECT "ledger_gameplayer"')]
    assert len(seats) == 1 and 'JOIN "ledger_player"' in seats[0], sql  # with their players
    assert not [q for q in sql if q.startswith('SELECT "ledger_player"')], sql
    # the live hands are read once, under the lock
    assert len([q for q in sql if q.startswith('SELECT "ledger_hand"."number"')]) == 1, sql



@pytest.mark.parametrize("key", ["captain5", "partnership6"])
def test_a_games_result_and_a_hand_recorded_by_the_service_read_no_player_alone(
        session, keeper, key):
    """A game's result read from a fresh ``Game`` (as the services, the imports, the
    tables' reports and the tests' own games read it) and ``services.hand_record`` called
    by itself read each seat with its player in one join, never a player alone: reading the
    result and recording a hand of a five-player captain game made 37 queries, 15 of them
    one player each."""
    game = start(session, keeper, key)
    with CaptureQueriesContext(connection) as captured:
        fresh = Game.objects.get(pk=game.pk)
        entry = next_entry(fresh, 0)
        services.hand_record(game=fresh, entry=entry, recorded_by=keeper,
                             idempotency_key=uuid.uuid4())
    alone = [q["sql"] for q in captured.captured_queries
             if q["sql"].startswith('SELECT "ledger_player"')]
    assert alone == []
    assert game_result(fresh)["hands"][0]["number"] == 1


def test_a_save_reads_the_hands_entries_once(session, keeper, logged_in):
    """Issue 42: the view reads the live hands to know the next hand's form; the service
    checked nothing and read and decoded every entry again under its lock. It now checks
    by one aggregate that they are still the game's and takes the view's read."""
    game = _game_of(session, keeper, 30)
    with CaptureQueriesContext(connection) as captured:
        answer = logged_in.post(reverse("ledger:hand_send", args=[game.pk]), knock(31))
    assert answer.status_code == 201, answer.content[:300]
    sql = [q["sql"] for q in captured.captured_queries]
    entries = [q for q in sql if '"ledger_hand"."entry"' in q
               and 'WHERE "ledger_hand"."idempotency_key"' not in q
               and '"ledger_hand"."idempotency_key" =' not in q]
    assert len(entries) == 1, entries
    assert game_result(game)["totals"]["Ann"]["hand_points"] == 17


def test_entries_read_before_a_change_are_read_again(session, keeper):
    """Entries read before another hand was recorded, corrected or undone do not stand for
    the game: the service reads the hands again and scores what is stored."""
    from ledger.selectors.games import game_live_entries

    game = _game_of(session, keeper, 4)
    before = game_live_entries(game)
    assert before.mark[0] == 4
    services.hand_record(game=game, entry={"knocker": "Ann", "deadwood": {"Ann": 2, "Bob": 30}},
                         recorded_by=keeper, idempotency_key=uuid.uuid4(), number=5)
    outcome = services.hand_record(game=game, entry={"draw": True}, recorded_by=keeper,
                                   idempotency_key=uuid.uuid4(), number=6, live=before)
    assert len(outcome.result["hands"]) == 6
    assert outcome.result["totals"]["Ann"]["hand_points"] == 28
    # corrected: same count, a new id
    before = game_live_entries(game)
    hand = Hand.objects.get(game=game, number=5, voided_at__isnull=True)
    services.hand_correct(hand=hand, entry={"knocker": "Ann", "deadwood": {"Ann": 1, "Bob": 30}},
                          corrected_by=keeper, reason="typo")
    outcome = services.hand_record(game=game, entry={"draw": True}, recorded_by=keeper,
                                   idempotency_key=uuid.uuid4(), number=7, live=before)
    assert outcome.result["totals"]["Ann"]["hand_points"] == 29
