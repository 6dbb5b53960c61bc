"""Scorekeepers' accounts: the one write of the sign-up page."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.db import transaction


@transaction.atomic
def account_create(*, username: str, password: str, display_name: str = "", email: str = ""):
    """A plain scorekeeper account (no staff, no superuser), with ``password`` hashed; the
    display name (what the sheets print: ``get_full_name()``) is kept as the first name."""
    from ledger import cleaning

    display_name = cleaning.clean_name(display_name, what="Your name") if display_name else ""
    return get_user_model().objects.create_user(
        username=username, password=password, first_name=display_name,
        email=get_user_model().objects.normalize_email(email) if email else "")
