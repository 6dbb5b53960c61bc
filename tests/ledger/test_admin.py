"""The admin shows every ledger model (lists, search, filters, change pages); the history
is read-only there."""

from __future__ import annotations

import json

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from ledger import services
from ledger.models import (
    Game,
    GameChange,
    GamePlayer,
    Hand,
    MoneyPosting,
    Player,
    PostingBatch,
    Session,
    SessionSettlement,
    SettlementPayment,
    Table,
)
from tests.factories import gin_game
from tests.refusing import refuses

from .conftest import DEMO_SESSION

pytestmark = pytest.mark.django_db

MODELS = [Table, Player, Session, Game, Hand, GameChange, PostingBatch, MoneyPosting,
          SessionSettlement, SettlementPayment]


@pytest.fixture
def evening(admin_user):
    session = services.session_import(record=json.loads(DEMO_SESSION.read_text()))
    game = session.games.get(sequence=1)
    hand = Hand.objects.get(game=game, number=2)
    services.hand_correct(hand=hand, entry={"knocker": "Bob", "deadwood": {"Ann": 14, "Bob": 3}},
                          corrected_by=admin_user, reason="miscounted")
    services.game_change_rules(game=session.games.get(sequence=2), changes={"knock_limit": 9},
                               changed_by=admin_user, reason="house rule")
    services.session_settle(session=session, settled_by=admin_user)
    return session


@pytest.mark.parametrize("model", MODELS, ids=lambda m: m.__name__)
def test_every_model_lists_searches_and_shows(admin_client, evening, model):
    opts = model._meta
    changelist = reverse(f"admin:{opts.app_label}_{opts.model_name}_changelist")
    assert admin_client.get(changelist).status_code == 200
    assert admin_client.get(changelist, {"q": "Ann"}).status_code == 200
    obj = model.objects.first()
    change = reverse(f"admin:{opts.app_label}_{opts.model_name}_change", args=[obj.pk])
    assert admin_client.get(change).status_code == 200


def test_game_page_shows_its_hands_inline_read_only(admin_client, evening):
    game = Game.objects.get(session=evening, sequence=1)
    page = admin_client.get(reverse("admin:ledger_game_change", args=[game.pk])).content.decode()
    assert "miscounted" in page
    assert "{&quot;knocker&quot;: &quot;Bob&quot;" in page
    assert "Ann 2.30" in page  # the posted money after the correction
    assert 'name="hands-0-number"' not in page  # no editable inline fields


@pytest.mark.parametrize("model", [Hand, MoneyPosting, PostingBatch, GameChange, Game,
                                   SessionSettlement], ids=lambda m: m.__name__)
def test_history_cannot_be_added_changed_or_deleted(admin_client, evening, model):
    opts = model._meta
    obj = model.objects.first()
    add = reverse(f"admin:{opts.app_label}_{opts.model_name}_add")
    assert admin_client.get(add).status_code == 403
    delete = reverse(f"admin:{opts.app_label}_{opts.model_name}_delete", args=[obj.pk])
    assert admin_client.post(delete, {"post": "yes"}).status_code == 403
    assert model.objects.filter(pk=obj.pk).exists()


def test_mark_paid_action(admin_client, evening):
    payment = SettlementPayment.objects.first()
    url = reverse("admin:ledger_settlementpayment_changelist")
    admin_client.post(url, {"action": "mark_paid", "_selected_action": [payment.pk]})
    payment.refresh_from_db()
    assert payment.is_paid


def test_filters(admin_client, evening):
    url = reverse("admin:ledger_hand_changelist")
    assert admin_client.get(url, {"state": "void"}).status_code == 200
    url = reverse("admin:ledger_session_changelist")
    assert admin_client.get(url, {"settled": "yes"}).status_code == 200
    url = reverse("admin:ledger_game_changelist")
    assert admin_client.get(url, {"status__exact": "complete"}).status_code == 200
    assert GamePlayer.objects.exists()


# -- staff who are not superusers: only their own tables' objects ------------------------------

