"""The standings as a django-tables2 table: sortable on every column, exported to CSV and
XLSX by django-tables2's ``TableExport`` (money as a plain decimal, percentages as numbers)."""

from __future__ import annotations

import django_tables2 as tables
from django.urls import reverse
from django.utils.html import format_html

from ledger.presentation.money import PLAIN_MINUS, format_money
from ledger.templatetags.money import minus


def _num(**kwargs):
    return {"td": {"class": "num"}, "th": {"class": "num"}, **kwargs}


class StandingsTable(tables.Table):
    name = tables.Column("Player", attrs={"td": {"class": "who"}})
    games = tables.Column("Games", attrs=_num())
    wins = tables.Column("Wins", attrs=_num())
    win_rate = tables.Column("Win %", attrs=_num())
    hands_played = tables.Column("Hands", attrs=_num())
    gins = tables.Column("Gins", attrs=_num())
    big_gins = tables.Column("Big gins", attrs=_num())
    undercuts_made = tables.Column("Undercuts", attrs=_num())
    undercuts_suffered = tables.Column("Got cut", attrs=_num())
    boxes = tables.Column("Boxes", attrs=_num())
    shutouts = tables.Column("Shutouts", attrs=_num())
    points_per_hand = tables.Column("Pts/hand", attrs=_num())
    money = tables.Column("Money", attrs=_num())

    class Meta:
        template_name = "ledger/sheet_table.html"
        attrs = {"class": "sheet standings"}
        order_by = ("-money",)
        #: templates/ledger/standings_table.html writes the cells in this order
        sequence = ("name", "money", "games", "wins", "win_rate", "hands_played", "gins",
                    "big_gins", "undercuts_made", "undercuts_suffered", "boxes", "shutouts",
                    "points_per_hand")

    def __init__(self, data, *, currency: str, **kwargs):
        super().__init__(data, **kwargs)
        self.currency = currency
        self.columns["money"].column.verbose_name = f"Money ({currency})"

    def render_name(self, record):
        url = reverse("ledger:player_detail", args=[record["player_id"]])
        return format_html('<a href="{}">{}</a>', url, record["name"])

    def value_name(self, record):
        return record["name"]

    def render_money(self, record):
        units = record["money"]
        css = "pos" if units > 0 else "neg" if units < 0 else ""
        return format_html('<span class="money {}">{}</span>', css, minus(record["money_text"]))

    def value_money(self, record):
        """The export's number, as a program reads it ("-2.02", whatever the screen's
        language)."""
        return format_money(record["money"], self.currency, minor=True, minus=PLAIN_MINUS,
                            plain=True)
