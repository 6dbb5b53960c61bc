"""A JSON field that keeps the text exactly as written.

PostgreSQL's ``jsonb`` (Django's JSONField there) reorders object keys, and some of our
objects carry meaning in their key order (``setup.sides``: the first side sits at table i
with member i). It also keeps what the scorekeeper entered byte for byte, so an export is
the same on SQLite and PostgreSQL. The value is stored as JSON text in a TEXT column.
"""

from __future__ import annotations

import json

from django.core.exceptions import ValidationError
from django.db import models


class OrderedJSONField(models.TextField):
    description = "JSON stored as text, key order preserved"

    def from_db_value(self, value, expression, connection):
        if value is None:
            return None
        return json.loads(value)

    def to_python(self, value):
        if value is None or not isinstance(value, str):
            return value
        try:
            return json.loads(value)
        except json.JSONDecodeError as exc:
            raise ValidationError(f"not valid JSON: {exc}") from exc

    def get_prep_value(self, value):
        if value is None:
            return None
        return json.dumps(value, ensure_ascii=False, separators=(",", ":"))

    def value_to_string(self, obj):
        return self.get_prep_value(self.value_from_object(obj))

    def formfield(self, **kwargs):
        from django import forms

        return forms.JSONField(**kwargs)
