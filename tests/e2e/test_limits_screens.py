"""The limits' screens of issue 38 on a 360x740 phone, in English and German (and one at
1280 wide): the log-in slowed down for one username ("wait N seconds"), the address lock
with its hint about a phone that logged in before, the busy page of a heavy page asked
while the account's other one is being made, and the hour's limit on new tables. Each says
its numbers and fits the screen (FITS). Screenshots: SHOTS_DIR=... (issue38-<screen>-<code>)."""

from __future__ import annotations

import re

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse
from playwright.sync_api import expect

from ledger import counters, limits, services
from tests.factories import ANN_KNOCKS, gin_game

from .helpers import FITS, SCALE, shot

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

WORDS = {
    "en": {"wait": r"Wait (\d+) seconds and try again\.",
           "slowed": "after 10 wrong passwords for it, from anywhere",
           "address": "Every log-in from your network is paused after 20 wrong passwords",
           "hint": "A phone or computer that has logged in to this account before",
           "busy": "Your other page or download is still being made",
           "tables": "This account made 10 new tables in the last hour"},
    "de": {"wait": r"Warte (\d+) Sekunden und versuch es noch einmal\.",
           "slowed": "Nach 10 falschen Passwörtern dafür, von wo auch immer",
           "address": "Nach 20 falschen Passwörtern, für beliebige Konten",
           "hint": "Ein Telefon oder Computer, mit dem du dich schon einmal",
           "busy": "Deine andere Seite oder dein anderer Download wird noch erstellt",
           "tables": "Dieses Konto hat in der letzten Stunde 10 neue Runden angelegt"},
}


def phone(browser, code, width=360):
    return browser.new_context(viewport={"width": width, "height": 740},
                               device_scale_factor=SCALE, is_mobile=width < 800,
                               has_touch=width < 800, locale=code)


def log_in_with_the_form(page, base, username, password):
    page.goto(base + reverse("login"))
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", password)
    page.locator("main form button.btn-primary").first.click()
    page.wait_for_load_state()


@pytest.mark.parametrize("code", ["en", "de"])
def test_the_log_in_limits_say_how_long_in_the_phones_language(browser, live_server, keeper,
                                                                code):
    words = WORDS[code]
    for _ in range(15):  # 15 wrong passwords for "keeper" from anywhere: the next waits 32 s
        limits._count_username_failure("keeper")
    context = phone(browser, code)
    try:
        page = context.new_page()
        log_in_with_the_form(page, live_server.url, "keeper", "pw")
        body = page.inner_text("body")
        wait = re.search(words["wait"], body)
        # 32 s after the 15th wrong password, less the seconds this slow machine took since
        assert wait and 15 <= int(wait.group(1)) <= 32 and words["slowed"] in body, body
        assert words["hint"] in body and page.evaluate(FITS) == []
        assert "/accounts/login/" in page.url  # not logged in
        shot(page, f"issue38-login-wait-{code}")
        # 20 wrong passwords from this address (any usernames): the address lock
        for _ in range(settings.TABLESTAKES_LOGIN_FAILURES_PER_ADDRESS):
            counters.hit("login-failures:ip:127.0.0.1", 900)
        log_in_with_the_form(page, live_server.url, "someone", "guess")
        body = page.inner_text("body")
        assert words["address"] in body and words["hint"] in body, body
        assert page.evaluate(FITS) == []
        shot(page, f"issue38-login-address-{code}")
    finally:
        context.close()


