"""Views: the numbers shown on the screens (read from the page), access, bad input, share
links, CSV, corrections, and a sheet whose query count does not grow with its hands."""

from __future__ import annotations

import csv
import io
import uuid

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from ledger import services
from ledger.models import Hand, ShareLink
from ledger.views.downloads import inert_cell
from tests.factories import gin_game
from tests.pages import Page, field_error, money_cell, text, tile

from .conftest import start_empty

pytestmark = pytest.mark.django_db


def hand_post(number: int, knocker: str, counts: tuple, kind: str = "knock", **extra) -> dict:
    data = {"key": str(uuid.uuid4()), "number": number, "t1_knocker": knocker,
            "t1_kind": kind, "t1_c0": counts[0], "t1_c1": counts[1]}
    data.update(extra)
    return data


# -- numbers shown -----------------------------------------------------------------------------

def test_gin_game_shows_the_cores_totals_bonuses_and_money(logged_in, session, keeper, case):
    record = case("gin-standard-game")  # RULES §5 example 5 under standard
    game = start_empty(session, keeper, record)
    url = reverse("ledger:hand_create", args=[game.pk])
    a, b = record["players"]
    for number, hand in enumerate(record["hands"], start=1):
        if hand.get("draw"):
            data = {"key": str(uuid.uuid4()), "number": number, "t1_knocker": "-draw-"}
        else:
            knocker = hand["knocker"]
            counts = (str(hand["deadwood"][a]), str(hand["deadwood"][b]))
            kind = "gin" if hand["deadwood"][knocker] == 0 else "knock"
            data = hand_post(number, knocker, counts, kind)
        response = logged_in.post(url, data)
        assert response.status_code == 302, text(response)[-500:]
    page = logged_in.get(reverse("ledger:game_detail", args=[game.pk]))
    assert tile(page, a) == "318" and tile(page, b) == "116"
    assert money_cell(page, a) == "+2.02" and money_cell(page, b) == "\u22122.02"
    shown = text(page)
    assert f"{b} pays {a} $2.02" in shown
    # The totals rows: hand points, hands won, boxes, game bonus, total.
    assert f"{a} 118 4 100 100 318" in shown
    assert f"{b} 66 2 50 0 116" in shown
    # The running totals after each hand, as the sheet shows them.
    assert "Game over" in shown


def test_session_page_shows_nets_and_fewest_payments_then_marks_paid(logged_in, session,
                                                                    keeper, case):
    services.game_import(session=session, record=case("box-rotation"), imported_by=keeper)
    url = reverse("ledger:session_detail", args=[session.pk])
    page = logged_in.get(url)
    assert money_cell(page, "P") == "+1.55"
    assert money_cell(page, "Q") == "\u22121.63"
    assert money_cell(page, "R") == "+0.08"
    shown = text(page)
    assert "Q pays P $1.55" in shown and "Q pays R $0.08" in shown
    assert logged_in.post(reverse("ledger:session_settle", args=[session.pk])).status_code == 302
    payment = session.settlement.payments.get(payer__name="Q", payee__name="P")
    logged_in.post(reverse("ledger:payment_mark", args=[payment.pk]), {"paid": "1"})
    payment.refresh_from_db()
    assert payment.is_paid
    assert 'class="payment paid"' in logged_in.get(url).content.decode()


def test_the_screen_says_who_deals_who_plays_whom_and_who_sits_out(logged_in, session, keeper,
                                                                     case):
    record = case("captain-five-money")
    record["abandoned"] = False
    game = services.game_import(session=session, record=record, imported_by=keeper)
    shown = text(logged_in.get(reverse("ledger:game_detail", args=[game.pk])))
    assert "Hand 2" in shown
    assert "Table 1 R1 captain v B1 deals R1" in shown
    assert "Table 2 R2 captain v B3 deals R2" in shown
    assert "Sits out: B2" in shown
    assert "B3 in for B2 at table 2" in shown

    box = start_empty(session, keeper, case("box-rotation"))
    shown = text(logged_in.get(reverse("ledger:game_detail", args=[box.pk])))
    assert "P in the box v Q" in shown and "Sits out: R" in shown

    capit = record = case("cap-it-pot")
    capit["hands"] = capit["hands"][:1]
    game = services.game_import(session=session, record=capit, imported_by=keeper)
    shown = text(logged_in.get(reverse("ledger:game_detail", args=[game.pk])))
    assert "Round 2 of 5 a set of 3 and a run of 4 deals A" in shown


