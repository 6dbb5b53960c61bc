"""A refusal is cheap (issue 38, item 5): the worker that refused an account's heavy page
(its slot taken) or its new table (past the hour's) remembers the session cookie until the
Retry-After it gave, and answers that browser's next requests of the kind at once, before
the session and the account are read: 0 queries, the same words in the same language, 429
with the seconds left. Other accounts, other kinds of page and the same account after the
Retry-After are served as before."""

from __future__ import annotations

import pytest
from django.conf import settings as django_settings
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from ledger import limits, services
from ledger.models import Table
from tests.factories import ANN_KNOCKS, gin_game

pytestmark = pytest.mark.django_db


@pytest.fixture
def game(session, keeper):
    return gin_game(session, keeper, hands=[ANN_KNOCKS] * 3)


@pytest.fixture
def clock(monkeypatch):
    """The worker's clock for its remembered refusals, moved by hand."""
    import time

    now = [time.monotonic()]
    monkeypatch.setattr(limits.time, "monotonic", lambda: now[0])
    return now


def test_a_refused_heavy_page_is_refused_again_without_a_query(
        logged_in, keeper, game, clock, django_assert_num_queries, django_user_model):
    csv = reverse("ledger:game_export", args=[game.pk])
    page = reverse("ledger:game_detail", args=[game.pk])
    slot = limits.heavy_slot_take(keeper)  # another worker makes one of its pages
    first = logged_in.get(csv, HTTP_ACCEPT_LANGUAGE="de")
    assert first.status_code == 429 and first["Retry-After"] == "3"
    assert "Deine andere Seite oder dein anderer Download wird noch erstellt" in (
        first.content.decode())
    clock[0] += 1.2
    with django_assert_num_queries(0):
        again = logged_in.get(page)  # another heavy page of the same browser
    assert again.status_code == 429 and again["Retry-After"] == "2"
    body = again.content.decode()
    assert again.content == first.content and '<html lang="de">' in body
    assert "Deine andere Seite oder dein anderer Download wird noch erstellt" in body
    assert again["Content-Language"] == "de" and "no-store" in again["Cache-Control"]
    assert again["X-Frame-Options"] == "DENY"
    assert "frame-ancestors 'none'" in again["Content-Security-Policy"]
    # a page that is not heavy is served (the scorekeeper keeps scoring)
    assert logged_in.get(reverse("ledger:home")).status_code == 200
    # another account is not refused, nor the same account in another browser
    other = django_user_model.objects.create_user("other", password="pw")
    services.table_set_scorekeepers(table=game.session.table, scorekeepers=[keeper, other])
    from django.test import Client

    for who in (other, keeper):
        browser = Client()
        browser.force_login(who)
        expected = 429 if who == keeper else 200  # the same account's slot is still taken
        assert browser.get(page).status_code == expected
    # the other worker is done, but this one told the browser 3 s: until then, refused
    limits.heavy_slot_give_back(slot)
    clock[0] += 1.5
    assert logged_in.get(csv).status_code == 429
    clock[0] += 0.4  # 3.1 s after the refusal: asked afresh, and the slot is free
    assert logged_in.get(csv).status_code == 200


def test_the_eleventh_table_s_refusal_is_remembered_for_a_minute(
        logged_in, keeper, settings, clock, django_assert_num_queries):
    settings.TABLESTAKES_TABLES_PER_HOUR = 2
    names = "\n".join(f"Guest {i}" for i in range(50))

    def form(n):
        return {"name": f"Flood {n}", "players": names, "language": "en", "time_zone": "UTC"}

    home = reverse("ledger:home")
    assert [logged_in.post(home, form(n)).status_code for n in (1, 2)] == [302, 302]
    refused = logged_in.post(home, form(3))
    assert refused.status_code == 429 and 3540 < int(refused["Retry-After"]) <= 3600
    assert "Guest 49" in refused.content.decode()  # the page keeps what was typed
    clock[0] += 30
    with django_assert_num_queries(0):
        again = logged_in.post(home, form(4))
    # the hour's Retry-After, 30 s less
    assert again.status_code == 429
    assert int(refused["Retry-After"]) - 31 <= int(again["Retry-After"]) <= int(
        refused["Retry-After"]) - 29
    assert ("This account made 2 new tables in the last hour, the most one account may "
            "here. Try again in 60 minutes.") in again.content.decode()
    # the list of tables is still there
    assert logged_in.get(home).status_code == 200
    clock[0] += 31  # a minute on: counted afresh, and still refused
    with CaptureQueriesContext(connection) as queries:
        assert logged_in.post(home, form(5)).status_code == 429
    assert len(queries) > 0
    assert Table.objects.filter(scorekeepers=keeper).count() == 2


def test_the_memory_is_bounded_and_holds_no_cookie(rf):
    for n in range(limits.REMEMBERED_REFUSALS + 10):
        request = rf.get("/")
        request.COOKIES[django_settings.SESSION_COOKIE_NAME] = f"cookie-{n}"
        limits.remember_refusal(request, "heavy", 3, b"page", "en")
    assert len(limits._remembered) == limits.REMEMBERED_REFUSALS
    assert not any("cookie-" in key for key, _ in limits._remembered)
    request = rf.get("/")
    request.COOKIES[django_settings.SESSION_COOKIE_NAME] = "cookie-0"  # the oldest: forgotten
    assert limits.remembered_refusal(request, "heavy") is None
    request.COOKIES[django_settings.SESSION_COOKIE_NAME] = f"cookie-{limits.REMEMBERED_REFUSALS}"
    assert limits.remembered_refusal(request, "heavy")[1:] == (b"page", "en")
    assert limits.remembered_refusal(request, "tables") is None


def test_the_middleware_comes_before_the_session_is_read(monkeypatch):
    import importlib

    monkeypatch.setenv("DJANGO_SECRET_KEY", "k" * 20 + "Q7#x" * 10)
    monkeypatch.setenv("DJANGO_ALLOWED_HOSTS", "rummy.example.org")
    monkeypatch.setenv("TABLESTAKES_PROXY_COUNT", "1")
    prod = importlib.import_module("tablestakes.settings.prod")
    for order in (django_settings.MIDDLEWARE, prod.MIDDLEWARE):
        assert (order.index("ledger.middleware.RememberedRefusalMiddleware")
                < order.index("django.contrib.sessions.middleware.SessionMiddleware"))
