"""Deploy defaults that fail safe (issue 18, item 10): the production settings refuse what
would make a club's server unsafe without a word, ``check --deploy`` speaks for any other
settings, the cache is shared and in no place another user can write, a database outage
answers 503 with Retry-After and the app's page, and /healthz answers the proxy or monitor."""

from __future__ import annotations

import logging
import stat

import pytest
from django.contrib.auth import get_user_model
from django.core.cache import caches
from django.core.exceptions import ImproperlyConfigured
from django.core.management import CommandError, call_command
from django.db import OperationalError, connection
from django.test import Client, RequestFactory
from django.urls import get_resolver

from ledger import checks, limits
from ledger.views.errors import server_error

from .conftest import HOST, load_prod, manage, prod_env

DATABASE_CACHE = {"default": {"BACKEND": "django.core.cache.backends.db.DatabaseCache",
                              "LOCATION": "tablestakes_cache"}}


# -- the production settings refuse ------------------------------------------------------------

@pytest.mark.parametrize("hosts", ["*", f"{HOST},*"])
def test_prod_refuses_any_host(hosts):
    with pytest.raises(ImproperlyConfigured, match="refuses '\\*'"):
        load_prod(prod_env(DJANGO_ALLOWED_HOSTS=hosts))


def test_prod_refuses_to_start_without_the_proxy_count_stated():
    with pytest.raises(ImproperlyConfigured) as refused:
        load_prod(prod_env(TABLESTAKES_PROXY_COUNT=None))
    assert "TABLESTAKES_PROXY_COUNT is not set" in str(refused.value)
    assert "0 when clients reach gunicorn directly" in str(refused.value)
    with pytest.raises(ImproperlyConfigured, match="PROXY_COUNT must be a whole number"):
        load_prod(prod_env(TABLESTAKES_PROXY_COUNT="one"))


@pytest.mark.parametrize(("count", "header"), [
    ("0", "None"), ("1", "('HTTP_X_FORWARDED_PROTO', 'https')")])
def test_a_stated_proxy_count_passes_the_deploy_check(count, header):
    """0 (no proxy): no forwarded header is trusted, a client cannot claim https; 1: the
    proxy's X-Forwarded-Proto is. Behind a proxy check --deploy is clean; without one it
    says that a club's server needs a buffering proxy (issue 38: three connections sending
    a header line every 5 s held the three sync workers, the log-in page waited 35 s)."""
    env = prod_env(TABLESTAKES_PROXY_COUNT=count)
    if count == "0":
        run = manage("check", "--deploy", env=env)
        assert run.returncode == 0, run.stdout + run.stderr  # a warning: gunicorn still runs
        assert "(ledger.W007) TABLESTAKES_PROXY_COUNT=0: clients reach gunicorn directly, " \
               "with no buffering proxy in front." in run.stderr, run.stderr
        assert "A club's server needs nginx or Caddy in front of gunicorn" in run.stderr
        return
    run = manage("shell", "-v", "0", "-c",  # check --deploy, then what it was checked with
                 "from django.core.management import call_command; "
                 "call_command('check', deploy=True, fail_level='WARNING'); "
                 "from django.conf import settings; print("
                 "settings.TABLESTAKES_PROXY_COUNT, settings.SECURE_PROXY_SSL_HEADER); "
                 "print(settings.CACHES['default']['BACKEND'])", env=env)
    assert run.returncode == 0, run.stdout + run.stderr
    assert run.stdout.splitlines() == ["System check identified no issues (0 silenced).",
                                       f"{count} {header}",
                                       "django.core.cache.backends.db.DatabaseCache"], \
        run.stdout + run.stderr


def test_load_demo_refuses_to_run_under_prod(tmp_path):
    run = manage("load_demo", env=prod_env(DATABASE_URL=f"sqlite:///{tmp_path / 'db.sqlite3'}"))
    assert run.returncode != 0
    assert "load_demo refuses to run under the production settings" in run.stderr
    assert "Created the demo account" not in run.stdout