def test_hollywood_sheet_shows_its_three_columns(logged_in, session, keeper, case):
    game = services.game_import(session=session, record=case("hollywood-columns"),
                                imported_by=keeper)
    page = logged_in.get(reverse("ledger:game_detail", args=[game.pk]))
    sheet = Page(page)
    row3 = sheet.one("tr", id="hand-3")
    lines = [span for span in row3.iter("span")
             if any(c.startswith("game") for c in (span.get("class") or "").split())]
    assert [sheet.text(line) for line in lines] == ["G1 79 · 0", "G2 54 · 0", "G3 36 · 0"]


def test_hollywood_columns_are_named_in_the_pages_language(logged_in, session, keeper, case):
    """The three games' short names are in the page's language (they were "G1" in every
    language): German "P" for Partie."""
    game = services.game_import(session=session, record=case("hollywood-columns"),
                                imported_by=keeper)
    sheet = Page(logged_in.get(reverse("ledger:game_detail", args=[game.pk]),
                               HTTP_ACCEPT_LANGUAGE="de"))
    lines = [span for span in sheet.one("tr", id="hand-3").iter("span")
             if any(c.startswith("game") for c in (span.get("class") or "").split())]
    assert [sheet.text(line) for line in lines] == ["P1 79 · 0", "P2 54 · 0", "P3 36 · 0"]


# -- bad input -------------------------------------------------------------------------------

def test_a_refused_hand_keeps_the_typed_values_and_puts_the_message_at_the_field(
        logged_in, session, keeper, case):
    game = start_empty(session, keeper, case("gin-standard-game"))
    a, b = game.seats.order_by("seat")[0].player.name, game.seats.order_by("seat")[1].player.name
    response = logged_in.post(reverse("ledger:hand_create", args=[game.pk]),
                              hand_post(1, a, ("12", "30")))
    assert response.status_code == 422
    assert field_error(response, "t1_c0") == f"a knock must be 10 or less; {a} counted 12"
    page = Page(response)
    assert page.field_value("t1_c0") == "12" and page.field_value("t1_c1") == "30"
    assert page.checked("t1_knocker", a)
    assert Hand.objects.filter(game=game).count() == 0

    response = logged_in.post(reverse("ledger:hand_create", args=[game.pk]),
                              hand_post(1, a, ("", "30")))
    assert field_error(response, "t1_c0") == f"Enter {a}'s count."
    response = logged_in.post(reverse("ledger:hand_create", args=[game.pk]),
                              {"key": str(uuid.uuid4()), "number": 1})
    assert field_error(response, "t1_knocker") == "Who knocked? Tap a name, or Draw."
    assert b


def test_oklahoma_knock_above_the_upcard(logged_in, session, keeper, case):
    game = start_empty(session, keeper, case("oklahoma-spades"))
    response = logged_in.post(reverse("ledger:hand_create", args=[game.pk]), hand_post(
        1, "A", ("7", "20"), up_rank="5", up_suit="S"))
    assert field_error(response, "t1_c0") == (
        "a knock must be 5 or less (the up-card 5\u2660); A counted 7")
    response = logged_in.post(reverse("ledger:hand_create", args=[game.pk]), hand_post(
        1, "A", ("4", "20"), up_rank="5", up_suit="S"))
    assert response.status_code == 302
    assert tile(logged_in.get(response.url), "A") == "32"  # spade doubles: (20-4) x 2


