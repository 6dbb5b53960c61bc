"""Fixtures every browser test shares."""

from __future__ import annotations

import pytest


@pytest.fixture
def keeper(django_user_model):
    """The scorekeeper the browser logs in as ("keeper" / "pw")."""
    return django_user_model.objects.create_user("keeper", password="pw")
