"""Money and signs as every page prints them, in one place.

Amounts arrive as the core's decimal strings ("-2.02", "0.50", "0") or as whole numbers
(Hollywood's net points). On a page a negative amount takes a real minus sign (U+2212),
which lines up with "+" and does not break from its number; CSV and JSON keep the plain
"-" of the number itself and never pass through these filters.

    {% load money %}
    {{ amount|money }}      2.02, −2.02, 0.00
    {{ amount|signed }}     +2.02, −2.02, 0.00 (zero has no sign)
    {{ amount|money_sign }} "pos", "neg" or "" (a CSS class)
    {{ text|minus }}        a text of amounts ("+2.02 USD · -0.50 EUR") with real minus signs
"""

from __future__ import annotations

import re
from decimal import Decimal, InvalidOperation

from django import template

register = template.Library()

MINUS = "\u2212"
NEGATIVE = re.compile(r"(?<![\w.])-(?=\d)")


def _sign(value) -> int:
    try:
        number = Decimal(str(value).replace(MINUS, "-"))
    except (InvalidOperation, ValueError):
        return 0
    return (number > 0) - (number < 0)


def _digits(value) -> str:
    text = str(value).strip()
    return text[1:] if text[:1] in ("-", "+", MINUS) else text


@register.filter
def money(value) -> str:
    """An amount with a real minus sign when negative, unsigned otherwise."""
    if value is None or value == "":
        return ""
    return (MINUS if _sign(value) < 0 else "") + _digits(value)


@register.filter
def signed(value) -> str:
    """An amount with its sign always shown: +2.02, −2.02; zero unsigned."""
    if value is None or value == "":
        return ""
    sign = _sign(value)
    return {1: "+", -1: MINUS}.get(sign, "") + _digits(value)


@register.filter
def money_sign(value) -> str:
    """"pos", "neg" or "" for colouring an amount."""
    return {1: "pos", -1: "neg"}.get(_sign(value), "")


@register.filter
def minus(value) -> str:
    """Every negative amount in a text takes a real minus sign; other hyphens stay."""
    if value is None:
        return ""
    return NEGATIVE.sub(MINUS, str(value))
