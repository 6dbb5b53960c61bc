"""Issue 20: a column, a money format and a label are each said once, in the presentation
layer; changing one changes the screen (the game page), the CSV download and the paper
(the printed score sheet) together. And the one money formatter and the one stake sentence
keep today's outputs."""

from __future__ import annotations

import csv
import dataclasses
import io
import re

import pytest
from babel import Locale
from django.urls import reverse

from ledger import services
from ledger.presentation import columns, money
from ledger.presentation.catalog import VARIANT_NAMES, VARIANT_SHORT_NAMES
from ledger.presentation.stakes import stake_sentence
from ledger.templatetags import money as filters
from scoresheets import documents

from ..scoresheets.conftest import pdf_text
from .test_views import text


@pytest.fixture
def finished(session, keeper, case):
    """Example 5 of the rules: A 318, B 116 at 0.01 USD a point, B pays A 2.02."""
    return services.game_import(session=session, record=case("gin-standard-game"),
                                imported_by=keeper)


def three_media(client, game) -> tuple[str, list[list[str]], str]:
    """The game page's text, the CSV's rows and the printed sheet's text."""
    screen = text(client.get(reverse("ledger:game_detail", args=[game.pk])))
    response = client.get(reverse("ledger:game_export", args=[game.pk]))
    rows = list(csv.reader(io.StringIO(response.content.decode())))
    pdf, _ = documents.game_sheet_pdf(game)
    return screen, rows, pdf_text(pdf)


def test_today_the_three_media_say_the_same_things(logged_in, finished):
    screen, rows, paper = three_media(logged_in, finished)
    assert " Total " in screen and "Final total" not in screen
    assert ["Final total", "A 318", "B 116"] == [cell for cell in next(
        row for row in rows if row[0] == "Final total") if cell]
    assert "Final total 318 116" in paper
    assert "\u22122.02" in screen
    assert ["Money", "B", "-2.02", "USD"] in [row[:4] for row in rows]
    assert "\u22122.02" in paper
    assert rows[0][0] == "Hand" and " # Hand " in screen


def test_one_column_changes_the_screen_the_csv_and_the_paper(logged_in, finished,
                                                             monkeypatch):
    final = dataclasses.replace(columns.TOTALS["final"], header="Grand sum", short="Sum")
    monkeypatch.setitem(columns.TOTALS, "final", final)
    screen, rows, paper = three_media(logged_in, finished)
    assert re.search(r"<th[^>]*>\s*Sum\s*</th>", logged_in.get(
        reverse("ledger:game_detail", args=[finished.pk])).content.decode())
    assert " Total " not in screen
    assert any(row[0] == "Grand sum" for row in rows)
    assert not any(row[0] == "Final total" for row in rows)
    assert "Grand sum 318 116" in paper and "Final total" not in paper


def test_one_label_changes_the_screen_the_csv_and_the_paper(logged_in, finished,
                                                            monkeypatch):
    """The hand noun heads the number column (short) and the hand column (full)."""
    monkeypatch.setitem(columns.HAND_NOUNS, "hand", ("Deal", "No."))
    screen, rows, paper = three_media(logged_in, finished)
    assert " No. Deal " in screen and " # Hand " not in screen
    assert rows[0][0] == "Deal"
    assert "No. Dealer Play" in paper


def test_one_money_format_changes_the_screen_and_the_paper(logged_in, finished, monkeypatch):
    """One locale (issue 22) writes the screen's and the paper's amounts; the CSV keeps the
    plain number a spreadsheet reads."""
    monkeypatch.setattr(money, "babel_locale", lambda locale=None: Locale.parse("de"))
    screen, rows, paper = three_media(logged_in, finished)
    assert "\u22122,02" in screen and "\u22122.02" not in screen
    assert [row[2] for row in rows if row[:2] == ["Money", "B"]] == ["-2.02"]
    assert "\u22122,02" in paper and "+2,02" in paper


def test_one_variant_name_changes_the_screen_and_the_paper(logged_in, finished, monkeypatch):
    monkeypatch.setitem(VARIANT_NAMES, "gin", "Straight gin")
    screen, _, paper = three_media(logged_in, finished)
    assert "Straight gin" in screen and "Straight gin" in paper


# -- the one money formatter keeps what the four did -----------------------------------------

@pytest.mark.parametrize(("value", "options", "expected"), [
    ("-2.02", {}, "\u22122.02"),                          # the money filter
    ("2.02", {"sign": True}, "+2.02"),                    # the signed filter
    ("0.00", {"sign": True}, "0.00"),                     # zero has no sign
    ("+2.02", {}, "2.02"),
    (175, {"sign": True}, "+175"),                        # Hollywood's net points
    (-202, {"currency": "USD", "minor": True, "sign": True, "minus": "-"}, "-2.02"),  # book
    (202, {"currency": "USD", "minor": True, "sign": True}, "+2.02"),  # settings' messages
    (-5, {"currency": "JPY", "minor": True, "minus": "-"}, "-5"),
    (150, {"currency": "USD", "minor": True, "show_currency": True}, "$1.50"),
    (150, {"currency": "USD", "minor": True, "show_currency": True, "plain": True}, "1.50 USD"),
    ("abc", {}, "abc"),
    (None, {}, ""),
])
def test_the_one_money_formatter(value, options, expected):
    assert money.format_money(value, **options) == expected


def test_the_template_filters_call_the_formatter(monkeypatch):
    assert filters.money("-2.02") == "\u22122.02" and filters.signed("2.02") == "+2.02"
    # the book's words are the presentation's (ledger.presentation.book), with real minus
    # signs from the start: no template filter patches them afterwards
    assert not hasattr(filters, "minus")
    assert money.minus_signs("+2.02 USD · -0.50 EUR") == "+2.02 USD · \u22120.50 EUR"
    monkeypatch.setattr(money, "babel_locale", lambda locale=None: Locale.parse("de"))
    assert filters.money("-2.02") == "\u22122,02" and filters.signed("2.02") == "+2,02"


def test_one_stake_sentence():
    assert stake_sentence("0.01", "USD") == "$0.01 per point"
    assert stake_sentence("0.01", "USD", 5) == "$0.01 per 5 points"
    assert stake_sentence(None, "USD") == "not for money"


def test_one_set_of_variant_names():
    from ledger.models import Variant
    from ledger.presentation import book
    assert dict(Variant.choices) == VARIANT_NAMES
    assert book.VARIANT_SHORT_NAMES is VARIANT_SHORT_NAMES
    assert set(VARIANT_SHORT_NAMES) == set(VARIANT_NAMES)
