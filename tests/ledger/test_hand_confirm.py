"""Issue 23, two-hand games: the player who does not keep the score confirms each saved
hand on his phone through the game's confirm link (optional per game); the scorekeeper
sees the answer beside that hand. The link is public by its token alone, rate-limited,
under the strict content security policy, and opens nothing else."""

from __future__ import annotations

import uuid

import pytest
from django.test import Client
from django.urls import reverse

from ledger import services
from ledger.exceptions import LedgerError, ReportStale
from ledger.models import CONFIRM_PART, HandConfirmation, ReportLink
from tests.factories import gin_game
from tests.ledger.test_table_reports import captain7
from tests.pages import Page
from tests.refusing import refuses

pytestmark = pytest.mark.django_db

KNOCK = {"knocker": "Ann", "deadwood": {"Ann": 5, "Bob": 30}}
QUESTION = "Ann knocks 5 v Bob 30: Ann +25, correct?"


def phone() -> Client:
    return Client()


def save(game, keeper, entry=KNOCK):
    return services.hand_record(game=game, entry=entry, recorded_by=keeper,
                                idempotency_key=uuid.uuid4()).hand


@pytest.fixture
def game(session, keeper):
    return gin_game(session, keeper)


@pytest.fixture
def link(game, keeper):
    return services.confirm_link_get_or_create(game=game, player="Bob", created_by=keeper)


# -- the services ----------------------------------------------------------------------------

def test_the_confirm_link_is_made_on_request_for_one_of_the_two_players(game, keeper, link):
    assert (link.part, link.player) == (CONFIRM_PART, "Bob")
    again = services.confirm_link_get_or_create(game=game, player="Bob", created_by=keeper)
    assert again.pk == link.pk
    other = services.confirm_link_get_or_create(game=game, player="Ann", created_by=keeper)
    link.refresh_from_db()
    assert link.revoked_at is not None and other.player == "Ann"
    with refuses(LedgerError, match="player: who confirms is one of Ann or Bob"):
        services.confirm_link_get_or_create(game=game, player="Zed", created_by=keeper)


def test_a_game_of_tables_gets_no_confirm_link(session, keeper):
    with refuses(LedgerError, match="Only a two-hand game"):
        services.confirm_link_get_or_create(game=captain7(session, keeper), player="R1",
                                            created_by=keeper)
    assert ReportLink.objects.count() == 0


def test_the_last_saved_hand_is_confirmed_and_the_answer_can_change(game, keeper, link):
    with refuses(ReportStale, match="No hand has been saved yet"):
        services.hand_confirm(link=link, number=1, correct=True)
    hand = save(game, keeper)
    said = services.hand_confirm(link=link, number=1, correct=True)
    assert (said.hand_id, said.correct, said.player) == (hand.pk, True, "Bob")
    changed = services.hand_confirm(link=link, number=1, correct=False)
    assert changed.pk == said.pk and HandConfirmation.objects.get().correct is False
    save(game, keeper, {"draw": True})
    with refuses(ReportStale, match="Hand 2 is the last hand saved, not hand 1"):
        services.hand_confirm(link=link, number=1, correct=True)
    assert HandConfirmation.objects.count() == 1


# -- the phone -------------------------------------------------------------------------------

def test_the_phone_shows_the_last_hand_and_sends_the_answer(game, keeper, link, logged_in):
    url = f"/c/{link.token}/"
    assert "No hand saved yet" in Page(phone().get(url)).text()
    save(game, keeper)
    client = phone()
    page = client.get(url)
    assert page.status_code == 200
    assert QUESTION in Page(page).text()
    csp = page["Content-Security-Policy"]
    script = next(part for part in csp.split(";") if "script-src" in part)
    assert "'unsafe-inline'" not in script and "'unsafe-eval'" not in script
    response = client.post(url, {"number": "1", "answer": "correct"})
    assert response.status_code == 302
    assert "Sent: Bob says correct" in Page(client.get(url)).text()
    # the scorekeeper sees it beside hand 1
    game_page = Page(logged_in.get(reverse("ledger:game_detail", args=[game.pk]))).text()
    assert "Hand 1 : Bob says correct (" in game_page or "Hand 1: Bob says correct (" \
        in game_page
    client.post(url, {"number": "1", "answer": "wrong"})
    game_page = Page(logged_in.get(reverse("ledger:game_detail", args=[game.pk]))).text()
    assert "Bob says not correct" in game_page


