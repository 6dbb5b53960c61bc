"""Entering a hand: counts or cards, knocker and kind, and the core's problems put at
their fields."""

from __future__ import annotations

import uuid

from django import forms

from ledger.forms.clean_input import CleanInputMixin
from ledger.presentation.cards import CardError, preview_context, read_cards
from ledger.presentation.cardtext import card_name
from ledger.presentation.catalog import (
    BIG_GIN,
    GIN,
    HAND_KINDS,
    KNOCK,
    PLAY_PLACES,
    ROUND_PLACES,
    Place,
)
from ledger.presentation.elision import gettext as _  # French: "Points d’Eve"
from ledger.presentation.game_page import HandSpec, next_hand_spec
from ledger.presentation.problems import field_words
from ledger.presentation.words import RESULT_WORDS

from .fields import (
    CARDS_INPUT,
    DRAW,
    NOBODY,
    SegmentedRadio,
    count_field,
    parse_count,
)

# -- entering a hand -------------------------------------------------------------------------

#: How a knocker may end a hand (the core's kinds), in the words of a hand's result.
KIND_CHOICES = [(kind, RESULT_WORDS[kind]) for kind in HAND_KINDS]
RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
SUITS = [("S", "♠"), ("H", "♥"), ("D", "♦"), ("C", "♣")]


