"""Share links (``ledger.models.ShareLink``): make one for a table or a game, revoke one.
The read-only pages they open are ``views.shared``; the screens write links only here.

At most one link per table (table-wide) and per game is live, and the database holds the
rule (two partial unique constraints: one live link per (table, game), and one live
table-wide link per table, where game is NULL). So a double tap or two phones sharing at
once make one link: the second insert fails on the constraint inside a savepoint, and the
service returns the link the first one made. Revoking stamps every live link of the
target, so "Link revoked" always means nothing opens any more.
"""

from __future__ import annotations

from django.db import IntegrityError, transaction
from django.utils import timezone

from ledger.exceptions import LedgerError
from ledger.models import Game, ShareLink, Table

from .base import User, _user


def _live(table: Table, game: Game | None) -> ShareLink | None:
    return (ShareLink.objects.filter(table=table, game=game, revoked_at__isnull=True)
            .order_by("-created_at", "-id").first())


@transaction.atomic
def share_link_get_or_create(*, table: Table, game: Game | None = None,
                             created_by: User | None) -> ShareLink:
    """The live link to ``table`` (or to its ``game``), made if there is none."""
    if game is not None and game.session.table_id != table.pk:
        raise LedgerError(code="share_other_table")
    link = _live(table, game)
    if link is not None:
        return link
    try:
        with transaction.atomic():  # a savepoint: the constraint may refuse the insert
            return ShareLink.objects.create(table=table, game=game,
                                            created_by=_user(created_by))
    except IntegrityError:
        link = _live(table, game)  # made meanwhile by the other tap
        if link is None:
            raise LedgerError(code="share_link_changed") from None
        return link


@transaction.atomic
def share_link_revoke(*, link: ShareLink) -> ShareLink:
    """Revoke ``link`` and any other live link of the same target (there is at most one
    since the constraints; doubles made before them go too): from now on no token of it
    opens anything. Revoking twice changes nothing."""
    ShareLink.objects.filter(table_id=link.table_id, game_id=link.game_id,
                             revoked_at__isnull=True).update(revoked_at=timezone.now())
    link.refresh_from_db()
    return link
