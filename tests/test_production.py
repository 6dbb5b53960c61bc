"""Production settings (tablestakes.settings.prod): what a club's server runs with.

The deploy check and the start-up refusals run in a subprocess, with exactly the
environment a server would have, so CI proves that ``check --deploy`` stays clean.
"""

from __future__ import annotations

import importlib
import io
import json
import logging
import os
import secrets
import subprocess
import sys
from pathlib import Path
from unittest import mock

import pytest
from django.conf import settings
from django.test import Client, override_settings

# Settings, static files and the deploy check: the same on any engine (SQLite only in CI).
pytestmark = pytest.mark.engine_independent

ROOT = Path(__file__).resolve().parents[1]
HOST = "rummy.example.org"


def prod_env(**extra) -> dict:
    env = {key: value for key, value in os.environ.items()
           if not key.startswith(("DJANGO_", "TABLESTAKES_"))}
    env.update(DJANGO_SETTINGS_MODULE="tablestakes.settings.prod",
               DJANGO_SECRET_KEY=secrets.token_urlsafe(50), DJANGO_ALLOWED_HOSTS=HOST,
               TABLESTAKES_PROXY_COUNT="1")
    env.update(extra)
    return {key: value for key, value in env.items() if value is not None}


def manage(*args, env: dict) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=120)


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
    run = manage("check", env=prod_env(**{missing: None}))
    assert run.returncode != 0
    assert "ImproperlyConfigured" in run.stderr and message in run.stderr
    assert "refuses to start" in run.stderr


def test_prod_refuses_the_development_key_or_a_short_one():
    for key in ("dev-only-not-secret-change-me", "django-insecure-" + "x" * 60):
        run = manage("check", env=prod_env(DJANGO_SECRET_KEY=key))
        assert run.returncode != 0 and "DJANGO_SECRET_KEY is too weak" in run.stderr


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


def test_collectstatic_writes_hashed_files_that_whitenoise_serves(prod, tmp_path, db):
    # (the admin's files are Django's own: left out to keep the test quick)
    run = manage("collectstatic", "--noinput", "--ignore", "admin",
                 env=prod_env(DJANGO_STATIC_ROOT=str(tmp_path)))
    assert run.returncode == 0, run.stderr
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