class HandForm(CleanInputMixin, forms.Form):
    """One hand (or CAP-IT round), built for the players who play it.

    ``spec`` (a ``HandSpec``) comes from the core's result through the presentation
    (``ledger.presentation.game_page.hand_spec``; the next hand's form: ``next_hand_form``):
    ``{"rounds": False, "duels": [{"players": [a, b], "label": ...}], "upcard": bool,
    "oklahoma": bool, "big_gin": bool, "rules": {the game's settings},
    "cut_candidates": [...] or None}`` or
    ``{"rounds": True, "players": [...], "contract": ...}``.
    """

    key = forms.UUIDField(widget=forms.HiddenInput)
    number = forms.IntegerField(widget=forms.HiddenInput)
    card_ranks = RANKS  # the picker's grid
    card_suits = SUITS

    def __init__(self, *args, spec: HandSpec, correcting: bool = False, **kwargs):
        super().__init__(*args, **kwargs)
        self.spec = spec
        self.correcting = correcting
        # how a knocker ends a hand unless the form says otherwise: a gin where only gin
        # may end it (straight gin, RULES 3.10)
        self.first_kind = KNOCK if spec.get("knocking", True) else GIN
        if spec.get("rounds"):
            self._capit_fields()
        else:
            self._duel_fields()
        if correcting:
            # the recorded hand the form was opened on, so that a stale form cannot void a
            # newer correction (without it: the hand live now)
            self.fields["hand"] = forms.IntegerField(required=False, widget=forms.HiddenInput)
            self.fields["reason"] = forms.CharField(
                label=_("Why the correction?"), max_length=300,
                error_messages={"required": _(
                    "Why the correction? Say why in a few words (e.g. Bob's count was 17): it "
                    "is kept with the hand it replaces.")},
                widget=forms.TextInput(attrs={"placeholder": _("e.g. Bob's count was 17"),
                                              "autocomplete": "off"}))

    # -- fields
    def _duel_fields(self) -> None:
        if self.spec.get("upcard"):  # first: it is known before the deal (and asked first)
            self.fields["up_rank"] = forms.ChoiceField(
                label=_("Rank"), required=False, choices=[(r, r) for r in RANKS],
                widget=SegmentedRadio(columns=7))
            self.fields["up_suit"] = forms.ChoiceField(
                label=_("Suit"), required=False, choices=SUITS, widget=SegmentedRadio(columns=4))
        if self.spec.get("knock_card"):  # RULES 3.7: one card for every table of the deal
            self.fields["kc_rank"] = forms.ChoiceField(
                label=_("Rank"), required=False, initial="",
                choices=[("", _("None"))] + [(r, r) for r in RANKS],
                widget=SegmentedRadio(columns=5))  # 5: "None" fits a phone's cell
            self.fields["kc_suit"] = forms.ChoiceField(
                label=_("Suit"), required=False, choices=SUITS, widget=SegmentedRadio(columns=4))
        for i, duel in enumerate(self.spec["duels"], start=1):
            a, b = duel["players"]
            self.fields[f"t{i}_knocker"] = forms.ChoiceField(
                label=_("Who knocked?"), widget=SegmentedRadio(columns=3),
                choices=[(a, a), (b, b), (DRAW, _("Draw"))],
                error_messages={"required": _("Who knocked? Tap a name, or Draw.")})
            self.fields[f"t{i}_kind"] = forms.ChoiceField(
                label=_("How"), initial=self.first_kind, required=False,
                # (the kind that is a plain knock: any other clears the knocker's count on
                # the phone, static/ledger/app.js)
                widget=SegmentedRadio(columns=3, attrs={"data-plain": KNOCK}),
                choices=[(kind, _(words)) for kind, words in KIND_CHOICES
                         if (kind != BIG_GIN or self.spec.get("big_gin"))
                         and (kind != KNOCK or self.spec.get("knocking", True))])
            if duel.get("label"):
                # a screen reader names each table's choices, not three "Who knocked?"
                where = duel["label"].lower()
                self.fields[f"t{i}_knocker"].widget.group_name = _(
                    "Who knocked at %(where)s?") % {"where": where}
                self.fields[f"t{i}_kind"].widget.group_name = _(
                    "How at %(where)s?") % {"where": where}
            self.fields[f"t{i}_c0"] = count_field(_("%(name)s's count") % {"name": a})
            self.fields[f"t{i}_c1"] = count_field(_("%(name)s's count") % {"name": b})
            for c, name in enumerate((a, b)):
                self.fields[f"t{i}_cards{c}"] = forms.CharField(
                    label=_("%(name)s's cards") % {"name": name}, required=False, max_length=200,
                    widget=forms.Textarea(attrs={**CARDS_INPUT, "data-pos": c, "rows": 2}))
        if self.spec.get("cut_candidates"):
            self.fields["cut_loser"] = forms.ChoiceField(
                label=_("Tie for most points lost: who cut the lower card?"), required=False,
                # nothing is tapped until there is a tie ("" would show "no tie" as chosen)
                choices=[(NO_TIE, _("No tie"))] + [(n, n) for n in self.spec["cut_candidates"]],
                widget=SegmentedRadio(columns=3))

    def _capit_fields(self) -> None:
        players = self.spec["players"]
        self.fields["went_out"] = forms.ChoiceField(
            label=_("Who went out?"), widget=SegmentedRadio(columns=3),
            choices=[(p, p) for p in players] + [(NOBODY, _("Nobody: stock out"))],
            error_messages={"required": _("Who went out? Tap a name, or Nobody.")})
        for j, name in enumerate(players):
            self.fields[f"pts_{j}"] = count_field(_("%(name)s's points") % {"name": name})

    # -- groups for the template
    def card_deck(self) -> list[dict]:
        """The picker's grid: each suit's cards, with the words a screen reader says."""
        return [{"suit": suit, "sign": sign, "red": suit in "HD",
                 "cards": [{"code": f"{rank}{suit}", "rank": rank,
                            "name": card_name(f"{rank}{suit}")} for rank in self.card_ranks]}
                for suit, sign in self.card_suits]

    def duel_rows(self):
        rows = []
        for i, duel in enumerate(self.spec.get("duels", []), start=1):
            cards = [self[f"t{i}_cards0"], self[f"t{i}_cards1"]]
            rows.append({"index": i, "label": duel.get("label"), "players": duel["players"],
                         "dealer": duel.get("dealer"), "chips": duel.get("chips") or [None, None],
                         "dealer_words": duel.get("dealer_words"),
                         "knocker": self[f"t{i}_knocker"], "kind": self[f"t{i}_kind"],
                         "counts": [self[f"t{i}_c0"], self[f"t{i}_c1"]],
                         "cards": cards,
                         "cards_open": any(f.value() or f.errors for f in cards),
                         "preview": self._cards_preview(i, duel)})
        return rows

    def _cards_preview(self, i: int, duel: dict) -> dict | None:
        """The picker's preview, drawn by the server on a refused form (no JavaScript)."""
        if not self.is_bound:
            return None
        texts = [self.data.get(self.add_prefix(f"t{i}_cards{c}"), "") for c in (0, 1)]
        if not any(text.strip() for text in texts):
            return None
        a, b = duel["players"]
        knocker = self.data.get(self.add_prefix(f"t{i}_knocker"))
        context = {"rules": self.spec.get("rules") or {},
                   "oklahoma": bool(self.spec.get("oklahoma"))}
        if self.spec.get("oklahoma"):
            context.update(up_rank=self.data.get(self.add_prefix("up_rank")) or None,
                           up_suit=self.data.get(self.add_prefix("up_suit")) or None)
        if knocker == b:
            return preview_context(texts[1], texts[0], kname=b, oname=a, **context)
        return preview_context(texts[0], texts[1], kname=a, oname=b, solo=knocker != a,
                               **context)

    def point_fields(self):
        return [self[f"pts_{j}"] for j in range(len(self.spec.get("players", [])))]

    # -- validation: only what a form can know; the rules are the core's
    def clean(self):
        data = super().clean()
        damaged = [name for name in ("key", "number", "hand") if name in self.errors]
        if damaged:  # hidden fields: nobody typed them, so say what to do, not which field
            self.add_error(None, _("This form was damaged or out of date (its %(fields)s); "
                                   "reload the game and enter the hand again.")
                           % {"fields": " and ".join(damaged)})
        if self.spec.get("rounds"):
            out = data.get("went_out")
            for j, name in enumerate(self.spec["players"]):
                field = f"pts_{j}"
                try:
                    value = parse_count(data.get(field, ""))
                except ValueError:
                    self.add_error(field, _("%(name)s's points: a whole number, like 25.")
                                   % {"name": name})
                    continue
                if value is None and name != out and out:
                    self.add_error(field, _("Enter %(name)s's points (0 if none).")
                                   % {"name": name})
            return data
        self.cards: dict[tuple[int, int], tuple] = {}
        for i, duel in enumerate(self.spec["duels"], start=1):
            knocker = data.get(f"t{i}_knocker")
            kind = data.get(f"t{i}_kind") or self.first_kind
            with_cards = self._clean_cards(i, duel)
            counts = []
            for c, name in enumerate(duel["players"]):
                field = f"t{i}_c{c}"
                try:
                    counts.append(parse_count(data.get(field, "")))
                except ValueError:
                    self.add_error(field, _("%(name)s's count: a whole number, like 7.")
                                   % {"name": name})
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
                # a gin's knocker may leave his count empty; a count he typed goes to the
                # core, which refuses a gin with deadwood at this field
                if counts[c] is None and not (name == knocker and kind != KNOCK):
                    self.add_error(field, _("Enter %(name)s's count.") % {"name": name})
        if self.spec.get("knock_card") and data.get("kc_rank") and not data.get("kc_suit"):
            self.add_error("kc_suit", _("Tap the knock card's suit."))
        if self.spec.get("upcard"):
            if any(data.get(f"t{i}_knocker") not in (None, "", DRAW)
                   for i in range(1, len(self.spec["duels"]) + 1)):
                if not data.get("up_rank"):
                    self.add_error("up_rank", _("Tap the up-card's rank."))
                if not data.get("up_suit"):
                    self.add_error("up_suit", _("Tap the up-card's suit."))
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
                self.cards[(i, c)] = read_cards(text)
            except CardError as error:
                self.add_error(field, _("%(name)s's cards: %(error)s") % {"name": name,
                                                                         "error": error})
        if given and data.get(f"t{i}_knocker") not in (None, "", DRAW):
            for c, name in enumerate(duel["players"]):
                field = f"t{i}_cards{c}"
                other = duel["players"][1 - c]
                if not texts[c]:
                    self.add_error(field, _("Enter %(name)s's cards too, or clear %(other)s's "
                                            "and enter the counts.")
                                   % {"name": name, "other": other})
        return given

    def _clean_counts_with_cards(self, i, duel, knocker, kind, counts) -> None:
        """With the cards the counts may be left empty; if given, both are (the core
        checks them against the cards, and a gin's against its having no deadwood)."""
        for c in range(len(duel["players"])):
            if f"t{i}_c{c}" in self.errors:
                return
        needed = [c for c, name in enumerate(duel["players"])
                  if not (name == knocker and kind != KNOCK and not counts[c])]
        given = [c for c in needed if counts[c] is not None]
        if given and len(given) < len(needed):
            for c in needed:
                if counts[c] is None:
                    name = duel["players"][c]
                    other = duel["players"][1 - c]
                    self.add_error(f"t{i}_c{c}", _("Enter %(name)s's count too, or clear "
                                                   "%(other)s's: the cards give both.")
                                   % {"name": name, "other": other})

    # -- the hand object of the record
    def _duel_entry(self, i: int, duel: dict) -> dict:
        data = self.cleaned_data
        knocker = data[f"t{i}_knocker"]
        if knocker == DRAW:
            return {"draw": True}
        kind = data.get(f"t{i}_kind") or self.first_kind
        if (i, 0) in self.cards and (i, 1) in self.cards:
            return self._cards_entry(i, duel, knocker, kind)
        counts = {}
        for c, name in enumerate(duel["players"]):
            value = parse_count(data.get(f"t{i}_c{c}", ""))
            if name == knocker and kind != KNOCK:
                value = value or 0
            counts[name] = value
        entry: dict = {"knocker": knocker}
        if kind == BIG_GIN:
            entry[BIG_GIN] = True
        elif kind == GIN and counts[knocker]:
            entry[GIN] = True  # with a count: the core says a gin has no deadwood
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
        if kind == BIG_GIN:
            entry[BIG_GIN] = True
        elif kind == GIN:
            entry[GIN] = True
        entry["cards"] = {name: " ".join(str(card) for card in self.cards[(i, position[name])])
                          for name in (knocker, opponent)}
        counts = {name: parse_count(data.get(f"t{i}_c{position[name]}", ""))
                  for name in (knocker, opponent)}
        if kind != KNOCK and not counts[knocker]:
            counts[knocker] = 0 if counts[opponent] is not None else None
        if counts[knocker] is not None and counts[opponent] is not None:
            entry["deadwood"] = counts
        return entry

    def entry(self) -> dict:
        data = self.cleaned_data
        if self.spec.get("rounds"):
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
            if data.get("cut_loser") and data["cut_loser"] != NO_TIE:
                entry["cut_loser"] = data["cut_loser"]
            if self.spec.get("knock_card") and data.get("kc_rank") and data.get("kc_suit"):
                entry = {"knock_card": f"{data['kc_rank']}{data['kc_suit']}", **entry}
            return entry
        entry = self._duel_entry(1, duels[0])
        if self.spec.get("upcard") and not entry.get("draw"):
            entry = {"upcard": f"{data['up_rank']}{data['up_suit']}", **entry}
        return entry

    @property
    def problems(self) -> list[str]:
        """Every reason this form was refused, the form's own first, then each field's (in
        the form's order): what the Save bar shows next to the button."""
        lines = list(self.non_field_errors())
        for name in self.fields:
            lines += [str(error) for error in self.errors.get(name, ())]
        return lines

    # -- the core's refusal, at the fields
    def add_problems(self, problems) -> None:
        """Put each of the core's problems (``RecordRefused.details``) at the field its
        where names: the table, the player and the record's field; what names no field of
        this form goes above the form."""
        for problem in problems:
            field, message = self._place(problem)
            field = field if field in self.fields else None
            self.add_error(field, field_words(problem, field, message))

    def _place(self, problem) -> tuple[str | None, str]:
        """(this form's field, the words there) of a problem, at the place the core's
        schema gives the field it names (``PLAY_PLACES``, ``ROUND_PLACES``; the phone
        reads the same places: forms/queue.py)."""
        if problem.hand is None:
            return None, problem.line
        name = problem.player
        if self.spec.get("rounds"):
            place = ROUND_PLACES.get(problem.field)
            players = self.spec["players"]
            if place == Place.WENT_OUT:
                return "went_out", problem.hint or problem.text
            if place == Place.POINTS and name in players:
                return (f"pts_{players.index(name)}",
                        problem.hint or f"{name}'s {problem.field}: {problem.text}")
            return None, problem.line
        place = PLAY_PLACES.get(problem.field)
        if place == Place.KNOCK_CARD and "kc_rank" in self.fields:
            return "kc_rank", problem.hint or problem.text
        duels = self.spec.get("duels", [])
        table = problem.table or 1
        if not 1 <= table <= len(duels):
            return None, problem.line
        players = duels[table - 1]["players"]
        if place == Place.COUNT and name in players:
            return (f"t{table}_c{players.index(name)}",
                    problem.hint or f"{name}'s count: {problem.text}")
        if place == Place.CARDS and name in players:
            return (f"t{table}_cards{players.index(name)}",
                    problem.hint or f"{name}'s cards: {problem.text}")
        at_hand = {Place.KNOCKER: f"t{table}_knocker", Place.UPCARD: "up_rank",
                   Place.CUT_LOSER: "cut_loser"}
        if place in at_hand:
            return at_hand[place], problem.hint or problem.text
        return None, problem.line


