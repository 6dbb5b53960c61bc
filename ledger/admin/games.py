"""Games, hands and game changes: read-only (they change only through the services, which
rescore them and post money)."""

from __future__ import annotations

from django.contrib import admin
from django.contrib.admin import RelatedOnlyFieldListFilter
from django.db.models import Count, Q
from django.utils.html import format_html

from ..models import Game, GameChange, GamePlayer, Hand, PostingBatch
from ..presentation.money import plain_amount
from .scoping import ReadOnlyAdminMixin, ReadOnlyInline, TableScopedAdmin, _json


class GamePlayerInline(ReadOnlyInline):
    model = GamePlayer
    fields = ("seat", "player", "stake")
    readonly_fields = fields
    show_change_link = False


class HandInline(ReadOnlyInline):
    model = Hand
    fields = ("number", "entry_text", "recorded_by", "recorded_at", "voided", "void_reason",
              "replaces")
    readonly_fields = fields
    ordering = ("number", "recorded_at", "id")

    @admin.display(description="entry")
    def entry_text(self, obj):
        return _json(obj.entry)

    @admin.display(boolean=True)
    def voided(self, obj):
        return obj.voided_at is not None


class GameChangeInline(ReadOnlyInline):
    model = GameChange
    fields = ("changed_at", "kind", "name", "old", "new", "reason", "changed_by",
              "money_changed")
    readonly_fields = fields
    show_change_link = False


class PostingBatchInline(ReadOnlyInline):
    model = PostingBatch
    fields = ("number", "kind", "reverses", "memo", "created_by", "created_at")
    readonly_fields = fields


@admin.register(Game)
class GameAdmin(TableScopedAdmin, ReadOnlyAdminMixin, admin.ModelAdmin):
    table_lookup = "session__table"
    """Games change only through the services (hands, corrections, stake and rule changes),
    which rescore them and post money; the admin shows everything about a game."""

    list_display = ("__str__", "variant", "status", "session", "player_names", "hand_count",
                    "started_at", "finished_at")
    list_filter = ("status", "variant", "preset",
                   ("session__table", RelatedOnlyFieldListFilter), "currency")
    search_fields = ("players__name", "session__place", "session__table__name")
    date_hierarchy = "started_at"
    list_select_related = ("session__table",)
    fields = ("session", "sequence", "variant", "preset", "status", "currency", "rate",
              "per_points", "ante", "setup_text", "rules_text", "money", "started_by",
              "started_at", "finished_at")
    readonly_fields = fields
    inlines = [GamePlayerInline, HandInline, GameChangeInline, PostingBatchInline]

    def get_queryset(self, request):
        return (
            super().get_queryset(request)
            .annotate(n_hands=Count("hands", filter=Q(hands__voided_at__isnull=True)))
            .prefetch_related("seats__player")
        )

    @admin.display(description="players")
    def player_names(self, obj):
        return ", ".join(seat.player.name for seat in obj.seats.all())

    @admin.display(description="hands", ordering="n_hands")
    def hand_count(self, obj):
        return obj.n_hands

    @admin.display(description="setup")
    def setup_text(self, obj):
        return _json(obj.setup)

    @admin.display(description="rules (snapshot)")
    def rules_text(self, obj):
        return _json(obj.rules)

    @admin.display(description="posted money")
    def money(self, obj):
        from ..selectors.games import game_posted_money

        amounts = game_posted_money(obj)
        return ", ".join(
            f"{name} {plain_amount(units, obj.currency)}" for name, units in amounts.items()
        )


class LiveFilter(admin.SimpleListFilter):
    title = "state"
    parameter_name = "state"

    def lookups(self, request, model_admin):
        return (("live", "Live"), ("void", "Voided"), ("correction", "Corrections"))

    def queryset(self, request, queryset):
        if self.value() == "live":
            return queryset.filter(voided_at__isnull=True)
        if self.value() == "void":
            return queryset.filter(voided_at__isnull=False)
        if self.value() == "correction":
            return queryset.filter(replaces__isnull=False)
        return queryset


@admin.register(Hand)
class HandAdmin(TableScopedAdmin, ReadOnlyAdminMixin, admin.ModelAdmin):
    table_lookup = "game__session__table"
    list_display = ("__str__", "game", "number", "entry_text", "recorded_by", "recorded_at",
                    "voided_at", "void_reason")
    list_filter = (LiveFilter, "game__variant",
                   ("game__session__table", RelatedOnlyFieldListFilter), "recorded_at")
    search_fields = ("entry", "void_reason", "recorded_by__username", "game__players__name")
    list_select_related = ("game__session__table", "recorded_by")
    date_hierarchy = "recorded_at"
    fields = ("game", "number", "entry_text", "recorded_by", "recorded_at", "idempotency_key",
              "voided_at", "voided_by", "void_reason", "replaces", "replaced_by_link")
    readonly_fields = fields

    @admin.display(description="entry")
    def entry_text(self, obj):
        return _json(obj.entry)

    @admin.display(description="replaced by")
    def replaced_by_link(self, obj):
        replacement = getattr(obj, "replaced_by", None)
        if replacement is None:
            return "-"
        return format_html('<a href="../../{}/change/">{}</a>', replacement.pk, replacement)


@admin.register(GameChange)
class GameChangeAdmin(TableScopedAdmin, ReadOnlyAdminMixin, admin.ModelAdmin):
    table_lookup = "game__session__table"
    list_display = ("changed_at", "game", "kind", "name", "old", "new", "reason", "changed_by",
                    "money_changed")
    list_filter = ("kind", "money_changed",
                   ("game__session__table", RelatedOnlyFieldListFilter))
    search_fields = ("name", "reason", "changed_by__username")
    list_select_related = ("game__session__table", "changed_by")
