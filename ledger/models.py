"""The ledger: tables, players, sessions, games, hands and money.

The database stores what was entered (players, stakes, setup, the rule snapshot and each
hand exactly as the scorekeeper typed it); the scoring core (``ledger.rules``) derives every
score from that. Money is the only derived thing stored, as append-only postings in integer
minor units, because a settled evening must never change.

Nothing here writes on its own: ``ledger.services`` is the only writer. Rows that form the
history (hands, posting batches, postings, game changes, settlements, paid marks) refuse
updates of their content and refuse deletion, both per object and through bulk querysets;
a hand's void is set once and never changed. On PostgreSQL triggers hold the same rules
against raw SQL (migrations 0002 and 0012, which say exactly what is refused).
"""

from __future__ import annotations

import uuid

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone

from .fields import OrderedJSONField

CURRENCY_HELP = "ISO 4217 code, e.g. USD, EUR, JPY"


class ImmutableError(Exception):
    """Raised when code tries to change or delete a row of the append-only history."""


class AppendOnlyQuerySet(models.QuerySet):
    """Bulk update() and delete() bypass save(); for history rows they are refused."""

    def update(self, **kwargs):
        allowed = getattr(self.model, "MUTABLE_FIELDS", frozenset())
        if not set(kwargs) <= allowed:
            raise ImmutableError(f"{self.model.__name__} rows are append-only")
        once = getattr(self.model, "SET_ONCE_BY", None)
        if once and self.filter(**{f"{once}__isnull": False}).exists():
            raise ImmutableError(f"{self.model.__name__}: {sorted(allowed)} are set once, "
                                 "never changed")
        return super().update(**kwargs)

    def delete(self):
        raise ImmutableError(f"{self.model.__name__} rows are never deleted")


class AppendOnlyModel(models.Model):
    """A row that may be inserted, and afterwards only its MUTABLE_FIELDS may change."""

    MUTABLE_FIELDS: frozenset[str] = frozenset()
    #: When set (a field name), MUTABLE_FIELDS may be written only while that field is
    #: still empty in the database: they are set once (a hand's void), never changed.
    SET_ONCE_BY: str | None = None

    objects = AppendOnlyQuerySet.as_manager()

    class Meta:
        abstract = True

    def save(self, *args, **kwargs):
        if not self._state.adding:
            update_fields = kwargs.get("update_fields")
            if update_fields is None or not set(update_fields) <= self.MUTABLE_FIELDS:
                raise ImmutableError(
                    f"{type(self).__name__} {self.pk} is append-only; "
                    f"only {sorted(self.MUTABLE_FIELDS) or 'nothing'} may change, "
                    "with save(update_fields=[...])"
                )
            once = self.SET_ONCE_BY
            if once and type(self)._base_manager.filter(
                    pk=self.pk, **{f"{once}__isnull": False}).exists():
                raise ImmutableError(f"{type(self).__name__} {self.pk}: "
                                     f"{sorted(self.MUTABLE_FIELDS)} are set once, never changed")
        super().save(*args, **kwargs)

    def delete(self, *args, **kwargs):
        raise ImmutableError(f"{type(self).__name__} rows are never deleted")


class PaperSize(models.TextChoices):
    AUTO = "auto", "By currency (Letter for USD, CAD, MXN; A4 elsewhere)"
    A4 = "A4", "A4"
    LETTER = "letter", "Letter"


#: Currencies of the countries that print on Letter paper (the United States, Canada and
#: Mexico); every other currency prints on A4.
LETTER_CURRENCIES = frozenset({"USD", "CAD", "MXN"})


def paper_for_currency(currency: str) -> str:
    return PaperSize.LETTER if (currency or "").upper() in LETTER_CURRENCIES else PaperSize.A4


class Table(models.Model):
    """A group that plays together, owned by one or more scorekeeper accounts."""

    name = models.CharField(
        max_length=100,
        help_text="Unique among each scorekeeper's tables, not across the site",
    )
    scorekeepers = models.ManyToManyField(
        settings.AUTH_USER_MODEL, related_name="scorekept_tables", blank=True
    )
    paper_size = models.CharField(
        max_length=10, choices=PaperSize.choices, default=PaperSize.AUTO,
        help_text="Paper size for printed score sheets; 'auto' follows the evening's currency",
    )
    created_at = models.DateTimeField(default=timezone.now, editable=False)

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name

    def paper_for(self, currency: str) -> str:
        """The paper a sheet in ``currency`` prints on: the table's choice, or by currency."""
        if self.paper_size == PaperSize.AUTO:
            return paper_for_currency(currency)
        return self.paper_size