@pytest.mark.django_db
def test_load_demo_makes_no_account_when_production(settings):
    settings.TABLESTAKES_PRODUCTION = True
    with pytest.raises(CommandError, match="demo with the password demo"):
        call_command("load_demo")
    assert not get_user_model().objects.filter(username="demo").exists()


# -- check --deploy under any other settings ------------------------------------------------

def ids(found) -> list[str]:
    return [message.id for message in found]


def test_deploy_check_proxy_count(settings):
    settings.TABLESTAKES_PROXY_COUNT = None
    assert ids(checks.proxy_count_stated()) == ["ledger.W001"]
    settings.TABLESTAKES_PROXY_COUNT = 0
    settings.SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    assert ids(checks.proxy_count_stated()) == ["ledger.W002"]
    settings.SECURE_PROXY_SSL_HEADER = None
    assert ids(checks.proxy_count_stated()) == ["ledger.W007"]  # no buffering proxy
    settings.TABLESTAKES_PROXY_COUNT = 2
    assert ids(checks.proxy_count_stated()) == ["ledger.W003"]
    settings.SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    assert checks.proxy_count_stated() == []


def test_deploy_check_under_dev_settings_names_the_proxy_count():
    env = prod_env(DJANGO_SETTINGS_MODULE="tablestakes.settings.dev",
                   TABLESTAKES_PROXY_COUNT=None)
    run = manage("check", "--deploy", env=env)
    assert "(ledger.W001) TABLESTAKES_PROXY_COUNT is not stated." in run.stderr + run.stdout


def test_deploy_check_any_host(settings):
    settings.ALLOWED_HOSTS = [HOST]
    assert checks.no_wildcard_host() == []
    settings.ALLOWED_HOSTS = [HOST, "*"]
    assert ids(checks.no_wildcard_host()) == ["ledger.W004"]


def test_deploy_check_cache(settings, tmp_path):
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
    assert ids(checks.shared_private_cache()) == ["ledger.W005"]
    settings.CACHES = DATABASE_CACHE
    assert checks.shared_private_cache() == []
    filebased = "django.core.cache.backends.filebased.FileBasedCache"
    shared = tmp_path / "shared"
    shared.mkdir()
    shared.chmod(0o1777)  # like /tmp: anyone may make the cache directory first
    for location, warned in ((shared / "tablestakes-cache", True), (shared, True),
                             (tmp_path / "private", False)):
        if not warned:
            location.mkdir(mode=0o700)
        settings.CACHES = {"default": {"BACKEND": filebased, "LOCATION": str(location)}}
        assert ids(checks.shared_private_cache()) == (["ledger.W006"] if warned else [])
    assert stat.S_IMODE((tmp_path / "private").stat().st_mode) == 0o700


# -- the cache: in the database, shared by every worker ---------------------------------------

@pytest.mark.django_db
def test_migrate_makes_the_cache_table_and_every_worker_counts_in_it(settings):
    settings.CACHES = DATABASE_CACHE
    assert "tablestakes_cache" not in connection.introspection.table_names()
    call_command("migrate", verbosity=0, interactive=False)
    assert "tablestakes_cache" in connection.introspection.table_names()
    # two workers: two cache connections of their own, one count
    first, second = caches.create_connection("default"), caches.create_connection("default")
    assert first is not second
    # what one worker keeps, the other reads (the limits' counts have their own table)
    first.set("tablestakes:probe", 2, timeout=60)
    assert second.get("tablestakes:probe") == 2
    first.delete("tablestakes:probe")
    assert second.get("tablestakes:probe") is None


# -- a database outage: 503, Retry-After, the app's page ---------------------------------------

