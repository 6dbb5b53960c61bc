"""The table's book: per-game standings (a cache of the core's result) and their per-evening
sums, voided settlements and book settlements.

``GameStanding`` is *derived*: one row per game and player holding what the book, the player
page and the standings need (won, hands, gins, undercuts, boxes, shutout, points, money),
computed by ``ledger.book.stats.standings_from_result`` from the very result the services
just applied to the game (``services.posting._apply_result``). It is not history: the
services replace a game's rows (delete + insert, inside the same transaction) whenever the
game's result changes, and migration 0007 fills them for older games. Money balances never
come from it: those are sums of ``MoneyPosting`` rows and of ``SettlementPayment`` paid marks.

``EveningStanding`` adds up one evening's finished games per player and variant from those
rows (rebuilt with them); the standings read it, so their cost follows evenings, not games.

``SettlementVoid`` and ``BookSettlement`` are history and append-only, like the ledger.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone

from ..fields import OrderedJSONField
from .base import AppendOnlyModel


class GameStanding(models.Model):
    """What one game gave one player, from the core's result of that game (a cache)."""

    table = models.ForeignKey("ledger.Table", on_delete=models.CASCADE, related_name="+")
    session = models.ForeignKey("ledger.Session", on_delete=models.CASCADE, related_name="+")
    game = models.ForeignKey("ledger.Game", on_delete=models.CASCADE, related_name="standings")
    player = models.ForeignKey("ledger.Player", on_delete=models.CASCADE,
                               related_name="standings")
    variant = models.CharField(max_length=20)
    status = models.CharField(max_length=12)
    date = models.DateField(help_text="The evening's date")
    finished_at = models.DateTimeField(null=True, blank=True)
    currency = models.CharField(max_length=3)
    won = models.BooleanField(default=False, help_text="On the game's winning side")
    hands_played = models.PositiveIntegerField(default=0)
    hands_won = models.PositiveIntegerField(default=0)
    boxes = models.PositiveIntegerField(default=0, help_text="Boxes the score gave (Hollywood: "
                                        "per column)")
    gins = models.PositiveIntegerField(default=0, help_text="Gins, big gins included")
    big_gins = models.PositiveIntegerField(default=0)
    undercuts_made = models.PositiveIntegerField(default=0)
    undercuts_suffered = models.PositiveIntegerField(default=0)
    shutout = models.BooleanField(default=False, help_text="Won the game by a shutout")
    hand_points = models.IntegerField(default=0)
    final_points = models.IntegerField(default=0)
    money_minor = models.BigIntegerField(default=0, help_text="The money the game posts")

    class Meta:
        # No default ordering: every read aggregates, and an ordering through game and
        # session would join both tables into each query.
        constraints = [
            models.UniqueConstraint(fields=["game", "player"], name="standing_unique_player"),
        ]
        indexes = [
            models.Index(fields=["table", "player", "date"]),
            models.Index(fields=["table", "date"]),
        ]

    def __str__(self) -> str:
        return f"{self.player_id} in game {self.game_id}"


class EveningStanding(models.Model):
    """The finished games of one evening, one player and one variant, added up from their
    ``GameStanding`` rows (a second cache: rebuilt for the evening whenever one of its games'
    standings is, in the same transaction). The standings read these: a table of years of
    evenings sums a few rows a player and evening instead of one a game."""

    table = models.ForeignKey("ledger.Table", on_delete=models.CASCADE, related_name="+")
    session = models.ForeignKey("ledger.Session", on_delete=models.CASCADE, related_name="+")
    player = models.ForeignKey("ledger.Player", on_delete=models.CASCADE, related_name="+")
    variant = models.CharField(max_length=20)
    currency = models.CharField(max_length=3)
    date = models.DateField()
    games = models.PositiveIntegerField(default=0)
    wins = models.PositiveIntegerField(default=0)
    shutouts = models.PositiveIntegerField(default=0)
    hands_played = models.PositiveIntegerField(default=0)
    hands_won = models.PositiveIntegerField(default=0)
    boxes = models.PositiveIntegerField(default=0)
    gins = models.PositiveIntegerField(default=0)
    big_gins = models.PositiveIntegerField(default=0)
    undercuts_made = models.PositiveIntegerField(default=0)
    undercuts_suffered = models.PositiveIntegerField(default=0)
    hand_points = models.IntegerField(default=0)
    money_minor = models.BigIntegerField(default=0)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["session", "player", "variant"],
                                    name="evening_standing_unique"),
        ]
        indexes = [models.Index(fields=["table", "currency", "player"])]

    def __str__(self) -> str:
        return f"{self.player_id} on {self.date} ({self.variant})"


class SettlementVoid(AppendOnlyModel):
    """A settlement voided because its evening was reopened: who, when and why."""

    settlement = models.OneToOneField("ledger.SessionSettlement", on_delete=models.PROTECT,
                                      related_name="void")
    reason = models.CharField(max_length=300)
    voided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True,
        related_name="+",
    )
    voided_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [
            models.CheckConstraint(condition=~Q(reason=""), name="settlement_void_has_reason"),
        ]

    def __str__(self) -> str:
        return f"Void of settlement {self.settlement_id}"


class BookSettlement(AppendOnlyModel):
    """The book settled up: the fewest payments over everything outstanding (in one
    currency) were made, so every outstanding settlement payment they stand for was marked
    paid at ``settled_at``. ``payments`` are the netted payments as made
    (``[{"from", "to", "amount_minor"}]``), ``cleared`` the SettlementPayment ids."""

    table = models.ForeignKey("ledger.Table", on_delete=models.PROTECT,
                              related_name="book_settlements")
    currency = models.CharField(max_length=3)
    payments = OrderedJSONField(default=list)
    cleared = OrderedJSONField(default=list)
    settled_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True,
        related_name="+",
    )
    settled_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["table", "settled_at", "id"]

    def __str__(self) -> str:
        return f"Book of {self.table_id} settled {self.settled_at:%Y-%m-%d} ({self.currency})"


class BookSettlementUndo(AppendOnlyModel):
    """A book settlement taken back (the squaring was tapped by mistake): each payment it
    marked paid that was still paid by its mark got a new "not paid" ``PaymentMark`` at
    ``undone_at``; ``restored`` are those SettlementPayment ids. The book settlement stays,
    as a paid mark stays when it is undone."""

    book_settlement = models.OneToOneField(BookSettlement, on_delete=models.PROTECT,
                                           related_name="undo")
    restored = OrderedJSONField(default=list)
    undone_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True,
        related_name="+",
    )
    undone_at = models.DateTimeField(default=timezone.now)

    def __str__(self) -> str:
        return f"Undo of book settlement {self.book_settlement_id}"
