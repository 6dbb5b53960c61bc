"""Scorekeepers' accounts: the one write of the sign-up page."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.db import transaction


@transaction.atomic
def account_create(*, username: str, password: str):
    """A plain scorekeeper account (no staff, no superuser), with ``password`` hashed."""
    return get_user_model().objects.create_user(username=username, password=password)
