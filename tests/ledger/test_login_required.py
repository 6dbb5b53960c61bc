"""Every page asks for a log-in (django.contrib.auth's LoginRequiredMiddleware) except the
ones listed here, which say ``@login_not_required``: walking every URL pattern of the site
finds each view, and a view made public without being listed, or a listed one that is
not public, fails the walk.

The admin is left out of the walk: its views check a staff account themselves, and its
log-in page is public (Django marks it)."""

from __future__ import annotations

import re
import types

import pytest
from django.conf import settings
from django.contrib.auth.decorators import login_not_required
from django.contrib.auth.views import redirect_to_login
from django.http import HttpResponse
from django.test import Client, override_settings
from django.urls import URLPattern, URLResolver, get_resolver, include, path

from ledger import services
from tests.factories import gin_game

#: The views anyone may open, logged in or not, by URL name.
PUBLIC = {
    # the read-only share links and their live parts, polled by the players' phones
    "ledger:shared", "ledger:shared_game", "ledger:shared_live", "ledger:shared_game_live",
    # a table's report link (issue 23): its page, withdrawing, its live part
    "ledger:report_page", "ledger:report_withdraw", "ledger:report_live",
    # a two-hand game's confirm link (issue 23): the other player confirms each hand
    "ledger:confirm_page",
    # the installable app: the service worker, the manifest, the page shown offline
    "ledger:service_worker", "ledger:manifest", "ledger:offline",
    # making an account, logging in and out, a forgotten password
    "signup", "signup_sent", "signup_finish", "login", "logout",
    "password_reset", "password_reset_done", "password_reset_confirm",
    "password_reset_complete",
    # the footer's language switcher (a visitor chooses the log-in page's language too)
    "set_language",
}

_PARAMETER = re.compile(r"<(?:(?P<converter>\w+):)?(?P<name>\w+)>")
_SAMPLES = {"int": "1", "str": "x1", "slug": "x1", "path": "x1",
            "uuid": "12345678-1234-5678-1234-567812345678"}


def site_urls(urlconf=None, values: dict | None = None) -> dict[str, tuple[str, object]]:
    """Every URL pattern of the site but the admin's, as {URL: (name, view)}: each
    parameter filled with ``values[name]`` or a sample of its type. A pattern hidden by an
    earlier one with the same URL (Django's logout under ours) is not reached, so not
    listed."""
    values = values or {}
    found: dict[str, tuple[str, object]] = {}

    def walk(resolver: URLResolver, prefix: str, namespace: str) -> None:
        for pattern in resolver.url_patterns:
            if isinstance(pattern, URLResolver):
                if pattern.namespace == "admin":
                    continue
                inner = f"{namespace}{pattern.namespace}:" if pattern.namespace else namespace
                walk(pattern, prefix + _route(pattern), inner)
                continue
            assert isinstance(pattern, URLPattern)
            route = prefix + _route(pattern)
            url = "/" + _PARAMETER.sub(
                lambda m: str(values.get(m["name"], _SAMPLES[m["converter"] or "str"])), route)
            found.setdefault(url, (f"{namespace}{pattern.name}", pattern.callback))

    walk(get_resolver(urlconf), "", "")
    return found


def _route(pattern) -> str:
    route = getattr(pattern.pattern, "_route", None)
    if route is None:  # a regular expression: the walk cannot fill it, so it must not pass
        raise AssertionError(f"{pattern!r}: no route to walk; write it with path()")
    return route


def is_public(view) -> bool:
    return getattr(view, "login_required", True) is False


def sends_to_log_in(response, url: str) -> bool:
    return (response.status_code == 302
            and response["Location"] == redirect_to_login(url)["Location"])


def not_guarded(client: Client, urls: dict) -> list[str]:
    """The URLs (not public) that an anonymous GET or POST reaches without being sent to
    the log-in page."""
    gaps = []
    for url, (name, view) in urls.items():
        if is_public(view):
            continue
        for method in ("get", "post"):
            if not sends_to_log_in(getattr(client, method)(url), url):
                gaps.append(f"{method.upper()} {url} ({name})")
    return gaps


