"""Kept so that old import paths work: migration 0003 names ``ledger.models_sharing.new_token``
as the token's default, and callers import ``ShareLink`` from here. The model lives in
``ledger/models/sharing.py``; new code imports it from ``ledger.models``."""

from .models.sharing import ShareLink, new_token

__all__ = ["ShareLink", "new_token"]
