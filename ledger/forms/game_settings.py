"""Correcting a game's stakes and rules (the "Stakes and rules" screen)."""

from __future__ import annotations

from decimal import Decimal, InvalidOperation

from django import forms
from django.utils.translation import gettext_lazy as _

from ledger.forms.clean_input import CleanInputMixin
from ledger.presentation import problems as problems_words
from ledger.presentation.catalog import game_facts, setting_now
from ledger.presentation.elision import gettext  # a name filled in with French elision
from ledger.presentation.money import amount_text

from .fields import (
    MAX_PER_POINTS,
    NUMERIC,
    stake_field,
)
from .start import (
    VARIANT_SETTINGS,
    lump_sum_field,
    setting_field,
    setting_initial,
    setting_value,
    setup_field,
)

# -- correcting a game's stakes and rules ----------------------------------------------------


class GameSettingsForm(CleanInputMixin, forms.Form):
    """A game's stakes and every rule setting of its variant, filled with the values it has
    now; ``stake_changes`` and ``rule_changes`` give only what the scorekeeper changed, as
    the arguments of ``services.game_change_stake`` and ``services.game_change_rules``."""

    def __init__(self, *args, game, seats, **kwargs):
        self.game = game
        self.seats = list(seats)
        facts = game_facts(game.variant, len(self.seats))
        self.ante_staked = facts.ante_staked
        self.lump_sum = facts.lump_sum
        # every setting of the variant (the core's schema), a club format's that the game's
        # rules do not list with its default
        self.settings = list(VARIANT_SETTINGS[game.variant])
        initial = {f"rule_{name}": setting_initial(name, setting_now(game.rules, name))
                   for name in self.settings}
        if self.ante_staked:
            initial["ante"] = amount_text(game.ante, game.currency)
        else:
            initial["rate"] = amount_text(game.rate, game.currency)
            initial["per_points"] = game.per_points or 1
            for seat in self.seats:
                initial[f"stake_{seat.seat}"] = amount_text(seat.stake, game.currency)
        if self.lump_sum:
            initial["lump_sum_stake"] = amount_text(game.lump_sum_stake, game.currency)
        super().__init__(*args, initial=initial, **kwargs)
        if self.ante_staked:
            self.fields["ante"] = stake_field(_("Ante (each player)"))
            self.fields["ante"].required = True
        else:
            self.fields["rate"] = stake_field(_("Stake"))
            self.fields["per_points"] = forms.IntegerField(
                label=_("per points"), min_value=1, max_value=MAX_PER_POINTS, required=False,
                widget=forms.TextInput(attrs=NUMERIC))
            for seat in self.seats:
                field = stake_field(gettext("%(name)s's own stake") % {"name": seat.player.name})
                field.widget.attrs["placeholder"] = gettext("same")
                self.fields[f"stake_{seat.seat}"] = field
        if self.lump_sum:
            self.fields["lump_sum_stake"] = lump_sum_field()
        for name in self.settings:
            self.fields[f"rule_{name}"] = setting_field(name, current=True)
            if name not in game.rules:  # its default until changed: left empty, it stays
                self.fields[f"rule_{name}"].required = False
        self.fields["reason"] = forms.CharField(
            label=_("Why?"), max_length=300,
            error_messages={"required": _("Why? Say why the rules or stakes change, in a few "
                                          "words: it is kept in the game's history.")},
            widget=forms.TextInput(attrs={"placeholder": gettext("e.g. we agreed two cents"),
                                          "autocomplete": "off"}))

    # -- groups of fields for the template, each with the game's value now
    def stake_rows(self) -> list[dict]:
        names = ["ante"] if self.ante_staked else ["rate", "per_points"]
        if self.lump_sum:
            names.append("lump_sum_stake")
        return [self._row(name) for name in names]

    def seat_rows(self) -> list[dict]:
        if self.ante_staked:
            return []
        return [self._row(f"stake_{seat.seat}") for seat in self.seats]

    def rule_rows(self) -> list[dict]:
        return [self._row(f"rule_{name}") for name in self.settings]

    def _row(self, name: str) -> dict:
        field = self[name]
        now = self.initial.get(name)
        now_text = "" if now in (None, "") else str(now)
        if isinstance(field.field, forms.ChoiceField):
            now_text = dict(field.field.choices).get(now, now_text)
        changed = self.is_bound and _text(field.value()) != _text(now)
        if name.startswith("stake_") and not now_text:
            now_text = gettext("same as the game")
        return {"field": field, "now": now_text or gettext("none"), "changed": changed}

    # -- what to hand to the services
    def stake_changes(self) -> dict:
        """Keyword arguments of ``game_change_stake`` for what changed (empty: nothing)."""
        data, game = self.cleaned_data, self.game
        if self.ante_staked:
            return {"ante": str(data["ante"])} if data["ante"] != game.ante else {}
        changes: dict = {}
        rate = data.get("rate")
        if rate != game.rate:
            changes["rate"] = None if rate is None else str(rate)
        own = {}
        for seat in self.seats:
            stake = data.get(f"stake_{seat.seat}")
            if stake != seat.stake:
                own[seat.player.name] = None if stake is None else str(stake)
        if own:
            changes["player_stakes"] = own
        if self.lump_sum and data.get("lump_sum_stake") != game.lump_sum_stake:
            lump = data.get("lump_sum_stake")
            changes["lump_sum_stake"] = None if lump is None else str(lump)
        played_for_money = rate is not None or any(
            data.get(f"stake_{seat.seat}") is not None for seat in self.seats)
        if played_for_money:
            per_points = data.get("per_points") or 1
            if per_points != game.per_points:
                changes["per_points"] = per_points
        return changes

    def rule_changes(self) -> dict:
        """``changes`` of ``game_change_rules``: the settings whose value changed."""
        changes = {}
        for name in self.settings:
            raw = self.cleaned_data.get(f"rule_{name}")
            if raw in (None, "") and name not in self.game.rules:
                continue
            value = setting_value(name, raw)
            if value != setting_now(self.game.rules, name):
                changes[name] = value
        return changes

    def add_problems(self, problems) -> None:
        """Put a refusal (``RecordRefused.details``) at the field it names; a refusal of
        the hands rescored under a changed rule goes to that rule when only one rule
        changed."""
        slot_of = {seat.player.name: seat.seat for seat in self.seats}
        changed_rules = list(self.rule_changes()) if hasattr(self, "cleaned_data") else []
        for problem in problems:
            field = setup_field(problem, slot_of)
            text = problems_words.at_field(problem)
            if field is None and len(changed_rules) == 1:
                field, text = f"rule_{changed_rules[0]}", problems_words.line(problem)
            if field in self.fields:
                self.add_error(field, text)
            else:
                self.add_error(None, problems_words.line(problem))


def _text(value) -> str:
    """A field's value as compared for "changed": 0 is "0", None is "", 0.010 is 0.01."""
    text = "" if value is None else str(value).strip()
    try:
        return str(Decimal(text).normalize()) if text else ""
    except InvalidOperation:
        return text

