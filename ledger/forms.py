"""Forms of the scorekeeper's screens.

The forms only collect what the scorekeeper typed and turn it into the objects of the game
record (formats/game-record.md); every check of the rules is the scoring core's. When the
core refuses a hand, ``HandForm.add_problems`` puts each of its problem lines at the field
that caused it ("a knock must be 10 or less; Ann counted 12"), keeping what was typed.
"""

from __future__ import annotations

import re
import uuid
from decimal import Decimal, InvalidOperation

from django import forms
from django.core.exceptions import ValidationError

from .cleaning import (
    MAX_PER_POINTS,
    CleanInputMixin,
    Refused,
    clean_currency,
    clean_name,
    is_plain_int,
    name_key,
)
from .models import Variant
from .rules.cards import CardError, parse_cards
from .rules.settings import CHOICES, DEFAULTS, PRESETS, default_preset
from .selectors import decimal_text

NUMERIC = {"inputmode": "numeric", "pattern": "[0-9]*", "autocomplete": "off",
           "enterkeyhint": "next"}
DECIMAL = {"inputmode": "decimal", "autocomplete": "off"}
CARDS_INPUT = {"autocomplete": "off", "autocapitalize": "characters", "autocorrect": "off",
               "spellcheck": "false", "enterkeyhint": "next", "class": "cards-text",
               "placeholder": "e.g. AS 2S 3S 10H KD"}

# -- small helpers ---------------------------------------------------------------------------


class SegmentedRadio(forms.RadioSelect):
    """Radio buttons drawn as big tappable segments (templates/ledger/_seg.html)."""

    def __init__(self, *args, columns: int = 0, **kwargs):
        super().__init__(*args, **kwargs)
        self.columns = columns


def count_field(label: str, required: bool = False) -> forms.CharField:
    """A deadwood or points count: a numeric keypad on phones, whole numbers only."""
    return forms.CharField(label=label, required=required, max_length=3,
                           widget=forms.TextInput(attrs={**NUMERIC, "class": "count"}))


def parse_count(value: str) -> int | None:
    value = (value or "").strip()
    if value == "":
        return None
    if not is_plain_int(value) or not value.isdigit():  # '²' and '١' are digits to Python
        raise ValueError(value)
    return int(value)


def stake_field(label: str, **kwargs) -> forms.DecimalField:
    return forms.DecimalField(label=label, required=False, min_value=Decimal("0.0001"),
                              max_digits=9, decimal_places=4,
                              widget=forms.TextInput(attrs=DECIMAL), **kwargs)


# -- tables, players, sessions ---------------------------------------------------------------


def reserved_name(name: str) -> str | None:
    """Why ``name`` cannot be a player's: the hand form's Draw and Nobody are values among
    the players' names, so a player called so would knock as a draw."""
    what = {DRAW: "Draw", NOBODY: "Nobody"}.get(name)
    if what:
        return f'"{name}" is kept for the hand form\'s {what}; give the player another name.'
    return None


class TableForm(CleanInputMixin, forms.Form):
    name = forms.CharField(max_length=100, label="Table name",
                           widget=forms.TextInput(attrs={"autocomplete": "off"}))
    players = forms.CharField(
        label="Players", required=False,
        help_text="One name per line (or separated by commas).",
        widget=forms.Textarea(attrs={"rows": 4, "autocomplete": "off"}),
    )

    def clean_players(self) -> list[str]:
        raw = self.cleaned_data["players"]
        names = [name.strip() for name in re.split(r"[\n,]", raw) if name.strip()]
        seen: list[str] = []
        for name in names:
            try:
                name = clean_name(name, what=f"The name {name[:20]!r}", max_length=10 ** 6)
            except Refused as exc:
                raise ValidationError(exc.message) from None
            if name in seen:
                raise ValidationError(f"{name} is listed twice.")
            first = next((other for other in seen if name_key(other) == name_key(name)), None)
            if first:
                raise ValidationError(f"{name} is listed twice (as {first}).")
            if len(name) > 60:
                raise ValidationError(f"The name {name[:20]}... is too long.")
            if reserved_name(name):
                raise ValidationError(reserved_name(name))
            seen.append(name)
        return seen


class PlayerForm(CleanInputMixin, forms.Form):
    name = forms.CharField(max_length=60, label="New player",
                           widget=forms.TextInput(attrs={"autocomplete": "off"}))

    def __init__(self, *args, table_names: list[str] = (), **kwargs):
        super().__init__(*args, **kwargs)
        self.table_names = list(table_names)

    def clean_name(self) -> str:
        try:
            name = clean_name(self.cleaned_data["name"], what="The name")
        except Refused as exc:
            raise ValidationError(exc.message) from None
        if reserved_name(name):
            raise ValidationError(reserved_name(name))
        same = next((other for other in self.table_names
                     if name_key(other) == name_key(name) and other != name), None)
        if same:
            raise ValidationError(f"{same} already plays at this table: names differing only "
                                  "in capitals, width, spaces or invisible characters are the "
                                  "same player.")
        return name


