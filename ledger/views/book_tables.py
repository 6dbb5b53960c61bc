"""The standings as a django-tables2 table: sortable on every column, exported to CSV and
XLSX by django-tables2's ``TableExport`` (money as a plain decimal, percentages as numbers)."""

from __future__ import annotations

import django_tables2 as tables
from django.urls import reverse
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from ledger.presentation.money import PLAIN_MINUS, format_money


def _num(**kwargs):
    return {"td": {"class": "num"}, "th": {"class": "num"}, **kwargs}


class StandingsTable(tables.Table):
    name = tables.Column(_("Player"), attrs={"td": {"class": "who"}})
    games = tables.Column(pgettext_lazy("games of cards", "Games"), attrs=_num())
    wins = tables.Column(_("Wins"), attrs=_num())
    win_rate = tables.Column(_("Win %"), attrs=_num())
    hands_played = tables.Column(_("Hands"), attrs=_num())
    gins = tables.Column(_("Gins"), attrs=_num())
    big_gins = tables.Column(_("Big gins"), attrs=_num())
    undercuts_made = tables.Column(_("Undercuts"), attrs=_num())
    undercuts_suffered = tables.Column(_("Got cut"), attrs=_num())
    boxes = tables.Column(_("Boxes"), attrs=_num())
    shutouts = tables.Column(_("Shutouts"), attrs=_num())
    points_per_hand = tables.Column(_("Pts/hand"), attrs=_num())
    money = tables.Column(_("Money"), attrs=_num())

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
        self.columns["money"].column.verbose_name = _("Money (%(currency)s)") % {
            "currency": currency}

    def render_name(self, record):
        url = reverse("ledger:player_detail", args=[record["player_id"]])
        return format_html('<a href="{}">{}</a>', url, record["name"])

    def value_name(self, record):
        return record["name"]

    def render_money(self, record):
        units = record["money"]
        css = "pos" if units > 0 else "neg" if units < 0 else ""
        return format_html('<span class="money {}">{}</span>', css, record["money_text"])

    def value_money(self, record):
        """The export's number, as a program reads it ("-2.02", whatever the screen's
        language)."""
        return format_money(record["money"], self.currency, minor=True, minus=PLAIN_MINUS,
                            plain=True)


class CapitStandingsTable(tables.Table):
    """CAP-IT's standings, apart from the gin family's (like with like): rounds and penalty
    points, lowest best; its money is its own games' (the pot)."""

    name = tables.Column(_("Player"), attrs={"td": {"class": "who"}})
    games = tables.Column(pgettext_lazy("games of cards", "Games"), attrs=_num())
    wins = tables.Column(_("Wins"), attrs=_num())
    win_rate = tables.Column(_("Win %"), attrs=_num())
    hands_played = tables.Column(_("Rounds"), attrs=_num())
    hands_won = tables.Column(_("Rounds won"), attrs=_num())
    points_per_hand = tables.Column(_("Pts/round"), attrs=_num())
    money = tables.Column(_("Money"), attrs=_num())

    class Meta:
        template_name = "ledger/sheet_table.html"
        attrs = {"class": "sheet standings"}
        order_by = ("-money",)
        #: templates/ledger/standings_capit_table.html writes the cells in this order
        sequence = ("name", "money", "games", "wins", "win_rate", "hands_played", "hands_won",
                    "points_per_hand")

    def __init__(self, data, *, currency: str, **kwargs):
        super().__init__(data, **kwargs)
        self.currency = currency
        self.columns["money"].column.verbose_name = _("Money (%(currency)s)") % {
            "currency": currency}

    def value_money(self, record):
        """The export's number, as a program reads it ("-2.02", whatever the screen's
        language)."""
        return format_money(record["money"], self.currency, minor=True, minus=PLAIN_MINUS,
                            plain=True)


#: Columns where less is better: their first tap sorts them lowest first; every other
#: figure (more is better) sorts highest first, the name from A.
LOW_FIRST = frozenset({"name", "undercuts_suffered"})
LOW_FIRST_CAPIT = frozenset({"name", "points_per_hand"})


def sort_links(table: tables.Table, low_first: frozenset) -> list[dict]:
    """Each column's header and the ordering its tap asks for: the other direction when the
    table is sorted on it, else highest first for a "more is better" figure ("most gins"
    puts the player with most on top), lowest first for the others."""
    links = []
    for column in table.columns:
        alias = column.order_by_alias
        if column.is_ordered:
            sort = alias.next
        else:
            sort = alias.bare if column.name in low_first else "-" + alias.bare
        links.append({"header": column.header, "sort": sort, "name": column.name,
                      "css": column.attrs["th"].get("class", ""),
                      "aria_sort": aria_sort(column)})
    return links


def aria_sort(column) -> str:
    """The header's ``aria-sort``: how the table is sorted by this column now."""
    if not column.is_ordered:
        return "none"
    return "descending" if column.order_by_alias.is_descending else "ascending"
