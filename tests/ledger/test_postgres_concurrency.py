"""Two scorekeepers at once, on PostgreSQL with real concurrent connections.

Each thread gets its own database connection (Django's connections are per thread), the
tests commit for real (``transaction=True``), and the core is slowed down so the two
submissions overlap inside the service.
"""

from __future__ import annotations

import threading
import time
import uuid
from collections import OrderedDict

import pytest
from django.db import connection, connections

from ledger import services
from ledger.exceptions import HandAlreadyRecorded
from ledger.models import Game, GameStatus, Hand, MoneyPosting, PostingBatch
from ledger.presentation.flash import outcome_text
from ledger.presentation.refusals import refusal_words
from ledger.selectors import games as games_selectors
from ledger.selectors.games import game_posted_money

from .conftest import load_case, start_empty

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


@pytest.fixture(autouse=True)
def only_postgres():
    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL (DATABASE_URL=postgres://...)")


@pytest.fixture
def slow_core(monkeypatch):
    """Make scoring take a while so both submissions are inside the service together."""
    real = services.core.score_record

    def slow(record):
        time.sleep(0.3)
        return real(record)

    monkeypatch.setattr(services.core, "score_record", slow)
    # and score every record afresh: the process keeps results it has already scored
    # (selectors.games.score), so an earlier test's same record would skip the wait
    monkeypatch.setattr(games_selectors, "_SCORED", OrderedDict())


def race(*calls):
    """Run the calls at the same moment in threads with their own connections; return
    each one's result or exception."""
    barrier = threading.Barrier(len(calls))
    results: list = [None] * len(calls)

    def run(index, call):
        try:
            barrier.wait()
            results[index] = call()
        except Exception as exc:  # noqa: BLE001 - reported to the test
            results[index] = exc
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(i, c)) for i, c in enumerate(calls)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    return results


def test_two_scorekeepers_same_hand_number_record_it_once(
        session, keeper, other_keeper, slow_core):
    record = load_case("gin-standard-game")
    game = start_empty(session, keeper, record)
    entry = record["hands"][0]

    finished_at = {}

    def submit(user):
        def call():
            try:
                return services.hand_record(game=Game.objects.get(pk=game.pk), entry=entry,
                                            recorded_by=user, idempotency_key=uuid.uuid4(),
                                            number=1)
            finally:
                finished_at[user.username] = time.monotonic() - started
        return call

    started = time.monotonic()
    results = race(submit(keeper), submit(other_keeper))
    recorded = [r for r in results if isinstance(r, services.HandOutcome)]
    refused = [r for r in results if isinstance(r, HandAlreadyRecorded)]
    assert len(recorded) == 1 and len(refused) == 1, results
    assert "Hand 1 is already recorded by" in refusal_words(refused[0])
    # The refused one waited on the game lock while the other was scoring (0.3 s).
    assert min(finished_at.values()) >= 0.3 and max(finished_at.values()) >= 0.3
    assert Hand.objects.filter(game=game).count() == 1


def test_same_submission_twice_at_once_records_one_hand(session, keeper, slow_core):
    record = load_case("gin-standard-game")
    game = start_empty(session, keeper, record)
    submission = uuid.uuid4()

    def submit():
        return services.hand_record(game=Game.objects.get(pk=game.pk),
                                    entry=record["hands"][0], recorded_by=keeper,
                                    idempotency_key=submission)

    results = race(submit, submit)
    assert all(isinstance(r, services.HandOutcome) for r in results), results
    assert sorted(r.created for r in results) == [False, True]
    already = next(r for r in results if not r.created)
    # the outcome is data; the presentation words it (ledger.presentation.flash)
    assert "already recorded" in outcome_text(already)
    assert Hand.objects.filter(game=game).count() == 1


def test_two_corrections_of_one_hand_at_once(session, keeper, other_keeper, slow_core):
    record = load_case("gin-standard-game")
    game = services.game_import(session=session, record=record, imported_by=keeper)
    hand = Hand.objects.get(game=game, number=1)

    def correct(user, deadwood):
        return lambda: services.hand_correct(
            hand=hand, entry={"knocker": "A", "deadwood": {"A": deadwood, "B": 17}},
            corrected_by=user, reason="miscounted")

    results = race(correct(keeper, 4), correct(other_keeper, 3))
    assert sum(isinstance(r, services.HandOutcome) for r in results) == 1, results
    assert sum(isinstance(r, HandAlreadyRecorded) for r in results) == 1, results
    assert Hand.objects.filter(game=game, number=1).count() == 2  # the void and its fix
    assert Hand.objects.filter(game=game, voided_at__isnull=True).count() == 7
    # Money reversed once and posted once more, still summing to zero.
    assert PostingBatch.objects.filter(game=game).count() == 3
    assert sum(MoneyPosting.objects.values_list("amount_minor", flat=True)) == 0


def test_failure_halfway_leaves_nothing_on_postgres(session, keeper, monkeypatch):
    record = load_case("gin-standard-game")
    game = start_empty(session, keeper, record)
    for number, entry in enumerate(record["hands"][:6], start=1):
        services.hand_record(game=game, entry=entry, recorded_by=keeper,
                             idempotency_key=uuid.uuid4(), number=number)

    def explode(*args, **kwargs):
        raise RuntimeError("connection lost while posting")

    monkeypatch.setattr(services.posting, "_post", explode)
    with pytest.raises(RuntimeError):
        services.hand_record(game=game, entry=record["hands"][6], recorded_by=keeper,
                             idempotency_key=uuid.uuid4(), number=7)
    monkeypatch.undo()
    # Look from another connection: nothing of the failed call was committed.
    seen = race(lambda: (Hand.objects.filter(game=game).count(),
                         Game.objects.get(pk=game.pk).status,
                         PostingBatch.objects.filter(game=game).count()))[0]
    assert seen == (6, GameStatus.IN_PROGRESS, 0)
    services.hand_record(game=game, entry=record["hands"][6], recorded_by=keeper,
                         idempotency_key=uuid.uuid4(), number=7)
    assert game_posted_money(game) == {"A": 202, "B": -202}
