"""The app under the production settings, in process: ``tablestakes.settings.prod`` loaded
with a server's environment, every setting it changes applied to the test (but the test
database), WhiteNoise's manifest storage over a real ``collectstatic``.

The default test settings use Django's plain static storage, which names any file and never
refuses; the manifest storage refuses a name it did not collect, so only these tests can
see what a club's server does (``/sw.js`` answered 500 there and nowhere else)."""

from __future__ import annotations

import json
import re

import pytest
from django.conf import settings
from django.core.management import call_command
from django.test import Client, override_settings
from django.utils.module_loading import import_string
from whitenoise.storage import CompressedManifestStaticFilesStorage

from ledger.views.pwa import SHELL

from .conftest import HOST, ROOT, load_prod, prod_env

# one worker runs every module that uses the collected static files (collectstatic once)
pytestmark = [pytest.mark.django_db, pytest.mark.xdist_group("collected_static")]

# settings the test keeps its own: the test database, and Django's app registry and logging
# (the same in prod; overriding them would only reload them)
KEEP = {"DATABASES", "INSTALLED_APPS", "LOGGING", "SETTINGS_MODULE"}


@pytest.fixture
def production(collected_static):
    """The production settings in force, the database cache's table made (as ``migrate``
    makes it on a server), and a client that comes through the TLS proxy."""
    prod = load_prod(prod_env(DJANGO_STATIC_ROOT=str(collected_static)))
    changed = {name: getattr(prod, name) for name in dir(prod)
               if name.isupper() and name not in KEEP
               and getattr(settings, name, object()) != getattr(prod, name)}
    assert {"STORAGES", "STATIC_ROOT", "MIDDLEWARE", "CACHES", "SECURE_SSL_REDIRECT",
            "TABLESTAKES_PRODUCTION"} <= set(changed)
    with override_settings(**changed):
        call_command("createcachetable", verbosity=0)
        yield Client(HTTP_HOST=HOST, HTTP_X_FORWARDED_PROTO="https",
                     HTTP_X_FORWARDED_FOR="203.0.113.7")


def body(response) -> bytes:
    if response.streaming:
        return b"".join(response.streaming_content)
    return response.content


def worker_config(code: str) -> dict:
    first = code.split("\n", 1)[0]
    match = re.fullmatch(r"self\.TABLESTAKES = (\{.*\});", first)
    assert match, first
    return json.loads(match.group(1))


def test_the_settings_are_the_production_ones(production):
    assert settings.TABLESTAKES_PRODUCTION is True and settings.DEBUG is False
    # WhiteNoise's compressed manifest storage, which also hashes the imports between the
    # app's ES modules (tablestakes/storage.py), with Brotli quicker on Pyodide's big files
    # (tablestakes/staticfiles.py)
    backend = settings.STORAGES["staticfiles"]["BACKEND"]
    assert backend == "tablestakes.staticfiles.CoreStaticFilesStorage"
    assert issubclass(import_string(backend),
                      import_string("tablestakes.storage.StaticFilesStorage"))
    assert issubclass(import_string(backend), CompressedManifestStaticFilesStorage)
    assert "whitenoise.middleware.WhiteNoiseMiddleware" in settings.MIDDLEWARE
    assert settings.CACHES["default"]["BACKEND"].endswith("DatabaseCache")


def test_sw_js_answers_200_and_keeps_the_hashed_files_that_exist(production, static_manifest,
                                                                 collected_static):
    answer = production.get("/sw.js")
    assert answer.status_code == 200, body(answer)[:300]
    assert answer["Content-Type"] == "text/javascript; charset=utf-8"
    assert answer["Cache-Control"] == "no-cache"
    code = body(answer).decode()
    config = worker_config(code)
    assert config["static"] == "/static/"
    assert config["offline"] == "/offline/"
    assert "addEventListener(\"install\"" in code  # static/ledger/sw.js follows
    # every file of the shell, by the hashed name collectstatic wrote, each one served
    assert config["precache"] == [f"/static/{static_manifest[name]}" for name in SHELL]
    for url, name in zip(config["precache"], SHELL, strict=True):
        hashed = static_manifest[name]
        assert hashed != name and re.search(r"\.[0-9a-f]{12}\.", hashed), hashed
        assert (collected_static / hashed).is_file()
        served = production.get(url)
        assert served.status_code == 200, url
        assert body(served) == (collected_static / hashed).read_bytes()
        assert "max-age=315360000" in served["Cache-Control"]  # hashed: kept for good


def test_the_offline_page_names_the_hashed_stylesheet(production, static_manifest):
    page = production.get("/offline/")
    assert page.status_code == 200
    text = body(page).decode()
    assert "<h1 class=\"page-title\">No connection</h1>" in text
    assert f'href="/static/{static_manifest["ledger/app.css"]}"' in text
    assert page["Cache-Control"] == "no-cache"


