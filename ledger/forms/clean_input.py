"""Every raw value of any Django form checked (``ledger.cleaning.check_form_value``) before
the form's fields see it, and a refused one reported at its field in the page's words."""

from __future__ import annotations

from django import forms

from ledger.cleaning import check_form_value
from ledger.presentation.refusals import refusal_words


class CleanInputMixin:
    """For any Django form: every raw value goes through ``check_form_value`` before the
    fields see it. A refused value is reported at its field (only that message, in the
    page's words: ``refusal_words``) and the field is left out of ``cleaned_data``; the form
    is drawn again with what was typed."""

    def full_clean(self):
        problems: dict[str, str] = {}
        if not self.is_bound:
            return super().full_clean()
        typed = self.data
        self.data = self._cleaned_input(problems)
        try:
            super().full_clean()
        finally:
            self.data = typed
        if problems and hasattr(self, "cleaned_data"):
            for name, message in problems.items():
                self.cleaned_data.pop(name, None)
                self._errors[name] = self.error_class([message], renderer=self.renderer)

    def _cleaned_input(self, problems: dict[str, str]):
        data = self.data.copy()
        getlist = getattr(data, "getlist", None)
        for name, field in self.fields.items():
            key = self.add_prefix(name)
            keys = [key] + [k for k in data if isinstance(k, str) and k.startswith(key + "_")
                            and isinstance(field.widget, forms.MultiWidget)]
            for data_key in keys:
                if data_key not in data:
                    continue
                values = getlist(data_key) if getlist else [data[data_key]]
                cleaned = []
                for raw in values:
                    if not isinstance(raw, str):
                        cleaned.append(raw)
                        continue
                    value, problem = check_form_value(field, name, raw)
                    if problem and name not in problems:
                        problems[name] = refusal_words(problem)
                    cleaned.append(value)
                if getlist:
                    data.setlist(data_key, cleaned)
                else:
                    data[data_key] = cleaned[0] if len(cleaned) == 1 else cleaned
        return data