@pytest.fixture
def database_down(monkeypatch):
    """Call it, and every query from then on fails as when the server is gone (the driver's
    own error, which Django wraps as django.db.OperationalError)."""
    error = connection.Database.OperationalError

    def refuse(*args, **kwargs):
        raise error("connection to server at 127.0.0.1 failed: Connection refused")

    return lambda: monkeypatch.setattr(connection, "create_cursor", refuse)


def assert_outage_page(response):
    assert response.status_code == 503
    assert response["Retry-After"] == "30"
    assert "no-cache" in response["Cache-Control"]
    text = response.content.decode()
    assert "<h1 class=\"page-title\">Back in a moment</h1>" in text
    assert "Nothing already saved is lost" in text


@pytest.mark.django_db
def test_a_database_outage_answers_503_with_retry_after(client, keeper, database_down, caplog):
    client.force_login(keeper)  # the session row is written before the database goes
    database_down()
    with caplog.at_level(logging.ERROR, logger="ledger.outage"):
        assert_outage_page(client.get("/"))
        assert_outage_page(client.post("/accounts/login/", {"username": "keeper",
                                                             "password": "pw"}))
    assert "the database cannot be reached (GET /)" in caplog.text
    assert "Connection refused" in caplog.text


@pytest.mark.django_db
def test_the_retry_after_is_a_setting(client, keeper, database_down, settings):
    settings.TABLESTAKES_RETRY_AFTER = 120
    client.force_login(keeper)
    database_down()
    assert client.get("/")["Retry-After"] == "120"


def test_the_500_handler_answers_an_outage_in_a_middleware_with_503():
    assert get_resolver().resolve_error_handler(500) is server_error
    request = RequestFactory().get("/")
    try:
        raise OperationalError("server closed the connection unexpectedly")
    except OperationalError:
        assert_outage_page(server_error(request))
    try:
        raise RuntimeError("a bug")
    except RuntimeError:
        other = server_error(request)
    assert other.status_code == 500 and "Retry-After" not in other


# -- /healthz ----------------------------------------------------------------------------------

@pytest.mark.django_db
def test_healthz_is_one_query_no_session_no_log_in(django_assert_num_queries):
    client = Client(HTTP_HOST="127.0.0.1:8000")  # a monitor asking gunicorn itself
    with django_assert_num_queries(1):
        answer = client.get("/healthz")
    assert answer.status_code == 200 and answer.content == b"ok\n"
    assert answer["Content-Type"] == "text/plain; charset=utf-8"
    assert "no-cache" in answer["Cache-Control"]
    assert not answer.cookies and "Vary" not in answer
    assert client.head("/healthz").status_code == 200
    assert client.post("/healthz").status_code == 405


@pytest.mark.django_db
def test_healthz_says_when_the_database_is_down(database_down):
    database_down()
    answer = Client().get("/healthz")
    assert answer.status_code == 503 and answer.content == b"database unavailable\n"
    assert answer["Retry-After"] == "30"



def test_a_forwarded_request_with_no_proxy_counted_is_logged_once(settings, caplog,
                                                                  monkeypatch):
    settings.TABLESTAKES_PROXY_COUNT = 0
    monkeypatch.setattr(limits, "_warned_about_proxy", False)
    factory = RequestFactory()
    with caplog.at_level(logging.WARNING, logger="ledger.limits"):
        assert limits.client_ip(factory.get("/", REMOTE_ADDR="10.0.0.2")) == "10.0.0.2"
        assert caplog.text == ""
        for _ in range(3):
            forwarded = factory.get("/", REMOTE_ADDR="10.0.0.2",
                                    HTTP_X_FORWARDED_FOR="203.0.113.9")
            assert limits.client_ip(forwarded) == "10.0.0.2"
    assert caplog.text.count("TABLESTAKES_PROXY_COUNT is 0") == 1
    assert "its address 10.0.0.2" in caplog.text
    settings.TABLESTAKES_PROXY_COUNT = 1
    assert limits.client_ip(forwarded) == "203.0.113.9"
