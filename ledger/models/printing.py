"""PDF renderings in progress: the slots that bound how many run at once.

A row is a rendering under way. ``number`` is unique (at most TABLESTAKES_PDF_RENDERS rows
are ever handed out) and ``(user, account_number)`` is unique (at most
TABLESTAKES_PDF_RENDERS_PER_ACCOUNT per account), so the database itself refuses one
rendering too many, whichever gunicorn worker or app server asks. Not part of the record:
``ledger.services.printing`` deletes the row when the rendering ends, and any request
deletes rows whose ``expires_at`` has passed (a worker killed mid-rendering).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models


class RenderSlot(models.Model):
    number = models.PositiveSmallIntegerField(unique=True)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                             related_name="+")
    account_number = models.PositiveSmallIntegerField()
    token = models.CharField(max_length=32, unique=True)
    started_at = models.DateTimeField()
    expires_at = models.DateTimeField(db_index=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "account_number"],
                                    name="render_slot_per_account"),
        ]

    def __str__(self) -> str:
        return f"rendering {self.number} for user {self.user_id} until {self.expires_at}"