def test_capit_bad_points_go_to_the_players_field(logged_in, session, keeper, case):
    game = start_empty(session, keeper, case("cap-it-pot"))
    data = {"key": str(uuid.uuid4()), "number": 1, "went_out": "A",
            "pts_1": "3", "pts_2": "50", "pts_3": "10"}
    response = logged_in.post(reverse("ledger:hand_create", args=[game.pk]), data)
    assert response.status_code == 422
    assert "3 points cannot be made" in field_error(response, "pts_1")
    assert 'name="pts_2" value="50"' in response.content.decode()


def test_a_double_tap_records_one_hand(logged_in, session, keeper, case):
    game = start_empty(session, keeper, case("gin-standard-game"))
    data = hand_post(1, "A", ("5", "17"))
    url = reverse("ledger:hand_create", args=[game.pk])
    assert logged_in.post(url, data).status_code == 302
    assert logged_in.post(url, data).status_code == 302
    assert Hand.objects.filter(game=game).count() == 1


# -- corrections -----------------------------------------------------------------------------

def test_correct_a_hand_with_a_reason_and_the_history_shows_it(logged_in, session, keeper, case):
    game = services.game_import(session=session, record=case("box-rotation"),
                                imported_by=keeper)
    url = reverse("ledger:hand_correct", args=[game.pk, 1])
    form = logged_in.get(url)
    assert 'name="t1_c1" value="18"' in form.content.decode()
    data = hand_post(1, "P", ("3", "20"), reason="Q had 20, not 18")
    response = logged_in.post(url, data)
    assert response.status_code == 302, text(response)[-400:]
    page = logged_in.get(reverse("ledger:game_detail", args=[game.pk]))
    assert tile(page, "P") == "108"
    page_html = page.content.decode()
    # the voided hand reads as every hand does, scored in its place (see presentation.rows)
    assert "<s>Hand 1: P knocks 3 v Q 18; P (box) v Q</s>" in page_html
    assert "corrected: “Q had 20, not 18”" in page_html

    undo = logged_in.post(reverse("ledger:hand_undo", args=[game.pk]), {"number": "6"})
    assert undo.status_code == 302
    page = logged_in.get(reverse("ledger:game_detail", args=[game.pk]))
    assert tile(page, "P") == "53" and "Game over" not in text(page)


# -- access ----------------------------------------------------------------------------------

def test_another_scorekeeper_gets_404_everywhere(client, other_keeper, session, keeper, case):
    game = services.game_import(session=session, record=case("box-rotation"),
                                imported_by=keeper)
    services.session_settle(session=session, settled_by=keeper)
    payment = session.settlement.payments.first()
    client.force_login(other_keeper)
    table = session.table
    gets = [("ledger:table_detail", table.pk), ("ledger:session_detail", session.pk),
            ("ledger:game_new", session.pk), ("ledger:game_detail", game.pk),
            ("ledger:game_export", game.pk)]
    for name, pk in gets:
        assert client.get(reverse(name, args=[pk])).status_code == 404, name
    assert client.get(reverse("ledger:hand_correct", args=[game.pk, 1])).status_code == 404
    assert client.get(reverse("ledger:game_start", args=[session.pk, "gin", 2])).status_code \
        == 404
    posts = [("ledger:hand_create", game.pk), ("ledger:hand_undo", game.pk),
             ("ledger:game_abandon", game.pk), ("ledger:game_delete", game.pk),
             ("ledger:session_settle", session.pk),
             ("ledger:share_create", table.pk), ("ledger:payment_mark", payment.pk)]
    for name, pk in posts:
        assert client.post(reverse(name, args=[pk])).status_code == 404, name
    assert "Friday" not in text(client.get(reverse("ledger:home")))
    # The admin is closed to scorekeepers: they are not staff.
    assert not other_keeper.is_staff
    admin = client.get("/admin/ledger/table/")
    assert admin.status_code == 302 and admin.url.startswith("/admin/login/")


