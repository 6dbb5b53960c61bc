"""Read-only share links: a secret URL that shows a table's (or one game's) live sheet
without logging in. Revoking a link stamps ``revoked_at`` (for good: on PostgreSQL migration
0014 refuses any later change of it); a revoked token is a 404. At most
one link per table (table-wide) and per game is live, held by the database; links are made
and revoked by ``ledger.services.sharing``.

Kept apart from the ledger's history (the other modules of this package) because a link is
not part of the game's record: it only grants viewing, and it is the one thing a scorekeeper
may switch off.
"""

from __future__ import annotations

import secrets

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone


def new_token() -> str:
    """An unguessable URL-safe token (192 bits)."""
    return secrets.token_urlsafe(24)


class ShareLink(models.Model):
    """A read-only link to a whole table (every session and game) or to one game."""

    table = models.ForeignKey("ledger.Table", on_delete=models.CASCADE,
                              related_name="share_links")
    game = models.ForeignKey("ledger.Game", on_delete=models.CASCADE, null=True, blank=True,
                             related_name="share_links",
                             help_text="Empty: the link shows the whole table")
    token = models.CharField(max_length=64, unique=True, default=new_token, editable=False)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL,
                                   null=True, blank=True, related_name="+")
    created_at = models.DateTimeField(default=timezone.now, editable=False)
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [models.Index(fields=["table", "revoked_at"])]
        constraints = [
            models.UniqueConstraint(
                fields=["table", "game"], condition=Q(revoked_at__isnull=True),
                name="sharelink_one_live_per_target",
            ),
            # The one above does not hold where game is NULL (NULLs are distinct): the
            # table-wide link needs its own.
            models.UniqueConstraint(
                fields=["table"], condition=Q(revoked_at__isnull=True, game__isnull=True),
                name="sharelink_one_live_table_link",
            ),
        ]

    def __str__(self) -> str:
        what = f"game {self.game_id}" if self.game_id else f"table {self.table_id}"
        state = " (revoked)" if self.revoked_at else ""
        return f"Share link for {what}{state}"

    @property
    def is_live(self) -> bool:
        return self.revoked_at is None
