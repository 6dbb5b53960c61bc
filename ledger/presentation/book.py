"""The book's words and money: what ``ledger.book.selectors`` read (numbers, dates and the
variants' codes), as the book, the player page and the standings show it.

The selectors return numbers; this module writes them, once, in the language in force:
money through the one money formatter (a real minus sign on a page, the plain one where a
chart's label or a message is made from it), months through the one date formatter, the
variants by their short names.
"""

from __future__ import annotations

from .catalog import VARIANT_SHORT_NAMES
from .dates import format_part
from .money import PLAIN_MINUS, format_money


def money_text(units: int, currency: str, *, sign: bool = True) -> str:
    """Minor units as the currency writes them, with + for a gain ('+2.02', '-0.50', '0.00'):
    the plain-minus form (a chart's labels, a message's list of nets)."""
    return format_money(units, currency, minor=True, sign=sign, minus=PLAIN_MINUS)


def money_shown(units: int, currency: str) -> str:
    """The same on a page: a loss takes a real minus sign ('+2.02', '−0.50', '0.00')."""
    return format_money(units, currency, minor=True, sign=True)


def book_words(book) -> None:
    """The words of one book (``ledger.book.selectors.Book``) for the book page: each line's
    money and unpaid, each evening's cells (units, text) and named players (name, text),
    and who owes whom (``owed_rows``)."""
    currency = book.currency
    for line in book.lines:
        line.money_text = money_shown(line.money, currency)
        line.outstanding_text = money_shown(line.outstanding, currency)
    for evening in [*book.evenings, *book.open_evenings]:
        evening.shown_cells = [None if units is None else (units, money_shown(units, currency))
                               for units in evening.cells]
        evening.shown_named = [(name, money_shown(units, currency))
                               for name, units in evening.named]
    book.owed_rows = owed_rows(book)


def owed_rows(book) -> list[dict]:
    """Who owes whom in one book: the payer, the payee, the units, the amount as the list
    writes it and as a sentence says it (with its currency)."""
    return [{"payer": payer, "payee": payee, "units": units,
             "text": money_text(units, book.currency, sign=False),
             "words": format_money(units, book.currency, minor=True, show_currency=True)}
            for payer, payee, units in book.owed]


def player_page_words(page: dict) -> dict:
    """The player page's words over its numbers (``ledger.book.selectors.player_page``):
    the variants' short names, the months, the money of each month, the chart's labels,
    the money and unpaid tiles and the head-to-head money."""
    several = len(page["running"]) > 1
    for row in page["by_variant"]:
        row["label"] = VARIANT_SHORT_NAMES.get(row["variant"], row["variant"])
    for row in page["head_to_head"]:
        row["money_text"] = (money_shown(row["money"], row["currency"])
                             if row["money_games"] else "")
    months = []
    for row in page["money_by_month"]:
        first = row["amounts"][0][1]
        months.append({
            "month": row["month"], "label": format_part(row["month"], "yMMMM"),
            "text": " · ".join(money_shown(units, currency) + (f" {currency}" if several else "")
                               for currency, units in row["amounts"]),
            "css": "pos" if first > 0 else "neg" if first < 0 else "",
        })
    return {
        **page,
        "apart": [VARIANT_SHORT_NAMES.get(variant, variant) for variant in page["apart"]],
        "money_by_month": months,
        "chart_labels": {
            currency: (money_text(min(units for _, units in series), currency),
                       money_text(max(units for _, units in series), currency),
                       money_text(series[-1][1], currency))
            for currency, series in page["running"].items()},
        "totals": [(currency, money_shown(units, currency), units)
                   for currency, units in page["totals"]],
        "outstanding": [(currency, money_shown(units, currency), units)
                        for currency, units in page["outstanding"]],
    }


def standings_words(rows: list[dict], currency: str) -> list[dict]:
    """The standings' rows with their money as the page writes it."""
    for row in rows:
        row["money_text"] = money_shown(row["money"], currency)
    return rows