class Player(models.Model):
    """A person who plays at a table; names are unique per table (records use names)."""

    table = models.ForeignKey(Table, on_delete=models.PROTECT, related_name="players")
    name = models.CharField(max_length=60)
    created_at = models.DateTimeField(default=timezone.now, editable=False)
    archived_at = models.DateTimeField(
        null=True, blank=True,
        help_text="Set when the player left: kept in every history, not offered for new games",
    )

    class Meta:
        ordering = ["table", "name"]
        constraints = [
            models.UniqueConstraint(fields=["table", "name"], name="player_unique_name_per_table"),
            models.CheckConstraint(condition=~Q(name=""), name="player_name_not_empty"),
        ]

    def __str__(self) -> str:
        return self.name


class Session(models.Model):
    """An evening at a table: date, place, currency and the default stake for its games."""

    table = models.ForeignKey(Table, on_delete=models.PROTECT, related_name="sessions")
    date = models.DateField(default=timezone.localdate)
    place = models.CharField(max_length=200, blank=True)
    currency = models.CharField(max_length=3, default="USD", help_text=CURRENCY_HELP)
    rate = models.DecimalField(
        max_digits=9, decimal_places=4, null=True, blank=True,
        help_text="Default stake: money per `per_points` points",
    )
    per_points = models.PositiveIntegerField(default=1)
    notes = models.TextField(blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
        related_name="+",
    )
    created_at = models.DateTimeField(default=timezone.now, editable=False)

    class Meta:
        ordering = ["-date", "-id"]
        constraints = [
            models.CheckConstraint(
                condition=Q(rate__isnull=True) | Q(rate__gt=0), name="session_rate_positive"
            ),
            models.CheckConstraint(
                condition=Q(per_points__gt=0), name="session_per_points_positive"
            ),
        ]

    def __str__(self) -> str:
        where = f" at {self.place}" if self.place else ""
        return f"{self.table} {self.date}{where}"

    @property
    def settlement(self) -> SessionSettlement | None:
        """The live settlement (one that was not voided by reopening the evening), or None.
        Uses a ``live_settlements`` prefetch (to_attr) when there is one."""
        cached = getattr(self, "live_settlements", None)
        if cached is not None:
            return cached[0] if cached else None
        return self.settlements.filter(void__isnull=True).order_by("-id").first()

    @property
    def is_settled(self) -> bool:
        annotated = getattr(self, "settled", None)  # an Exists() annotation, when present
        if annotated is not None:
            return bool(annotated)
        return self.settlement is not None


class GameStatus(models.TextChoices):
    IN_PROGRESS = "in_progress", "In progress"
    COMPLETE = "complete", "Complete"
    ABANDONED = "abandoned", "Abandoned"


class Variant(models.TextChoices):
    GIN = "gin", "Gin"
    OKLAHOMA = "oklahoma", "Oklahoma gin"
    HOLLYWOOD = "hollywood", "Hollywood gin"
    BOX = "box", "Three-handed (in the box)"
    CAPTAIN = "captain", "Captain play"
    PARTNERSHIP = "partnership", "Partnership gin"
    CAP_IT = "cap-it", "CAP-IT"


class Game(models.Model):
    """One game of a session.

    ``rules`` is the snapshot of every setting, resolved by the scoring core when the game
    started, so a later change of a preset or default never alters an old game; it changes
    only through ``game_change_rules`` (recorded as a GameChange). ``status`` and the
    timestamps are the only other fields services update.
    """

    session = models.ForeignKey(Session, on_delete=models.PROTECT, related_name="games")
    sequence = models.PositiveIntegerField(help_text="Order of the game in its session, from 1")
    variant = models.CharField(max_length=20, choices=Variant.choices)
    preset = models.CharField(max_length=20, blank=True)
    rules = OrderedJSONField(default=dict, help_text="Every rule setting, resolved at the start")
    players = models.ManyToManyField(Player, through="GamePlayer", related_name="games")
    rate = models.DecimalField(max_digits=9, decimal_places=4, null=True, blank=True)
    per_points = models.PositiveIntegerField(null=True, blank=True)
    currency = models.CharField(max_length=3, help_text=CURRENCY_HELP)
    ante = models.DecimalField(
        max_digits=9, decimal_places=4, null=True, blank=True, help_text="CAP-IT ante"
    )
    setup = OrderedJSONField(default=dict, help_text="Setup of the game record (dealer, sides...)")
    status = models.CharField(
        max_length=12, choices=GameStatus.choices, default=GameStatus.IN_PROGRESS
    )
    started_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
        related_name="+",
    )
    started_at = models.DateTimeField(default=timezone.now)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["session", "sequence"]
        constraints = [
            models.UniqueConstraint(fields=["session", "sequence"], name="game_unique_sequence"),
            models.CheckConstraint(
                condition=Q(rate__isnull=True) | Q(rate__gt=0), name="game_rate_positive"
            ),
            models.CheckConstraint(
                condition=Q(per_points__isnull=True) | Q(per_points__gt=0),
                name="game_per_points_positive",
            ),
            models.CheckConstraint(
                condition=Q(ante__isnull=True) | Q(ante__gt=0), name="game_ante_positive"
            ),
            models.CheckConstraint(
                condition=Q(status__in=GameStatus.values), name="game_status_valid"
            ),
        ]

    def __str__(self) -> str:
        return f"Game {self.sequence} ({self.get_variant_display()}) of {self.session}"