def test_anonymous_users_are_sent_to_log_in(client, session):
    response = client.get(reverse("ledger:session_detail", args=[session.pk]))
    assert response.status_code == 302 and "/accounts/login/" in response.url
    assert client.get("/accounts/login/").status_code == 200


# -- share links -----------------------------------------------------------------------------

def test_share_link_shows_the_sheet_without_login_and_can_be_revoked(logged_in, client,
                                                                      session, keeper, case):
    game = services.game_import(session=session, record=case("box-rotation"),
                                imported_by=keeper)
    logged_in.post(reverse("ledger:share_create", args=[session.table.pk]))
    link = ShareLink.objects.get(table=session.table, game=None)
    logged_in.logout()
    table_page = client.get(reverse("ledger:shared", args=[link.token]))
    assert table_page.status_code == 200 and "Game 1" in text(table_page)
    shared = client.get(reverse("ledger:shared_game", args=[link.token, game.pk]))
    assert shared.status_code == 200
    assert tile(shared, "P") == "106" and tile(shared, "R") == "57"
    assert "hands/1/fix" not in shared.content.decode()  # read-only: no Fix, no forms
    assert "<form" not in shared.content.decode().split("</header>")[1]
    assert client.get(reverse("ledger:shared", args=["guessed-token"])).status_code == 404

    client.force_login(keeper)
    client.post(reverse("ledger:share_revoke", args=[link.pk]))
    client.logout()
    assert client.get(reverse("ledger:shared", args=[link.token])).status_code == 404
    assert client.get(reverse("ledger:shared_game", args=[link.token, game.pk])).status_code \
        == 404


def test_a_share_link_does_not_show_who_corrected_or_changed(client, django_user_model):
    """The owner's page says who voided a hand and who changed a rule; the share link shows
    the same corrections and changes without the account names."""
    marta = django_user_model.objects.create_user("marta_q7", password="pw")
    table = services.table_create(name="Sunday", scorekeepers=[marta])
    session = services.session_create(table=table)
    game = gin_game(session, marta)
    services.hand_record(game=game, entry={"knocker": "Ann", "deadwood": {"Ann": 5, "Bob": 17}},
                         recorded_by=marta, idempotency_key=uuid.uuid4())
    services.hand_correct(hand=game.hands.get(number=1), corrected_by=marta,
                          entry={"knocker": "Ann", "deadwood": {"Ann": 5, "Bob": 27}},
                          reason="a king was missed")
    services.game_change_rules(game=game, changes={"target": 150}, changed_by=marta,
                               reason="agreed longer game")
    link = ShareLink.objects.create(table=table, game=game, created_by=marta)

    client.force_login(marta)
    own = client.get(reverse("ledger:game_detail", args=[game.pk])).content.decode()
    assert "a king was missed" in own and "agreed longer game" in own
    assert own.count("by marta_q7") == 2
    marta.first_name, marta.last_name = "Marta", "Quinn"
    marta.save()
    own = client.get(reverse("ledger:game_detail", args=[game.pk])).content.decode()
    assert own.count("by Marta Quinn") == 2 and "marta_q7" not in own.split("</header>")[1]
    client.logout()
    shared = client.get(reverse("ledger:shared", args=[link.token])).content.decode()
    assert "a king was missed" in shared and "agreed longer game" in shared
    assert "marta_q7" not in shared


def test_a_game_link_shows_only_that_game(logged_in, client, session, keeper, case):
    first = services.game_import(session=session, record=case("box-rotation"),
                                 imported_by=keeper)
    second = services.game_import(session=session, record=case("hollywood-columns"),
                                  imported_by=keeper)
    logged_in.post(reverse("ledger:share_create", args=[session.table.pk]),
                   {"game": second.pk})
    link = ShareLink.objects.get(game=second)
    assert client.get(reverse("ledger:shared", args=[link.token])).status_code == 200
    assert client.get(reverse("ledger:shared_game", args=[link.token, first.pk])) \
        .status_code == 404


