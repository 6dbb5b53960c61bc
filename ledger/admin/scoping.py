"""What every ledger admin shares: choices and lists scoped to the tables a staff member keeps,
and the read-only admin of the history rows."""

from __future__ import annotations

import json

from django.contrib import admin
from django.contrib.auth import get_user_model
from django.db.models import Q

from ..access import tables_for
from ..models import Game, Hand, Player, PostingBatch, Session, SessionSettlement, Table


def _json(value) -> str:
    return json.dumps(value, ensure_ascii=False)


def fellow_keepers(user):
    """The accounts a staff member may see and choose: himself and whoever keeps one of his
    tables with him."""
    return get_user_model().objects.filter(
        Q(pk=user.pk) | Q(scorekept_tables__in=tables_for(user).values("pk"))).distinct()


def scoped_choices(model, user):
    """The rows of ``model`` a staff member who is not a superuser may choose, or None when
    the model is not scoped (choices of other models are left as Django makes them)."""
    tables = tables_for(user).values("pk")
    scopes = {
        Table: lambda: Table.objects.filter(pk__in=tables),
        Player: lambda: Player.objects.filter(table__in=tables),
        Session: lambda: Session.objects.filter(table__in=tables),
        Game: lambda: Game.objects.filter(session__table__in=tables),
        Hand: lambda: Hand.objects.filter(game__session__table__in=tables),
        PostingBatch: lambda: PostingBatch.objects.filter(game__session__table__in=tables),
        SessionSettlement: lambda: SessionSettlement.objects.filter(
            session__table__in=tables),
        get_user_model(): lambda: fellow_keepers(user),
    }
    scope = scopes.get(model)
    return scope() if scope else None


class ScopedChoicesMixin:
    """Foreign-key and many-to-many choices limited to the user's tables (add and change
    forms alike, inlines too): what is not offered cannot be chosen, since Django checks a
    posted choice against the same queryset."""

    def formfield_for_foreignkey(self, db_field, request, **kwargs):
        if not request.user.is_superuser:
            choices = scoped_choices(db_field.related_model, request.user)
            if choices is not None:
                kwargs["queryset"] = choices
        return super().formfield_for_foreignkey(db_field, request, **kwargs)

    def formfield_for_manytomany(self, db_field, request, **kwargs):
        if not request.user.is_superuser:
            choices = scoped_choices(db_field.related_model, request.user)
            if choices is not None:
                kwargs["queryset"] = choices
        return super().formfield_for_manytomany(db_field, request, **kwargs)


class TableScopedAdmin(ScopedChoicesMixin):
    """A table and everything in it is visible only to its scorekeepers, in the admin too:
    staff who are not superusers see the objects of the tables they keep, nothing else."""

    table_lookup = ""  # path from the model to its Table ("" for Table itself)

    def get_queryset(self, request):
        queryset = super().get_queryset(request)
        if request.user.is_superuser:
            return queryset
        field = f"{self.table_lookup}__in" if self.table_lookup else "pk__in"
        return queryset.filter(**{field: tables_for(request.user).values("pk")})


class ReadOnlyAdminMixin:
    """View only: the row is history."""

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


class ReadOnlyInline(ReadOnlyAdminMixin, admin.TabularInline):
    extra = 0
    can_delete = False
    show_change_link = True
