"""The admin: every ledger model, searchable and filterable.

The history is read-only here: hands, posting batches, postings, game changes and
settlements can be looked at but not added, changed or deleted (changes go through
``ledger.services``, which rescore and post money). Tables, players and sessions are
editable for their descriptive fields.

Staff who are not superusers see, and can choose, only the objects of the tables they keep:
lists, change and add forms, every foreign-key choice and the scorekeepers widget (which
offers only the people who keep a table with them, so the admin does not list every
username); the accounts list likewise shows only those people, and they cannot raise
anybody's privileges or take over another account there (``accounts``).

One module per concern (Django's admin autodiscovery imports this package, which imports
them all and so registers every model): ``scoping`` (what staff may see and choose, the
read-only mixins), ``tables`` (tables, players, sessions), ``games`` (games, hands, game
changes), ``money`` (postings, settlements, payments, the book), ``accounts`` (users) and
``forms`` (the admin's forms, cleaned as the screens' are).
"""

from . import accounts, games, money, tables  # noqa: F401  (each registers its models)
from .scoping import (
    ReadOnlyAdminMixin,
    ReadOnlyInline,
    ScopedChoicesMixin,
    TableScopedAdmin,
    fellow_keepers,
    scoped_choices,
)

__all__ = [
    "ReadOnlyAdminMixin", "ReadOnlyInline", "ScopedChoicesMixin",
    "TableScopedAdmin", "fellow_keepers", "scoped_choices",
]
