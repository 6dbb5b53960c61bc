"""The admin: every ledger model, searchable and filterable.

The history is read-only here: hands, posting batches, postings, game changes and
settlements can be looked at but not added, changed or deleted (changes go through
``ledger.services``, which rescore and post money). Tables, players and sessions are
editable for their descriptive fields.

Staff who are not superusers see, and can choose, only the objects of the tables they keep:
lists, change and add forms, every foreign-key choice and the scorekeepers widget (which
offers only the people who keep a table with them, so the admin does not list every
username); the accounts list likewise shows only those people.
"""

from __future__ import annotations

import json

from django.contrib import admin
from django.contrib.auth import get_user_model
from django.contrib.auth.admin import UserAdmin
from django.core.exceptions import ValidationError
from django.db.models import Count, Exists, OuterRef, Q
from django.utils.html import format_html

from .access import tables_for
from .admin_forms import CleanModelForm, PlayerAdminForm, SessionAdminForm
from .models import (
    BookSettlement,
    Game,
    GameChange,
    GamePlayer,
    Hand,
    MoneyPosting,
    PaymentMark,
    Player,
    PostingBatch,
    Session,
    SessionSettlement,
    SettlementPayment,
    SettlementVoid,
    Table,
)
from .selectors import live_settlements, minor_text, settlement_nets
from .services.tables import player_name_problem, player_rename


def _json(value) -> str:
    return json.dumps(value, ensure_ascii=False)


# Table filters list only the tables that have objects the user may see.
ONLY_THEIRS = admin.RelatedOnlyFieldListFilter


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


# -- tables, players, sessions ---------------------------------------------------------------

class PlayerInline(ScopedChoicesMixin, admin.TabularInline):
    model = Player
    form = PlayerAdminForm
    extra = 0
    fields = ("name", "created_at")
    readonly_fields = ("created_at",)
    can_delete = False


@admin.register(Table)
class TableAdmin(TableScopedAdmin, admin.ModelAdmin):
    table_lookup = ""
    form = CleanModelForm
    list_display = ("name", "paper_size", "player_count", "session_count", "created_at")
    list_filter = ("paper_size",)
    search_fields = ("name", "players__name", "scorekeepers__username")
    filter_horizontal = ("scorekeepers",)
    inlines = [PlayerInline]

    def get_queryset(self, request):
        return super().get_queryset(request).annotate(
            n_players=Count("players", distinct=True), n_sessions=Count("sessions", distinct=True)
        )

    @admin.display(description="players", ordering="n_players")
    def player_count(self, obj):
        return obj.n_players

    def save_related(self, request, form, formsets, change):
        super().save_related(request, form, formsets, change)
        if not request.user.is_superuser:
            # A staff member's new table is his: without this he could not see it again.
            form.instance.scorekeepers.add(request.user)

    @admin.display(description="sessions", ordering="n_sessions")
    def session_count(self, obj):
        return obj.n_sessions


@admin.register(Player)
class PlayerAdmin(TableScopedAdmin, admin.ModelAdmin):
    table_lookup = "table"
    form = PlayerAdminForm
    list_display = ("name", "table", "game_count", "created_at")
    list_filter = (("table", ONLY_THEIRS),)
    search_fields = ("name", "table__name")
    list_select_related = ("table",)

    def get_queryset(self, request):
        return super().get_queryset(request).annotate(n_games=Count("seats"))

    @admin.display(description="games", ordering="n_games")
    def game_count(self, obj):
        return obj.n_games

    def get_readonly_fields(self, request, obj=None):
        # A player's table is fixed once he exists: his games are recorded there.
        return ("table",) if obj else ()

    def get_form(self, request, obj=None, **kwargs):
        form = super().get_form(request, obj, **kwargs)
        if obj is None:
            return form

        class RenameForm(form):
            def clean_name(self):
                name = " ".join((self.cleaned_data.get("name") or "").split())
                problem = player_name_problem(table_id=obj.table_id, name=name, player=obj)
                if problem:
                    raise ValidationError(problem)
                return name

        return RenameForm

    def save_model(self, request, obj, form, change):
        """A rename goes through ``services.player_rename`` (the only writer): the
        player's games keep their hands and read them in the new name."""
        if change:
            player_rename(player=obj, name=form.cleaned_data["name"])
        else:
            super().save_model(request, obj, form, change)


