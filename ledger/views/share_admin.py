"""Making and revoking a share link (the read-only pages are ``views.shared``)."""

from __future__ import annotations

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from ledger import access, services
from ledger.models import ShareLink
from ledger.presentation import questions

from .actions import run_service
from .params import number_param, refuses_bad_parameters

# -- share links -----------------------------------------------------------------------------

@require_POST
@refuses_bad_parameters
def share_create(request: HttpRequest, pk: int) -> HttpResponse:
    """A read-only link to the table (or, with ``game``, to one of its games)."""
    table = access.table_for(request.user, pk)
    game = None
    game_id = number_param(request.POST, "game", minimum=1)
    if game_id is not None:
        game = access.game_for(request.user, game_id)
        if game.session.table_id != table.pk:
            raise Http404("No such game")
    # the link and its QR code in view where they were asked for: the game's tools menu
    # (open), the game page's tools card, or the table page's share card
    if game is not None:
        back = reverse("ledger:game_detail", kwargs={"pk": game.pk})
        back += "?tools=share" if request.POST.get("shown") == "tools" else "#shared-link"
    else:
        back = reverse("ledger:table_detail", kwargs={"pk": table.pk}) + "#share"
    return run_service(
        request, lambda: services.share_link_get_or_create(table=table, game=game,
                                                           created_by=request.user),
        success=_("Share link ready: anyone with it can watch the sheet."),
        redirect_to=back)


def share_revoke(request: HttpRequest, pk: int) -> HttpResponse:
    """GET: the question (without JavaScript; the pages ask it in a dialog). POST: revoke."""
    link = (ShareLink.objects.filter(pk=pk, table__in=access.tables_for(request.user))
            .select_related("game", "table").first())
    if link is None:
        raise Http404("No such link")
    if request.method != "POST":
        if link.revoked_at is not None:
            messages.info(request, _("That link was already revoked."))
            return redirect(questions.revoke_question(link)["cancel"])
        return render(request, "ledger/confirm.html", {
            "q": questions.revoke_question(link), "table": link.table,
            "session": link.game.session if link.game_id else None,
            "game": link.game, "crumb_game": bool(link.game_id)})
    services.share_link_revoke(link=link)
    messages.success(request, _("Link revoked: it no longer opens anything."))
    if link.game_id:
        return redirect("ledger:game_detail", pk=link.game_id)
    return redirect("ledger:table_detail", pk=link.table_id)