class SessionForm(CleanInputMixin, forms.Form):
    date = forms.DateField(widget=forms.DateInput(attrs={"type": "date"}))
    place = forms.CharField(max_length=200, required=False)
    currency = forms.CharField(max_length=3, initial="USD",
                               widget=forms.TextInput(attrs={"autocapitalize": "characters",
                                                             "size": 4}))
    rate = stake_field("Stake", help_text="Money per points below; empty: not for money.")
    per_points = forms.IntegerField(label="per points", min_value=1, initial=1,
                                    max_value=MAX_PER_POINTS,
                                    widget=forms.TextInput(attrs=NUMERIC))

    def clean_currency(self) -> str:
        try:
            return clean_currency(self.cleaned_data["currency"])
        except Refused:
            raise ValidationError("A currency code of ISO 4217, such as USD or EUR.") from None


# -- starting a game -------------------------------------------------------------------------

#: Variants and the numbers of players each takes, for the "new game" chooser.
VARIANT_COUNTS = {
    "gin": (2,), "oklahoma": (2,), "hollywood": (2,), "box": (3,),
    "captain": (3, 5, 7), "partnership": (4, 6), "cap-it": (4, 5, 6),
}

GIN_SETTINGS = ("target", "gin_bonus", "undercut_bonus", "big_gin_bonus", "box_bonus",
                "game_bonus", "shutout_mode", "knock_limit", "undercut_on_tie", "dealer_rule")
VARIANT_SETTINGS = {
    "gin": GIN_SETTINGS,
    "oklahoma": (*GIN_SETTINGS, "oklahoma_ace", "spade_double"),
    "hollywood": (*GIN_SETTINGS, "hollywood_third_double"),
    "box": (*GIN_SETTINGS, "three_hand_money"),
    "captain": (*GIN_SETTINGS, "balance_division"),
    "partnership": (*GIN_SETTINGS, "balance_division"),
    "cap-it": ("capit_ace_value", "capit_round_share", "capit_round_winner"),
}
SETTING_LABELS = {
    "target": "Game to", "gin_bonus": "Gin bonus", "undercut_bonus": "Undercut bonus",
    "big_gin_bonus": "Big gin bonus (0 = off)", "box_bonus": "Box bonus",
    "game_bonus": "Game bonus", "shutout_mode": "Shutout", "knock_limit": "Knock limit",
    "undercut_on_tie": "A tie is an undercut", "dealer_rule": "Next dealer",
    "oklahoma_ace": "Ace up-card", "spade_double": "Spade up-card doubles",
    "hollywood_third_double": "Third column counts double",
    "three_hand_money": "Money between three", "balance_division": "Unequal stakes",
    "capit_ace_value": "Ace counts", "capit_round_share": "Round share",
    "capit_round_winner": "Round winner by",
}
FLAG_SETTINGS = ("undercut_on_tie", "spade_double", "hollywood_third_double")


def setting_field(setting: str, *, current: bool = False) -> forms.Field:
    """The field of one rule setting. At game setup (``current`` False) it may be left
    empty for the preset's value; to change a running game's setting (``current`` True) it
    holds the game's value and is required."""
    label = SETTING_LABELS[setting]
    blank = [] if current else [("", "preset")]
    if setting in FLAG_SETTINGS:
        return forms.ChoiceField(label=label, required=current,
                                 choices=[*blank, ("yes", "Yes"), ("no", "No")])
    if setting in CHOICES:
        return forms.ChoiceField(label=label, required=current, choices=[*blank] + [
            (value, value.replace("_", " ")) for value in CHOICES[setting]])
    if setting == "capit_round_share":
        return forms.CharField(label=label, required=current, max_length=10,
                               help_text='"10%" of the pot or an amount like "2.00"',
                               widget=forms.TextInput(attrs={"placeholder": "10%"}))
    default = PRESETS["standard"].get(setting, DEFAULTS.get(setting))
    attrs = {**NUMERIC} if current else {**NUMERIC, "placeholder": str(default)}
    return forms.IntegerField(label=label, required=current, min_value=0,
                              widget=forms.TextInput(attrs=attrs))


def setting_value(setting: str, value):
    """A setting field's cleaned value as the game record writes it (flags as booleans)."""
    if setting in FLAG_SETTINGS:
        return value == "yes"
    return value


def setting_initial(setting: str, value):
    """A game's setting as its field shows it."""
    if setting in FLAG_SETTINGS:
        return "yes" if value else "no"
    return value


def slots_for(variant: str, count: int) -> list[tuple[str, str]]:
    """The seats of the setup form: (field name, label), in the record's player order."""
    if variant in ("gin", "oklahoma", "hollywood"):
        return [("p1", "Player 1"), ("p2", "Player 2")]
    if variant == "box":
        return [("p1", "High card: in the box"), ("p2", "Middle card: captain"),
                ("p3", "Low card: sits out")]
    if variant == "captain" and count == 3:
        return [("p1", "High card: captain"), ("p2", "Second card: plays first"),
                ("p3", "Third card")]
    if variant == "captain":
        sides = count // 2
        return ([(f"c{i}", f"Captain {i} (red)") for i in range(1, sides + 1)]
                + [(f"o{i}", f"Opponent {i} (black), table {i}") for i in range(1, sides + 1)]
                + [("sitter", "Black Ace: sits out")])
    if variant == "partnership":
        half = count // 2
        return ([(f"a{i}", f"First side, table {i}") for i in range(1, half + 1)]
                + [(f"b{i}", f"Second side, table {i}") for i in range(1, half + 1)])
    return [(f"p{i}", f"Seat {i}") for i in range(1, count + 1)]