@pytest.mark.parametrize("code", ["en", "de"])
def test_the_busy_page_and_the_hour_s_tables_in_the_phones_language(browser, live_server,
                                                                     keeper, code):
    words = WORDS[code]
    table = services.table_create(name="Freitagsrunde", scorekeepers=[keeper])
    session = services.session_create(table=table, currency="USD", rate="0.05",
                                      created_by=keeper)
    game = gin_game(session, keeper, hands=[ANN_KNOCKS] * 3)
    client = Client()
    client.force_login(get_user_model().objects.get(username="keeper"))
    for width in (360, 1280) if code == "en" else (360,):
        context = phone(browser, code, width)
        try:
            page = context.new_page()
            context.add_cookies([{"name": settings.SESSION_COOKIE_NAME, "url": live_server.url,
                                  "value": client.cookies[settings.SESSION_COOKIE_NAME].value}])
            slot = limits.heavy_slot_take(keeper)  # another worker makes its other page
            response = page.goto(live_server.url + reverse("ledger:game_detail",
                                                           args=[game.pk]))
            assert response.status == 429 and response.headers["retry-after"] == "3"
            assert words["busy"] in page.inner_text("body")
            assert page.evaluate(FITS) == []
            shot(page, f"issue38-busy-{code}-{width}")
            limits.heavy_slot_give_back(slot)
            # asked again before its Retry-After: the worker's remembered answer, the same
            # page in the same language, though the slot is free by now
            with page.expect_response(lambda r: r.url.endswith(f"/games/{game.pk}/")) as again:
                page.get_by_role("link", name=re.compile("Try again|Noch einmal")).click()
            assert again.value.status == 429 and words["busy"] in page.inner_text("body")
            limits.forget_refusals()  # the 3 seconds have passed
            with page.expect_response(lambda r: r.url.endswith(f"/games/{game.pk}/")) as after:
                page.get_by_role("link", name=re.compile("Try again|Noch einmal")).click()
            assert after.value.status == 200
            expect(page.locator("#main, main").first).to_be_visible()
            assert words["busy"] not in page.inner_text("body")
        finally:
            context.close()
    for _ in range(settings.TABLESTAKES_TABLES_PER_HOUR):
        limits.count_new_table(keeper)
    context = phone(browser, code)
    try:
        page = context.new_page()
        context.add_cookies([{"name": settings.SESSION_COOKIE_NAME, "url": live_server.url,
                              "value": client.cookies[settings.SESSION_COOKIE_NAME].value}])
        page.goto(live_server.url + reverse("ledger:home"))
        page.fill("input[name=name]", "Eleventh")
        page.fill("textarea[name=players]", "Ann\nBob")
        page.locator("form button[type=submit]").filter(
            has_text=re.compile("Create table|Runde anlegen|anlegen")).first.click()
        page.wait_for_load_state()
        body = page.inner_text("body")
        assert words["tables"] in body, body
        assert page.evaluate(FITS) == []
        shot(page, f"issue38-tables-{code}")
        # sent again: the worker's remembered answer, the small page with the same words
        page.go_back()
        page.fill("input[name=name]", "Twelfth")
        page.fill("textarea[name=players]", "Ann\nBob")
        with page.expect_response(lambda r: r.request.method == "POST") as again:
            page.locator("form button[type=submit]").filter(
                has_text=re.compile("Create table|Runde anlegen|anlegen")).first.click()
        page.wait_for_load_state()
        assert again.value.status == 429 and words["tables"] in page.inner_text("body")
        assert page.evaluate(FITS) == []
        shot(page, f"issue38-tables-again-{code}")
    finally:
        context.close()


PRINTING = {
    "en": "Your other sheet is still being printed; try again in a moment.",
    "de": "Dein anderer Zettel wird noch gedruckt; versuch es gleich noch einmal.",
    "fr": "Votre autre feuille est encore en cours d'impression ; réessayez dans un instant.",
    "ru": "Ваш другой лист ещё печатается; попробуйте снова через мгновение.",
}


@pytest.mark.parametrize("code", ["en", "de", "fr", "ru"])
def test_a_sheet_asked_while_the_accounts_other_prints(browser, live_server, keeper, code):
    """A sheet asked while the account's other one is printing (issue 42): the small
    refusal page in the phone's language, with why and for how long, and "Try again",
    which the worker answers again from memory until the Retry-After."""
    from django.utils import translation

    from ledger.presentation.refusals import refusal_words

    table = services.table_create(name="Freitagsrunde", scorekeepers=[keeper], language=code)
    session = services.session_create(table=table, currency="EUR", rate="0.05",
                                      created_by=keeper)
    game = gin_game(session, keeper, hands=[ANN_KNOCKS] * 3)
    client = Client()
    client.force_login(get_user_model().objects.get(username="keeper"))
    with translation.override(code):
        said = refusal_words(services.PrintingBusy(mine=True))
    assert said == PRINTING[code]  # (it was English in every language)
    services.render_slot_acquire(user=keeper)  # the account's other sheet, printing
    url = live_server.url + reverse("scoresheets:game_pdf", args=[game.pk])
    for width in (360, 1280) if code == "en" else (360,):
        limits.forget_refusals()  # (each width's first answer drawn afresh)
        context = phone(browser, code, width)
        try:
            page = context.new_page()
            context.add_cookies([{"name": settings.SESSION_COOKIE_NAME,
                                  "url": live_server.url,
                                  "value": client.cookies[settings.SESSION_COOKIE_NAME].value}])
            response = page.goto(url)
            assert response.status == 429 and response.headers["retry-after"] == "5"
            assert page.locator("html").get_attribute("lang") == code
            body = page.inner_text("body")
            assert said in body and "5" in body, body
            assert page.evaluate(FITS) == []
            shot(page, f"issue42-printing-{code}-{width}")
            with page.expect_response(lambda r: r.url == url) as again:
                page.locator("a.btn-primary").click()
            assert again.value.status == 429 and said in page.inner_text("body")
        finally:
            context.close()