@pytest.fixture
def staff(django_user_model):
    """A staff account with every ledger permission (and may view accounts), but not a
    superuser: it keeps the table 'Ours' with 'partner'; 'stranger' keeps 'Theirs'."""
    from django.contrib.auth.models import Permission

    user = django_user_model.objects.create_user("clubstaff", password="pw", is_staff=True)
    user.user_permissions.set(Permission.objects.filter(
        content_type__app_label="ledger") | Permission.objects.filter(
        codename__in=["view_user", "change_user"]))
    partner = django_user_model.objects.create_user("partner_pat", password="pw")
    stranger = django_user_model.objects.create_user("stranger_sam", password="pw")
    ours = services.table_create(name="Ours", scorekeepers=[user, partner])
    theirs = services.table_create(name="Theirs", scorekeepers=[stranger])
    services.player_get_or_create(table=ours, name="Ann")
    services.player_get_or_create(table=theirs, name="Zed")
    services.session_create(table=ours, currency="USD", place="Our kitchen")
    services.session_create(table=theirs, currency="USD", place="Their cellar")
    return {"user": user, "ours": ours, "theirs": theirs}


def admin_page(client, url, **params) -> str:
    response = client.get(url, params)
    assert response.status_code == 200, url
    return response.content.decode()


def test_staff_lists_show_only_their_tables_objects(client, staff):
    client.force_login(staff["user"])
    assert "Ours" in admin_page(client, reverse("admin:ledger_table_changelist"))
    for name, theirs in [("table", "Theirs"), ("player", "Zed"), ("session", "Their cellar")]:
        page = admin_page(client, reverse(f"admin:ledger_{name}_changelist"))
        assert theirs not in page, name
    theirs_change = reverse("admin:ledger_table_change", args=[staff["theirs"].pk])
    assert client.get(theirs_change).status_code == 302  # "does not exist", back to the index


@pytest.mark.parametrize("url_name", ["admin:ledger_player_add", "admin:ledger_session_add"])
def test_staff_add_forms_offer_only_their_tables(client, staff, url_name):
    client.force_login(staff["user"])
    page = admin_page(client, reverse(url_name))
    assert f'value="{staff["ours"].pk}"' in page and ">Ours<" in page
    assert "Theirs" not in page


def test_staff_cannot_add_a_player_to_another_table_by_posting_it(client, staff):
    client.force_login(staff["user"])
    response = client.post(reverse("admin:ledger_player_add"),
                           {"table": staff["theirs"].pk, "name": "Mole"})
    assert response.status_code == 200  # the form again
    assert "Select a valid choice" in response.content.decode()
    assert not Player.objects.filter(name="Mole").exists()
    response = client.post(reverse("admin:ledger_session_add"), {
        "table": staff["theirs"].pk, "date": "2025-11-21", "currency": "USD",
        "per_points": 1, "games-TOTAL_FORMS": 0, "games-INITIAL_FORMS": 0})
    assert "Select a valid choice" in response.content.decode()
    assert not Session.objects.filter(table=staff["theirs"], date="2025-11-21").exists()


def test_the_scorekeepers_widget_lists_only_fellow_keepers(client, staff):
    client.force_login(staff["user"])
    for url in (reverse("admin:ledger_table_add"),
                reverse("admin:ledger_table_change", args=[staff["ours"].pk])):
        page = admin_page(client, url)
        assert "partner_pat" in page and "clubstaff" in page
        assert "stranger_sam" not in page
    stranger = Table.objects.get(name="Theirs").scorekeepers.get()
    response = client.post(reverse("admin:ledger_table_add"), {
        "name": "Sneaky", "paper_size": "A4", "scorekeepers": [stranger.pk],
        "players-TOTAL_FORMS": 0, "players-INITIAL_FORMS": 0})
    assert "Select a valid choice" in response.content.decode()
    assert not Table.objects.filter(name="Sneaky").exists()


