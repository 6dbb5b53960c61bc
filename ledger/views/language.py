"""The footer's language switcher: Django's ``set_language`` (the language cookie, then back
to the page), and for a logged-in account its choice kept in the account and the session."""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth.decorators import login_not_required
from django.http import HttpRequest, HttpResponse
from django.views.decorators.http import require_POST
from django.views.i18n import set_language as django_set_language

from ledger import services
from ledger.exceptions import LedgerError
from ledger.middleware import ACCOUNT_LANGUAGE


@login_not_required  # a visitor chooses the language of the log-in page too
@require_POST
def set_language(request: HttpRequest) -> HttpResponse:
    """POST ``language`` (and ``next``): Django's view sets the cookie and redirects back;
    a logged-in account keeps the choice for its next log-ins and other devices."""
    response = django_set_language(request)
    language = request.POST.get("language", "")
    if request.user.is_authenticated and language in dict(settings.LANGUAGES):
        try:
            services.account_set_language(user=request.user, language=language)
        except LedgerError:
            return response
        request.session[ACCOUNT_LANGUAGE] = language
    return response