def needs_first_dealer(variant: str) -> bool:
    return variant in ("gin", "oklahoma", "hollywood", "cap-it")


class GameStartForm(CleanInputMixin, forms.Form):
    """Variant setup: players in their seats with their own stakes, preset and settings."""

    def __init__(self, *args, variant: str, count: int, player_names: list[str],
                 session_rate: Decimal | str | None, session_per_points: int, **kwargs):
        super().__init__(*args, **kwargs)
        self.variant = variant
        self.count = count
        self.slots = slots_for(variant, count)
        choices = [("", "— choose —")] + [(name, name) for name in player_names]
        for name, label in self.slots:
            self.fields[name] = forms.ChoiceField(label=label, choices=choices, required=True)
            self.fields[f"stake_{name}"] = stake_field("Own stake")
            self.fields[f"stake_{name}"].widget.attrs["placeholder"] = "same"
        if needs_first_dealer(variant):
            self.fields["first_dealer"] = forms.ChoiceField(
                label="Deals first", choices=choices, required=True)
        if variant == "partnership":
            self.fields["side_a"] = forms.CharField(label="First side's name", initial="We",
                                                    max_length=30)
            self.fields["side_b"] = forms.CharField(label="Second side's name",
                                                    initial="They", max_length=30)
            self.fields["first_dealer_side"] = forms.ChoiceField(
                label="Deals first", initial="b", widget=SegmentedRadio(),
                choices=[("a", "First side"), ("b", "Second side")])
        if variant == "cap-it":
            self.fields["ante"] = stake_field("Ante (each player)")
            self.fields["ante"].required = True
        else:
            self.fields["preset"] = forms.ChoiceField(
                choices=[(name, name.title()) for name in PRESETS],
                initial=default_preset(variant), widget=SegmentedRadio())
            self.fields["rate"] = stake_field("Stake", initial=session_rate)
            self.fields["per_points"] = forms.IntegerField(
                label="per points", min_value=1, initial=session_per_points, required=False,
                max_value=MAX_PER_POINTS, widget=forms.TextInput(attrs=NUMERIC))
        for setting in VARIANT_SETTINGS[variant]:
            self.fields[f"rule_{setting}"] = setting_field(setting)

    # -- groups of fields for the template
    def slot_rows(self):
        return [(self[name], self[f"stake_{name}"]) for name, _ in self.slots]

    def rule_fields(self):
        return [self[f"rule_{setting}"] for setting in VARIANT_SETTINGS[self.variant]]

    def clean(self):
        data = super().clean()
        chosen = [data.get(name) for name, _ in self.slots]
        seen: set[str] = set()
        for (name, _), value in zip(self.slots, chosen, strict=True):
            if value and value in seen:
                self.add_error(name, f"{value} already has a seat.")
            seen.add(value)
        dealer = data.get("first_dealer")
        if dealer and dealer not in chosen:
            self.add_error("first_dealer", f"{dealer} is not playing in this game.")
        if self.variant == "partnership":
            for side in ("side_a", "side_b"):
                if data.get(side):
                    try:
                        data[side] = clean_name(data[side], what="The side's name", max_length=30)
                    except Refused as exc:
                        self.add_error(side, exc.message)
            if data.get("side_a") and name_key(data["side_a"]) == name_key(data.get("side_b", "")):
                self.add_error("side_b", "The two sides need different names.")
            for side in ("side_a", "side_b"):
                if data.get(side) and any(name_key(data[side]) == name_key(player)
                                          for player in chosen if player):
                    self.add_error(side, f"{data[side]} is a player's name; "
                                         "give the side another.")
        return data

    # -- what to hand to services.game_start
    def players(self) -> list[str]:
        return [self.cleaned_data[name] for name, _ in self.slots]

    def setup(self) -> dict:
        data = self.cleaned_data
        if needs_first_dealer(self.variant):
            return {"first_dealer": data["first_dealer"]}
        if self.variant == "captain" and self.count > 3:
            sides = self.count // 2
            return {"captains": [data[f"c{i}"] for i in range(1, sides + 1)],
                    "opponents": [data[f"o{i}"] for i in range(1, sides + 1)],
                    "sitter": data["sitter"]}
        if self.variant == "partnership":
            half = self.count // 2
            sides = {data["side_a"]: [data[f"a{i}"] for i in range(1, half + 1)],
                     data["side_b"]: [data[f"b{i}"] for i in range(1, half + 1)]}
            setup: dict = {"sides": sides}
            if data.get("first_dealer_side") == "a":
                setup["first_dealer_side"] = data["side_a"]
            return setup
        return {}

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

    def add_problems(self, problems: list[str]) -> None:
        """Put the core's refusal of the setup at the fields it names."""
        by_player = {self.cleaned_data.get(name): name for name, _ in self.slots}
        for problem in problems:
            where, _, text = problem.partition(": ")
            field = None
            if where.startswith("rules."):
                field = f"rule_{where[6:]}"
            elif where == "setup.first_dealer":
                field = "first_dealer"
            elif where.startswith("stakes.players."):
                slot = by_player.get(where[len("stakes.players."):])
                field = f"stake_{slot}" if slot else None
            elif where in ("stakes.rate", "rate"):
                field = "rate"
            elif where in ("stakes.ante", "ante"):
                field = "ante"
            if field in self.fields:
                self.add_error(field, text or problem)
            else:
                self.add_error(None, problem)


