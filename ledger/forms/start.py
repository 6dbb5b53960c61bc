"""Starting a game: seats, first dealer, rules and stakes."""

from __future__ import annotations

import json
from decimal import Decimal

from django import forms
from django.utils.translation import gettext, gettext_lazy

from ledger.cleaning import Refused, clean_name, name_key
from ledger.forms.clean_input import CleanInputMixin
from ledger.presentation import problems as problems_words
from ledger.presentation.catalog import (
    CHOICE_WORDS,
    FIRST_SIDE,
    PRESET_LABELS,
    SECOND_SIDE,
    SETTING_HELP,
    SETTING_LABELS,
    SETTINGS,
    VARIANT_COUNTS,
    VARIANT_SETTINGS,
    choice_text,
    default_preset,
    first_dealer_chosen,
    game_facts,
    preset_values,
    presets_of,
    seat_label,
    setting_now,
    setup_from_seats,
)
from ledger.presentation.refusals import refusal_words

from .fields import (
    MAX_PER_POINTS,
    NUMERIC,
    SegmentedRadio,
    stake_field,
)

__all__ = ["SETTING_LABELS", "VARIANT_COUNTS", "VARIANT_SETTINGS", "GameStartForm",
           "lump_sum_field",
           "needs_first_dealer", "setting_field", "setting_initial", "setting_value",
           "setup_field", "slots_for"]


def lump_sum_field() -> forms.Field:
    """The amount a lump-sum game or a best-of match is played for (RULES 3.10)."""
    field = stake_field(gettext_lazy("Lump sum"))
    field.help_text = gettext_lazy("What the loser pays in a lump-sum game or a best-of "
                                   "match, whatever the points.")
    return field


def setting_field(setting: str, *, current: bool = False) -> forms.Field:
    """The field of one rule setting. At game setup (``current`` False) it may be left
    empty for the preset's value; to change a running game's setting (``current`` True) it
    holds the game's value and is required."""
    spec = SETTINGS[setting]
    label = SETTING_LABELS[setting]
    help_text = SETTING_HELP.get(setting, "")
    blank = [] if current else [("", gettext_lazy("preset"))]
    if spec.kind == "flag":
        return forms.ChoiceField(label=label, required=current,
                                 choices=[*blank, ("yes", gettext_lazy("Yes")),
                                          ("no", gettext_lazy("No"))])
    if spec.kind == "choice":
        return forms.ChoiceField(label=label, required=current, choices=[*blank] + [
            (value, CHOICE_WORDS[value]) for value in spec.choices])
    if spec.kind == "number_or_word":
        return NumberOrWordField(spec, label=label, required=current,
                                 help_text=gettext('a number, or "%(word)s"') % {
                                     "word": CHOICE_WORDS[spec.word]})
    if spec.kind == "share":
        return forms.CharField(label=label, required=current, max_length=10,
                               help_text=help_text,
                               widget=forms.TextInput(attrs={"placeholder": "10%"}))
    # the core checks the range and says it (catalog.SETTINGS[...].low/high); the form only
    # keeps out what is not a whole number
    return forms.IntegerField(label=label, required=current, help_text=help_text,
                              widget=forms.TextInput(attrs={**NUMERIC}))


class NumberOrWordField(forms.CharField):
    """A setting that is a whole number or one word (``Setting.word``: the street bonus is a
    number or the target): the word is typed as the language says it (or as the record
    does); the core checks the number's range."""

    def __init__(self, spec, **kwargs):
        self.spec = spec
        super().__init__(max_length=40, widget=forms.TextInput(attrs={"autocomplete": "off",
                                                                      "class": "wide-text"}),
                         **kwargs)

    def clean(self, value):
        text = super().clean(value).strip()  # the text's own checks (length) first
        if text in self.empty_values:
            return None
        if text.isascii() and text.isdigit():
            return int(text)
        if text.casefold() in (self.spec.word.casefold(),
                               str(CHOICE_WORDS[self.spec.word]).casefold()):
            return self.spec.word
        raise forms.ValidationError(
            gettext('Give a whole number from %(low)s to %(high)s, or "%(word)s".') % {
                "low": self.spec.low, "high": self.spec.high,
                "word": CHOICE_WORDS[self.spec.word]}, code="invalid")


def show_preset_values(form: forms.Form, variant: str, count: int, preset: str | None,
                       settings) -> None:
    """Each empty setting field shows the value the chosen preset gives it (as its
    placeholder, or as the "preset" choice's words), and carries every preset's value for
    the page's script to follow a change of preset."""
    values = {name: preset_values(variant, name, count) for name in presets_of(variant)}
    chosen = preset_values(variant, preset, count)
    for setting in settings:
        field = form.fields[f"rule_{setting}"]
        spec = SETTINGS[setting]
        shown = {name: setting_text(setting, setting_now(rules, setting))
                 for name, rules in values.items()}
        field.widget.attrs["data-preset-values"] = json.dumps(shown, sort_keys=True)
        now = setting_text(setting, setting_now(chosen, setting))
        if spec.kind in ("number", "share", "number_or_word"):
            field.widget.attrs["placeholder"] = now
        else:
            field.choices = [("", preset_choice(now))] + list(field.choices)[1:]


