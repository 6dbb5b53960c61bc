"""Games, their seats, the hands as entered and the audit of changes made during a game.

``Game.rules`` is the snapshot of every setting; hands are append-only (a correction voids
and replaces, an undo voids).
"""

from __future__ import annotations

import uuid

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from ..fields import OrderedJSONField
from ..rules.catalog import VARIANT_NAMES
from .base import CURRENCY_HELP, AppendOnlyModel
from .tables import Player, Session


class GameStatus(models.TextChoices):
    IN_PROGRESS = "in_progress", _("In progress")
    COMPLETE = "complete", _("Complete")
    ABANDONED = "abandoned", _("Abandoned")


#: The variants with the names the catalog gives them (one set of names; a new variant
#: or name there is one here too, and ``makemigrations`` notices).
Variant = models.TextChoices("Variant", [(key.upper().replace("-", "_"), (key, name))
                                         for key, name in VARIANT_NAMES.items()])


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
    lump_sum_stake = models.DecimalField(
        max_digits=9, decimal_places=4, null=True, blank=True,
        help_text="A lump-sum game's or a best-of match's one stake (RULES 3.10)",
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