# -- CSV -------------------------------------------------------------------------------------

def test_csv_export_of_the_hands(logged_in, session, keeper, case):
    game = services.game_import(session=session, record=case("box-rotation"),
                                imported_by=keeper)
    response = logged_in.get(reverse("ledger:game_export", args=[game.pk]))
    assert response["Content-Type"].startswith("text/csv")
    rows = list(csv.reader(io.StringIO(response.content.decode())))
    assert rows[0] == ["Hand", "Dealer", "Play", "Result", "P points", "P total", "Q points",
                       "Q total", "R points", "R total", "Voided"]
    assert rows[1] == ["1", "P", "P knocks 3 v Q 18", "Knock", "15", "15", "0", "0", "0", "0",
                       ""]
    last = next(row for row in reversed(rows) if row[0] == "6")
    assert last[5] == "106" and last[9] == "57"
    totals = next(row for row in rows if row[0] == "Final total")
    assert totals[1:4] == ["P 106", "Q 47", "R 57"][:3] or totals[1].startswith("P ")


def test_csv_export_cannot_carry_a_spreadsheet_formula(logged_in, session, keeper):
    """A player called '=HYPERLINK(...)' exports as text ('=... with an apostrophe), while the
    numbers, the negative ones too, stay numbers."""
    evil = '=HYPERLINK("http://x.example","y")'
    game = services.game_start(session=session, variant="gin", players=[evil, "@Bob"],
                               started_by=keeper, setup={"first_dealer": "@Bob"})
    services.hand_record(game=game, entry={"knocker": evil, "deadwood": {evil: 5, "@Bob": 17}},
                         recorded_by=keeper, idempotency_key=uuid.uuid4())
    response = logged_in.get(reverse("ledger:game_export", args=[game.pk]))
    rows = list(csv.reader(io.StringIO(response.content.decode())))
    assert rows[0][4] == "'" + evil + " points" and rows[0][6] == "'@Bob points"
    assert rows[1][2].startswith("'" + evil + " knocks 5 v @Bob 17")
    assert rows[1][1] == "'@Bob" and rows[1][4:8] == ["12", "12", "0", "0"]
    assert inert_cell("-2.02") == "-2.02" and inert_cell(-3) == -3
    assert inert_cell("-cmd") == "'-cmd"


def test_undo_with_a_garbled_number_says_so_and_undoes_nothing(logged_in, session, keeper):
    game = gin_game(session, keeper)
    services.hand_record(game=game, entry={"knocker": "Ann", "deadwood": {"Ann": 5, "Bob": 17}},
                         recorded_by=keeper, idempotency_key=uuid.uuid4())
    response = logged_in.post(reverse("ledger:hand_undo", args=[game.pk]),
                              {"number": "abc"}, follow=True)
    assert response.status_code == 400  # the one answer to a number not written 0-9
    assert "The undo button was out of date; nothing was undone." in text(response)
    assert "'number'" in text(response)
    assert "invalid literal" not in text(response)
    assert game.hands.filter(voided_at__isnull=True).count() == 1


# -- starting a game -------------------------------------------------------------------------

def test_start_a_game_with_settings_stakes_and_a_cut(logged_in, session, keeper):
    for name in ("Ann", "Bob", "Cy"):
        services.player_get_or_create(table=session.table, name=name)
    url = reverse("ledger:game_start", args=[session.pk, "box", 3])
    cut = logged_in.post(url, {"cut": "1"})
    assert cut.status_code == 200 and "The cut:" in text(cut)
    response = logged_in.post(url, {"p1": "Ann", "p2": "Bob", "p3": "Cy", "preset": "standard",
                                    "rate": "0.02", "per_points": "1", "stake_p3": "0.01",
                                    "rule_target": "150"})
    assert response.status_code == 302, text(response)[-600:]
    game = session.games.get()
    assert game.rules["target"] == 150 and game.preset == "standard"
    assert str(game.seats.get(player__name="Cy").stake.normalize()) == "0.01"

    bad = logged_in.post(url, {"p1": "Ann", "p2": "Ann", "p3": "Cy", "preset": "standard"})
    assert bad.status_code == 422 and field_error(bad, "p2") == "Ann already has a seat."


