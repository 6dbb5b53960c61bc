"""The forms of a report link's page (issue 23): one card table's part of the current hand
(the hand form for that table alone: the same fields, cleaning and record shape, so what a
table reports is what the scorekeeper's form would have made of it), or one CAP-IT
player's own part; and the scorekeeper's form fields a report fills."""

from __future__ import annotations

import dataclasses

from django import forms
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from ledger.forms.clean_input import CleanInputMixin
from ledger.presentation import problems as problems_words
from ledger.presentation.reports import round_stock_out, round_went_out

from .fields import NOBODY, SegmentedRadio, count_field, parse_count
from .hands import HandForm, initial_from_entry, new_hand_initial


def table_spec(spec: dict, table: int) -> dict:
    """The hand form's ``spec`` (``ledger.presentation.game_page.hand_spec``) for table
    ``table`` alone (no cut for the sitter: that is the scorekeeper's, once every table is in)."""
    duel = dict(spec["duels"][table - 1])
    return {**spec, "duels": [duel], "tables": False, "cut_candidates": None}


class TableReportForm(HandForm):
    """One table's part: the hand form of a single table (fields ``t1_*``); ``entry()`` is
    the table's object as the record writes it."""

    def __init__(self, *args, spec: dict, table: int, **kwargs):
        self.table = table
        super().__init__(*args, spec=table_spec(spec, table), **kwargs)

    def add_problems(self, problems) -> None:
        # the core names the real table; this form has one, its first
        super().add_problems([dataclasses.replace(p, table=1) if p.table == self.table else p
                              for p in problems])


def table_report_initial(number: int) -> dict:
    return new_hand_initial(number)


class PlayerReportForm(CleanInputMixin, forms.Form):
    """A CAP-IT player's own part of the round: who he is (remembered on his phone), whether
    he went out, and his points."""

    number = forms.IntegerField(widget=forms.HiddenInput)
    player = forms.ChoiceField(label=_("Who are you?"), widget=SegmentedRadio(columns=3),
                               error_messages={"required": _("Who are you? Tap your name.")})
    went_out = forms.ChoiceField(label=_("Did you go out?"), widget=SegmentedRadio(columns=2),
                                 choices=[("no", _("No")), ("yes", _("Yes, I went out"))],
                                 initial="no")
    points = count_field(_("Your points (the cards left in your hand)"))
    cards = forms.CharField(
        label=_("Or your cards"), required=False, max_length=200,
        help_text=_("The cards left in your hand, e.g. K 7 7 (JK for a joker): the points are "
                    "counted for you"))

    def __init__(self, *args, players: list[str], **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["player"].choices = [(p, p) for p in players]

    def clean(self):
        data = super().clean()
        try:
            points = parse_count(data.get("points", ""))
        except ValueError:
            self.add_error("points", gettext("Your points: a whole number, like 25."))
            return data
        cards = (data.get("cards") or "").strip()
        if points is None and not cards and data.get("went_out") != "yes":
            self.add_error("points", gettext("Enter your points (0 if none), or your cards."))
        data["points_value"] = points
        data["cards_text"] = cards
        return data

    def entry(self) -> dict:
        data = self.cleaned_data
        player = data["player"]
        went_out = data.get("went_out") == "yes"
        points = data.get("points_value")
        entry = {"went_out": player if went_out else None}
        if data.get("cards_text") and not went_out:
            entry["cards"] = {player: data["cards_text"]}
            if points is not None:  # both: the core checks that they agree
                entry["points"] = {player: points}
            return entry
        entry["points"] = {player: points if points is not None else 0}
        return entry

    def add_problems(self, problems) -> None:
        for problem in problems:
            field = {"went_out": "went_out", "points": "points", "cards": "cards"}.get(
                problem.field or "")
            self.add_error(field, problems_words.at_field(problem) if field
                           else problems_words.line(problem))

    @property
    def problems(self) -> list[str]:
        lines = list(self.non_field_errors())
        for name in self.fields:
            lines += [str(error) for error in self.errors.get(name, ())]
        return lines


def report_fields(spec: dict, report) -> dict[str, str]:
    """The scorekeeper's hand form fields (by their names) that ``report`` fills: table
    ``i``'s ``t{i}_*``, or a CAP-IT player's ``pts_{j}`` (who went out is the round's, from
    every player's report: ``went_out_value``)."""
    values = report.values or {}
    if spec.get("rounds"):
        players = spec["players"]
        if report.player not in players:
            return {}
        points = (values.get("points") or {}).get(report.player)
        return {} if points is None else {f"pts_{players.index(report.player)}": str(points)}
    table = report.table or 0
    if not 1 <= table <= len(spec.get("duels", [])):
        return {}
    one = initial_from_entry(table_spec(spec, table), values)
    return {f"t{table}_" + name[3:]: str(value) for name, value in one.items()
            if name.startswith("t1_")}



def went_out_value(end: dict) -> str:
    """The scorekeeper's "Who went out?" as the players' reports answer it
    (``selectors.table_reports.round_end_of``): the one who went out, "Nobody: stock out" when every
    player said no, nothing while they disagree or some have not reported."""
    return round_went_out(end) or (NOBODY if round_stock_out(end) else "")
