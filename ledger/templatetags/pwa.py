"""Template helpers of the installable app and the live pages: a value as JSON for a data
attribute, and a share link's QR code (segno, as inline SVG)."""

from __future__ import annotations

import json

import segno
from django import template
from django.urls import reverse
from django.utils.html import json_script
from django.utils.safestring import mark_safe
from django.utils.translation import gettext

from ledger.forms.queue import queue_fields
from ledger.presentation.queue import QUEUE_WORDS

register = template.Library()


@register.filter
def as_json(value) -> str:
    """``data-x="{{ value|as_json }}"``: autoescaping then makes it a safe attribute."""
    return json.dumps(value)


#: ``{{ form|queue_fields|json_script:"..." }}``: the hand form as the phone's queue reads it.
register.filter("queue_fields", queue_fields)


@register.simple_tag
def queue_words() -> str:
    """The queue's words (ledger/presentation/queue.py), as the JSON the script reads."""
    return json_script(QUEUE_WORDS, "offline-queue-words")


@register.simple_tag
def qr_svg(url: str, title: str = "") -> str:
    """The QR code of ``url`` as an inline SVG (no script, no style: fine under the content
    security policy), dark green on white, with a quiet zone; ``title`` by default "QR code
    of the link"."""
    title = title or gettext("QR code of the link")
    code = segno.make(url, error="m")
    svg = code.svg_inline(scale=4, border=3, dark="#14532d", light="#ffffff", omitsize=True,
                          title=title, svgclass="qr", lineclass="qr-line")
    return mark_safe(svg)  # segno's own markup; the URL is only encoded, never embedded


@register.simple_tag(takes_context=True)
def share_url(context, token: str) -> str:
    """A share link's full address, as the players type or scan it."""
    path = reverse("ledger:shared", kwargs={"token": token})
    request = context.get("request")
    return request.build_absolute_uri(path) if request is not None else path
