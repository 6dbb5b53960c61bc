"""The table screen at midnight (issue 11): error pages, nothing offered that will be
refused, questions before undo / settle / revoke, resume and rematch, the decimal comma,
the words after a hand (captain substitutions, Hollywood's games), dark mode's contrast."""

from __future__ import annotations

import datetime
import re
import uuid
from decimal import Decimal
from pathlib import Path

import pytest
from django.template.loader import render_to_string
from django.test import override_settings
from django.urls import reverse
from django.utils import timezone

from ledger import services
from ledger.models import Game, GameStatus, Session, ShareLink
from tests.pages import text, tile

from .conftest import load_case, start_empty
from .test_views import hand_post

pytestmark = pytest.mark.django_db

MONDAY = datetime.date(2026, 11, 23)


@pytest.fixture
def evening(table, keeper):
    return services.session_create(table=table, date=MONDAY, currency="USD", rate="0.01",
                                   created_by=keeper)


def flash(response) -> str:
    match = re.search(r'<ul class="flash"[^>]*>(.*?)</ul>', response.content.decode(), re.S)
    return " ".join(re.sub(r"<[^>]+>", " ", match.group(1)).split()) if match else ""


def record(game, entry, keeper):
    return services.hand_record(game=game, entry=entry, recorded_by=keeper,
                                idempotency_key=uuid.uuid4())


# -- error pages -------------------------------------------------------------------------------

@pytest.mark.parametrize("debug", [False, True])
def test_a_revoked_or_mistyped_share_link_says_it_no_longer_works(client, evening, keeper,
                                                                  debug):
    link = ShareLink.objects.create(table=evening.table, created_by=keeper)
    game = services.game_import(session=evening, record=load_case("gin-standard-game"),
                                imported_by=keeper)
    assert client.get(reverse("ledger:shared", args=[link.token])).status_code == 200
    link.revoked_at = timezone.now()
    link.save(update_fields=["revoked_at"])
    with override_settings(DEBUG=debug):
        for url in (reverse("ledger:shared", args=[link.token]),
                    reverse("ledger:shared", args=[link.token[:-1]]),  # a letter lost
                    reverse("ledger:shared_game", args=[link.token, game.pk])):
            response = client.get(url)
            assert response.status_code == 404, url
            page = text(response)
            assert "This link no longer works" in page
            assert "Ask the scorekeeper for a new link" in page
            assert "URLconf" not in page and "Using the URLconf" not in page  # no debug page
            assert response["X-Robots-Tag"] == "noindex"


@override_settings(DEBUG=False)
def test_a_live_game_link_opens_no_other_game(client, evening, keeper):
    one = services.game_import(session=evening, record=load_case("gin-standard-game"),
                               imported_by=keeper)
    two = services.game_import(session=evening, record=load_case("box-rotation"),
                               imported_by=keeper)
    link = ShareLink.objects.create(table=evening.table, game=one, created_by=keeper)
    response = client.get(reverse("ledger:shared_game", args=[link.token, two.pk]))
    assert response.status_code == 404 and "This link no longer works" in text(response)


@override_settings(DEBUG=False)
def test_not_found_for_a_scorekeeper_offers_the_way_home(logged_in):
    response = logged_in.get("/games/999999/")
    assert response.status_code == 404
    page = text(response)
    assert "Nothing here" in page and "Your tables" in page
    assert "no longer works" not in page


@override_settings(DEBUG=False)
def test_not_found_for_a_visitor_offers_log_in(client):
    response = client.get("/no/such/page/")
    assert response.status_code == 404
    assert "Nothing here" in text(response) and "Log in" in text(response)


@override_settings(DEBUG=False)
def test_an_expired_form_says_nothing_was_saved(client, keeper, evening):
    client.force_login(keeper)
    client.handler.enforce_csrf_checks = True
    response = client.post(reverse("ledger:session_settle", args=[evening.pk]))
    assert response.status_code == 403
    assert "That form had expired" in text(response)
    assert "Nothing was saved" in text(response)
    assert not Session.objects.get(pk=evening.pk).is_settled


def test_the_403_page_renders(rf, keeper):
    from django.core.exceptions import PermissionDenied
    from django.views.defaults import permission_denied

    request = rf.get("/games/1/")
    request.user = keeper
    response = permission_denied(request, PermissionDenied())
    assert response.status_code == 403
    page = response.content.decode()
    assert "Not yours to open" in page and "Your tables" in page


