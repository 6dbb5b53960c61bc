"""Issue 22, the i18n plumbing: five languages; the screens speak the account's choice, else
the browser's Accept-Language, else English; a switcher in the footer (a plain POST to
set_language, no inline script) keeps a logged-in account's choice; the paper's fonts cover
every language shipped."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.conf import settings
from django.urls import reverse
from fontTools.ttLib import TTFont

from ledger import services
from ledger.models import AccountPreference, Language
from ledger.presentation.money import format_money

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]
FONTS = ROOT / "scoresheets" / "static" / "scoresheets" / "fonts"


def lang(response) -> str:
    return re.search(r'<html lang="([^"]+)">', response.content.decode()).group(1)


def test_five_languages_and_the_middleware_in_its_place():
    assert [code for code, _ in settings.LANGUAGES] == ["en", "de", "es", "fr", "ru"]
    assert Language.values == ["en", "de", "es", "fr", "ru"]
    assert settings.LANGUAGE_CODE == "en"
    assert settings.LOCALE_PATHS == [ROOT / "locale"]
    order = settings.MIDDLEWARE
    locale = order.index("django.middleware.locale.LocaleMiddleware")
    assert order.index("django.contrib.sessions.middleware.SessionMiddleware") < locale
    assert locale < order.index("django.middleware.common.CommonMiddleware")
    assert order.index("django.contrib.auth.middleware.AuthenticationMiddleware") < \
        order.index("ledger.middleware.AccountLanguageMiddleware")


def test_production_settings_keep_the_order(monkeypatch):
    import importlib
    monkeypatch.setenv("DJANGO_SECRET_KEY", "k" * 20 + "Q7#x" * 10)
    monkeypatch.setenv("DJANGO_ALLOWED_HOSTS", "rummy.example.org")
    monkeypatch.setenv("TABLESTAKES_PROXY_COUNT", "1")
    prod = importlib.import_module("tablestakes.settings.prod")
    order = prod.MIDDLEWARE
    assert order.index("django.contrib.sessions.middleware.SessionMiddleware") < \
        order.index("django.middleware.locale.LocaleMiddleware") < \
        order.index("django.middleware.common.CommonMiddleware")
    assert "ledger.middleware.TableClockMiddleware" in order


def test_the_browsers_language_else_english(client):
    assert lang(client.get(reverse("login"))) == "en"
    german = client.get(reverse("login"), HTTP_ACCEPT_LANGUAGE="de-DE,de;q=0.9,en;q=0.5")
    assert lang(german) == "de" and german["Content-Language"] == "de"
    assert lang(client.get(reverse("login"), HTTP_ACCEPT_LANGUAGE="ja")) == "en"  # not shipped


def test_the_accounts_choice_comes_first_from_the_log_in(client, keeper):
    services.account_set_language(user=keeper, language="fr")
    client.post(reverse("login"), {"username": "keeper", "password": "pw"})
    home = client.get(reverse("ledger:home"), HTTP_ACCEPT_LANGUAGE="de")
    assert lang(home) == "fr"
    client.logout()
    assert lang(client.get(reverse("login"), HTTP_ACCEPT_LANGUAGE="de")) == "de"


def test_the_footer_switcher_sets_the_language_and_keeps_it_in_the_account(logged_in,
                                                                           keeper):
    page = logged_in.get(reverse("ledger:home")).content.decode()
    form = re.search(r'<form class="language-switch" action="([^"]+)" method="post">', page)
    assert form and form.group(1) == reverse("set_language")
    assert 'name="csrfmiddlewaretoken"' in page.split('class="language-switch"')[1]
    assert re.search(r'<option value="ru" lang="ru">Русский</option>', page)
    assert "onchange" not in page  # no inline script (CSP)
    response = logged_in.post(reverse("set_language"), {"language": "ru", "next": "/"})
    assert response.status_code == 302 and response["Location"] == "/"
    assert response.cookies[settings.LANGUAGE_COOKIE_NAME].value == "ru"
    assert AccountPreference.objects.get(user=keeper).language == "ru"
    assert lang(logged_in.get(reverse("ledger:home"), HTTP_ACCEPT_LANGUAGE="de")) == "ru"
    # a language not shipped changes nothing
    logged_in.post(reverse("set_language"), {"language": "xx", "next": "/"})
    assert AccountPreference.objects.get(user=keeper).language == "ru"
    # the next log-in (another device: no cookie) speaks it too
    logged_in.logout()
    logged_in.cookies.pop(settings.LANGUAGE_COOKIE_NAME, None)
    logged_in.post(reverse("login"), {"username": "keeper", "password": "pw"})
    assert lang(logged_in.get(reverse("ledger:home"))) == "ru"


def test_a_visitor_chooses_with_the_cookie(client):
    client.post(reverse("set_language"), {"language": "es", "next": "/accounts/login/"})
    assert lang(client.get(reverse("login"))) == "es"
    assert not AccountPreference.objects.exists()


def test_money_on_screen_follows_the_screens_language(logged_in, table):
    """The evening's stake field shows its amount back as the page's language writes it."""
    services.session_create(table=table, currency="EUR", rate="1234.50", created_by=None)
    url = reverse("ledger:table_detail", args=[table.pk])
    page = logged_in.get(url, HTTP_ACCEPT_LANGUAGE="de").content.decode()
    rate = re.search(r'<input[^>]*name="rate"[^>]*>', page).group(0)
    assert 'value="1234,50"' in rate


def test_a_share_page_speaks_the_tables_language_not_the_visitors(client, keeper):
    paris = services.table_create(name="Paris", scorekeepers=[keeper], language="fr",
                                  time_zone="Europe/Paris")
    link = services.share_link_get_or_create(table=paris, created_by=keeper)
    page = client.get(reverse("ledger:shared", args=[link.token]), HTTP_ACCEPT_LANGUAGE="ru")
    html = page.content.decode()
    assert lang(page) == "fr"
    assert 'class="language-switch"' not in html  # no switcher on a share page


def test_the_papers_fonts_cover_every_language_shipped():
    """DejaVu (scoresheets/static/scoresheets/fonts) has Latin with its accents, Cyrillic, the
    euro and rouble signs and the no-break spaces CLDR writes between groups of digits."""
    needed = set("ÄÖÜäöüßÉÈÊÀÇéèêàçñÑáíóúü¿¡«»ЁЖЩЫЯабвгдеёжзийклмнопрстуфхцчшщъыьэюя€₽$£¥")
    needed |= {"\u00a0", "\u202f", "\u2212"}
    needed |= set(format_money("-1234.50", "RUB", show_currency=True, locale="ru"))
    fonts = sorted(FONTS.glob("*.ttf"))
    assert len(fonts) == 5
    for path in fonts:
        cmap = TTFont(path).getBestCmap()
        missing = sorted(ch for ch in needed if ord(ch) not in cmap)
        assert missing == [], f"{path.name} lacks {missing}"


def test_the_paper_writes_money_and_dates_in_the_tables_language(keeper, case):
    """Example 5 of the rules (B pays A 2.02) on a German table's session report: the
    German date and decimal comma, whoever prints it and whatever the screens speak."""
    import datetime

    from scoresheets import documents

    from ..scoresheets.conftest import pdf_text

    berlin = services.table_create(name="Kreuzberg", scorekeepers=[keeper], language="de",
                                   time_zone="Europe/Berlin")
    evening = services.session_create(table=berlin, date=datetime.date(2026, 11, 25),
                                      currency="USD", rate="0.01", created_by=keeper)
    game = services.game_import(session=evening, record=case("gin-standard-game"),
                                imported_by=keeper)
    report = pdf_text(documents.session_report_pdf(evening)[0])
    sheet = pdf_text(documents.game_sheet_pdf(game)[0])
    for paper in (report, sheet):
        assert "Mittwoch, 25. November 2026" in paper
        assert "+2,02" in paper and "\u22122,02" in paper and "2.02" not in paper
    services.table_set_locale(table=berlin, language="en")
    evening.table.refresh_from_db()
    english = pdf_text(documents.session_report_pdf(evening)[0])
    assert "Wednesday, November 25, 2026" in english and "+2.02" in english
