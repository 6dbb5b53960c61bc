"""What an account chooses for itself: the language of its screens (``AccountPreference``).

Not part of any table's record. Made and changed by ``ledger.services.locale``; read once at
log-in into the session (``ledger.middleware.AccountLanguageMiddleware``), so the screens
need no query of their own for it.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models

from .tables import Language


class AccountPreference(models.Model):
    """One account's choices; none made means the browser's language, else English."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                                related_name="preference")
    language = models.CharField(
        max_length=8, choices=Language.choices, blank=True, default="",
        help_text="The language of this account's screens; empty: the browser's "
                  "(Accept-Language), else English")

    def __str__(self) -> str:
        return f"{self.user}: {self.language or 'browser language'}"
