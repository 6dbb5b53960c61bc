"""The history cannot be rewritten through the ORM (and on PostgreSQL not even with SQL)."""

from __future__ import annotations

import pytest
from django.db import DatabaseError, connection, transaction

from ledger import services
from ledger.models import Hand, ImmutableError, MoneyPosting, PostingBatch

pytestmark = pytest.mark.django_db


@pytest.fixture
def finished(session, keeper, case):
    return services.game_import(session=session, record=case("gin-standard-game"),
                                imported_by=keeper)


def test_hands_cannot_be_edited_or_deleted(finished):
    hand = Hand.objects.filter(game=finished).first()
    hand.entry = {"draw": True}
    with pytest.raises(ImmutableError):
        hand.save()
    with pytest.raises(ImmutableError):
        hand.delete()
    with pytest.raises(ImmutableError):
        Hand.objects.filter(game=finished).update(entry={"draw": True})
    with pytest.raises(ImmutableError):
        Hand.objects.filter(game=finished).delete()


def test_postings_cannot_be_edited_or_deleted(finished):
    posting = MoneyPosting.objects.first()
    posting.amount_minor = 1
    with pytest.raises(ImmutableError):
        posting.save()
    with pytest.raises(ImmutableError):
        posting.delete()
    with pytest.raises(ImmutableError):
        MoneyPosting.objects.update(amount_minor=0)
    with pytest.raises(ImmutableError):
        PostingBatch.objects.all().delete()


@pytest.mark.postgres
def test_postgres_refuses_raw_updates_and_unbalanced_postings(finished):
    if connection.vendor != "postgresql":
        pytest.skip("PostgreSQL only")
    with pytest.raises(DatabaseError, match="append-only"), transaction.atomic():
        with connection.cursor() as cursor:
            cursor.execute("UPDATE ledger_moneyposting SET amount_minor = 1")
    with pytest.raises(DatabaseError, match="append-only"), transaction.atomic():
        with connection.cursor() as cursor:
            cursor.execute("UPDATE ledger_hand SET entry = '{}'")
    # An unbalanced batch is refused at commit by the deferred constraint trigger.
    player = MoneyPosting.objects.first().player
    with pytest.raises(DatabaseError, match="sum to 5"), transaction.atomic():
        batch = PostingBatch.objects.create(game=finished, number=2, kind="post")
        MoneyPosting.objects.create(batch=batch, game=finished, player=player, amount_minor=5,
                                    currency="USD")
        with connection.cursor() as cursor:
            cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")  # what COMMIT would check
