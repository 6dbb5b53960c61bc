"""The evening screen's small form for a blank sheet: which game, which players, which
preset (the sheet itself is built by scoresheets.blank)."""

from __future__ import annotations

from django import forms

from ledger.forms.fields import stake_field
from ledger.models import Session, Variant

from .blank import BLANK_COUNTS

VARIANT_NAMES = dict(Variant.choices)
PRESET_CHOICES = [("", "Standard"), ("classic", "Classic"), ("simple", "Simple")]


def _count_words(counts: tuple[int, ...]) -> str:
    words = [str(n) for n in counts]
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " or " + words[-1]


class BlankSheetForm(forms.Form):
    variant = forms.ChoiceField(
        label="Game", choices=[(key, f"{VARIANT_NAMES[key]} ({_count_words(counts)} players)")
                               for key, counts in BLANK_COUNTS.items()])
    preset = forms.ChoiceField(label="Rules", choices=PRESET_CHOICES, required=False)
    ante = stake_field("Ante each (CAP-IT)")
    players = forms.MultipleChoiceField(
        label="Players", widget=forms.CheckboxSelectMultiple,
        help_text="Seats follow this order: the first deals first; for captain play the "
                  "captains come first, then their opponents, and the last sits out.",
        error_messages={"required": "Tick the players who will play."})

    def __init__(self, *args, session: Session, **kwargs):
        super().__init__(*args, **kwargs)
        names = list(session.table.players.order_by("name").values_list("name", flat=True))
        self.fields["players"].choices = [(name, name) for name in names]

    def clean(self):
        data = super().clean()
        variant, players = data.get("variant"), data.get("players") or []
        if variant and players:
            counts = BLANK_COUNTS[variant]
            if len(players) not in counts:
                self.add_error("players", f"{VARIANT_NAMES[variant]} takes "
                                          f"{_count_words(counts)} players; "
                                          f"{len(players)} are ticked.")
        return data
