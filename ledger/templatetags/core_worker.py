"""``{% core_worker %}``: the one tag a game page carries for the phone's copy of the core
(static/ledger/core/client.mjs starts static/ledger/core/worker.mjs when the page is idle).
Nothing where Pyodide is not installed (tablestakes/staticfiles.py)."""

from __future__ import annotations

from django import template
from django.templatetags.static import static
from django.utils.html import format_html, json_script

from ledger.corefiles import core_config
from ledger.presentation.phone import phone_words
from ledger.selectors.games import game_record

register = template.Library()


@register.simple_tag
def core_worker():
    where = core_config()
    if where is None:
        return ""
    return format_html(
        '<script type="module" id="core-worker" src="{}" data-worker="{}" data-pyodide="{}"'
        ' data-core="{}"></script>',
        static("ledger/core/client.mjs"), where["worker"], where["pyodide"], where["core"])


@register.simple_tag(takes_context=True)
def game_record_script(context, game):
    """The game's record as ``manage.py export_game`` writes it (rules, players, setup, the
    hands so far), handed to the page as ``<script type="application/json"
    id="game-record">``: with no connection the phone adds the hands it keeps to it and its
    core scores them (static/ledger/queue/scoring.js). Drawn with the hand form, so it is
    fresh after every Save and every page load. Nothing where the core cannot run."""
    if core_config() is None or game is None:
        return ""
    record = context.get("game_record")  # a Save's answer has it already (views/queue.py)
    return json_script(record if record is not None else game_record(game), "game-record")


@register.simple_tag(takes_context=True)
def phone_words_script(context):
    """The words and money formats the phone needs to say a game it scored itself
    (ledger/presentation/phone.py), as ``<script type="application/json"
    id="phone-words">``: once per page, beside ``{% core_worker %}``; nothing where the core
    cannot run or the game is over."""
    result = context.get("result")
    if core_config() is None or not result or context.get("ended"):
        return ""
    money = context.get("money")
    return json_script(phone_words(result, getattr(money, "currency", "") or "",
                                   getattr(money, "cover", "") or ""), "phone-words")
