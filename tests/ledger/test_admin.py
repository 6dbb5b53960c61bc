"""The admin shows every ledger model (lists, search, filters, change pages); the history
is read-only there."""

from __future__ import annotations

import json

import pytest
from django.urls import reverse

from ledger import services
from ledger.models import (
    Game,
    GameChange,
    GamePlayer,
    Hand,
    MoneyPosting,
    Player,
    PostingBatch,
    Session,
    SessionSettlement,
    SettlementPayment,
    Table,
)

from .conftest import DEMO_SESSION

pytestmark = pytest.mark.django_db

MODELS = [Table, Player, Session, Game, Hand, GameChange, PostingBatch, MoneyPosting,
          SessionSettlement, SettlementPayment]


@pytest.fixture
def evening(admin_user):
    session = services.session_import(record=json.loads(DEMO_SESSION.read_text()))
    game = session.games.get(sequence=1)
    hand = Hand.objects.get(game=game, number=2)
    services.hand_correct(hand=hand, entry={"knocker": "Bob", "deadwood": {"Ann": 14, "Bob": 3}},
                          corrected_by=admin_user, reason="miscounted")
    services.game_change_rules(game=session.games.get(sequence=2), changes={"knock_limit": 9},
                               changed_by=admin_user, reason="house rule")
    services.session_settle(session=session, settled_by=admin_user)
    return session


@pytest.mark.parametrize("model", MODELS, ids=lambda m: m.__name__)
def test_every_model_lists_searches_and_shows(admin_client, evening, model):
    opts = model._meta
    changelist = reverse(f"admin:{opts.app_label}_{opts.model_name}_changelist")
    assert admin_client.get(changelist).status_code == 200
    assert admin_client.get(changelist, {"q": "Ann"}).status_code == 200
    obj = model.objects.first()
    change = reverse(f"admin:{opts.app_label}_{opts.model_name}_change", args=[obj.pk])
    assert admin_client.get(change).status_code == 200


def test_game_page_shows_its_hands_inline_read_only(admin_client, evening):
    game = Game.objects.get(session=evening, sequence=1)
    page = admin_client.get(reverse("admin:ledger_game_change", args=[game.pk])).content.decode()
    assert "miscounted" in page
    assert "{&quot;knocker&quot;: &quot;Bob&quot;" in page
    assert "Ann 2.30" in page  # the posted money after the correction
    assert 'name="hands-0-number"' not in page  # no editable inline fields


@pytest.mark.parametrize("model", [Hand, MoneyPosting, PostingBatch, GameChange, Game,
                                   SessionSettlement], ids=lambda m: m.__name__)
def test_history_cannot_be_added_changed_or_deleted(admin_client, evening, model):
    opts = model._meta
    obj = model.objects.first()
    add = reverse(f"admin:{opts.app_label}_{opts.model_name}_add")
    assert admin_client.get(add).status_code == 403
    delete = reverse(f"admin:{opts.app_label}_{opts.model_name}_delete", args=[obj.pk])
    assert admin_client.post(delete, {"post": "yes"}).status_code == 403
    assert model.objects.filter(pk=obj.pk).exists()


def test_mark_paid_action(admin_client, evening):
    payment = SettlementPayment.objects.first()
    url = reverse("admin:ledger_settlementpayment_changelist")
    admin_client.post(url, {"action": "mark_paid", "_selected_action": [payment.pk]})
    payment.refresh_from_db()
    assert payment.is_paid


def test_filters(admin_client, evening):
    url = reverse("admin:ledger_hand_changelist")
    assert admin_client.get(url, {"state": "void"}).status_code == 200
    url = reverse("admin:ledger_session_changelist")
    assert admin_client.get(url, {"settled": "yes"}).status_code == 200
    url = reverse("admin:ledger_game_changelist")
    assert admin_client.get(url, {"status__exact": "complete"}).status_code == 200
    assert GamePlayer.objects.exists()
