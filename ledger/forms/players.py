"""Renaming a player of a table (the person stays; every game shows the new name)."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _


class PlayerRenameForm(forms.Form):
    player = forms.TypedChoiceField(label=_("Player"), coerce=int)
    name = forms.CharField(max_length=60, label=_("New name"),
                           widget=forms.TextInput(attrs={"autocomplete": "off"}))

    def __init__(self, *args, players=(), **kwargs):
        super().__init__(*args, prefix="rename", **kwargs)
        self.fields["player"].choices = [(player.pk, player.name) for player in players]
