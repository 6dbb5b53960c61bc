"""Production settings (tablestakes.settings.prod): what a club's server runs with.

The deploy check runs in a subprocess, with exactly the environment a server would have, so
CI proves that ``check --deploy`` stays clean. The start-up refusals are raised by the
settings module itself: they are checked by loading it in this process with a server's
environment, and once through ``manage.py`` to show that a refusal stops the start-up.
"""

from __future__ import annotations

import importlib
import io
import json
import logging
import os
import subprocess
import sys
from unittest import mock

import pytest
from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from django.test import Client, override_settings

from .conftest import HOST, ROOT, load_prod, manage, prod_env

# Settings, static files and the deploy check: the same on any engine (SQLite only in CI).
pytestmark = pytest.mark.engine_independent

def test_check_deploy_under_prod_is_clean():
    run = manage("check", "--deploy", "--fail-level", "WARNING", env=prod_env())
    output = run.stdout + run.stderr
    assert run.returncode == 0, output
    assert "System check identified no issues (0 silenced)." in output
    assert "WARNINGS" not in output and "security.W" not in output


@pytest.mark.parametrize(("missing", "message"), [
    ("DJANGO_SECRET_KEY", "DJANGO_SECRET_KEY is not set"),
    ("DJANGO_ALLOWED_HOSTS", "DJANGO_ALLOWED_HOSTS is not set"),
])
def test_prod_refuses_to_start_without_its_secrets(missing, message):
    with pytest.raises(ImproperlyConfigured, match=message) as refused:
        load_prod(prod_env(**{missing: None}))
    assert "refuses to start" in str(refused.value)


def test_a_refusal_stops_manage_py_with_its_reason():
    """What the refusals above raise is what a server's start-up prints, and it stops."""
    run = manage("check", env=prod_env(DJANGO_SECRET_KEY=None))
    assert run.returncode != 0
    assert "ImproperlyConfigured" in run.stderr
    assert "DJANGO_SECRET_KEY is not set" in run.stderr and "refuses to start" in run.stderr


@pytest.mark.parametrize("key", ["dev-only-not-secret-change-me", "django-insecure-" + "x" * 60])
def test_prod_refuses_the_development_key_or_a_short_one(key):
    with pytest.raises(ImproperlyConfigured, match="DJANGO_SECRET_KEY is too weak"):
        load_prod(prod_env(DJANGO_SECRET_KEY=key))


def test_wsgi_defaults_to_prod_and_manage_py_to_dev():
    env = prod_env(DJANGO_SETTINGS_MODULE=None)
    probe = ("import tablestakes.wsgi; from django.conf import settings; "
             "print(settings.SETTINGS_MODULE, settings.DEBUG)")
    run = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, env=env,
                         capture_output=True, text=True, timeout=60)
    assert run.stdout.split() == ["tablestakes.settings.prod", "False"], run.stderr
    run = manage("shell", "-v", "0", "-c", "from django.conf import settings; "
                 "print(settings.SETTINGS_MODULE, settings.DEBUG)",
                 env=prod_env(DJANGO_SETTINGS_MODULE=None, DJANGO_SECRET_KEY=None))
    assert run.stdout.split() == ["tablestakes.settings.dev", "True"], run.stderr


@pytest.fixture
def prod():
    """The prod settings module (and base, which it builds on), imported with a server's
    environment; base is imported again afterwards with the test's own."""
    env = prod_env(DJANGO_EMAIL_HOST="smtp.example.org",
                   DJANGO_CSRF_TRUSTED_ORIGINS=f"https://{HOST}")
    base = importlib.import_module("tablestakes.settings.base")
    with mock.patch.dict(os.environ, env, clear=True):
        importlib.reload(base)
        module = importlib.reload(importlib.import_module("tablestakes.settings.prod"))
    importlib.reload(base)
    return module