def preset_choice(value: str) -> str:
    """The empty choice of a setting at setup: the preset's value, said as such."""
    return gettext("%(value)s (preset)") % {"value": value}


def setting_text(setting: str, value) -> str:
    """A setting's value in words, as a field shows it."""
    if SETTINGS[setting].kind == "flag":
        return choice_text(bool(value))
    return choice_text(value)


def setting_value(setting: str, value):
    """A setting field's cleaned value as the game record writes it (flags as booleans)."""
    if SETTINGS[setting].kind == "flag":
        return value == "yes"
    return value


def setting_initial(setting: str, value):
    """A game's setting as its field shows it."""
    if SETTINGS[setting].kind == "flag":
        return "yes" if value else "no"
    if SETTINGS[setting].kind == "number_or_word" and value == SETTINGS[setting].word:
        return str(CHOICE_WORDS[value])
    return value


def slots_for(variant: str, count: int) -> list[tuple[str, str]]:
    """The seats of the setup form: (field name, label), in the record's player order, as
    the core seats a game (``game_facts(...).seats``: the cut's order to roles)."""
    return [(seat.key, seat_label(seat)) for seat in game_facts(variant, count).seats]


def needs_first_dealer(variant: str) -> bool:
    return first_dealer_chosen(variant)


class GameStartForm(CleanInputMixin, forms.Form):
    """Variant setup: players in their seats with their own stakes, preset and settings."""

    def __init__(self, *args, variant: str, count: int, player_names: list[str],
                 session_rate: Decimal | str | None, session_per_points: int, **kwargs):
        super().__init__(*args, **kwargs)
        self.variant = variant
        self.count = count
        self.facts = game_facts(variant, count)
        self.slots = slots_for(variant, count)
        choices = [("", gettext_lazy("— choose —"))] + [(name, name) for name in player_names]
        for name, label in self.slots:
            self.fields[name] = forms.ChoiceField(label=label, choices=choices, required=True)
            self.fields[f"stake_{name}"] = stake_field(gettext_lazy("Own stake"))
            self.fields[f"stake_{name}"].widget.attrs["placeholder"] = gettext("same")
        if needs_first_dealer(variant):
            self.fields["first_dealer"] = forms.ChoiceField(
                label=gettext_lazy("Deals first"), choices=choices, required=True)
        if self.facts.named_sides:
            self.fields["side_a"] = forms.CharField(
                label=gettext_lazy("First side's name"), initial=gettext("We"), max_length=30)
            self.fields["side_b"] = forms.CharField(
                label=gettext_lazy("Second side's name"), initial=gettext("They"), max_length=30)
            self.fields["first_dealer_side"] = forms.ChoiceField(
                label=gettext_lazy("Deals first"), initial=SECOND_SIDE, widget=SegmentedRadio(),
                choices=[(FIRST_SIDE, gettext_lazy("First side")),
                         (SECOND_SIDE, gettext_lazy("Second side"))])
            # in the WE/THEY grid the table is its row's legend: a seat is named by its
            # side, as the side's name field has it ("We", or what was typed there)
            side_words = {FIRST_SIDE: self._side_name("side_a") or gettext("First side"),
                          SECOND_SIDE: self._side_name("side_b") or gettext("Second side")}
            for seat in self.facts.seats:
                self.fields[seat.key].label = side_words[seat.role]
                # half a phone's width: the empty choice is a dash ("— выбрать —" is cut)
                self.fields[seat.key].choices = [("", "—")] + choices[1:]
        if self.facts.ante_staked:
            self.fields["ante"] = stake_field(gettext_lazy("Ante (each player)"))
            self.fields["ante"].required = True
        else:
            self.fields["preset"] = forms.ChoiceField(
                label=gettext_lazy("Preset"),
                choices=[(name, PRESET_LABELS[name]) for name in presets_of(variant)],
                initial=default_preset(variant), widget=SegmentedRadio())
            self.fields["rate"] = stake_field(gettext_lazy("Stake"), initial=session_rate)
            self.fields["per_points"] = forms.IntegerField(
                label=gettext_lazy("per points"), min_value=1, initial=session_per_points,
                required=False,
                max_value=MAX_PER_POINTS, widget=forms.TextInput(attrs=NUMERIC))
        if self.facts.lump_sum:
            self.fields["lump_sum_stake"] = lump_sum_field()
        for setting in VARIANT_SETTINGS[variant]:
            self.fields[f"rule_{setting}"] = setting_field(setting)
        preset = self.data.get(self.add_prefix("preset")) if self.is_bound else None
        if preset not in presets_of(variant):
            preset = (self.initial.get("preset")
                      if self.initial.get("preset") in presets_of(variant) else None)
        self.preset_shown = preset or default_preset(variant)
        self.preset_shown_label = PRESET_LABELS[self.preset_shown]
        # what static/ledger/presets.js says when another preset is tapped
        self.preset_words = json.dumps({
            "labels": {name: str(PRESET_LABELS[name]) for name in presets_of(variant)},
            "choice": gettext("%(value)s (preset)")}, sort_keys=True)
        show_preset_values(self, variant, count, preset, VARIANT_SETTINGS[variant])

    def _side_name(self, field: str) -> str:
        """A side's name as its field holds it now (typed, or the initial "We"/"They")."""
        if self.is_bound:
            return " ".join(str(self.data.get(self.add_prefix(field)) or "").split())[:30]
        return str(self.initial.get(field) or self.fields[field].initial or "")

    # -- groups of fields for the template
    def slot_rows(self):
        return [(self[name], self[f"stake_{name}"]) for name, _ in self.slots]

    def table_rows(self) -> list[dict]:
        """Two named sides (partnership, streets): each card table with the seat of each
        side at it (the core's ``Seat.table`` and side), for the WE/THEY grid."""
        if not self.facts.named_sides:
            return []
        rows: dict[int, dict] = {}
        for seat in self.facts.seats:
            row = rows.setdefault(seat.table, {"table": seat.table, "seats": {}})
            stake = f"stake_{seat.key}"  # (the blank sheet's seats have no stakes)
            row["seats"][seat.role] = (self[seat.key],
                                       self[stake] if stake in self.fields else None)
        return [{"table": row["table"],
                 "seats": [row["seats"][side] for side in (FIRST_SIDE, SECOND_SIDE)]}
                for _, row in sorted(rows.items())]

    def rule_fields(self):
        return [self[f"rule_{setting}"] for setting in VARIANT_SETTINGS[self.variant]]

    def clean(self):
        data = super().clean()
        chosen = [data.get(name) for name, _ in self.slots]
        seen: set[str] = set()
        for (name, _), value in zip(self.slots, chosen, strict=True):
            if value and value in seen:
                self.add_error(name, gettext("%(name)s already has a seat.") % {"name": value})
            seen.add(value)
        dealer = data.get("first_dealer")
        if dealer and dealer not in chosen:
            self.add_error("first_dealer", gettext("%(name)s is not playing in this game.")
                           % {"name": dealer})
        if self.facts.named_sides:
            for side in ("side_a", "side_b"):
                if data.get(side):
                    try:
                        data[side] = clean_name(data[side], what=gettext("The side's name"),
                                                max_length=30)
                    except Refused as exc:
                        self.add_error(side, refusal_words(exc))
            if data.get("side_a") and name_key(data["side_a"]) == name_key(data.get("side_b", "")):
                self.add_error("side_b", gettext("The two sides need different names."))
            for side in ("side_a", "side_b"):
                if data.get(side) and any(name_key(data[side]) == name_key(player)
                                          for player in chosen if player):
                    self.add_error(side, gettext("%(name)s is a player's name; give the "
                                                 "side another.") % {"name": data[side]})
        return data

    # -- what to hand to services.game_start
    def players(self) -> list[str]:
        return [self.cleaned_data[name] for name, _ in self.slots]

    def setup(self) -> dict:
        data = self.cleaned_data
        if needs_first_dealer(self.variant):
            return {"first_dealer": data["first_dealer"]}
        return setup_from_seats(
            self.facts, {key: data[key] for key, _ in self.slots},
            side_names={FIRST_SIDE: data.get("side_a"), SECOND_SIDE: data.get("side_b")},
            first_dealer_side=data.get("first_dealer_side"))

    def rules(self) -> dict:
        rules = {}
        for setting in VARIANT_SETTINGS[self.variant]:
            value = self.cleaned_data.get(f"rule_{setting}")
            if value in (None, ""):
                continue
            rules[setting] = setting_value(setting, value)
        return rules

    def player_stakes(self) -> dict[str, str]:
        return {self.cleaned_data[name]: str(self.cleaned_data[f"stake_{name}"])
                for name, _ in self.slots if self.cleaned_data.get(f"stake_{name}")}

    def add_problems(self, problems) -> None:
        """Put the core's refusal of the setup (``RecordRefused.details``) at the fields
        its problems name."""
        slot_of = {self.cleaned_data.get(name): name for name, _ in self.slots}
        for problem in problems:
            field = setup_field(problem, slot_of)
            if field in self.fields:
                self.add_error(field, problems_words.at_field(problem))
            else:
                self.add_error(None, problems_words.line(problem))


def setup_field(problem, slot_of: dict) -> str | None:
    """The field of the start and settings forms that a problem of the record's top level
    names: a rule setting, the first dealer, the stakes (a player's own by his seat)."""
    where = problem.field or ""
    if problem.hand is not None:
        return None
    if where.startswith("rules."):
        return f"rule_{where[len('rules.'):]}"
    if where == "stakes.players":
        slot = slot_of.get(problem.player)
        return f"stake_{slot}" if slot is not None else None
    return {"setup.first_dealer": "first_dealer", "stakes.rate": "rate",
            "stakes.per_points": "per_points", "stakes.ante": "ante",
            "setup.first_dealer_side": "first_dealer_side",
            "stakes.lump_sum_stake": "lump_sum_stake"}.get(where)
