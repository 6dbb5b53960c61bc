"""Issue 23, what a report link may do and nothing more: its token, tried against every URL
of the app (the URL resolver walked as tests/ledger/test_login_required.py walks it), opens
only its own pages; nothing else is read or changed, a report for a saved hand is refused,
and nothing is recorded without the scorekeeper's Save."""

from __future__ import annotations

import re
import uuid

import pytest
from django.apps import apps
from django.test import Client

from ledger import services
from ledger.models import Hand, TableReport
from tests.ledger.test_login_required import is_public, sends_to_log_in, site_urls
from tests.ledger.test_table_reports import captain7
from tests.pages import Page

pytestmark = pytest.mark.django_db

#: the views a report link opens
REPORT_VIEWS = {"ledger:report_page", "ledger:report_withdraw", "ledger:report_live"}


def snapshot() -> dict:
    """Every row of the ledger (not the rate limits' counters), by model."""
    return {model.__name__: list(model.objects.order_by("pk").values())
            for model in apps.get_app_config("ledger").get_models()}


@pytest.fixture
def setup(session, keeper, table):
    game = captain7(session, keeper)
    links = services.report_links_get_or_create(game=game, created_by=keeper)
    share = services.share_link_get_or_create(table=table, game=game, created_by=keeper)
    return game, links, share


def test_a_report_token_opens_nothing_but_its_own_pages(setup, keeper):
    game, links, _ = setup
    token = links[0].token
    client = Client()
    assert client.get(f"/r/{token}/").status_code == 200  # the phone holds the page
    before = snapshot()
    urls = site_urls(values={"token": token, "pk": game.pk, "game_pk": game.pk,
                             "number": 1, "settlement": 1})
    assert len(urls) >= 50
    opened = set()
    for url, (name, view) in urls.items():
        if name in REPORT_VIEWS:
            continue
        for method in ("get", "post"):
            response = getattr(client, method)(url)
            if not is_public(view):
                assert sends_to_log_in(response, url), (method, url, name)
                continue
            shown = Page(response).text() if response.content else ""
            if name.startswith("ledger:shared"):  # a report token is no share token
                assert response.status_code in (404, 405), (method, url)
            if response.status_code == 200:
                opened.add(name)
            # nothing of the game: no player's name, no score
            assert not re.search(r"\b(R1|B4)\b", shown), (method, url, name)
    assert snapshot() == before  # nothing changed anywhere
    # what the anonymous pages are: the app's files and the account pages, none of the game
    assert opened <= {"ledger:service_worker", "ledger:manifest", "ledger:offline",
                      "signup", "signup_sent", "login", "password_reset",
                      "password_reset_done", "password_reset_confirm", "password_reset_complete",
                      "logout"}


def test_the_report_page_offers_no_scorekeepers_action(setup):
    game, links, _ = setup
    html = Client().get(f"/r/{links[0].token}/").content.decode()
    for url in (f"/games/{game.pk}/hands/", f"/games/{game.pk}/hands/undo/",
                f"/games/{game.pk}/settings/", f"/games/{game.pk}/abandon/",
                f"/games/{game.pk}/reports/", "/admin/", f"/sessions/{game.session_id}/"):
        assert f'"{url}' not in html, url
    # and the scorekeeper's reports are his alone
    assert sends_to_log_in(Client().get(f"/games/{game.pk}/reports/"),
                           f"/games/{game.pk}/reports/")


def test_another_scorekeeper_sees_no_report_of_this_game(setup, other_keeper):
    game, links, _ = setup
    other = Client()
    other.force_login(other_keeper)
    assert other.get(f"/games/{game.pk}/reports/").status_code == 404
    assert other.post(f"/games/{game.pk}/reports/links/").status_code == 404
    assert other.post(f"/games/{game.pk}/reports/revoke/").status_code == 404
    assert game.report_links.filter(revoked_at__isnull=True).count() == 3


def test_a_token_of_one_table_reports_for_that_table_only(setup):
    game, links, _ = setup
    client = Client()
    # the form is table 1's whatever is posted: t2_ fields are not read
    client.post(f"/r/{links[0].token}/", {"number": "1", "key": str(uuid.uuid4()),
                                          "t1_knocker": "-draw-", "t2_knocker": "R2",
                                          "t2_c0": "5", "t2_c1": "30"})
    assert [(r.table, r.values) for r in TableReport.objects.all()] == [(1, {"draw": True})]


def test_a_report_for_a_saved_hand_is_refused_and_nothing_records_without_the_save(
        setup, keeper):
    game, links, _ = setup
    for link in links:
        Client().post(f"/r/{link.token}/", {"number": "1", "key": str(uuid.uuid4()),
                                            "t1_knocker": "-draw-"})
    assert Hand.objects.count() == 0 and TableReport.objects.count() == 3
    services.hand_record(game=game, entry={"tables": [{"draw": True}] * 3},
                         recorded_by=keeper, idempotency_key=uuid.uuid4(), number=1)
    client = Client()
    response = client.post(f"/r/{links[0].token}/", {"number": "1", "key": str(uuid.uuid4()),
                                                     "t1_knocker": "-draw-"}, follow=True)
    assert "Hand 1 was already recorded; this phone moves on to hand 2." in Page(
        response).text()
    assert TableReport.objects.count() == 3
    assert Hand.objects.count() == 1
