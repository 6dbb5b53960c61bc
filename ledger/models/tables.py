"""Tables (a group that plays together), their players and their evenings (sessions)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.functional import cached_property

from .base import CURRENCY_HELP

if TYPE_CHECKING:
    from .money import SessionSettlement


class PaperSize(models.TextChoices):
    AUTO = "auto", "By currency (Letter for USD, CAD, MXN; A4 elsewhere)"
    A4 = "A4", "A4"
    LETTER = "letter", "Letter"


#: Currencies of the countries that print on Letter paper (the United States, Canada and
#: Mexico); every other currency prints on A4.
LETTER_CURRENCIES = frozenset({"USD", "CAD", "MXN"})


def paper_for_currency(currency: str) -> str:
    return PaperSize.LETTER if (currency or "").upper() in LETTER_CURRENCIES else PaperSize.A4


class Language(models.TextChoices):
    """The languages shipped (settings.LANGUAGES, each named in its own words): what a
    table's paper and share pages speak, what an account's screens speak."""

    EN = "en", "English"
    DE = "de", "Deutsch"
    ES = "es", "Español"
    FR = "fr", "Français"
    RU = "ru", "Русский"


#: A table's clock before it is told otherwise (and for a table made without a browser).
DEFAULT_TIME_ZONE = "UTC"


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
    language = models.CharField(
        # db_default too: a row written without the ORM (a raw insert, an older release
        # during an upgrade) gets English and UTC from the database itself
        max_length=8, choices=Language.choices, default=Language.EN, db_default=Language.EN,
        help_text="What the table's printed sheets and share pages speak, and how they "
                  "write money and dates",
    )
    time_zone = models.CharField(
        max_length=64, default=DEFAULT_TIME_ZONE, db_default=DEFAULT_TIME_ZONE,
        help_text="IANA time zone (e.g. Europe/Berlin): every time and 'today' of the "
                  "table's screens, paper and share pages; stored times stay UTC",
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

    @cached_property
    def number(self) -> int:
        """Which evening of its table on its date this is (1, 2...): the second evening of a
        day is listed as "Wednesday 25 November 2026 (2)". Lists set it for all their
        evenings at once (``selectors.set_evening_numbers``)."""
        return Session.objects.filter(table_id=self.table_id, date=self.date,
                                      id__lte=self.id).count()

    @property
    def number_suffix(self) -> str:
        """" (2)" for a day's second evening, "" for its first."""
        return f" ({self.number})" if self.number > 1 else ""

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