def test_prod_settings_harden_the_site(prod):
    assert prod.DEBUG is False
    assert prod.ALLOWED_HOSTS == [HOST] and prod.CSRF_TRUSTED_ORIGINS == [f"https://{HOST}"]
    assert prod.SESSION_COOKIE_SECURE and prod.CSRF_COOKIE_SECURE
    assert prod.SECURE_HSTS_SECONDS >= 365 * 24 * 3600
    assert prod.SECURE_PROXY_SSL_HEADER == ("HTTP_X_FORWARDED_PROTO", "https")
    assert prod.SECURE_SSL_REDIRECT
    # WhiteNoise's compressed manifest storage (a subclass that also hashes the imports
    # between the app's ES modules: tablestakes/storage.py)
    from django.utils.module_loading import import_string
    from whitenoise.storage import CompressedManifestStaticFilesStorage

    assert issubclass(import_string(prod.STORAGES["staticfiles"]["BACKEND"]),
                      CompressedManifestStaticFilesStorage)
    assert prod.MIDDLEWARE[:2] == ["django.middleware.security.SecurityMiddleware",
                                   "whitenoise.middleware.WhiteNoiseMiddleware"]
    assert "csp.middleware.CSPMiddleware" in prod.MIDDLEWARE
    assert prod.MIDDLEWARE[-1] == "axes.middleware.AxesMiddleware"
    assert prod.EMAIL_HOST == "smtp.example.org" and prod.EMAIL_PORT == 587
    assert prod.CACHES["default"]["BACKEND"].endswith("DatabaseCache")  # one for all workers


def test_dev_prints_mail_on_the_console():
    dev = importlib.import_module("tablestakes.settings.dev")
    assert dev.EMAIL_BACKEND == "django.core.mail.backends.console.EmailBackend"
    assert dev.DEBUG is True


def test_prod_behind_the_proxy_sends_hsts_and_secure_cookies(prod, db):
    with override_settings(**{name: getattr(prod, name) for name in (
            "SECURE_PROXY_SSL_HEADER", "SECURE_SSL_REDIRECT", "SECURE_HSTS_SECONDS",
            "SECURE_HSTS_INCLUDE_SUBDOMAINS", "SECURE_HSTS_PRELOAD", "SESSION_COOKIE_SECURE",
            "CSRF_COOKIE_SECURE")}, ALLOWED_HOSTS=[HOST]):
        client = Client(HTTP_HOST=HOST)
        plain = client.get("/accounts/login/")
        assert plain.status_code == 301 and plain["Location"].startswith("https://")
        page = client.get("/accounts/login/", HTTP_X_FORWARDED_PROTO="https")
        assert page.status_code == 200
        assert "max-age=31536000" in page["Strict-Transport-Security"]
        assert page.cookies["csrftoken"]["secure"]
        assert "default-src 'self'" in page["Content-Security-Policy"]


@pytest.mark.xdist_group("collected_static")
def test_collectstatic_writes_hashed_files_that_whitenoise_serves(prod, collected_static, db):
    # (collectstatic run once for the session, by the conftest: the package's own modules
    # share it, and one worker runs them all)
    tmp_path = collected_static
    manifest = json.loads((tmp_path / "staticfiles.json").read_text())["paths"]
    hashed = manifest["ledger/app.css"]
    assert hashed != "ledger/app.css" and (tmp_path / (hashed + ".gz")).exists()
    with override_settings(STATIC_ROOT=tmp_path, STORAGES=prod.STORAGES,
                           MIDDLEWARE=prod.MIDDLEWARE):
        client = Client()
        page = client.get("/accounts/login/").content.decode()
        assert f"/static/{hashed}" in page
        served = client.get(f"/static/{hashed}")
        assert served.status_code == 200
        assert "max-age=315360000" in served["Cache-Control"]  # hashed: cached for good
        assert b"".join(served.streaming_content).startswith(
            (ROOT / "static" / "ledger" / "app.css").read_bytes()[:40])


@pytest.mark.django_db
def test_a_500_is_logged_to_stderr_with_its_traceback(monkeypatch, django_user_model):
    """base.py's LOGGING: django.request's error record goes to the stderr handler, and
    its formatter prints the traceback."""
    assert settings.LOGGING["handlers"]["stderr"]["stream"] == "ext://sys.stderr"
    (handler,) = [h for h in logging.getLogger("django").handlers if h.name == "stderr"]
    caught = io.StringIO()
    old = handler.setStream(caught)
    try:
        from ledger import access

        def broken(user):
            raise RuntimeError("the tables went missing")

        monkeypatch.setattr(access, "tables_for", broken)
        client = Client(raise_request_exception=False)
        client.force_login(django_user_model.objects.create_user("k", password="pw"))
        assert client.get("/").status_code == 500
    finally:
        handler.setStream(old)
    logged = caught.getvalue()
    assert "ERROR django.request" in logged and "Internal Server Error: /" in logged
    assert "Traceback (most recent call last)" in logged
    assert "RuntimeError: the tables went missing" in logged