def test_the_manifest_names_icons_that_are_served(production, static_manifest):
    answer = production.get("/manifest.webmanifest")
    assert answer.status_code == 200
    assert answer["Content-Type"] == "application/manifest+json"
    data = json.loads(body(answer))
    assert [icon["src"] for icon in data["icons"]] == [
        f"/static/{static_manifest[name]}" for name in (
            "ledger/icons/icon-192.png", "ledger/icons/icon-512.png",
            "ledger/icons/maskable-512.png")]
    for icon in data["icons"]:
        served = production.get(icon["src"])
        assert served.status_code == 200 and served["Content-Type"] == "image/png"
        assert body(served)[:8] == b"\x89PNG\r\n\x1a\n"


def test_whitenoise_serves_compressed_copies(production, static_manifest, collected_static):
    hashed = static_manifest["ledger/app.js"]
    plain = production.get(f"/static/{hashed}")
    assert plain.status_code == 200 and "Content-Encoding" not in plain
    source = body(plain)
    assert source == (ROOT / "static" / "ledger" / "app.js").read_bytes()
    for encoding in ("br", "gzip"):
        packed = production.get(f"/static/{hashed}", HTTP_ACCEPT_ENCODING=encoding)
        assert packed.status_code == 200 and packed["Content-Encoding"] == encoding
        suffix = {"br": ".br", "gzip": ".gz"}[encoding]
        sent = body(packed)
        assert sent == (collected_static / (hashed + suffix)).read_bytes()
        assert 0 < len(sent) < len(source)
    assert production.get("/static/ledger/no-such-file.js").status_code == 404


def test_a_scorekeepers_page_under_production(production, keeper, static_manifest):
    production.force_login(keeper)
    page = production.get("/")
    assert page.status_code == 200
    text = body(page).decode()
    for name in ("ledger/app.css", "ledger/app.js", "ledger/shell.js"):
        assert f"/static/{static_manifest[name]}" in text
    assert "max-age=31536000" in page["Strict-Transport-Security"]
    assert "default-src 'self'" in page["Content-Security-Policy"]
    # the log-in page too, for a stranger, with its secure cookie
    production.logout()
    login = production.get("/accounts/login/")
    assert login.status_code == 200 and login.cookies["csrftoken"]["secure"]


def test_without_the_proxys_https_header_the_site_redirects_but_healthz_answers(production):
    plain = Client(HTTP_HOST=HOST)
    moved = plain.get("/sw.js")
    assert moved.status_code == 301 and moved["Location"] == f"https://{HOST}/sw.js"
    # a monitor asks gunicorn itself: plain http, any Host header
    health = Client(HTTP_HOST="127.0.0.1:8000").get("/healthz")
    assert health.status_code == 200 and health.content == b"ok\n"


def test_the_phones_core_is_served_by_the_app_and_named_for_the_service_worker(
        production, static_manifest, collected_static):
    """Pyodide and the core's zip come from the app itself (nothing from another host): the
    zip by the hashed name of what it holds (a release that changes the core changes only
    that name), Pyodide's files under a folder named by its version; the service worker
    keeps exactly these, and the CSP lets the worker run WebAssembly, and nothing more."""
    from tablestakes.staticfiles import PYODIDE_FILES, core_zip_bytes, pyodide_version

    config = worker_config(body(production.get("/sw.js")).decode())
    zipped = static_manifest["ledger/core/rules.zip"]
    assert re.fullmatch(r"ledger/core/rules\.[0-9a-f]{12}\.zip", zipped)
    version = pyodide_version()
    assert version == json.loads((ROOT / "package.json").read_text())["dependencies"]["pyodide"]
    assert config["core"] == [
        f"/static/{zipped}", f"/static/{static_manifest['ledger/core/worker.mjs']}",
        *(f"/static/pyodide/{version}/{name}" for name in PYODIDE_FILES)]
    # built from ledger/rules at collectstatic, byte for byte the same every time
    assert (collected_static / zipped).read_bytes() == core_zip_bytes()
    assert core_zip_bytes() == core_zip_bytes()
    for url in config["core"]:
        served = production.get(url)
        assert served.status_code == 200, url
    wasm = production.get(f"/static/pyodide/{version}/pyodide.asm.wasm",
                          HTTP_ACCEPT_ENCODING="br")
    assert wasm["Content-Type"] == "application/wasm" and wasm["Content-Encoding"] == "br"
    assert int(wasm["Content-Length"]) < 3_500_000  # of 9.6 MB
    module = production.get(f"/static/{static_manifest['ledger/core/worker.mjs']}")
    assert module["Content-Type"].startswith("text/javascript")
    # a worker obeys the policy sent with its own script: the pages' one, there too
    page_policy = production.get("/offline/")["Content-Security-Policy"]
    assert module["Content-Security-Policy"] == page_policy
    policy = dict(part.strip().split(" ", 1) for part in page_policy.split(";"))
    assert policy["script-src"] == "'self' 'wasm-unsafe-eval'"
    assert policy["worker-src"] == "'self'"
    assert "Content-Security-Policy" not in production.get(
        f"/static/{static_manifest['ledger/app.js']}")