def test_a_table_staff_add_is_theirs(client, staff):
    client.force_login(staff["user"])
    response = client.post(reverse("admin:ledger_table_add"), {
        "name": "Wednesday", "paper_size": "A4", "scorekeepers": [],
        "players-TOTAL_FORMS": 0, "players-INITIAL_FORMS": 0})
    assert response.status_code == 302
    assert list(Table.objects.get(name="Wednesday").scorekeepers.all()) == [staff["user"]]


def test_staff_see_only_fellow_keepers_accounts(client, staff, admin_user):
    client.force_login(staff["user"])
    page = admin_page(client, reverse("admin:auth_user_changelist"))
    assert "partner_pat" in page and "clubstaff" in page
    assert "stranger_sam" not in page and ">admin<" not in page
    stranger = Table.objects.get(name="Theirs").scorekeepers.get()
    assert client.get(reverse("admin:auth_user_change", args=[stranger.pk])).status_code == 302
    # a superuser still sees everyone
    client.force_login(admin_user)
    assert "stranger_sam" in admin_page(client, reverse("admin:auth_user_changelist"))


# -- the admin writes through the services ----------------------------------------------------

def test_the_admin_adds_a_player_through_the_service(client, staff, monkeypatch):
    client.force_login(staff["user"])
    called = []
    real = services.player_add
    monkeypatch.setattr("ledger.admin.tables.player_add",
                        lambda **kw: called.append(kw) or real(**kw))
    response = client.post(reverse("admin:ledger_player_add"),
                           {"table": staff["ours"].pk, "name": "  Bea\u200b  Bop "})
    assert response.status_code == 302
    bea = Player.objects.get(table=staff["ours"], name="Bea Bop")  # cleaned by the service
    assert [c["name"] for c in called] == ["Bea Bop"]
    assert response["Location"].endswith("/admin/ledger/player/")
    from django.contrib.admin.models import LogEntry
    assert LogEntry.objects.get(object_id=str(bea.pk)).object_repr == "Bea Bop"


@pytest.mark.parametrize("name, says", [
    ("-draw-", "is kept for the hand form"),
    ("ANN", "already plays at this table"),
])
def test_the_admin_refuses_a_player_name_at_the_field(client, staff, name, says):
    client.force_login(staff["user"])
    response = client.post(reverse("admin:ledger_player_add"),
                           {"table": staff["ours"].pk, "name": name})
    assert response.status_code == 200 and says in response.content.decode()
    assert list(staff["ours"].players.values_list("name", flat=True)) == ["Ann"]


def test_a_new_table_with_players_inline_is_written_by_the_services(client, staff):
    client.force_login(staff["user"])
    partner = Table.objects.get(name="Ours").scorekeepers.get(username="partner_pat")
    response = client.post(reverse("admin:ledger_table_add"), {
        "name": "Thursday", "paper_size": "A4", "scorekeepers": [partner.pk],
        "players-TOTAL_FORMS": 3, "players-INITIAL_FORMS": 0,
        "players-0-name": "Cy", "players-1-name": " Di ", "players-2-name": ""})
    assert response.status_code == 302
    table = Table.objects.get(name="Thursday")
    assert sorted(table.players.values_list("name", flat=True)) == ["Cy", "Di"]
    assert sorted(u.username for u in table.scorekeepers.all()) == ["clubstaff", "partner_pat"]
    # two rows naming the same person: the form again, nothing written
    response = client.post(reverse("admin:ledger_table_add"), {
        "name": "Friday", "paper_size": "A4", "scorekeepers": [],
        "players-TOTAL_FORMS": 2, "players-INITIAL_FORMS": 0,
        "players-0-name": "Cy", "players-1-name": "CY"})
    assert response.status_code == 200 and "same player" in response.content.decode()
    assert not Table.objects.filter(name="Friday").exists()