def test_the_500_page_needs_no_request_and_no_database(django_assert_num_queries):
    with django_assert_num_queries(0):
        page = render_to_string("500.html")  # as Django's server_error draws it
    assert "Something went wrong on our side" in page
    assert "if the hand is there it was saved" in page


@override_settings(DEBUG=False)
def test_a_crash_shows_the_500_page(logged_in, monkeypatch):
    from ledger.views import tables

    def crash(user):
        raise RuntimeError("boom")

    monkeypatch.setattr(tables, "_games_in_progress", crash)
    logged_in.raise_request_exception = False
    response = logged_in.get(reverse("ledger:home"))
    assert response.status_code == 500
    assert "Something went wrong on our side" in text(response)
    assert b"boom" not in response.content  # not in the page's markup either


# -- a settled evening offers nothing that changes a game ------------------------------------

CHANGE_ACTIONS = ("/fix/", "hands/undo/", "/settings/", "/abandon/", "/games/new/", "/settle/")


def test_a_settled_evening_offers_no_change(logged_in, evening, keeper):
    game = services.game_import(session=evening, record=load_case("gin-standard-game"),
                                imported_by=keeper)
    open_page = logged_in.get(reverse("ledger:game_detail", args=[game.pk])).content.decode()
    assert "/hands/7/fix/" in open_page and "hands/undo/" in open_page  # before: offered
    services.session_settle(session=evening, settled_by=keeper)
    pages = {
        "game": logged_in.get(reverse("ledger:game_detail", args=[game.pk])),
        "evening": logged_in.get(reverse("ledger:session_detail", args=[evening.pk])),
        "table": logged_in.get(reverse("ledger:table_detail", args=[evening.table.pk])),
    }
    for name, response in pages.items():
        html = response.content.decode()
        for action in CHANGE_ACTIONS:
            assert action not in html, (name, action)
    game_page = text(pages["game"])
    assert "The evening of Monday, November 23, 2026 is settled" in game_page
    assert "Next game" not in game_page and "Stakes and rules" not in game_page
    assert "Same players again" in game_page  # allowed: it starts a new evening
    # A stale screen (or a typed URL) is told in the evening's words.
    response = logged_in.post(reverse("ledger:hand_undo", args=[game.pk]), {"number": "7"},
                              follow=True)
    assert ("The evening of Monday, November 23, 2026 is settled; its games can no longer "
            "change.") in flash(response)
    assert game.hands.filter(voided_at__isnull=True).count() == 7
    fix = logged_in.get(reverse("ledger:hand_correct", args=[game.pk, 3]), follow=True)
    assert "Monday, November 23, 2026 is settled" in flash(fix)


# -- questions before undo, settle and revoke --------------------------------------------------

def test_undo_asks_first_says_it_reopens_the_game_then_offers_the_hand_again(logged_in,
                                                                             evening, keeper):
    game = services.game_import(session=evening, record=load_case("gin-standard-game"),
                                imported_by=keeper)
    url = reverse("ledger:hand_undo", args=[game.pk])
    page = logged_in.get(reverse("ledger:game_detail", args=[game.pk])).content.decode()
    assert f'href="{url}" data-dialog="confirm-undo"' in page
    assert '<dialog class="confirm-dialog" id="confirm-undo"' in page
    question = logged_in.get(url)  # the page without JavaScript
    assert question.status_code == 200
    words = text(question)
    assert "Undo hand 7?" in words
    assert "Hand 7: A knocks 4 v B 30." in words
    assert "The game is over: undoing reopens it and takes its money back" in words
    assert Game.objects.get(pk=game.pk).status == GameStatus.COMPLETE  # GET changed nothing

    response = logged_in.post(url, {"number": "7", "reason": "wrong game"})  # the dialog
    assert response.status_code == 302 and "?again=" in response.url
    page = logged_in.get(response.url)
    assert ("Hand 7 undone (A knocks 4 v B 30); it stays in the history, struck through. "
            "The game is open again and its money is taken back.") in flash(page)
    assert Game.objects.get(pk=game.pk).status == GameStatus.IN_PROGRESS
    assert tile(page, "A") == "92"  # 12 + 56 + 24; hand 7 brought the 118 of RULES ex. 5
    html = page.content.decode()
    assert "Hand 7 as it was before the undo" in text(page)
    assert re.search(r'<input[^>]*name="t1_knocker" value="A"[^>]*checked', html)
    assert 'name="t1_c0" value="4"' in html and 'name="t1_c1" value="30"' in html
    assert "undone: “wrong game”" in html
    # Saving it again puts the game back where it was.
    again = logged_in.post(reverse("ledger:hand_create", args=[game.pk]),
                           hand_post(7, "A", ("4", "30")), follow=True)
    assert "Hand 7 recorded: A +26. Game over: A wins." in flash(again)
    assert Game.objects.get(pk=game.pk).status == GameStatus.COMPLETE