# -- query count ------------------------------------------------------------------------------

def _long_game(session, keeper, hands: int):
    rng_hands = []
    for i in range(hands):
        knocker, other = ("Ann", "Bob") if i % 2 else ("Bob", "Ann")
        rng_hands.append({"knocker": knocker, "deadwood": {knocker: 3, other: 5}})
    record = {"format": "tablestakes.game/1", "variant": "gin", "preset": "standard",
              "rules": {"target": 100_000}, "players": ["Ann", "Bob"],
              "stakes": {"rate": "0.01", "per_points": 1, "currency": "USD"},
              "setup": {"first_dealer": "Ann"}, "abandoned": False, "hands": rng_hands}
    game = services.game_import(session=session, record=record, imported_by=keeper)
    # A voided hand too, so the correction history is drawn.
    hand = game.hands.get(number=1)
    services.hand_correct(hand=hand, entry={"knocker": "Bob", "deadwood": {"Bob": 2, "Ann": 5}},
                          corrected_by=keeper, reason="typo")
    return game


def test_sheet_query_count_does_not_grow_with_hands(logged_in, session, keeper):
    small = _long_game(session, keeper, 10)
    big = _long_game(session, keeper, 300)
    counts = []
    for game in (small, big):
        url = reverse("ledger:game_detail", args=[game.pk])
        logged_in.get(url)  # warm-up (session, content types)
        with CaptureQueriesContext(connection) as queries:
            response = logged_in.get(url)
        assert response.status_code == 200
        counts.append(len(queries))
    assert counts[0] == counts[1], counts
    assert tile(response, "Ann") == "300"  # 150 wins of 2 points by Ann (hand 1 corrected)


def test_partnership_and_three_player_captain_hands_through_the_form(logged_in, session, keeper):
    partnership = services.game_start(
        session=session, variant="partnership", players=["A", "B", "X", "Y"], started_by=keeper,
        setup={"sides": {"We": ["A", "B"], "They": ["X", "Y"]}})
    page = text(logged_in.get(reverse("ledger:game_detail", args=[partnership.pk])))
    assert "Table 1 A v X deals X" in page and "Table 2 B v Y deals Y" in page
    data = {"key": str(uuid.uuid4()), "number": 1,
            "t1_knocker": "A", "t1_kind": "knock", "t1_c0": "2", "t1_c1": "20",
            "t2_knocker": "Y", "t2_kind": "gin", "t2_c0": "10", "t2_c1": ""}
    response = logged_in.post(reverse("ledger:hand_create", args=[partnership.pk]), data)
    assert response.status_code == 302, text(response)[-400:]
    page = logged_in.get(response.url)
    assert tile(page, "They") == "17" and tile(page, "We") == "0"  # 35 - 18
    assert "Table 1 A v Y" in text(page)  # partners rotate opponents

    captain = services.game_start(session=session, variant="captain", players=["P", "Q", "R"],
                                  started_by=keeper)
    page = text(logged_in.get(reverse("ledger:game_detail", args=[captain.pk])))
    assert "P captain v Q deals Q" in page and "Sits out: R" in page
    response = logged_in.post(reverse("ledger:hand_create", args=[captain.pk]),
                              hand_post(1, "P", ("4", "24")))
    assert response.status_code == 302
    page = logged_in.get(response.url)
    assert tile(page, "captains") == "20" and tile(page, "opponents") == "0"
    assert "P captain v R" in text(page) and "Sits out: Q" in text(page)  # Q lost: R plays
