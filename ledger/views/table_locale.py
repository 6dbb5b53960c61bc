"""A table's language and clock, changed from the table's page (its "Printed sheets and
clock" card): what its paper and share pages speak, and the time zone of its times and
"today"."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from ledger import access, services
from ledger.exceptions import LedgerError
from ledger.forms.tables import TableLocaleForm
from ledger.presentation.refusals import refusal_words


@login_required
@require_POST
def table_locale(request: HttpRequest, pk: int) -> HttpResponse:
    table = access.table_for(request.user, pk)
    form = TableLocaleForm(request.POST)
    back = reverse("ledger:table_detail", kwargs={"pk": table.pk}) + "#locale"
    if not form.is_valid():
        for errors in form.errors.values():
            for error in errors:
                messages.error(request, error)
        return redirect(back)
    try:
        table = services.table_set_locale(table=table, **form.cleaned_data)
    except LedgerError as exc:
        messages.error(request, refusal_words(exc))
    else:
        language = table.get_language_display()
        messages.success(request, _("Sheets and share pages speak %(language)s; times are "
                                    "%(zone)s time.") % {"language": language,
                                                         "zone": table.time_zone})
    return redirect(back)
