"""The account's language: read once at log-in into the session, where
``ledger.middleware.AccountLanguageMiddleware`` finds it on every request (no query of its
own); changed with the footer's switcher (``ledger.views.language.set_language``)."""

from __future__ import annotations

from .middleware import ACCOUNT_LANGUAGE
from .models import AccountPreference


def account_language(user) -> str:
    """The account's chosen language, or "" (none chosen: the browser's, else English)."""
    if user is None or not getattr(user, "is_authenticated", False):
        return ""
    return (AccountPreference.objects.filter(user=user)
            .values_list("language", flat=True).first() or "")


def remember_account_language(sender, request, user, **kwargs) -> None:
    """At log-in (``user_logged_in``): the account's choice into the session."""
    if request is None or not hasattr(request, "session"):
        return
    language = account_language(user)
    if language:
        request.session[ACCOUNT_LANGUAGE] = language
    else:
        request.session.pop(ACCOUNT_LANGUAGE, None)
