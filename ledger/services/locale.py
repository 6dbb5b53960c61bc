"""A table's language and clock, and an account's language: the writes of issue 22.

A table's language is what its printed sheets and share pages speak (and how they write
money and dates); its time zone is the clock of every time and "today" on its screens, paper
and share pages (``ledger.clock``). An account's language is the one its screens speak.
"""

from __future__ import annotations

from django.db import transaction

from ledger import cleaning
from ledger.models import AccountPreference, Table

from .base import User, _user


@transaction.atomic
def table_set_locale(*, table: Table, language: str | None = None,
                     time_zone: str | None = None) -> Table:
    """The table's language (one of settings.LANGUAGES) and its time zone (an IANA name
    such as Europe/Berlin); each left as it is when None. Refused (``Refused``, naming the
    field) when either is not one the app knows; nothing changes then."""
    changes = {}
    if language is not None:
        changes["language"] = cleaning.clean_language(language,
                                                      what=cleaning.Field("table_language"))
    if time_zone is not None:
        changes["time_zone"] = cleaning.clean_time_zone(time_zone,
                                                        what=cleaning.Field("table_time_zone"))
    table = Table.objects.select_for_update().get(pk=table.pk)
    for name, value in changes.items():
        setattr(table, name, value)
    if changes:
        table.save(update_fields=list(changes))
    return table


@transaction.atomic
def account_set_language(*, user: User, language: str) -> AccountPreference:
    """The language of the account's screens; "" forgets the choice (the browser's
    language, else English)."""
    user = _user(user)
    if user is None:
        raise cleaning.Refused("Language: only an account that is logged in keeps a choice.")
    language = cleaning.clean_language(language) if language else ""
    preference, _ = AccountPreference.objects.select_for_update().get_or_create(user=user)
    if preference.language != language:
        preference.language = language
        preference.save(update_fields=["language"])
    return preference

