"""Scorekeepers' accounts: the one write of the sign-up pages."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction

from ledger.exceptions import LedgerError


class AccountTaken(LedgerError):
    """The username or the e-mail address already has an account; nothing was made."""


def account_create(*, username: str, password: str, display_name: str = "", email: str = ""):
    """A plain scorekeeper account (no staff, no superuser), with ``password`` hashed; the
    display name (what the sheets print: ``get_full_name()``) is kept as the first name.
    Refused (``AccountTaken``) when the username, or the address, has an account already
    (compared without case)."""
    from ledger import cleaning

    users = get_user_model().objects
    display_name = (cleaning.clean_name(display_name, what=cleaning.Field("your_name"))
                    if display_name else "")
    email = users.normalize_email(email) if email else ""
    try:
        with transaction.atomic():
            if users.filter(username__iexact=username).exists():
                raise AccountTaken(f"The username {username!r} has an account already.")
            if email and users.filter(email__iexact=email).exists():
                raise AccountTaken("This e-mail address has an account already.")
            return users.create_user(username=username, password=password,
                                     first_name=display_name, email=email)
    except IntegrityError:  # the same username, made at the same moment
        raise AccountTaken(f"The username {username!r} has an account already.") from None
