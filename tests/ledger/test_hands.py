"""Recording, correcting and undoing hands through the services."""

from __future__ import annotations

import pytest

from ledger import services
from ledger.exceptions import (
    GameNotInProgress,
    HandAlreadyRecorded,
    IdempotencyKeyReused,
    LedgerError,
    RecordRefused,
)
from ledger.models import BatchKind, GameStatus, Hand, MoneyPosting, PostingBatch
from ledger.presentation.flash import outcome_text
from ledger.presentation.problems import plain_line
from ledger.selectors.games import game_posted_money
from ledger.selectors.hands import game_history
from tests.refusing import refuses

from .conftest import key, start_empty

pytestmark = pytest.mark.django_db


def play(session, keeper, record, hands=None):
    game = start_empty(session, keeper, record)
    outcomes = [
        services.hand_record(game=game, entry=entry, recorded_by=keeper, idempotency_key=key(),
                             number=number)
        for number, entry in enumerate(record["hands"] if hands is None else hands, start=1)
    ]
    game.refresh_from_db()
    return game, outcomes


def test_hands_one_by_one_give_the_records_numbers(session, keeper, case):
    record = case("gin-standard-game")
    game, outcomes = play(session, keeper, record)
    assert all(outcome.created for outcome in outcomes)
    assert game.status == GameStatus.COMPLETE
    assert game.finished_at is not None
    result = outcomes[-1].result
    assert result["totals"]["A"]["final"] == 318 and result["totals"]["B"]["final"] == 116
    assert [h["dealer"] for h in result["hands"]] == ["B", "A", "B", "B", "A", "A", "A"]
    assert game_posted_money(game) == {"A": 202, "B": -202}
    # Money is posted once, when the game ends, and sums to zero.
    assert PostingBatch.objects.filter(game=game).count() == 1
    assert sum(MoneyPosting.objects.values_list("amount_minor", flat=True)) == 0
    hand = Hand.objects.get(game=game, number=1)
    assert hand.entry == record["hands"][0] and hand.recorded_by == keeper


def test_game_in_progress_posts_no_money(session, keeper, case):
    record = case("gin-standard-game")
    game, outcomes = play(session, keeper, record, record["hands"][:3])
    assert game.status == GameStatus.IN_PROGRESS
    assert outcomes[-1].result["complete"] is False
    assert not MoneyPosting.objects.exists()


def test_same_submission_twice_records_one_hand(session, keeper, case):
    record = case("gin-standard-game")
    game = start_empty(session, keeper, record)
    submission = key()
    first = services.hand_record(game=game, entry=record["hands"][0], recorded_by=keeper,
                                 idempotency_key=submission, number=1)
    again = services.hand_record(game=game, entry=record["hands"][0], recorded_by=keeper,
                                 idempotency_key=str(submission), number=1)
    assert first.created and not again.created
    assert again.hand.pk == first.hand.pk
    assert "already recorded" in outcome_text(again)
    assert Hand.objects.filter(game=game).count() == 1


def test_key_reused_for_another_hand_is_refused(session, keeper, case):
    record = case("gin-standard-game")
    game = start_empty(session, keeper, record)
    submission = key()
    services.hand_record(game=game, entry=record["hands"][0], recorded_by=keeper,
                         idempotency_key=submission)
    with pytest.raises(IdempotencyKeyReused):
        services.hand_record(game=game, entry=record["hands"][1], recorded_by=keeper,
                             idempotency_key=submission)


def test_second_scorekeeper_with_the_same_hand_number_gets_already_recorded(
        session, keeper, other_keeper, case):
    record = case("gin-standard-game")
    game = start_empty(session, keeper, record)
    services.hand_record(game=game, entry=record["hands"][0], recorded_by=keeper,
                         idempotency_key=key(), number=1)
    with refuses(HandAlreadyRecorded, match="Hand 1 is already recorded by keeper"):
        services.hand_record(game=game, entry=record["hands"][0], recorded_by=other_keeper,
                             idempotency_key=key(), number=1)
    with refuses(LedgerError, match="next hand of this game is 2, not 5"):
        services.hand_record(game=game, entry=record["hands"][1], recorded_by=keeper,
                             idempotency_key=key(), number=5)
    assert Hand.objects.filter(game=game).count() == 1


def test_refused_hand_stores_nothing(session, keeper, case):
    record = case("bad-knock-above-limit")
    game = start_empty(session, keeper, record)
    services.hand_record(game=game, entry=record["hands"][0], recorded_by=keeper,
                         idempotency_key=key())
    with pytest.raises(RecordRefused) as refused:
        services.hand_record(game=game, entry=record["hands"][1], recorded_by=keeper,
                             idempotency_key=key())
    assert refused.value.problems == ["hand 2: knocker deadwood 12 is above the knock limit 10"]
    assert Hand.objects.filter(game=game).count() == 1


def test_no_hands_after_the_game_ended(session, keeper, case):
    record = case("gin-standard-game")
    game, _ = play(session, keeper, record)
    with pytest.raises(GameNotInProgress):
        services.hand_record(game=game, entry={"draw": True}, recorded_by=keeper,
                             idempotency_key=key())