# -- correcting a game's stakes and rules ----------------------------------------------------


class GameSettingsForm(CleanInputMixin, forms.Form):
    """A game's stakes and every rule setting of its variant, filled with the values it has
    now; ``stake_changes`` and ``rule_changes`` give only what the scorekeeper changed, as
    the arguments of ``services.game_change_stake`` and ``services.game_change_rules``."""

    def __init__(self, *args, game, seats, **kwargs):
        self.game = game
        self.seats = list(seats)
        self.settings = [name for name in VARIANT_SETTINGS[game.variant] if name in game.rules]
        initial = {f"rule_{name}": setting_initial(name, game.rules[name])
                   for name in self.settings}
        if game.variant == "cap-it":
            initial["ante"] = _stake_text(game.ante, game.currency)
        else:
            initial["rate"] = _stake_text(game.rate, game.currency)
            initial["per_points"] = game.per_points or 1
            for seat in self.seats:
                initial[f"stake_{seat.seat}"] = _stake_text(seat.stake, game.currency)
        super().__init__(*args, initial=initial, **kwargs)
        if game.variant == "cap-it":
            self.fields["ante"] = stake_field("Ante (each player)")
            self.fields["ante"].required = True
        else:
            self.fields["rate"] = stake_field("Stake")
            self.fields["per_points"] = forms.IntegerField(
                label="per points", min_value=1, max_value=MAX_PER_POINTS, required=False,
                widget=forms.TextInput(attrs=NUMERIC))
            for seat in self.seats:
                field = stake_field(f"{seat.player.name}'s own stake")
                field.widget.attrs["placeholder"] = "same"
                self.fields[f"stake_{seat.seat}"] = field
        for name in self.settings:
            self.fields[f"rule_{name}"] = setting_field(name, current=True)
        self.fields["reason"] = forms.CharField(
            label="Why?", max_length=300,
            widget=forms.TextInput(attrs={"placeholder": "e.g. we agreed two cents",
                                          "autocomplete": "off"}))

    # -- groups of fields for the template, each with the game's value now
    def stake_rows(self) -> list[dict]:
        names = ["ante"] if self.game.variant == "cap-it" else ["rate", "per_points"]
        return [self._row(name) for name in names]

    def seat_rows(self) -> list[dict]:
        if self.game.variant == "cap-it":
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
            now_text = "same as the game"
        return {"field": field, "now": now_text or "none", "changed": changed}

    # -- what to hand to the services
    def stake_changes(self) -> dict:
        """Keyword arguments of ``game_change_stake`` for what changed (empty: nothing)."""
        data, game = self.cleaned_data, self.game
        if game.variant == "cap-it":
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
            value = setting_value(name, self.cleaned_data.get(f"rule_{name}"))
            if value != self.game.rules[name]:
                changes[name] = value
        return changes

    def add_problems(self, problems: list[str]) -> None:
        """Put a refusal at the field it names; a refusal of the hands rescored under a
        changed rule goes to that rule when only one rule changed."""
        seat_of = {seat.player.name: seat.seat for seat in self.seats}
        changed_rules = list(self.rule_changes()) if hasattr(self, "cleaned_data") else []
        for problem in problems:
            where, _, text = problem.partition(": ")
            field = None
            if where.startswith("rules."):
                field = f"rule_{where[6:]}"
            elif where.startswith("stakes.players."):
                name = where[len("stakes.players."):]
                field = f"stake_{seat_of[name]}" if name in seat_of else None
            elif where in ("rate", "stakes.rate"):
                field = "rate"
            elif where in ("per_points", "stakes.per_points"):
                field = "per_points"
            elif where in ("ante", "stakes.ante"):
                field = "ante"
            elif len(changed_rules) == 1:
                field, text = f"rule_{changed_rules[0]}", problem
            if field in self.fields:
                self.add_error(field, text or problem)
            else:
                self.add_error(None, problem)


def _text(value) -> str:
    """A field's value as compared for "changed": 0 is "0", None is "", 0.010 is 0.01."""
    text = "" if value is None else str(value).strip()
    try:
        return str(Decimal(text).normalize()) if text else ""
    except InvalidOperation:
        return text


def _stake_text(value: Decimal | None, currency: str) -> str:
    """A stored stake as the record writes it: Decimal("0.0200") -> "0.02", "5.00"."""
    return "" if value is None else decimal_text(value, currency)


