"""Rule and stake changes mid-game, abandoning, and the frozen settled session."""

from __future__ import annotations

import pytest

from ledger import services
from ledger.exceptions import (
    ConfirmationRequired,
    GameNotInProgress,
    RecordRefused,
    SessionSettled,
)
from ledger.models import ChangeKind, GameChange, GameStatus, Hand
from ledger.presentation.refusals import refusal_words
from ledger.selectors.evenings import session_nets
from ledger.selectors.games import game_posted_money, game_record, game_result
from tests.factories import gin_game
from tests.refusing import refuses

from .conftest import key, start_empty

pytestmark = pytest.mark.django_db


def imported(session, keeper, record):
    return services.game_import(session=session, record=record, imported_by=keeper)


def test_rules_snapshot_is_taken_at_the_start(session, keeper, case):
    game = imported(session, keeper, case("gin-classic-game"))
    assert game.rules["gin_bonus"] == 20 and game.rules["undercut_bonus"] == 10
    assert game.rules["target"] == 100 and "shutout_mode" in game.rules
    assert game_record(game)["rules"] == game.rules


def test_stake_change_of_a_finished_game_needs_confirmation(session, keeper, case):
    game = imported(session, keeper, case("gin-standard-game"))
    assert game.status == GameStatus.COMPLETE
    with pytest.raises(ConfirmationRequired) as refused:
        services.game_change_stake(game=game, changed_by=keeper, rate="0.02",
                                   reason="we said two cents")
    assert refused.value.old_money == {"A": 202, "B": -202}
    assert refused.value.new_money == {"A": 404, "B": -404}
    assert "A 2.02 -> 4.04" in refusal_words(refused.value)
    assert game_posted_money(game) == {"A": 202, "B": -202}
    assert not GameChange.objects.exists()

    result = services.game_change_stake(game=game, changed_by=keeper, rate="0.02",
                                        reason="we said two cents", confirm=True)
    assert result["money"] == {"A": "4.04", "B": "-4.04"}
    assert game_posted_money(game) == {"A": 404, "B": -404}
    change = GameChange.objects.get()
    assert (change.kind, change.name, change.old, change.new) == (
        ChangeKind.STAKE, "rate", "0.01", "0.02")
    assert change.money_changed and change.changed_by == keeper and change.after_hand == 7


def test_change_that_leaves_finished_money_alone_needs_no_confirmation(session, keeper, case):
    game = imported(session, keeper, case("gin-standard-game"))
    services.game_change_rules(game=game, changes={"knock_limit": 9}, changed_by=keeper,
                               reason="house rule")
    game.refresh_from_db()
    assert game.rules["knock_limit"] == 9
    assert GameChange.objects.get().money_changed is False


def test_rule_change_mid_game_rescores(session, keeper, case):
    record = case("gin-standard-game")
    game = start_empty(session, keeper, record)
    for entry in record["hands"][:4]:
        services.hand_record(game=game, entry=entry, recorded_by=keeper, idempotency_key=key())
    before = game_result(game)
    result = services.game_change_rules(game=game, changes={"gin_bonus": 20},
                                        changed_by=keeper, reason="classic gin bonus")
    # Hands 2 and 4 were gins: 5 points less each.
    assert result["hands"][1]["points"]["B"] == before["hands"][1]["points"]["B"] - 5
    assert result["hands"][3]["points"]["A"] == before["hands"][3]["points"]["A"] - 5
    with refuses(RecordRefused, match="rules.no_such_thing"):
        services.game_change_rules(game=game, changes={"no_such_thing": 1}, changed_by=keeper)


def test_lowering_the_target_can_finish_a_game(session, keeper, case):
    record = case("gin-standard-game")
    game = start_empty(session, keeper, record)
    for entry in record["hands"][:2]:
        services.hand_record(game=game, entry=entry, recorded_by=keeper, idempotency_key=key())
    result = services.game_change_rules(game=game, changes={"target": 30}, changed_by=keeper)
    game.refresh_from_db()
    assert result["complete"] and game.status == GameStatus.COMPLETE


def test_abandon_settles_on_hand_points(session, keeper, case):
    record = case("gin-standard-game")
    game = start_empty(session, keeper, record)
    for entry in record["hands"][:2]:
        services.hand_record(game=game, entry=entry, recorded_by=keeper, idempotency_key=key())
    services.game_abandon(game=game, abandoned_by=keeper, reason="last train")
    game.refresh_from_db()
    assert game.status == GameStatus.ABANDONED
    # A 12 hand points, B 39: B collects 27 cents.
    assert game_posted_money(game) == {"A": -27, "B": 27}
    assert GameChange.objects.get().kind == ChangeKind.ABANDON
    assert game_record(game)["abandoned"] is True
    with pytest.raises(GameNotInProgress):
        services.game_abandon(game=game, abandoned_by=keeper)


def test_settled_session_never_changes(session, keeper, case):
    game = imported(session, keeper, case("gin-standard-game"))
    settlement = services.session_settle(session=session, settled_by=keeper)
    hand = Hand.objects.filter(game=game).first()
    with pytest.raises(SessionSettled):
        services.hand_correct(hand=hand, entry={"draw": True}, corrected_by=keeper, reason="x")
    with pytest.raises(SessionSettled):
        services.hand_undo_last(game=game, undone_by=keeper)
    with pytest.raises(SessionSettled):
        services.game_change_stake(game=game, changed_by=keeper, rate="1", confirm=True)
    with pytest.raises(SessionSettled):
        services.game_import(session=session, record=case("box-rotation"))
    with pytest.raises(SessionSettled):
        services.session_settle(session=session, settled_by=keeper)
    assert session_nets(session) == settlement.nets == {"A": 202, "B": -202}


def test_game_currency_must_be_the_sessions(session, keeper, case):
    record = case("gin-standard-game")
    record["stakes"]["currency"] = "EUR"
    with refuses(RecordRefused, match="differs from the evening's currency USD"):
        imported(session, keeper, record)


def test_game_start_takes_the_sessions_default_stake(session, keeper):
    game = gin_game(session, keeper)
    assert game_record(game)["stakes"] == {
        "rate": "0.01", "per_points": 1, "currency": "USD"}
    assert [seat.player.name for seat in game.seats.all()] == ["Ann", "Bob"]
    with pytest.raises(RecordRefused):
        services.game_start(session=session, variant="gin", players=["Ann", "Bob"],
                            started_by=keeper, setup={})  # first_dealer is required