NO_TIE = "-no-tie-"


def new_hand_initial(number: int) -> dict:
    return {"key": uuid.uuid4(), "number": number}


def next_hand_form(result: dict, data=None, *, number: int | None = None,
                   again: dict | None = None) -> HandForm:
    """The form of the hand the game is at (the core's ``result["next"]``): ``data`` as
    sent, or a new form for hand ``number`` (``again``: the entry of the hand just undone,
    ready to be saved again)."""
    spec = next_hand_spec(result)
    if number is None:
        return HandForm(data, spec=spec)
    initial = new_hand_initial(number)
    if again is not None:
        initial.update(initial_from_entry(spec, again))
    return HandForm(data, spec=spec, initial=initial)


def initial_from_entry(spec: HandSpec, entry: dict) -> dict:
    """The hand form's values for a recorded hand (to correct it)."""
    initial: dict = {}
    if spec.get("rounds"):
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
        if part.get(BIG_GIN):
            initial[f"t{i}_kind"] = BIG_GIN
        elif deadwood.get(knocker) == 0 or part.get(GIN):
            initial[f"t{i}_kind"] = GIN
        else:
            initial[f"t{i}_kind"] = KNOCK
        for c, name in enumerate(duel["players"]):
            if name in deadwood:
                initial[f"t{i}_c{c}"] = str(deadwood[name])
            if name in cards:
                initial[f"t{i}_cards{c}"] = cards[name]
    if entry.get("upcard"):
        initial["up_rank"], initial["up_suit"] = entry["upcard"][:-1], entry["upcard"][-1]
    if entry.get("knock_card"):
        initial["kc_rank"], initial["kc_suit"] = (entry["knock_card"][:-1],
                                                  entry["knock_card"][-1])
    if entry.get("cut_loser"):
        initial["cut_loser"] = entry["cut_loser"]
    return initial