def test_correction_rescores_every_later_hand_and_keeps_the_old_one(
        session, keeper, other_keeper, case):
    record = case("gin-standard-game")
    game, outcomes = play(session, keeper, record)
    before = outcomes[-1].result
    hand2 = Hand.objects.get(game=game, number=2)
    # Hand 2 was written down wrongly: B did not gin, he knocked with 3 against 14.
    fixed = {"knocker": "B", "deadwood": {"A": 14, "B": 3}}
    outcome = services.hand_correct(hand=hand2, entry=fixed, corrected_by=other_keeper,
                                    reason="B had 3 deadwood, not gin")
    after = outcome.result
    assert outcome.created and outcome.hand.number == 2 and outcome.hand.replaces == hand2

    # Hand 1 unchanged; hand 2 now a knock for 11 instead of a gin for 14 + 25 = 39: every
    # later running total of B moves by -28 (B won hand 2 either way, so the dealers stay).
    assert after["hands"][0] == before["hands"][0]
    assert after["hands"][1]["result"] == "knock" and after["hands"][1]["points"]["B"] == 11
    for old, new in zip(before["hands"][1:], after["hands"][1:], strict=True):
        assert new["running"]["B"] == old["running"]["B"] - 28
        assert new["running"]["A"] == old["running"]["A"]
    assert [h["dealer"] for h in after["hands"]] == [h["dealer"] for h in before["hands"]]
    # Standard: A 318; B 38 hand points + 2 boxes = 88; net 230.
    assert after["totals"]["B"]["final"] == 88
    assert after["money"] == {"A": "2.30", "B": "-2.30"}

    old = Hand.objects.get(pk=hand2.pk)
    assert old.voided_at is not None and old.voided_by == other_keeper
    assert old.void_reason == "B had 3 deadwood, not gin"
    assert old.entry == record["hands"][1]  # never edited
    history = game_history(game)
    assert [(h.number, h.is_live) for h in history[1:3]] == [(2, False), (2, True)]
    assert len(history) == 8

    # The money was reversed and posted again; the sum is the new amount.
    assert list(PostingBatch.objects.filter(game=game).values_list("kind", flat=True)) == [
        BatchKind.POST, BatchKind.REVERSAL, BatchKind.POST]
    assert game_posted_money(game) == {"A": 230, "B": -230}


def test_correction_needs_reason_and_author(session, keeper, case):
    record = case("gin-standard-game")
    game, _ = play(session, keeper, record, record["hands"][:2])
    hand = Hand.objects.get(game=game, number=1)
    with refuses(LedgerError, match="reason"):
        services.hand_correct(hand=hand, entry={"draw": True}, corrected_by=keeper, reason=" ")
    with refuses(LedgerError, match="who"):
        services.hand_correct(hand=hand, entry={"draw": True}, corrected_by=None, reason="x")


def test_correcting_a_voided_hand_is_refused(session, keeper, case):
    record = case("gin-standard-game")
    game, _ = play(session, keeper, record, record["hands"][:2])
    hand = Hand.objects.get(game=game, number=1)
    services.hand_correct(hand=hand, entry={"draw": True}, corrected_by=keeper, reason="r")
    with pytest.raises(HandAlreadyRecorded):
        services.hand_correct(hand=hand, entry={"draw": True}, corrected_by=keeper, reason="r")


def test_undo_last_reopens_a_finished_game_and_reverses_its_money(session, keeper, case):
    record = case("gin-standard-game")
    game, _ = play(session, keeper, record)
    voided = services.hand_undo_last(game=game, undone_by=keeper, number=7)
    game.refresh_from_db()
    assert voided.number == 7 and voided.voided_at is not None
    assert game.status == GameStatus.IN_PROGRESS and game.finished_at is None
    assert game_posted_money(game) == {"A": 0, "B": 0}
    assert Hand.objects.filter(game=game).count() == 7  # still in the history
    # Play it again: the game ends as before.
    services.hand_record(game=game, entry=record["hands"][6], recorded_by=keeper,
                         idempotency_key=key(), number=7)
    assert game_posted_money(game) == {"A": 202, "B": -202}
    with refuses(LedgerError, match="last hand is 7, not 3"):
        services.hand_undo_last(game=game, undone_by=keeper, number=3)


def test_failure_halfway_through_a_service_leaves_nothing(session, keeper, case, monkeypatch):
    record = case("gin-standard-game")
    game, _ = play(session, keeper, record, record["hands"][:6])

    def explode(*args, **kwargs):
        raise RuntimeError("power cut")

    # The hand row is written before the money: fail while posting the money.
    monkeypatch.setattr(services.posting, "_post", explode)
    with pytest.raises(RuntimeError):
        services.hand_record(game=game, entry=record["hands"][6], recorded_by=keeper,
                             idempotency_key=key(), number=7)
    game.refresh_from_db()
    assert Hand.objects.filter(game=game).count() == 6
    assert game.status == GameStatus.IN_PROGRESS
    assert not PostingBatch.objects.exists()


@pytest.mark.parametrize("code", ["ÄBC", "U$D", "US", "EURO", ""])
def test_a_currency_code_the_record_format_would_refuse_is_refused_up_front(table, code):
    with pytest.raises(RecordRefused) as caught:
        services.session_create(table=table, currency=code)
    assert [plain_line(problem) for problem in caught.value.details] == [
        f"currency: {code!r} is not an ISO 4217 currency code, such as USD, EUR or GBP"]
    assert not table.sessions.exists()
    assert services.session_create(table=table, currency="jpy").currency == "JPY"


def test_the_session_form_refuses_a_non_ascii_currency_at_its_field():
    from ledger.forms import SessionForm

    form = SessionForm(data={"date": "2025-11-20", "currency": "ÄBC", "per_points": "1"})
    assert not form.is_valid()
    assert form.errors["currency"] == ["A currency code of ISO 4217, such as USD or EUR."]
