"""Share links (``models_sharing.ShareLink``): make one for a table or a game, revoke one.
The read-only pages they open are ``views.shared``; the screens write links only here."""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from ledger.models import Game, Table
from ledger.models_sharing import ShareLink

from .base import User, _user


@transaction.atomic
def share_link_get_or_create(*, table: Table, game: Game | None = None,
                             created_by: User | None) -> ShareLink:
    """The live link to ``table`` (or to its ``game``), made if there is none."""
    link = (ShareLink.objects.select_for_update()
            .filter(table=table, game=game, revoked_at__isnull=True).first())
    if link is None:
        link = ShareLink.objects.create(table=table, game=game, created_by=_user(created_by))
    return link


@transaction.atomic
def share_link_revoke(*, link: ShareLink) -> ShareLink:
    """Revoke ``link``: from now on its token opens nothing. Revoking twice changes nothing."""
    link = ShareLink.objects.select_for_update().get(pk=link.pk)
    if link.revoked_at is None:
        link.revoked_at = timezone.now()
        link.save(update_fields=["revoked_at"])
    return link
