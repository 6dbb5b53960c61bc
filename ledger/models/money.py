"""Money: posting batches and their postings (integer minor units, zero-sum per batch),
and the settlements of evenings with their payments and paid marks. All append-only."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone

from ..fields import OrderedJSONField
from .base import AppendOnlyModel
from .games import Game
from .tables import Player, Session


class BatchKind(models.TextChoices):
    POST = "post", "Game money"
    REVERSAL = "reversal", "Reversal"


class PostingBatch(AppendOnlyModel):
    """A journal entry: the money of one game at one moment; its postings sum to zero.

    A game's money is posted when it ends (complete or abandoned). If it changes later
    (a correction, an undo, a stake or rule change), the last ``post`` batch is reversed by
    a ``reversal`` batch and a new ``post`` batch is written. Balances are sums.
    """

    game = models.ForeignKey(Game, on_delete=models.PROTECT, related_name="posting_batches")
    number = models.PositiveIntegerField(help_text="Order of the batch in its game, from 1")
    kind = models.CharField(max_length=10, choices=BatchKind.choices)
    reverses = models.OneToOneField(
        "self", on_delete=models.PROTECT, null=True, blank=True, related_name="reversed_by"
    )
    memo = models.CharField(max_length=300, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True,
        related_name="+",
    )
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["game", "number"]
        verbose_name_plural = "posting batches"
        constraints = [
            models.UniqueConstraint(fields=["game", "number"], name="batch_unique_number"),
            models.CheckConstraint(
                condition=Q(kind=BatchKind.POST, reverses__isnull=True)
                | Q(kind=BatchKind.REVERSAL, reverses__isnull=False),
                name="batch_reversal_has_target",
            ),
        ]

    def __str__(self) -> str:
        return f"Batch {self.number} ({self.kind}) of game {self.game_id}"


class MoneyPosting(AppendOnlyModel):
    """One player's amount in a batch, in integer minor units of ``currency`` (signed)."""

    batch = models.ForeignKey(PostingBatch, on_delete=models.PROTECT, related_name="postings")
    game = models.ForeignKey(Game, on_delete=models.PROTECT, related_name="postings")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="postings")
    amount_minor = models.BigIntegerField()
    currency = models.CharField(max_length=3)

    class Meta:
        ordering = ["batch", "id"]
        constraints = [
            models.CheckConstraint(condition=~Q(amount_minor=0), name="posting_not_zero"),
            models.UniqueConstraint(fields=["batch", "player"], name="posting_unique_player"),
        ]
        indexes = [models.Index(fields=["game", "player"])]

    def __str__(self) -> str:
        return f"{self.player}: {self.amount_minor} {self.currency}"


class SessionSettlement(AppendOnlyModel):
    """The settled numbers of a session: each player's net and the payments that settle it.

    Once a session has a live settlement its games are frozen: services refuse new games,
    hands, corrections and changes in it. Reopening the evening voids the settlement (a
    ``SettlementVoid`` row, models/book.py); the voided one stays, and settling again adds a
    new one. A session has at most one live settlement (the services lock the session).
    """

    session = models.ForeignKey(Session, on_delete=models.PROTECT, related_name="settlements")
    currency = models.CharField(max_length=3)
    nets = OrderedJSONField(help_text="Player name -> net in minor units, in seat order")
    settled_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True,
        related_name="+",
    )
    settled_at = models.DateTimeField(default=timezone.now)

    def __str__(self) -> str:
        return f"Settlement of {self.session}"


class SettlementPayment(AppendOnlyModel):
    """One payment of a settlement, from a player who owes to one who is owed.

    Its paid marks are their own rows (``PaymentMark``, append-only); ``paid_at`` and
    ``paid_by`` repeat the latest mark so that pages read it without another query, and may
    change only to agree with it (on PostgreSQL a trigger checks exactly that)."""

    MUTABLE_FIELDS = frozenset({"paid_at", "paid_by"})

    settlement = models.ForeignKey(
        SessionSettlement, on_delete=models.PROTECT, related_name="payments"
    )
    order = models.PositiveSmallIntegerField()
    payer = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="payments_made")
    payee = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="payments_received")
    amount_minor = models.BigIntegerField()
    paid_at = models.DateTimeField(null=True, blank=True)
    paid_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True,
        related_name="+",
    )

    class Meta:
        ordering = ["settlement", "order"]
        constraints = [
            models.CheckConstraint(condition=Q(amount_minor__gt=0), name="payment_positive"),
            models.CheckConstraint(
                condition=~Q(payer=models.F("payee")), name="payment_between_two_players"
            ),
            models.UniqueConstraint(fields=["settlement", "order"], name="payment_unique_order"),
        ]

    def __str__(self) -> str:
        return f"{self.payer} pays {self.payee} {self.amount_minor}"

    @property
    def is_paid(self) -> bool:
        return self.paid_at is not None


class PaymentMark(AppendOnlyModel):
    """A payment marked paid (or, after a mistake, not paid after all): one row per tap, so
    the settlement's history keeps every mark with who made it and when."""

    payment = models.ForeignKey(SettlementPayment, on_delete=models.PROTECT,
                                related_name="marks")
    paid = models.BooleanField(help_text="True: marked paid; False: the mark was undone")
    marked_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True,
        related_name="+",
    )
    marked_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["payment", "marked_at", "id"]

    def __str__(self) -> str:
        return f"{self.payment}: {'paid' if self.paid else 'not paid'} at {self.marked_at}"