# -- entering a hand -------------------------------------------------------------------------

KIND_CHOICES = [("knock", "Knock"), ("gin", "Gin"), ("big_gin", "Big gin")]
RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
SUITS = [("S", "♠"), ("H", "♥"), ("D", "♦"), ("C", "♣")]
DRAW = "-draw-"
NOBODY = "-nobody-"

_WHERE = re.compile(r"^hand (\d+)(?: \(round \d+\))?(?:, table (\d+))?(?:, ([^:]+))?: (.*)$")
_LIMIT = re.compile(r"^knocker deadwood (\d+) is above the knock limit (\d+)$|"
                    r"^knocker deadwood (\d+) is above (.*), knock limit (\d+)$")


class HandForm(CleanInputMixin, forms.Form):
    """One hand (or CAP-IT round), built for the players who play it.

    ``spec`` comes from the core's result (``views_game.hand_spec``):
    ``{"kind": "duels", "duels": [{"players": [a, b], "label": ...}], "upcard": bool,
    "big_gin": bool, "cut_candidates": [...] or None}`` or
    ``{"kind": "capit", "players": [...], "contract": ...}``.
    """

    key = forms.UUIDField(widget=forms.HiddenInput)
    number = forms.IntegerField(widget=forms.HiddenInput)
    card_ranks = RANKS  # the picker's grid
    card_suits = SUITS

    def __init__(self, *args, spec: dict, correcting: bool = False, **kwargs):
        super().__init__(*args, **kwargs)
        self.spec = spec
        self.correcting = correcting
        if spec["kind"] == "capit":
            self._capit_fields()
        else:
            self._duel_fields()
        if correcting:
            # the recorded hand the form was opened on, so that a stale form cannot void a
            # newer correction (without it: the hand live now)
            self.fields["hand"] = forms.IntegerField(required=False, widget=forms.HiddenInput)
            self.fields["reason"] = forms.CharField(
                label="Why the correction?", max_length=300,
                widget=forms.TextInput(attrs={"placeholder": "e.g. Bob's count was 17",
                                              "autocomplete": "off"}))

    # -- fields
    def _duel_fields(self) -> None:
        for i, duel in enumerate(self.spec["duels"], start=1):
            a, b = duel["players"]
            self.fields[f"t{i}_knocker"] = forms.ChoiceField(
                label="Who knocked?", widget=SegmentedRadio(columns=3),
                choices=[(a, a), (b, b), (DRAW, "Draw")],
                error_messages={"required": "Who knocked? Tap a name, or Draw."})
            self.fields[f"t{i}_kind"] = forms.ChoiceField(
                label="How", initial="knock", required=False, widget=SegmentedRadio(columns=3),
                choices=KIND_CHOICES if self.spec.get("big_gin") else KIND_CHOICES[:2])
            self.fields[f"t{i}_c0"] = count_field(f"{a}'s count")
            self.fields[f"t{i}_c1"] = count_field(f"{b}'s count")
            for c, name in enumerate((a, b)):
                self.fields[f"t{i}_cards{c}"] = forms.CharField(
                    label=f"{name}'s cards", required=False, max_length=200,
                    widget=forms.Textarea(attrs={**CARDS_INPUT, "data-pos": c, "rows": 2}))
        if self.spec.get("upcard"):
            self.fields["up_rank"] = forms.ChoiceField(
                label="Up-card", required=False, choices=[(r, r) for r in RANKS],
                widget=SegmentedRadio(columns=7))
            self.fields["up_suit"] = forms.ChoiceField(
                label="Suit", required=False, choices=SUITS, widget=SegmentedRadio(columns=4))
        if self.spec.get("cut_candidates"):
            self.fields["cut_loser"] = forms.ChoiceField(
                label="Tie for most points lost: who cut the lower card?", required=False,
                choices=[("", "no tie")] + [(n, n) for n in self.spec["cut_candidates"]],
                widget=SegmentedRadio(columns=3))

    def _capit_fields(self) -> None:
        players = self.spec["players"]
        self.fields["went_out"] = forms.ChoiceField(
            label="Who went out?", widget=SegmentedRadio(columns=3),
            choices=[(p, p) for p in players] + [(NOBODY, "Nobody: stock out")],
            error_messages={"required": "Who went out? Tap a name, or Nobody."})
        for j, name in enumerate(players):
            self.fields[f"pts_{j}"] = count_field(f"{name}'s points")

    # -- groups for the template
    def duel_rows(self):
        rows = []
        for i, duel in enumerate(self.spec.get("duels", []), start=1):
            cards = [self[f"t{i}_cards0"], self[f"t{i}_cards1"]]
            rows.append({"index": i, "label": duel.get("label"), "players": duel["players"],
                         "dealer": duel.get("dealer"),
                         "knocker": self[f"t{i}_knocker"], "kind": self[f"t{i}_kind"],
                         "counts": [self[f"t{i}_c0"], self[f"t{i}_c1"]],
                         "cards": cards,
                         "cards_open": any(f.value() or f.errors for f in cards),
                         "preview": self._cards_preview(i, duel)})
        return rows

    def knock_limit(self) -> tuple[int, bool]:
        """The hand's knock limit and whether only gin may end it (an Oklahoma Ace)."""
        limit = self.spec.get("knock_limit", 10)
        if not self.spec.get("upcard"):
            return limit, False
        rank = (self.data.get("up_rank") if self.is_bound else None) or ""
        if rank == "A":
            gin_only = self.spec.get("oklahoma_ace", "gin_only") == "gin_only"
            return (0 if gin_only else 1), gin_only
        if rank in RANKS:
            return min(RANKS.index(rank) + 1, 10), False
        return limit, False

    def _cards_preview(self, i: int, duel: dict) -> dict | None:
        """The picker's preview, drawn by the server on a refused form (no JavaScript)."""
        if not self.is_bound:
            return None
        texts = [self.data.get(self.add_prefix(f"t{i}_cards{c}"), "") for c in (0, 1)]
        if not any(text.strip() for text in texts):
            return None
        from .views_cards import preview_context

        a, b = duel["players"]
        knocker = self.data.get(self.add_prefix(f"t{i}_knocker"))
        limit, gin_only = self.knock_limit()
        if knocker == b:
            return preview_context(texts[1], texts[0], kname=b, oname=a, limit=limit,
                                   ace_gin_only=gin_only)
        return preview_context(texts[0], texts[1], kname=a, oname=b, limit=limit,
                               ace_gin_only=gin_only, solo=knocker != a)

    def point_fields(self):
        return [self[f"pts_{j}"] for j in range(len(self.spec.get("players", [])))]

    # -- validation: only what a form can know; the rules are the core's
    def clean(self):
        data = super().clean()
        damaged = [name for name in ("key", "number", "hand") if name in self.errors]
        if damaged:  # hidden fields: nobody typed them, so say what to do, not which field
            self.add_error(None, "This form was damaged or out of date (its "
                           + " and ".join(damaged) + "); reload the game and enter the "
                           "hand again.")
        if self.spec["kind"] == "capit":
            out = data.get("went_out")
            for j, name in enumerate(self.spec["players"]):
                field = f"pts_{j}"
                try:
                    value = parse_count(data.get(field, ""))
                except ValueError:
                    self.add_error(field, f"{name}'s points: a whole number, like 25.")
                    continue
                if value is None and name != out and out:
                    self.add_error(field, f"Enter {name}'s points (0 if none).")
            return data
        self.cards: dict[tuple[int, int], tuple] = {}
        for i, duel in enumerate(self.spec["duels"], start=1):
            knocker = data.get(f"t{i}_knocker")
            kind = data.get(f"t{i}_kind") or "knock"
            with_cards = self._clean_cards(i, duel)
            counts = []
            for c, name in enumerate(duel["players"]):
                field = f"t{i}_c{c}"
                try:
                    counts.append(parse_count(data.get(field, "")))
                except ValueError:
                    self.add_error(field, f"{name}'s count: a whole number, like 7.")
                    counts.append(None)
                    continue
            if not knocker or knocker == DRAW:
                continue
            if with_cards:
                self._clean_counts_with_cards(i, duel, knocker, kind, counts)
                continue
            for c, name in enumerate(duel["players"]):
                field = f"t{i}_c{c}"
                if field in self.errors:
                    continue
                if name == knocker and kind != "knock":
                    if counts[c]:
                        what = "a big gin" if kind == "big_gin" else "a gin"
                        self.add_error(field, f"{what} has no deadwood; {name} counted "
                                              f"{counts[c]} (tap Knock, or clear the count).")
                elif counts[c] is None:
                    self.add_error(field, f"Enter {name}'s count.")
        if self.spec.get("upcard"):
            if any(data.get(f"t{i}_knocker") not in (None, "", DRAW)
                   for i in range(1, len(self.spec["duels"]) + 1)):
                if not data.get("up_rank"):
                    self.add_error("up_rank", "Tap the up-card's rank.")
                if not data.get("up_suit"):
                    self.add_error("up_suit", "Tap the up-card's suit.")
        return data

    def _clean_cards(self, i: int, duel: dict) -> bool:
        """Read the cards typed or tapped for table ``i``; True when any were given."""
        data = self.cleaned_data
        texts = [(data.get(f"t{i}_cards{c}") or "").strip() for c in (0, 1)]
        given = any(texts)
        for c, name in enumerate(duel["players"]):
            field = f"t{i}_cards{c}"
            text = texts[c]
            if not text:
                continue
            try:
                self.cards[(i, c)] = parse_cards(text)
            except CardError as error:
                self.add_error(field, f"{name}'s cards: {error}")
        if (i, 0) in self.cards and (i, 1) in self.cards:
            shared = [card for card in self.cards[(i, 1)] if card in self.cards[(i, 0)]]
            if shared:
                a, b = duel["players"]
                self.add_error(f"t{i}_cards1", f'"{shared[0]}" is in both hands: '
                                               f"{a}'s and {b}'s")
        if given and data.get(f"t{i}_knocker") not in (None, "", DRAW):
            for c, name in enumerate(duel["players"]):
                field = f"t{i}_cards{c}"
                other = duel["players"][1 - c]
                if not texts[c]:
                    self.add_error(field, f"Enter {name}'s cards too, or clear {other}'s "
                                          f"and enter the counts.")
        return given

    def _clean_counts_with_cards(self, i, duel, knocker, kind, counts) -> None:
        """With the cards the counts may be left empty; if given, both are (the core
        checks them against the cards)."""
        for c, name in enumerate(duel["players"]):
            field = f"t{i}_c{c}"
            if field in self.errors:
                return
            if name == knocker and kind != "knock" and counts[c]:
                what = "a big gin" if kind == "big_gin" else "a gin"
                self.add_error(field, f"{what} has no deadwood; {name} counted "
                                      f"{counts[c]} (tap Knock, or clear the count).")
                return
        needed = [c for c, name in enumerate(duel["players"])
                  if not (name == knocker and kind != "knock")]
        given = [c for c in needed if counts[c] is not None]
        if given and len(given) < len(needed):
            for c in needed:
                if counts[c] is None:
                    name = duel["players"][c]
                    other = duel["players"][1 - c]
                    self.add_error(f"t{i}_c{c}", f"Enter {name}'s count too, or clear "
                                                 f"{other}'s: the cards give both.")

    # -- the hand object of the record
    def _duel_entry(self, i: int, duel: dict) -> dict:
        data = self.cleaned_data
        knocker = data[f"t{i}_knocker"]
        if knocker == DRAW:
            return {"draw": True}
        kind = data.get(f"t{i}_kind") or "knock"
        if (i, 0) in self.cards and (i, 1) in self.cards:
            return self._cards_entry(i, duel, knocker, kind)
        counts = {}
        for c, name in enumerate(duel["players"]):
            value = parse_count(data.get(f"t{i}_c{c}", ""))
            if name == knocker and kind != "knock":
                value = 0
            counts[name] = value
        entry: dict = {"knocker": knocker}
        if kind == "big_gin":
            entry["big_gin"] = True
        # knocker's count first, as the record writes it
        opponent = next(name for name in duel["players"] if name != knocker)
        entry["deadwood"] = {knocker: counts[knocker], opponent: counts[opponent]}
        return entry

    def _cards_entry(self, i: int, duel: dict, knocker: str, kind: str) -> dict:
        """A hand entered with the cards: the core works the counts out (or checks them,
        when they were typed as well)."""
        data = self.cleaned_data
        opponent = next(name for name in duel["players"] if name != knocker)
        position = {name: c for c, name in enumerate(duel["players"])}
        entry: dict = {"knocker": knocker}
        if kind == "big_gin":
            entry["big_gin"] = True
        elif kind == "gin":
            entry["gin"] = True
        entry["cards"] = {name: " ".join(str(card) for card in self.cards[(i, position[name])])
                          for name in (knocker, opponent)}
        counts = {name: parse_count(data.get(f"t{i}_c{position[name]}", ""))
                  for name in (knocker, opponent)}
        if kind != "knock":
            counts[knocker] = 0 if counts[opponent] is not None else None
        if counts[knocker] is not None and counts[opponent] is not None:
            entry["deadwood"] = counts
        return entry

    def entry(self) -> dict:
        data = self.cleaned_data
        if self.spec["kind"] == "capit":
            out = data["went_out"]
            went_out = None if out == NOBODY else out
            points = {}
            for j, name in enumerate(self.spec["players"]):
                value = parse_count(data.get(f"pts_{j}", ""))
                if name == went_out and value is None:
                    continue
                points[name] = value or 0
            return {"went_out": went_out, "points": points}
        duels = self.spec["duels"]
        if self.spec.get("tables"):
            entry: dict = {"tables": [self._duel_entry(i, duel)
                                      for i, duel in enumerate(duels, start=1)]}
            if data.get("cut_loser"):
                entry["cut_loser"] = data["cut_loser"]
            return entry
        entry = self._duel_entry(1, duels[0])
        if self.spec.get("upcard") and not entry.get("draw"):
            entry = {"upcard": f"{data['up_rank']}{data['up_suit']}", **entry}
        return entry

    # -- the core's refusal, at the fields
    def add_problems(self, problems: list[str]) -> None:
        for problem in problems:
            field, message = self._place(problem)
            self.add_error(field if field in self.fields else None, message)

    def _count_field(self, table: int, name: str) -> str | None:
        duels = self.spec.get("duels", [])
        if 1 <= table <= len(duels) and name in duels[table - 1]["players"]:
            return f"t{table}_c{duels[table - 1]['players'].index(name)}"
        return None

    def _cards_field(self, table: int, name: str | None) -> str | None:
        duels = self.spec.get("duels", [])
        if 1 <= table <= len(duels) and name in duels[table - 1]["players"]:
            return f"t{table}_cards{duels[table - 1]['players'].index(name)}"
        return None

    def _place_cards(self, table: int, knocker, text: str) -> tuple[str | None, str] | None:
        """Where a refusal of a hand entered with cards goes: at the cards, or at the
        count the cards cannot give."""
        if (table, 0) not in self.cards:
            return None
        players = self.spec["duels"][table - 1]["players"]
        opponent = next((name for name in players if name != knocker), None)
        field_name, _, detail = text.partition(": ")
        if field_name.startswith("cards."):
            name = field_name[len("cards."):]
            return self._cards_field(table, name), f"{name}'s cards: {detail}"
        if field_name == "cards":
            if detail.startswith("the knocker"):
                return (self._cards_field(table, knocker),
                        f"{knocker}'s cards: {knocker}{detail[len('the knocker'):]}")
            if detail.startswith("the opponent"):
                return (self._cards_field(table, opponent),
                        f"{opponent}'s cards: {opponent}{detail[len('the opponent'):]}")
            return self._cards_field(table, opponent), detail
        if field_name in ("gin", "big_gin"):
            return self._cards_field(table, knocker), f"{knocker}'s cards: {detail}"
        if field_name == "deadwood" and detail.startswith("opponent deadwood"):
            return self._count_field(table, opponent), f"{opponent}'s count: {detail}"
        if field_name == "deadwood" and detail.startswith("knocker deadwood"):
            return self._count_field(table, knocker), f"{knocker}'s count: {detail}"
        if field_name == "deadwood":
            return self._cards_field(table, knocker), f"{knocker}'s cards: {detail}"
        return None

    def _place(self, problem: str) -> tuple[str | None, str]:
        match = _WHERE.match(problem)
        if not match:
            return None, problem
        table = int(match.group(2) or 1)
        who, text = match.group(3), match.group(4)
        if self.spec["kind"] == "capit":
            players = self.spec["players"]
            if who in players:
                return f"pts_{players.index(who)}", f"{who}'s {text}"
            if text.startswith("went_out"):
                return "went_out", text.partition(": ")[2] or text
            return None, text
        knocker = self.cleaned_data.get(f"t{table}_knocker")
        placed = self._place_cards(table, knocker, text)
        if placed is not None:
            return placed
        limit = _LIMIT.match(text)
        if limit:
            if limit.group(1):
                counted, cap = limit.group(1), limit.group(2)
                message = f"a knock must be {cap} or less; {knocker} counted {counted}"
            else:
                counted, what, cap = limit.group(3), limit.group(4), limit.group(5)
                message = f"a knock must be {cap} or less ({what}); {knocker} counted {counted}"
            return self._count_field(table, knocker), message
        if text.startswith("knocker deadwood") and "only gin" in text:
            counted = text.split()[2].rstrip(":")
            rest = text.partition(": ")[2]
            return self._count_field(table, knocker), f"{rest}; {knocker} counted {counted}"
        field_name, _, detail = text.partition(": ")
        if field_name.startswith("deadwood."):
            name = field_name[len("deadwood."):]
            return self._count_field(table, name), f"{name}'s count: {detail}"
        if field_name in ("gin", "big_gin"):
            return self._count_field(table, knocker), detail
        if field_name == "upcard":
            return "up_rank", detail
        if field_name == "cut_loser":
            return "cut_loser", detail
        if field_name == "knocker":
            return f"t{table}_knocker", detail
        return None, problem


