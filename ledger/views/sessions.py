"""An evening (session): its games, its settlement, and marking payments paid."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext, ngettext
from django.views.decorators.http import require_POST

from ledger import access, services
from ledger.forms import VARIANT_COUNTS
from ledger.models import SettlementPayment
from ledger.presentation import questions
from ledger.presentation.catalog import VARIANT_NAMES
from ledger.presentation.session import session_summary
from ledger.presentation.words import evening_label
from ledger.views.book import book_context

from .actions import run_service
from .settled import refuse_if_settled


def session_detail(request: HttpRequest, pk: int) -> HttpResponse:
    session = access.session_for(request.user, pk)
    summary = session_summary(session)
    can_settle = not summary.settled and not summary.open_games and summary.games
    return render(request, "ledger/session_detail.html", {
        "session": session, "table": session.table, "summary": summary,
        "print_session": reverse("scoresheets:session_pdf", kwargs={"pk": session.pk}),
        "settle_question": (questions.settle_question(session, len(summary.games))
                            if can_settle else None),
        "evening_words": evening_label(session, standing_alone=True),
        "blank": _blank_choices(session),
        **book_context(session),
    })


def _blank_choices(session) -> dict:
    """The evening's blank-sheet form: which game; its seats are chosen on the next page
    (scoresheets.views.session_blank), which prints the sheet."""
    return {"action": reverse("scoresheets:session_blank", kwargs={"pk": session.pk}),
            "games": [(f"{variant}-{n}", ngettext("%(game)s, %(n)s player",
                                                           "%(game)s, %(n)s players", n)
                       % {"game": VARIANT_NAMES[variant], "n": n})
                      for variant, counts in VARIANT_COUNTS.items() for n in counts]}


def session_settle(request: HttpRequest, pk: int) -> HttpResponse:
    """GET: the question (without JavaScript; the evening's page asks it in a dialog).
    POST: settle."""
    session = access.session_for(request.user, pk)
    if refused := refuse_if_settled(request, session, what="settle"):
        return refused
    if request.method != "POST":
        return render(request, "ledger/confirm.html", {
            "q": questions.settle_question(session, session.games.count()),
            "table": session.table, "session": session})
    return run_service(
        request, lambda: services.session_settle(session=session, settled_by=request.user),
        success=gettext("Settled. Mark each payment as it is made."),
        redirect_to=_session_url(session.pk))


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