def test_the_players_inline_renames_through_the_service(admin_client, staff):
    table = staff["ours"]
    ann = table.players.get(name="Ann")
    response = admin_client.post(reverse("admin:ledger_table_change", args=[table.pk]), {
        "name": "Ours", "paper_size": "auto",
        "scorekeepers": [u.pk for u in table.scorekeepers.all()],
        "players-TOTAL_FORMS": 2, "players-INITIAL_FORMS": 1,
        "players-0-id": ann.pk, "players-0-table": table.pk, "players-0-name": "Anne",
        "players-1-name": "Eve"})
    assert response.status_code == 302, response.content.decode()[:2000]
    ann.refresh_from_db()
    assert ann.name == "Anne"
    assert sorted(table.players.values_list("name", flat=True)) == ["Anne", "Eve"]
    # a superuser's save keeps the keepers he left chosen, and adds nobody
    assert sorted(u.username for u in table.scorekeepers.all()) == ["clubstaff", "partner_pat"]


def test_player_add_and_table_set_scorekeepers_are_keyword_only_and_refuse_twins(staff):
    from ledger.exceptions import LedgerError

    with pytest.raises(TypeError):
        services.player_add(staff["ours"], "Cy")  # positional: refused
    with refuses(LedgerError, match="already plays"):
        services.player_add(table=staff["ours"], name="ａnn")
    assert staff["ours"].players.count() == 1
    services.table_set_scorekeepers(table=staff["ours"], scorekeepers=[staff["user"]])
    assert list(staff["ours"].scorekeepers.all()) == [staff["user"]]


def test_the_admin_adds_and_changes_a_table_through_the_services(client, staff, monkeypatch):
    client.force_login(staff["user"])
    calls = []

    def spy(service):
        def call(**kwargs):
            calls.append(service.__name__)
            return service(**kwargs)
        return call

    for service in (services.table_create, services.table_rename, services.table_set_paper):
        monkeypatch.setattr(f"ledger.admin.tables.{service.__name__}", spy(service))
    response = client.post(reverse("admin:ledger_table_add"), {
        "name": " Sunday ", "paper_size": "letter", "scorekeepers": [],
        "players-TOTAL_FORMS": 0, "players-INITIAL_FORMS": 0})
    assert response.status_code == 302
    sunday = Table.objects.get(name="Sunday")
    assert (sunday.paper_size, list(sunday.scorekeepers.all())) == ("letter", [staff["user"]])
    response = client.post(reverse("admin:ledger_table_change", args=[sunday.pk]), {
        "name": "Sunday lunch", "paper_size": "A4", "scorekeepers": [staff["user"].pk],
        "players-TOTAL_FORMS": 0, "players-INITIAL_FORMS": 0})
    assert response.status_code == 302
    sunday.refresh_from_db()
    assert (sunday.name, sunday.paper_size) == ("Sunday lunch", "A4")
    assert calls == ["table_create", "table_rename", "table_set_paper"]


def test_a_table_name_a_keeper_already_keeps_is_refused_at_the_field(client, staff):
    client.force_login(staff["user"])
    before = Table.objects.count()
    response = client.post(reverse("admin:ledger_table_add"), {
        "name": "Ours", "paper_size": "A4", "scorekeepers": [],
        "players-TOTAL_FORMS": 0, "players-INITIAL_FORMS": 0})
    assert response.status_code == 200
    assert "clubstaff already keeps a table called &#x27;Ours&#x27;." in \
        response.content.decode()
    assert Table.objects.count() == before


def test_the_admin_adds_and_changes_an_evening_through_the_services(client, staff):
    client.force_login(staff["user"])
    response = client.post(reverse("admin:ledger_session_add"), {
        "table": staff["ours"].pk, "date": "2025-11-21", "place": " The den ",
        "currency": "jpy", "rate": "2", "per_points": 10, "notes": "",
        "games-TOTAL_FORMS": 0, "games-INITIAL_FORMS": 0})
    assert response.status_code == 302, response.content.decode()[-3000:]
    evening = Session.objects.get(table=staff["ours"], date="2025-11-21")
    assert (evening.place, evening.currency, str(evening.rate), evening.per_points,
            evening.created_by) == ("The den", "JPY", "2.0000", 10, staff["user"])
    response = client.post(reverse("admin:ledger_session_change", args=[evening.pk]), {
        "table": staff["ours"].pk, "date": "2025-11-22", "place": "The den",
        "currency": "EUR", "rate": "0.05", "per_points": 1, "notes": "moved",
        "games-TOTAL_FORMS": 0, "games-INITIAL_FORMS": 0})
    assert response.status_code == 302
    evening.refresh_from_db()
    assert (str(evening.date), evening.currency, str(evening.rate), evening.per_points,
            evening.notes) == ("2025-11-22", "EUR", "0.0500", 1, "moved")


