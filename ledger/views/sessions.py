"""An evening (session): its games, its settlement, and marking payments paid."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST

from ledger import access, services
from ledger.exceptions import LedgerError
from ledger.models import SettlementPayment
from ledger.presentation.session import session_summary
from ledger.views.book import book_context


@login_required
def session_detail(request: HttpRequest, pk: int) -> HttpResponse:
    session = access.session_for(request.user, pk)
    return render(request, "ledger/session_detail.html", {
        "session": session, "table": session.table, "summary": session_summary(session),
        "print_session": reverse("scoresheets:session_pdf", kwargs={"pk": session.pk}),
        **book_context(session),
    })


@login_required
@require_POST
def session_settle(request: HttpRequest, pk: int) -> HttpResponse:
    session = access.session_for(request.user, pk)
    try:
        services.session_settle(session=session, settled_by=request.user)
    except LedgerError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, "Settled. Mark each payment as it is made.")
    return redirect("ledger:session_detail", pk=session.pk)


@login_required
@require_POST
def payment_mark(request: HttpRequest, pk: int) -> HttpResponse:
    payment = (SettlementPayment.objects.select_related("settlement__session")
               .filter(pk=pk, settlement__session__table__in=access.tables_for(request.user))
               .first())
    if payment is None:
        raise Http404("No such payment")
    paid = request.POST.get("paid", "1") == "1"
    services.settlement_payment_mark_paid(payment=payment, paid_by=request.user, paid=paid)
    return redirect(f"{_session_url(payment.settlement.session_id)}#payments")


def _session_url(pk: int) -> str:
    from django.urls import reverse

    return reverse("ledger:session_detail", kwargs={"pk": pk})