def public_names(urls: dict) -> set[str]:
    return {name for name, view in urls.values() if is_public(view)}


@pytest.fixture
def share(table, session, keeper):
    game = gin_game(session, keeper)
    link = services.share_link_get_or_create(table=table, created_by=keeper)
    return {"token": link.token, "game_pk": game.pk}


@pytest.mark.django_db
def test_every_view_but_the_public_ones_sends_an_anonymous_user_to_log_in(client):
    urls = site_urls()
    names = {name for name, _ in urls.values()}
    # the walk reaches the screens, the print views, the accounts and the app's files
    assert {"ledger:game_detail", "ledger:hand_create", "ledger:hand_send",
            "scoresheets:game_pdf", "ledger:table_download", "password_change",
            "login", "ledger:service_worker"} <= names
    assert len(urls) >= 50  # 53 when written
    assert public_names(urls) == PUBLIC
    assert not_guarded(client, urls) == []


@pytest.mark.django_db
def test_the_public_views_answer_an_anonymous_user(client, share):
    urls = {url: (name, view) for url, (name, view) in site_urls(values=share).items()
            if name in PUBLIC}
    assert {name for name, _ in urls.values()} == PUBLIC
    for url, (name, _) in urls.items():
        response = (client.post(url) if name in ("logout", "set_language")
                    else client.get(url))
        assert not sends_to_log_in(response, url), name
        # (a report link's views and the confirm link's are given a share token here:
        # tests/ledger/test_report_access.py and test_hand_confirm.py open them with their own)
        assert (response.status_code < 400 or name == "signup_finish"
                or name.startswith("ledger:report_") or name == "ledger:confirm_page"), (
            name, response)
    # the pages themselves, not an error: the shared sheet, the app's files
    by_name = {name: url for url, (name, _) in urls.items()}
    assert "Ann" in client.get(by_name["ledger:shared_game"]).content.decode()
    assert client.get(by_name["ledger:service_worker"])["Content-Type"].startswith(
        "text/javascript")
    assert client.post(by_name["logout"])["Location"] == settings.LOGOUT_REDIRECT_URL


@pytest.mark.django_db
def test_health_check_and_error_pages_need_no_log_in(client):
    assert client.get("/healthz").status_code == 200  # answered by a middleware
    missing = client.get("/no-such-page/")
    assert missing.status_code == 404 and "Location" not in missing
    strict = Client(enforce_csrf_checks=True)
    refused = strict.post("/accounts/login/", {"username": "a", "password": "b"})
    assert refused.status_code == 403  # the CSRF page, not a log-in redirect


def _planted(*extra) -> types.ModuleType:
    urlconf = types.ModuleType("planted_urls")
    urlconf.urlpatterns = [*extra, path("", include(settings.ROOT_URLCONF))]
    return urlconf


def _view(request):
    return HttpResponse("planted")


def _open_view(request):  # (login_not_required marks the function itself)
    return HttpResponse("planted")


@pytest.mark.django_db
def test_a_view_made_public_without_the_list_fails_the_walk(client):
    planted = _planted(
        path("planted/open/", login_not_required(_open_view),
             name="planted_open"),
        path("planted/new/", _view, name="planted_new"))
    with override_settings(ROOT_URLCONF=planted):
        urls = site_urls()
        assert public_names(urls) - PUBLIC == {"planted_open"}
        # a new view that says nothing is guarded by the middleware
        assert sends_to_log_in(client.get("/planted/new/"), "/planted/new/")
        assert client.get("/planted/open/").content == b"planted"


@pytest.mark.django_db
def test_without_the_middleware_the_walk_finds_the_open_views():
    anonymous = Client(raise_request_exception=False)
    without = [m for m in settings.MIDDLEWARE if not m.endswith("LoginRequiredMiddleware")]
    assert len(without) == len(settings.MIDDLEWARE) - 1
    with override_settings(MIDDLEWARE=without):
        urls = {url: entry for url, entry in site_urls().items()
                if entry[0] in {"ledger:home", "ledger:cards_preview", "scoresheets:game_pdf"}}
        assert len(urls) == 3
        assert len(not_guarded(anonymous, urls)) == 6  # GET and POST of each