def test_an_evening_with_games_keeps_its_money_fields(staff):
    from ledger.exceptions import LedgerError

    evening = Session.objects.get(table=staff["ours"])
    services.player_get_or_create(table=staff["ours"], name="Bob")
    gin_game(evening, staff["user"])
    with refuses(LedgerError, match="no longer change"):
        services.session_change(session=evening, currency="EUR")
    with refuses(LedgerError, match="no longer change"):
        services.session_change(session=evening, rate="0.05")
    services.session_change(session=evening, place="Upstairs", currency="usd",
                            rate=None)  # the same currency and (no) stake: no change
    evening.refresh_from_db()
    assert (evening.place, evening.currency, evening.rate) == ("Upstairs", "USD", None)


def test_per_points_above_the_services_limit_is_refused_at_the_field(client, staff):
    client.force_login(staff["user"])
    response = client.post(reverse("admin:ledger_session_add"), {
        "table": staff["ours"].pk, "date": "2025-11-23", "currency": "USD",
        "per_points": 1_000_000, "games-TOTAL_FORMS": 0, "games-INITIAL_FORMS": 0})
    assert response.status_code == 200
    assert "Per points: 1000000 is above 100000" in response.content.decode()
    assert not Session.objects.filter(date="2025-11-23").exists()


def test_staff_cannot_take_the_table_from_its_other_keepers(client, staff):
    """Issue 38.7: a staff co-keeper removed the table's other keepers in the admin (and,
    no longer seeing their accounts, could not undo it). A superuser still can."""
    table = staff["ours"]
    ann = table.players.get(name="Ann")
    inline = {"players-TOTAL_FORMS": 1, "players-INITIAL_FORMS": 1,
              "players-0-id": ann.pk, "players-0-table": table.pk, "players-0-name": "Ann"}
    client.force_login(staff["user"])
    url = reverse("admin:ledger_table_change", args=[table.pk])
    response = client.post(url, {**inline, "name": "Ours", "paper_size": "auto",
                                 "scorekeepers": [staff["user"].pk]})
    assert response.status_code == 200
    assert ("Only a superuser may take a table from its scorekeepers: keep partner_pat "
            "chosen (you may add keepers).") in response.content.decode()
    assert sorted(u.username for u in table.scorekeepers.all()) == ["clubstaff", "partner_pat"]
    # adding a fellow keeper of another table is still his to do
    other = services.table_create(name="Other", scorekeepers=[staff["user"]])
    mate = get_user_model().objects.create_user("mate_max", password="pw")
    services.table_set_scorekeepers(table=other, scorekeepers=[staff["user"], mate])
    response = client.post(url, {**inline, "name": "Ours", "paper_size": "auto",
                                 "scorekeepers": [staff["user"].pk, mate.pk,
                                                  table.scorekeepers.get(username="partner_pat").pk]})
    assert response.status_code == 302, response.content.decode()[:2000]
    assert sorted(u.username for u in table.scorekeepers.all()) == [
        "clubstaff", "mate_max", "partner_pat"]
    # a superuser may take a keeper away
    admin = get_user_model().objects.create_superuser("root", password="pw")
    client.force_login(admin)
    response = client.post(url, {**inline, "name": "Ours", "paper_size": "auto",
                                 "scorekeepers": [staff["user"].pk]})
    assert response.status_code == 302
    assert [u.username for u in table.scorekeepers.all()] == ["clubstaff"]
