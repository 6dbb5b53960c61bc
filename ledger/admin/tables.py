"""Tables, players and evenings (sessions): editable for their descriptive fields; a new
player, a rename and a staff member's new table go through ``ledger.services``."""

from __future__ import annotations

from django.contrib import admin
from django.contrib.admin import RelatedOnlyFieldListFilter
from django.core.exceptions import ValidationError
from django.db.models import Count, Exists, OuterRef

from ..models import Game, Player, Session, Table
from ..presentation.refusals import refusal_words
from ..selectors.evenings import live_settlements
from ..services.book import table_rename
from ..services.locale import table_set_locale
from ..services.printing import table_set_paper
from ..services.tables import (
    player_add,
    player_name_problem,
    player_rename,
    session_change,
    session_create,
    table_create,
    table_set_scorekeepers,
)
from .forms import PlayerAdminForm, PlayerInlineFormSet, SessionAdminForm, TableAdminForm
from .scoping import ReadOnlyInline, ScopedChoicesMixin, TableScopedAdmin


def _became(unsaved, saved) -> None:
    """Make the admin's unsaved object the row a service saved, so that the admin's log,
    messages and redirect name it (Django goes on with the object it gave ``save_model``)."""
    unsaved.pk = saved.pk
    unsaved.refresh_from_db()
    unsaved._state.adding = False


def _saver(request):
    """The staff member saving a table, who keeps it (a superuser keeps no table for it)."""
    return None if request.user.is_superuser else request.user


def _keepers(request, form) -> list:
    """Who keeps the table once the form is saved: the chosen scorekeepers, and the staff
    member who saves it (a staff member's new table is his: without that he could not see
    it again)."""
    if "scorekeepers" in form.cleaned_data:
        keepers = list(form.cleaned_data["scorekeepers"])
    else:
        keepers = list(form.instance.scorekeepers.all())
    saver = _saver(request)
    if saver is not None and saver not in keepers:
        keepers.append(saver)
    return keepers


#: The fields of an evening the admin's form may change (``services.session_change``).
SESSION_FIELDS = ("table", "date", "place", "notes", "currency", "rate", "per_points")


class PlayerInline(ScopedChoicesMixin, admin.TabularInline):
    model = Player
    form = PlayerAdminForm
    formset = PlayerInlineFormSet
    extra = 0
    fields = ("name", "created_at")
    readonly_fields = ("created_at",)
    can_delete = False


@admin.register(Table)
class TableAdmin(TableScopedAdmin, admin.ModelAdmin):
    table_lookup = ""
    form = TableAdminForm
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

    def get_form(self, request, obj=None, **kwargs):
        form = super().get_form(request, obj, **kwargs)
        # The form checks the name against the tables of everyone who will keep this one.
        return type(form.__name__, (form,), {"saver": _saver(request)})

    def save_model(self, request, obj, form, change):
        """A new table through ``services.table_create``, a new name through
        ``services.table_rename``, the paper through ``services.table_set_paper``."""
        data = form.cleaned_data
        if not change:
            _became(obj, table_create(name=data["name"], paper_size=data["paper_size"],
                                      scorekeepers=_keepers(request, form),
                                      language=data["language"],
                                      time_zone=data["time_zone"]))
            return
        if "name" in form.changed_data:
            table_rename(table=obj, name=data["name"], renamed_by=request.user)
        if "paper_size" in form.changed_data:
            table_set_paper(table=obj, paper_size=data["paper_size"])
        if {"language", "time_zone"} & set(form.changed_data):
            table_set_locale(table=obj, language=data["language"],
                             time_zone=data["time_zone"])

    def save_related(self, request, form, formsets, change):
        """The scorekeepers and the players inline, through the services (Django's own
        ``save_related`` would write them itself)."""
        table_set_scorekeepers(table=form.instance, scorekeepers=_keepers(request, form))
        for formset in formsets:
            self.save_formset(request, form, formset, change=change)

    def save_formset(self, request, form, formset, change):
        """New players through ``services.player_add``, renames through
        ``services.player_rename``; the inline deletes nothing (``can_delete`` is off)."""
        formset.new_objects, formset.changed_objects, formset.deleted_objects = [], [], []
        for inline in formset.forms:  # what Django's formset.save() would do, by services
            if not inline.has_changed():
                continue
            player, name = inline.instance, inline.cleaned_data["name"]
            if player.pk is None:
                _became(player, player_add(table=form.instance, name=name))
                formset.new_objects.append(player)
            else:
                player_rename(player=player, name=name)
                formset.changed_objects.append((player, inline.changed_data))

    @admin.display(description="sessions", ordering="n_sessions")
    def session_count(self, obj):
        return obj.n_sessions


@admin.register(Player)
class PlayerAdmin(TableScopedAdmin, admin.ModelAdmin):
    table_lookup = "table"
    form = PlayerAdminForm
    list_display = ("name", "table", "game_count", "created_at")
    list_filter = (("table", RelatedOnlyFieldListFilter),)
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
                    raise ValidationError(refusal_words(problem))
                return name

        return RenameForm

    def save_model(self, request, obj, form, change):
        """A new player goes through ``services.player_add``, a rename through
        ``services.player_rename`` (the only writers): the player's games keep their hands
        and read them in the new name."""
        if change:
            player_rename(player=obj, name=form.cleaned_data["name"])
        else:
            _became(obj, player_add(table=obj.table, name=form.cleaned_data["name"]))


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
    list_filter = (SettledFilter, ("table", RelatedOnlyFieldListFilter), "currency", "date")
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
        fields = self.readonly_fields
        if obj is not None and obj.games.exists():
            fields = (*fields, "table", "currency", "rate", "per_points")
        # A settled evening keeps its date too (services.session_change; reopen it first).
        if obj is not None and obj.is_settled:
            fields = (*dict.fromkeys((*fields, "table", "date", "currency", "rate",
                                      "per_points")),)
        return fields

    def has_delete_permission(self, request, obj=None):
        return obj is None or not obj.games.exists()

    def save_model(self, request, obj, form, change):
        """A new evening through ``services.session_create`` (created by whoever saves
        it), a change through ``services.session_change``."""
        data = form.cleaned_data
        if not change:
            _became(obj, session_create(
                table=data["table"], date=data["date"], place=data.get("place", ""),
                currency=data["currency"], rate=data.get("rate"),
                per_points=data["per_points"], notes=data.get("notes", ""),
                created_by=request.user))
            return
        session_change(session=obj, **{name: data[name] for name in form.changed_data
                                        if name in SESSION_FIELDS})

    @admin.display(description="games", ordering="n_games")
    def game_count(self, obj):
        return obj.n_games

    @admin.display(boolean=True)
    def settled(self, obj):
        return obj.is_settled