class GameInline(ReadOnlyInline):
    model = Game
    fields = ("sequence", "variant", "preset", "status", "rate", "per_points", "ante",
              "started_at", "finished_at")
    readonly_fields = fields
    ordering = ("sequence",)


class SettledFilter(admin.SimpleListFilter):
    title = "settled"
    parameter_name = "settled"

    def lookups(self, request, model_admin):
        return (("yes", "Settled"), ("no", "Not settled"))

    def queryset(self, request, queryset):
        if self.value() == "yes":
            return queryset.filter(settled=True)
        if self.value() == "no":
            return queryset.filter(settled=False)
        return queryset


@admin.register(Session)
class SessionAdmin(TableScopedAdmin, admin.ModelAdmin):
    table_lookup = "table"
    form = SessionAdminForm
    list_display = ("date", "table", "place", "currency", "rate", "per_points", "game_count",
                    "settled")
    list_filter = (SettledFilter, ("table", ONLY_THEIRS), "currency", "date")
    search_fields = ("place", "notes", "table__name", "games__players__name")
    date_hierarchy = "date"
    list_select_related = ("table",)
    readonly_fields = ("created_by", "created_at")
    inlines = [GameInline]

    def get_queryset(self, request):
        return super().get_queryset(request).annotate(
            n_games=Count("games"),
            settled=Exists(live_settlements().filter(session=OuterRef("pk"))),
        )

    def get_readonly_fields(self, request, obj=None):
        # Currency and default stake feed games and money: fixed once games exist.
        if obj is not None and obj.games.exists():
            return (*self.readonly_fields, "table", "currency", "rate", "per_points")
        return self.readonly_fields

    def has_delete_permission(self, request, obj=None):
        return obj is None or not obj.games.exists()

    @admin.display(description="games", ordering="n_games")
    def game_count(self, obj):
        return obj.n_games

    @admin.display(boolean=True)
    def settled(self, obj):
        return obj.is_settled


