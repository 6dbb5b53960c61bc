"""What every ledger model shares: the append-only history rows (refused updates of their
content and refused deletion, per object and through bulk querysets) and the currency help.

On PostgreSQL triggers hold the same rules against raw SQL (migrations 0002 and 0012, which
say exactly what is refused; 0014 adds the settlements' rules).
"""

from __future__ import annotations

from django.db import models

CURRENCY_HELP = "ISO 4217 code, e.g. USD, EUR, JPY"


class ImmutableError(Exception):
    """Raised when code tries to change or delete a row of the append-only history."""


class AppendOnlyQuerySet(models.QuerySet):
    """Bulk update() and delete() bypass save(); for history rows they are refused."""

    def update(self, **kwargs):
        allowed = getattr(self.model, "MUTABLE_FIELDS", frozenset())
        if not set(kwargs) <= allowed:
            raise ImmutableError(f"{self.model.__name__} rows are append-only")
        once = getattr(self.model, "SET_ONCE_BY", None)
        if once and self.filter(**{f"{once}__isnull": False}).exists():
            raise ImmutableError(f"{self.model.__name__}: {sorted(allowed)} are set once, "
                                 "never changed")
        return super().update(**kwargs)

    def delete(self):
        raise ImmutableError(f"{self.model.__name__} rows are never deleted")


class AppendOnlyModel(models.Model):
    """A row that may be inserted, and afterwards only its MUTABLE_FIELDS may change."""

    MUTABLE_FIELDS: frozenset[str] = frozenset()
    #: When set (a field name), MUTABLE_FIELDS may be written only while that field is
    #: still empty in the database: they are set once (a hand's void), never changed.
    SET_ONCE_BY: str | None = None

    objects = AppendOnlyQuerySet.as_manager()

    class Meta:
        abstract = True

    def save(self, *args, **kwargs):
        if not self._state.adding:
            update_fields = kwargs.get("update_fields")
            if update_fields is None or not set(update_fields) <= self.MUTABLE_FIELDS:
                raise ImmutableError(
                    f"{type(self).__name__} {self.pk} is append-only; "
                    f"only {sorted(self.MUTABLE_FIELDS) or 'nothing'} may change, "
                    "with save(update_fields=[...])"
                )
            once = self.SET_ONCE_BY
            if once and type(self)._base_manager.filter(
                    pk=self.pk, **{f"{once}__isnull": False}).exists():
                raise ImmutableError(f"{type(self).__name__} {self.pk}: "
                                     f"{sorted(self.MUTABLE_FIELDS)} are set once, never changed")
        super().save(*args, **kwargs)

    def delete(self, *args, **kwargs):
        raise ImmutableError(f"{type(self).__name__} rows are never deleted")