@pytest.mark.parametrize(("hand", "words"), [
    ({"knocker": "A", "deadwood": {"A": 0, "B": 35}}, "A gin v B 35"),
    ({"knocker": "A", "deadwood": {"A": 5, "B": 3}}, "A knocks 5 v B 3: B undercuts"),
    ({"knocker": "A", "deadwood": {"A": 2, "B": 30}}, "A knocks 2 v B 30"),
    ({"draw": True}, "Draw"),
])
def test_the_undo_question_says_how_the_hand_went(logged_in, evening, keeper, hand, words):
    case = load_case("gin-standard-game")
    game = start_empty(evening, keeper, case)
    record(game, hand, keeper)
    question = text(logged_in.get(reverse("ledger:hand_undo", args=[game.pk])))
    assert f"Hand 1: {words}." in question


def test_undo_without_a_reason_does_not_quote_undone(logged_in, evening, keeper):
    game = services.game_import(session=evening, record=load_case("box-rotation"),
                                imported_by=keeper)
    logged_in.post(reverse("ledger:hand_undo", args=[game.pk]), {"number": "6"})
    html = logged_in.get(reverse("ledger:game_detail", args=[game.pk])).content.decode()
    assert "undone by " in html and "“undone”" not in html


def test_settle_up_asks_first(logged_in, evening, keeper):
    services.game_import(session=evening, record=load_case("box-rotation"), imported_by=keeper)
    url = reverse("ledger:session_settle", args=[evening.pk])
    page = logged_in.get(reverse("ledger:session_detail", args=[evening.pk]))
    assert f'href="{url}" data-dialog="confirm-settle"' in page.content.decode()
    question = text(logged_in.get(url))
    assert "Settle up?" in question
    assert "The evening of Monday, November 23, 2026 is closed" in question
    assert "Its 1 game can no longer change" in question
    assert not Session.objects.get(pk=evening.pk).is_settled
    assert logged_in.post(url).status_code == 302
    assert Session.objects.get(pk=evening.pk).settlement.payments.count() == 2


def test_revoke_asks_first(logged_in, evening, keeper):
    link = ShareLink.objects.create(table=evening.table, created_by=keeper)
    url = reverse("ledger:share_revoke", args=[link.pk])
    page = logged_in.get(reverse("ledger:table_detail", args=[evening.table.pk]))
    assert f'href="{url}" data-dialog="confirm-revoke-{link.pk}"' in page.content.decode()
    question = text(logged_in.get(url))
    assert "Revoke the share link?" in question and "stops working at once" in question
    assert ShareLink.objects.get(pk=link.pk).revoked_at is None
    logged_in.post(url)
    assert ShareLink.objects.get(pk=link.pk).revoked_at is not None


# -- resume and rematch ----------------------------------------------------------------------

def test_home_lists_the_games_in_progress(logged_in, evening, keeper):
    done = services.game_import(session=evening, record=load_case("gin-standard-game"),
                                imported_by=keeper)
    running = start_empty(evening, keeper, load_case("box-rotation"))
    record(running, load_case("box-rotation")["hands"][0], keeper)
    page = logged_in.get(reverse("ledger:home"))
    html = page.content.decode()
    assert reverse("ledger:game_detail", args=[running.pk]) in html
    assert reverse("ledger:game_detail", args=[done.pk]) not in html
    assert "P · Q · R" in text(page)
    assert "Friday · Mon, Nov 23, 2026 · Game 2 · Three-handed (in the box) · 1 hand" in text(page)


def test_same_players_again_in_the_same_evening(logged_in, evening, keeper):
    record3 = load_case("captain-three")
    game = services.game_import(session=evening, record=record3, imported_by=keeper)
    response = logged_in.post(reverse("ledger:game_rematch", args=[game.pk]), follow=True)
    new = Game.objects.exclude(pk=game.pk).get()
    assert new.session_id == evening.pk and new.sequence == 2
    assert new.variant == "captain" and new.rules == game.rules
    assert new.rate == Decimal("0.01")
    # RULES §3.5: the next game's cut order comes from the core (X captains now).
    assert [s.player.name for s in new.seats.order_by("seat")] == ["X", "Y", "C"]
    assert "Game 2 begins: X, Y, C again, same rules and stakes." in flash(response)


