"""Money and signs as every page prints them: template filters over the presentation
layer's one money formatter (``ledger.presentation.money.format_money``).

Amounts arrive as the core's decimal strings ("-2.02", "0.50", "0") or as whole numbers
(Hollywood's net points). On a page a negative amount takes a real minus sign (U+2212),
which lines up with "+" and does not break from its number; CSV and JSON keep the plain
"-" of the number itself and never pass through these filters.

    {% load money %}
    {{ amount|money }}      2.02, −2.02, 0.00 (in the language in force: 1.234,50 in German)
    {{ amount|money:"EUR" }} 1.234,50 €, €1,234.50 (the currency's symbol where CLDR puts it)
    {{ amount|signed }}     +2.02, −2.02, 0.00 (zero has no sign)
    {{ amount|signed:"EUR" }} +1.234,50 €
    {{ score|points }}      1,800 (a score grouped as the language groups it: 1.800 in
                            German, 1 800 in French); a text that is no number stays
    {{ amount|money_sign }} "pos", "neg" or "" (a CSS class)
    {{ session|stake }}     0.05 USD per point (the one stake sentence, as the paper says it)
"""

from __future__ import annotations

from django import template

from ledger.presentation.money import (
    MINUS,
    decimal_text,
    format_money,
    money_words,
)
from ledger.presentation.money import money_sign as _sign
from ledger.presentation.stakes import stake_sentence

register = template.Library()

__all__ = ["MINUS", "money", "money_sign", "points", "pot_words", "signed", "stake"]


@register.filter
def money(value, currency: str = "") -> str:
    """An amount with a real minus sign when negative, unsigned otherwise; with a currency,
    its symbol in the locale's place."""
    return format_money(value, currency or "", show_currency=bool(currency))


@register.filter
def signed(value, currency: str = "") -> str:
    """An amount with its sign always shown: +2.02, −2.02; zero unsigned."""
    return format_money(value, currency or "", sign=True, show_currency=bool(currency))


@register.filter
def pot_words(result) -> str:
    """CAP-IT's pot of a game's result in its currency's money: "$20.00", "20,00 €" (a
    game without stakes has a pot of 0 and no currency: "0.00")."""
    return money_words(result.get("pot") or "0", result.get("currency") or "")


@register.filter
def points(value) -> str:
    """A score as the language writes a number: "1,800", "1.800", "1 800"."""
    return format_money(value)


@register.filter
def money_sign(value) -> str:
    """"pos", "neg" or "" for colouring an amount."""
    return {1: "pos", -1: "neg"}.get(_sign(value), "")


@register.filter
def stake(session) -> str:
    """An evening's (or a game's) stake in the one stake sentence: "0.05 USD per point",
    "0.05 USD per 5 points" (what a sheet prints too). The amount in the currency's
    decimals, as the record writes it."""
    rate = getattr(session, "rate", None)
    currency = getattr(session, "currency", "")
    amount = None if rate is None else decimal_text(rate, currency)  # written there
    return stake_sentence(amount, currency, getattr(session, "per_points", 1))