class GamePlayer(models.Model):
    """A player's seat in a game (the order of the record's ``players``) and own stake."""

    game = models.ForeignKey(Game, on_delete=models.PROTECT, related_name="seats")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="seats")
    seat = models.PositiveSmallIntegerField(help_text="Position in the record's players, from 0")
    played_as = models.CharField(
        max_length=60, blank=True,
        help_text="The player's name when the game began: the name its hands and setup are "
                  "stored under (a later rename does not change them; every page shows the "
                  "current name)",
    )
    stake = models.DecimalField(
        max_digits=9, decimal_places=4, null=True, blank=True,
        help_text="Own stake per `per_points` points; empty means the game's rate",
    )

    class Meta:
        ordering = ["game", "seat"]
        constraints = [
            models.UniqueConstraint(fields=["game", "seat"], name="gameplayer_unique_seat"),
            models.UniqueConstraint(fields=["game", "player"], name="gameplayer_unique_player"),
            models.CheckConstraint(
                condition=Q(stake__isnull=True) | Q(stake__gt=0), name="gameplayer_stake_positive"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.player} (seat {self.seat})"


class Hand(AppendOnlyModel):
    """A hand exactly as the scorekeeper entered it (the hand object of the game record).

    ``number`` is the hand's position among the live hands of the game. A hand is never
    edited or deleted: a correction voids it (``voided_*``) and records a new hand with the
    same number whose ``replaces`` points at it; an undo voids it with no replacement.
    """

    MUTABLE_FIELDS = frozenset({"voided_at", "voided_by", "void_reason"})
    SET_ONCE_BY = "voided_at"

    game = models.ForeignKey(Game, on_delete=models.PROTECT, related_name="hands")
    number = models.PositiveIntegerField()
    entry = OrderedJSONField(help_text="The hand object of the game record, as entered")
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True,
        related_name="+", help_text="Empty for imported hands",
    )
    recorded_at = models.DateTimeField(default=timezone.now)
    idempotency_key = models.UUIDField(default=uuid.uuid4, unique=True)
    voided_at = models.DateTimeField(null=True, blank=True)
    voided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True,
        related_name="+",
    )
    void_reason = models.CharField(max_length=300, blank=True)
    replaces = models.OneToOneField(
        "self", on_delete=models.PROTECT, null=True, blank=True, related_name="replaced_by",
        help_text="The voided hand this one corrects",
    )

    class Meta:
        ordering = ["game", "number", "recorded_at", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["game", "number"], condition=Q(voided_at__isnull=True),
                name="hand_unique_live_number",
            ),
            models.CheckConstraint(condition=Q(number__gte=1), name="hand_number_positive"),
            models.CheckConstraint(
                condition=Q(voided_at__isnull=True) | ~Q(void_reason=""),
                name="hand_void_has_reason",
            ),
        ]
        indexes = [models.Index(fields=["game", "voided_at", "number"])]

    def __str__(self) -> str:
        state = " (void)" if self.voided_at else ""
        return f"Hand {self.number}{state} of game {self.game_id}"

    @property
    def is_live(self) -> bool:
        return self.voided_at is None


class ChangeKind(models.TextChoices):
    RULE = "rule", "Rule setting"
    STAKE = "stake", "Stake"
    ABANDON = "abandon", "Abandoned"


class GameChange(AppendOnlyModel):
    """Audit row: a rule setting or stake changed during (or after) a game, or an abandon."""

    game = models.ForeignKey(Game, on_delete=models.PROTECT, related_name="changes")
    kind = models.CharField(max_length=10, choices=ChangeKind.choices)
    name = models.CharField(
        max_length=60, help_text="Setting name, 'rate', 'per_points', 'ante' or a player's stake"
    )
    old = models.JSONField(null=True, blank=True)
    new = models.JSONField(null=True, blank=True)
    reason = models.CharField(max_length=300, blank=True)
    after_hand = models.PositiveIntegerField(help_text="Live hands in the game at the change")
    changed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True,
        related_name="+",
    )
    changed_at = models.DateTimeField(default=timezone.now)
    money_changed = models.BooleanField(default=False)

    class Meta:
        ordering = ["game", "changed_at", "id"]

    def __str__(self) -> str:
        return f"{self.name}: {self.old} -> {self.new}"


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
    ``SettlementVoid`` row, models_book.py); the voided one stays, and settling again adds a
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


from .models_book import (  # noqa: E402,F401
    BookSettlement,
    EveningStanding,
    GameStanding,
    SettlementVoid,
)
from .models_sharing import ShareLink  # noqa: E402,F401  (read-only share links)