def test_same_players_again_after_settling_opens_a_new_evening(logged_in, evening, keeper):
    game = services.game_import(session=evening, record=load_case("gin-standard-game"),
                                imported_by=keeper)
    services.session_settle(session=evening, settled_by=keeper)
    response = logged_in.post(reverse("ledger:game_rematch", args=[game.pk]),
                              {"new_evening": "1"}, follow=True)
    new = Game.objects.exclude(pk=game.pk).get()
    assert new.session_id != evening.pk and new.sequence == 1
    assert new.session.date == timezone.localdate() and new.session.rate == Decimal("0.01")
    assert new.setup == game.setup and new.preset == game.preset
    assert ("The evening of Monday, November 23, 2026 is settled, so it is game 1 of the "
            "evening of") in flash(response)
    # A second rematch from the settled evening joins that open evening, not a third.
    logged_in.post(reverse("ledger:game_rematch", args=[game.pk]))
    assert Session.objects.count() == 2 and new.session.games.count() == 2


# -- words after a hand ----------------------------------------------------------------------

def post_hand(client, game, entry_post) -> str:
    return flash(client.post(reverse("ledger:hand_create", args=[game.pk]), entry_post,
                             follow=True))


def test_three_player_captain_says_who_sits_out_and_who_comes_in(logged_in, evening, keeper):
    game = start_empty(evening, keeper, load_case("captain-three"))  # C captain, X, Y
    # counts in the form's order: the captain's, then the opponent's
    assert post_hand(logged_in, game, hand_post(1, "X", ("25", "5"))) == (
        "Hand 1 recorded: the opponents +20.")
    assert post_hand(logged_in, game, hand_post(2, "C", ("", "15"), kind="gin")) == (
        "Hand 2 recorded: the captain +40. X lost and sits out; Y comes in for the "
        "opponents.")


def test_the_tie_cut_starts_with_nothing_chosen(logged_in, evening, keeper):
    game = start_empty(evening, keeper, load_case("captain-five-money"))
    html = logged_in.get(reverse("ledger:game_detail", args=[game.pk])).content.decode()
    radios = re.findall(r'<input[^>]*name="cut_loser"[^>]*>', html)
    assert len(radios) == 3  # no tie + the 2 opponents at the tables
    assert not any("checked" in radio for radio in radios)


def test_five_player_captain_announces_the_substitution_and_the_winner(logged_in, evening,
                                                                       keeper):
    case = load_case("captain-five-money")
    game = start_empty(evening, keeper, case)
    outcome = record(game, case["hands"][0], keeper)
    from ledger.presentation.flash import outcome_text

    assert outcome_text(outcome) == (
        "Hand 1 recorded: the captains +120. B2 lost and sits out; B3 comes in for the "
        "opponents at table 2.")


def test_hollywood_says_which_games_are_over_and_which_are_open(logged_in, evening, keeper):
    game = start_empty(evening, keeper, load_case("hollywood-columns"))
    gin = hand_post(0, "A", ("", "30"), kind="gin")
    words = [post_hand(logged_in, game, {**gin, "number": n, "key": str(uuid.uuid4())})
             for n in (1, 2, 3, 4)]
    assert words[0] == "Hand 1 recorded: A +55."  # 30 + gin 25, into game 1
    assert words[1] == ("Hand 2 recorded: A +55. Game 1 is over: A wins. "
                        "Still open: games 2 and 3.")
    assert words[2] == "Hand 3 recorded: A +55. Game 2 is over: A wins. Still open: game 3."
    assert words[3] == "Hand 4 recorded: A +55. Game 3 is over: A wins. Game over: A wins."


def test_hollywood_panel_shows_the_open_games(logged_in, evening, keeper):
    game = start_empty(evening, keeper, load_case("hollywood-columns"))
    for _ in range(2):
        record(game, {"knocker": "A", "deadwood": {"A": 0, "B": 30}}, keeper)
    page = text(logged_in.get(reverse("ledger:game_detail", args=[game.pk])))
    assert "Still open: games 2 and 3 (game 1 over)." in page


