"""Report links and the reports sent through them (issue 23): each card table of a captain
or partnership game (and the players of a CAP-IT game) reports its own part of the current
hand from its own phone; the reports fill the scorekeeper's hand form, and nothing is
recorded until the scorekeeper saves the hand (``services.hand_record``), which links the
reports it was made from to the saved hand.

Like share links, report links are not part of the game's record: a link only lets its
holder see the game and say what happened at one table. A link is revoked for good
(``revoked_at``: it opens nothing). Once its game takes no more hands or its evening is
settled it takes no more reports, without being touched
(``selectors.table_reports.report_link_live``), and opens read-only on the game's end: the final
score, the winner and the money. Written only by ``ledger.services.reports``.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone

from .sharing import new_token

#: ``ReportLink.part`` of the link for the players of a CAP-IT game (a table game's links
#: are its tables, from 1).
PLAYERS_PART = 0
#: ``ReportLink.part`` of a two-hand game's confirm link: the player who does not keep the
#: score confirms each saved hand's result on his phone (optional per game).
CONFIRM_PART = 99


class ReportLink(models.Model):
    """A secret link for one card table of a game (``part`` 1, 2, 3), for the players of
    a CAP-IT game (``part`` 0), or for the player of a two-hand game who confirms each
    saved hand (``part`` ``CONFIRM_PART``, ``player`` his name)."""

    game = models.ForeignKey("ledger.Game", on_delete=models.CASCADE,
                             related_name="report_links")
    part = models.PositiveSmallIntegerField(
        help_text="The card table, from 1; 0: the players of a CAP-IT game")
    token = models.CharField(max_length=64, unique=True, default=new_token, editable=False)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL,
                                   null=True, blank=True, related_name="+")
    created_at = models.DateTimeField(default=timezone.now, editable=False)
    revoked_at = models.DateTimeField(null=True, blank=True)
    player = models.CharField(max_length=60, blank=True,
                              help_text="A confirm link: the player who confirms")

    class Meta:
        ordering = ["game", "part", "-created_at"]
        constraints = [
            models.UniqueConstraint(fields=["game", "part"],
                                    condition=Q(revoked_at__isnull=True),
                                    name="reportlink_one_live_per_part"),
        ]

    def __str__(self) -> str:
        what = ("players" if self.part == PLAYERS_PART else
                f"{self.player or 'a player'} to confirm" if self.part == CONFIRM_PART else
                f"table {self.part}")
        state = " (revoked)" if self.revoked_at else ""
        return f"Report link for {what} of game {self.game_id}{state}"


class TableReport(models.Model):
    """One report: the part of hand ``number`` that one table (``table``) or one CAP-IT
    player (``player``) says happened, as the record writes that part (``values``).

    A later report for the same part replaces it (``replaced_at``; the new one's
    ``replaces`` points at it: the scorekeeper sees it changed); its table may withdraw it
    (``withdrawn_at``). When the scorekeeper saves the hand, the reports live then are
    linked to it (``hand``): who reported what stays with the hand."""

    link = models.ForeignKey(ReportLink, on_delete=models.CASCADE, related_name="reports")
    game = models.ForeignKey("ledger.Game", on_delete=models.CASCADE,
                             related_name="table_reports")
    number = models.PositiveIntegerField(help_text="The hand it is for")
    table = models.PositiveSmallIntegerField(null=True, blank=True,
                                             help_text="The card table, from 1")
    player = models.CharField(max_length=60, blank=True,
                              help_text="CAP-IT: the player who reported his own part")
    values = models.JSONField(help_text="The part as the game record writes it")
    reported_at = models.DateTimeField(default=timezone.now)
    replaces = models.OneToOneField("self", on_delete=models.SET_NULL, null=True, blank=True,
                                    related_name="replaced_by")
    replaced_at = models.DateTimeField(null=True, blank=True)
    withdrawn_at = models.DateTimeField(null=True, blank=True)
    hand = models.ForeignKey("ledger.Hand", on_delete=models.SET_NULL, null=True, blank=True,
                             related_name="reports",
                             help_text="The saved hand the report was live at")

    class Meta:
        ordering = ["game", "number", "table", "player", "reported_at", "id"]
        indexes = [models.Index(fields=["game", "number"])]
        constraints = [
            models.CheckConstraint(condition=Q(table__isnull=False) | ~Q(player=""),
                                   name="tablereport_names_its_part"),
        ]

    def __str__(self) -> str:
        who = f"table {self.table}" if self.table else self.player
        return f"Report of {who} for hand {self.number} of game {self.game_id}"

    @property
    def is_live(self) -> bool:
        return self.replaced_at is None and self.withdrawn_at is None


class HandConfirmation(models.Model):
    """A two-hand game's saved hand confirmed (or not) by the player who does not keep the
    score, through the game's confirm link: shown to the scorekeeper beside that hand.
    Answering again for the same hand changes the answer (``answered_at`` moves on)."""

    link = models.ForeignKey(ReportLink, on_delete=models.CASCADE,
                             related_name="confirmations")
    hand = models.ForeignKey("ledger.Hand", on_delete=models.CASCADE,
                             related_name="confirmations")
    player = models.CharField(max_length=60, blank=True)
    correct = models.BooleanField()
    answered_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["hand", "id"]
        constraints = [models.UniqueConstraint(fields=["hand", "link"],
                                               name="handconfirmation_one_per_link")]

    def __str__(self) -> str:
        return f"{'Correct' if self.correct else 'Not correct'}: hand {self.hand_id}"
