"""The game page's "Report from the tables" card (issue 23): each table's report link with
its QR code, the state of the current hand's reports (filled in by
static/ledger/report_keeper.js), and who reported what in the saved hands.
``{% load reports %}{% report_links_card %}`` in the game page."""

from __future__ import annotations

from django import template
from django.urls import reverse
from django.utils.translation import gettext

from ledger.presentation.dates import format_clock
from ledger.presentation.reports import confirm_answers, link_words, part_labels, report_line
from ledger.selectors import table_reports

register = template.Library()


@register.inclusion_tag("ledger/_report_links.html", takes_context=True)
def report_links_card(context) -> dict:
    game = context.get("game")
    result = context.get("result")
    if game is None or result is None or context.get("settled"):
        return {"show": False}
    parts = table_reports.report_parts_of(game, result)
    saved = _saved_reports(game, result)
    request = context.get("request")
    confirm = _confirm_part(game, result, request)
    if parts["kind"] is None and not saved and confirm is None:
        return {"show": False}
    links = []
    if parts["kind"] is not None:
        for link in table_reports.table_links(game):
            path = reverse("ledger:report_page", kwargs={"token": link.token})
            links.append({
                "label": link_words(link.part),
                "url": request.build_absolute_uri(path) if request is not None else path,
                "token": link.token,
                "who": (", ".join(parts["tables"][link.part - 1])
                        if link.part and link.part <= len(parts.get("tables", [])) else
                        gettext("each player picks his name")),
            })
    states = [label for label, _ in part_labels(parts)]  # as the reports' poll says them
    return {"show": True, "game": game, "links": links, "states": states,
            "open": parts["kind"] is not None,
            "poll": reverse("ledger:game_reports", kwargs={"pk": game.pk}),
            "csrf_token": context.get("csrf_token"), "saved": saved,
            "number": parts["number"], "confirm": confirm}


def _confirm_part(game, result, request) -> dict | None:
    """A two-hand game's confirm link (optional): the link and its QR code, or the form
    that makes it, and the other player's answers beside each saved hand (newest first)."""
    players = table_reports.confirm_players_of(result)
    if not players:
        return None
    link = table_reports.confirm_link(game)
    url = None
    if link is not None:
        path = reverse("ledger:confirm_page", kwargs={"token": link.token})
        url = request.build_absolute_uri(path) if request is not None else path
    return {"players": players, "link": link, "url": url,
            "answers": confirm_answers(game),
            "open": result["facts"].get("accepts_hands", True) and not result.get("complete"),
            "default": players[-1]}


def _saved_reports(game, result) -> list[dict]:
    """Who reported what in the saved hands (newest first)."""
    by_hand = table_reports.hand_reports(game)
    if not by_hand:
        return []
    rows = []
    for hand in sorted(getattr(game, "live_hands", []) or [], key=lambda h: -h.number):
        kept = by_hand.get(hand.pk)
        if not kept:
            continue
        rows.append({"number": hand.number,
                     "reports": [report_line(r, when=format_clock, rules=result["rules"])
                                 for r in kept]})
    return rows
