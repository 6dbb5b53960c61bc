"""The target of a streets game changed between two deals (RULES 3.9): one number field."""

from __future__ import annotations

import uuid

from django import forms
from django.utils.translation import gettext_lazy as _

from ledger.presentation import problems as problems_words


class TargetForm(forms.Form):
    """The new target for every open street, from the next deal on (appended after the
    last entry: deals saved in place since the page was drawn do not make it stale; the
    core checks it against them)."""

    target = forms.IntegerField(label=_("New target"), min_value=1,
                                widget=forms.NumberInput(attrs={"inputmode": "numeric"}))
    key = forms.UUIDField(widget=forms.HiddenInput)

    def add_problems(self, problems) -> None:
        """The core's refusal (``RecordRefused.details``) at the target field."""
        for problem in problems:
            if getattr(problem, "field", None) == "target":
                self.add_error("target", problems_words.at_field(problem))
            else:
                self.add_error(None, problems_words.line(problem))


def new_target_form() -> TargetForm:
    return TargetForm(initial={"key": uuid.uuid4()})