def test_a_hand_saved_in_place_keeps_hollywoods_open_games(logged_in, evening, keeper):
    """The parts a Save swaps in (htmx, and the phone's queue) draw the next hand's panel with
    the line of the open games, as the whole page draws it: it was missing there."""
    game = start_empty(evening, keeper, load_case("hollywood-columns"))
    record(game, {"knocker": "A", "deadwood": {"A": 0, "B": 30}}, keeper)
    answer = logged_in.post(reverse("ledger:hand_create", args=[game.pk]),
                            hand_post(2, "A", ("", "30"), kind="gin"), HTTP_HX_REQUEST="true")
    assert answer.status_code == 200
    assert "Still open: games 2 and 3 (game 1 over)." in text(answer)


def test_side_winners_agree_with_their_verb(logged_in, evening, keeper):
    game = services.game_import(session=evening, record=load_case("captain-three"),
                                imported_by=keeper)
    page = text(logged_in.get(reverse("ledger:game_detail", args=[game.pk])))
    assert "The opponents win." in page and "opponents wins" not in page
    partnership = services.game_start(
        session=evening, variant="partnership", players=["A", "B", "X", "Y"],
        started_by=keeper, rules={"target": 10},
        setup={"sides": {"We": ["A", "B"], "They": ["X", "Y"]}})
    data = {"key": str(uuid.uuid4()), "number": 1,
            "t1_knocker": "A", "t1_kind": "gin", "t1_c0": "", "t1_c1": "20",
            "t2_knocker": "B", "t2_kind": "gin", "t2_c0": "", "t2_c1": "20"}
    words = post_hand(logged_in, partnership, data)
    assert words.endswith("Game over: We win."), words


# -- money fields take a decimal comma ---------------------------------------------------------

def test_a_stake_with_a_decimal_comma(logged_in, table):
    response = logged_in.post(reverse("ledger:table_detail", args=[table.pk]), {
        "new_session": "1", "date": "2026-11-23", "currency": "EUR", "rate": "0,05",
        "per_points": "1"})
    assert response.status_code == 302
    assert Session.objects.get(table=table).rate == Decimal("0.05")


def test_an_ambiguous_comma_is_refused_at_the_field(logged_in, table):
    response = logged_in.post(reverse("ledger:table_detail", args=[table.pk]), {
        "new_session": "1", "date": "2026-11-23", "currency": "EUR", "rate": "1,000",
        "per_points": "1"})
    assert response.status_code == 422
    assert '"1,000" could mean 1000 or 1.000' in text(response).replace("&quot;", '"')
    assert not Session.objects.exists()


def test_start_form_and_stakes_form_take_a_decimal_comma(logged_in, evening, keeper):
    from ledger.forms.fields import stake_field

    field = stake_field("Stake")
    assert field.clean("0,05") == Decimal("0.05")
    assert field.clean(" 2,5 ") == Decimal("2.5")
    assert field.clean("0,125") == Decimal("0.125")
    assert field.clean("") is None


# -- dark mode -------------------------------------------------------------------------------

CSS = Path(__file__).resolve().parents[2] / "static" / "ledger" / "app.css"


def _luminance(hex_colour: str) -> float:
    if len(hex_colour) == 4:  # #fff
        hex_colour = "#" + "".join(c * 2 for c in hex_colour[1:])
    channels = [int(hex_colour[i:i + 2], 16) / 255 for i in (1, 3, 5)]
    linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def _contrast(a: str, b: str) -> float:
    light, dark = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def _variables(block: str) -> dict[str, str]:
    return dict(re.findall(r"--([\w-]+):\s*(#[0-9a-fA-F]{6}|#[0-9a-fA-F]{3})\b", block))


def test_dark_mode_follows_the_phone_and_keeps_money_readable():
    css = CSS.read_text()
    light = _variables(css[css.index(":root {"):css.index("}", css.index(":root {"))])
    dark_at = css.index("@media (prefers-color-scheme: dark)")
    dark = {**light, **_variables(css[dark_at:css.index("}", dark_at)])}
    assert dark["bg"] != light["bg"] and dark["card"] != light["card"]
    for palette in (light, dark):
        for money in ("felt-2", "red"):  # .money.pos / .money.neg on a card
            assert _contrast(palette[money], palette["card"]) >= 4.5, (money, palette)
        assert _contrast(palette["ink"], palette["card"]) >= 7
        assert _contrast(palette["muted"], palette["card"]) >= 4.5