def new_hand_initial(number: int) -> dict:
    return {"key": uuid.uuid4(), "number": number}


def initial_from_entry(spec: dict, entry: dict) -> dict:
    """The hand form's values for a recorded hand (to correct it)."""
    initial: dict = {}
    if spec["kind"] == "capit":
        initial["went_out"] = entry.get("went_out") or NOBODY
        points = entry.get("points") or {}
        for j, name in enumerate(spec["players"]):
            if name in points:
                initial[f"pts_{j}"] = str(points[name])
        return initial
    entries = entry.get("tables") if spec.get("tables") else [entry]
    for i, (duel, part) in enumerate(zip(spec["duels"], entries or [], strict=False), start=1):
        if part.get("draw"):
            initial[f"t{i}_knocker"] = DRAW
            continue
        knocker = part.get("knocker")
        initial[f"t{i}_knocker"] = knocker
        deadwood = part.get("deadwood") or {}
        cards = part.get("cards") or {}
        if part.get("big_gin"):
            initial[f"t{i}_kind"] = "big_gin"
        elif deadwood.get(knocker) == 0 or part.get("gin"):
            initial[f"t{i}_kind"] = "gin"
        else:
            initial[f"t{i}_kind"] = "knock"
        for c, name in enumerate(duel["players"]):
            if name in deadwood:
                initial[f"t{i}_c{c}"] = str(deadwood[name])
            if name in cards:
                initial[f"t{i}_cards{c}"] = cards[name]
    if entry.get("upcard"):
        initial["up_rank"], initial["up_suit"] = entry["upcard"][:-1], entry["upcard"][-1]
    if entry.get("cut_loser"):
        initial["cut_loser"] = entry["cut_loser"]
    return initial


class ReasonForm(CleanInputMixin, forms.Form):
    reason = forms.CharField(max_length=300, required=False)


def decimal_or_none(value) -> Decimal | None:
    try:
        return Decimal(str(value)) if value not in (None, "") else None
    except InvalidOperation:
        return None


VARIANT_LABELS = dict(Variant.choices)