def test_a_stale_answer_is_refused_and_the_phone_shows_the_new_hand(game, keeper, link):
    save(game, keeper)
    save(game, keeper, {"draw": True})
    client = phone()
    response = client.post(f"/c/{link.token}/", {"number": "1", "answer": "correct"})
    assert response.status_code == 302
    text = Page(client.get(response["Location"])).text()
    assert "Hand 2 is the last hand saved, not hand 1; here it is." in text
    assert "Hand 2" in text and HandConfirmation.objects.count() == 0


@pytest.mark.parametrize("data", [{"number": "1", "answer": "maybe"},
                                  {"number": "١", "answer": "correct"},
                                  {"answer": "correct"}])
def test_a_bad_answer_is_refused_naming_the_field(game, keeper, link, data):
    save(game, keeper)
    response = phone().post(f"/c/{link.token}/", data)
    assert response.status_code == 422
    assert "answer: press Correct or Not correct" in Page(response).text()
    assert HandConfirmation.objects.count() == 0


def test_answers_are_rate_limited(game, keeper, link, settings):
    settings.TABLESTAKES_REPORTS_PER_LINK = 2
    save(game, keeper)
    client = phone()
    for _ in range(2):
        client.post(f"/c/{link.token}/", {"number": "1", "answer": "correct"})
    response = client.post(f"/c/{link.token}/", {"number": "1", "answer": "wrong"})
    assert response.status_code == 429
    assert HandConfirmation.objects.get().correct is True


def test_the_link_opens_nothing_else_and_dies_when_revoked(session, game, keeper, link):
    save(game, keeper)
    # a confirm token is no report link, and a table's report token is no confirm link
    assert phone().get(f"/r/{link.token}/").status_code == 404
    assert phone().get(f"/r/{link.token}/live/").status_code == 404
    captain = captain7(session, keeper)
    table_link = services.report_links_get_or_create(game=captain, created_by=keeper)[0]
    assert phone().get(f"/c/{table_link.token}/").status_code == 404
    assert phone().get(reverse("ledger:game_detail", args=[game.pk])).status_code == 302
    services.report_links_revoke(game=game)
    response = phone().get(f"/c/{link.token}/")
    assert response.status_code == 404
    assert "This link no longer works" in Page(response).text()
    assert phone().post(f"/c/{link.token}/", {"number": "1", "answer": "correct"}
                        ).status_code == 404
    assert HandConfirmation.objects.count() == 0


def test_the_scorekeeper_makes_the_link_from_the_game_page(game, logged_in):
    page = Page(logged_in.get(reverse("ledger:game_detail", args=[game.pk])))
    assert "Confirm from the other phone" in page.text()
    response = logged_in.post(reverse("ledger:confirm_link_create", args=[game.pk]),
                              {"player": "Bob"})
    assert response.status_code == 302
    link = ReportLink.objects.get(game=game)
    assert (link.part, link.player) == (CONFIRM_PART, "Bob")
    page = logged_in.get(reverse("ledger:game_detail", args=[game.pk])).content.decode()
    assert f"/c/{link.token}/" in page
    refused = logged_in.post(reverse("ledger:confirm_link_create", args=[game.pk]),
                             {"player": "Zed"}, follow=True)
    assert "who confirms is one of Ann or Bob, not 'Zed'" in Page(refused).text()