# -- games -----------------------------------------------------------------------------------

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
    list_filter = ("status", "variant", "preset", ("session__table", ONLY_THEIRS),
                   "currency")
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
        from .selectors import game_posted_money

        amounts = game_posted_money(obj)
        return ", ".join(
            f"{name} {minor_text(units, obj.currency)}" for name, units in amounts.items()
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
    list_filter = (LiveFilter, "game__variant", ("game__session__table", ONLY_THEIRS),
                   "recorded_at")
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
    list_filter = ("kind", "money_changed", ("game__session__table", ONLY_THEIRS))
    search_fields = ("name", "reason", "changed_by__username")
    list_select_related = ("game__session__table", "changed_by")


# -- money -----------------------------------------------------------------------------------

class MoneyPostingInline(ReadOnlyInline):
    model = MoneyPosting
    fields = ("player", "amount", "currency")
    readonly_fields = fields
    show_change_link = False

    @admin.display(description="amount")
    def amount(self, obj):
        return minor_text(obj.amount_minor, obj.currency)


@admin.register(PostingBatch)
class PostingBatchAdmin(TableScopedAdmin, ReadOnlyAdminMixin, admin.ModelAdmin):
    table_lookup = "game__session__table"
    list_display = ("__str__", "game", "kind", "reverses", "memo", "created_by", "created_at")
    list_filter = ("kind", ("game__session__table", ONLY_THEIRS), "created_at")
    search_fields = ("memo", "game__players__name")
    list_select_related = ("game__session__table", "reverses", "created_by")
    inlines = [MoneyPostingInline]


@admin.register(MoneyPosting)
class MoneyPostingAdmin(TableScopedAdmin, ReadOnlyAdminMixin, admin.ModelAdmin):
    table_lookup = "game__session__table"
    list_display = ("player", "amount", "currency", "game", "batch")
    list_filter = ("currency", "batch__kind", ("game__session__table", ONLY_THEIRS))
    search_fields = ("player__name", "batch__memo")
    list_select_related = ("player", "game__session__table", "batch")

    @admin.display(description="amount", ordering="amount_minor")
    def amount(self, obj):
        return minor_text(obj.amount_minor, obj.currency)


class SettlementPaymentInline(ReadOnlyInline):
    model = SettlementPayment
    fields = ("order", "payer", "payee", "amount", "paid_at", "paid_by")
    readonly_fields = fields
    show_change_link = False

    @admin.display(description="amount")
    def amount(self, obj):
        return minor_text(obj.amount_minor, obj.settlement.currency)


@admin.register(SessionSettlement)
class SessionSettlementAdmin(TableScopedAdmin, ReadOnlyAdminMixin, admin.ModelAdmin):
    table_lookup = "session__table"
    list_display = ("session", "currency", "settled_by", "settled_at", "payment_count")
    list_filter = ("currency", ("session__table", ONLY_THEIRS), "settled_at")
    search_fields = ("session__place", "session__table__name")
    list_select_related = ("session__table", "settled_by")
    fields = ("session", "currency", "nets_text", "settled_by", "settled_at")
    readonly_fields = fields
    inlines = [SettlementPaymentInline]

    def get_queryset(self, request):
        return super().get_queryset(request).annotate(n_payments=Count("payments"))

    @admin.display(description="payments", ordering="n_payments")
    def payment_count(self, obj):
        return obj.n_payments

    @admin.display(description="nets")
    def nets_text(self, obj):
        return ", ".join(
            f"{name} {minor_text(units, obj.currency)}"
            for name, units in settlement_nets(obj).items()  # today's names
        )


class PaymentMarkInline(ReadOnlyInline):
    model = PaymentMark
    fields = ("marked_at", "paid", "marked_by")
    readonly_fields = fields
    show_change_link = False


@admin.register(SettlementPayment)
class SettlementPaymentAdmin(TableScopedAdmin, ReadOnlyAdminMixin, admin.ModelAdmin):
    table_lookup = "settlement__session__table"
    list_display = ("settlement", "order", "payer", "payee", "amount", "paid_at", "paid_by")
    list_filter = (("paid_at", admin.EmptyFieldListFilter),
                   ("settlement__session__table", ONLY_THEIRS))
    search_fields = ("payer__name", "payee__name")
    list_select_related = ("settlement__session__table", "payer", "payee", "paid_by")
    inlines = [PaymentMarkInline]
    actions = ["mark_paid"]

    @admin.display(description="amount", ordering="amount_minor")
    def amount(self, obj):
        return minor_text(obj.amount_minor, obj.settlement.currency)

    def has_change_permission(self, request, obj=None):
        # Needed for the "mark paid" action; the change form itself stays read-only.
        return obj is None and request.user.has_perm("ledger.change_settlementpayment")

    @admin.action(description="Mark the selected payments as paid")
    def mark_paid(self, request, queryset):
        from .services import settlement_payment_mark_paid

        for payment in queryset:
            settlement_payment_mark_paid(payment=payment, paid_by=request.user)
        self.message_user(request, f"{queryset.count()} payment(s) marked paid.")


# -- the book (issue 13): voided settlements and book settlements are history --------------

@admin.register(SettlementVoid)
class SettlementVoidAdmin(TableScopedAdmin, ReadOnlyAdminMixin, admin.ModelAdmin):
    table_lookup = "settlement__session__table"
    list_display = ("settlement", "reason", "voided_by", "voided_at")
    search_fields = ("reason", "settlement__session__table__name")
    list_select_related = ("settlement__session__table", "voided_by")


@admin.register(BookSettlement)
class BookSettlementAdmin(TableScopedAdmin, ReadOnlyAdminMixin, admin.ModelAdmin):
    table_lookup = "table"
    list_display = ("table", "currency", "settled_by", "settled_at")
    list_filter = ("currency", ("table", ONLY_THEIRS))
    search_fields = ("table__name",)
    list_select_related = ("table", "settled_by")


# -- accounts --------------------------------------------------------------------------------

User = get_user_model()
if admin.site.is_registered(User):
    admin.site.unregister(User)


@admin.register(User)
class ScopedUserAdmin(UserAdmin):
    """Django's accounts admin; staff who are not superusers see only themselves and the
    people who keep a table with them."""

    def get_queryset(self, request):
        queryset = super().get_queryset(request)
        if request.user.is_superuser:
            return queryset
        return queryset.filter(pk__in=fellow_keepers(request.user).values("pk"))
