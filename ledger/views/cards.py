"""The card picker's live preview: the melds, the counts and the lay-offs as cards are picked,
and who wins the hand how, as the game will score it.

The picker (``templates/ledger/_cards_picker.html``) asks with htmx: ``GET /cards/preview/``
with the hand form's fields of one table (``t1_knocker``, ``t1_cards0``, ``t1_cards1``,
``up_rank``, ``up_suit``) and ``table``, ``a``, ``b`` (the table's two players) and ``game``
(whose rules apply: knock limit, bonuses, a tie's undercut). It returns an HTML fragment
(``ledger/_cards_preview.html``) worked out by ``ledger.presentation.cards``; nothing is
recorded. The same context is drawn under a refused hand form, so without JavaScript the
scorekeeper still sees why the cards were refused.
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext
from django.views.decorators.http import require_GET

from ledger import access
from ledger.presentation.cards import preview_context
from ledger.presentation.catalog import MAX_TABLES, facts_for

from .params import number_param, refuses_bad_parameters

NAME_MAX = 60


def _name(value: str | None, default: str) -> str:
    return (value or default)[:NAME_MAX]


@require_GET
@refuses_bad_parameters
def cards_preview(request: HttpRequest) -> HttpResponse:
    get = request.GET
    rules: dict = {}
    oklahoma = False
    game_id = number_param(get, "game", minimum=1)
    if game_id is not None:
        game = access.game_for(request.user, game_id)
        rules, oklahoma = dict(game.rules), facts_for(game).upcard
    table = number_param(get, "table", default=1, minimum=1, maximum=MAX_TABLES)
    a, b = _name(get.get("a"), gettext("Knocker")), _name(get.get("b"), gettext("Opponent"))
    texts = [get.get(f"t{table}_cards0", ""), get.get(f"t{table}_cards1", "")]
    knocker = get.get(f"t{table}_knocker")
    up = {"up_rank": get.get("up_rank") or None, "up_suit": get.get("up_suit") or None}
    if knocker == b:
        context = preview_context(texts[1], texts[0], kname=b, oname=a, rules=rules,
                                  oklahoma=oklahoma, **up)
    else:
        context = preview_context(texts[0], texts[1], kname=a, oname=b, rules=rules,
                                  oklahoma=oklahoma, solo=knocker != a, **up)
    return render(request, "ledger/_cards_preview.html", {"preview": context})