def test_a_confirm_token_opens_nothing_but_its_own_page(game, keeper, link):
    from tests.ledger.test_login_required import is_public, sends_to_log_in, site_urls
    from tests.ledger.test_report_access import snapshot

    save(game, keeper)
    client = Client()
    assert client.get(f"/c/{link.token}/").status_code == 200
    before = snapshot()
    urls = site_urls(values={"token": link.token, "pk": game.pk, "game_pk": game.pk,
                             "number": 1, "settlement": 1})
    opened = set()
    for url, (name, view) in urls.items():
        if name == "ledger:confirm_page":
            continue
        for method in ("get", "post"):
            response = getattr(client, method)(url)
            if not is_public(view):
                assert sends_to_log_in(response, url), (method, url, name)
                continue
            if name.startswith(("ledger:shared", "ledger:report_")):
                assert response.status_code in (404, 405), (method, url)
            if response.status_code == 200:
                opened.add(name)
    assert snapshot() == before  # nothing changed anywhere
    assert opened <= {"ledger:service_worker", "ledger:manifest", "ledger:offline",
                      "signup", "signup_sent", "login", "password_reset",
                      "password_reset_done", "password_reset_confirm", "password_reset_complete",
                      "logout"}


def test_the_hand_that_ends_the_game_is_confirmed_too(session, keeper):
    game = gin_game(session, keeper, rules={"target": 20})
    link = services.confirm_link_get_or_create(game=game, player="Bob", created_by=keeper)
    save(game, keeper)  # Ann +25 (and the game's bonuses): past 20, the game is over
    game.refresh_from_db()
    assert game.status == "complete"
    client = phone()
    assert client.get(f"/c/{link.token}/").status_code == 200
    assert client.post(f"/c/{link.token}/", {"number": "1", "answer": "correct"}
                       ).status_code == 302
    assert HandConfirmation.objects.get().correct is True
    services.session_settle(session=session, settled_by=keeper)
    assert phone().get(f"/c/{link.token}/").status_code == 404  # dead with the evening


def test_the_scorekeepers_poll_carries_the_answers(game, keeper, link, logged_in):
    url = reverse("ledger:game_reports", args=[game.pk])
    first = logged_in.get(url)
    assert first.json() == {"number": 1, "parts": [], "confirm": []}
    assert logged_in.get(url, HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304
    save(game, keeper)
    services.hand_confirm(link=link, number=1, correct=False)
    answer = logged_in.get(url, HTTP_IF_NONE_MATCH=first["ETag"])
    assert answer.status_code == 200
    [said] = answer.json()["confirm"]
    assert (said["number"], said["correct"]) == (1, False)
    assert said["words"].startswith("Bob says not correct (")
    # a changed answer changes the ETag
    services.hand_confirm(link=link, number=1, correct=True)
    again = logged_in.get(url, HTTP_IF_NONE_MATCH=answer["ETag"])
    assert again.status_code == 200 and again.json()["confirm"][0]["correct"] is True


def test_the_answers_are_in_the_export_and_on_paper(game, keeper, link, logged_in):
    import csv
    import datetime
    import io

    save(game, keeper)
    save(game, keeper, {"draw": True})
    from unittest import mock
    with mock.patch("django.utils.timezone.now",  # (the clock: on PostgreSQL an answer's
                    return_value=datetime.datetime(  # time only moves on)
                        2026, 11, 25, 22, 41, tzinfo=datetime.UTC)):
        services.hand_confirm(link=link, number=2, correct=False)
    rows = list(csv.DictReader(io.StringIO(logged_in.get(
        reverse("ledger:game_export", args=[game.pk])).content.decode())))
    assert [row["Reported by"] for row in rows[:2]] == [
        "", "Bob says not correct (Nov 25, 2026, 10:41\u202fPM)"]
    text = Page(logged_in.get(reverse("scoresheets:game_html", args=[game.pk]))).text()
    audit = text.split("Who reported what", 1)[1].split("End of the game")[0]
    assert audit.replace(" :", ":").replace("\u202f", " ").strip() == (
        "Hand 2: Bob says not correct (Nov 25, 2026, 10:41 PM)")
