"""``{% core_worker %}``: the one tag a game page carries for the phone's copy of the core
(static/ledger/core/client.mjs starts static/ledger/core/worker.mjs when the page is idle).
Nothing where Pyodide is not installed (tablestakes/staticfiles.py)."""

from __future__ import annotations

from django import template
from django.templatetags.static import static
from django.utils.html import format_html

from ledger.corefiles import core_config

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
