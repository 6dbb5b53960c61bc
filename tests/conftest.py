"""Test setup shared by the whole suite.

Browser tests (marker ``e2e``) use pytest-playwright with Debian's Chromium and a phone-sized
context. They run its headless shell (/usr/bin/chromium-headless-shell, package
chromium-headless-shell): the same Blink as the full browser, and what Playwright itself runs
for headless Chromium, at about a third of the full browser's CPU per test (measured on
tests/e2e/test_phone_table.py: 59 s of Chromium CPU down to 21 s). E2E_CHROMIUM=/usr/bin/chromium
runs the suite in the full browser. Never run ``playwright install``: it downloads browser
builds, which cannot be fetched here (scripts/ensure-chromium installs the Debian packages
instead).
"""
import os
import time
from pathlib import Path

import pytest

pytest_plugins = ["tests.xdist_groups"]

# Playwright's sync API keeps an event loop running in the test thread, and Django's
# async-safety check then refuses ORM calls (SynchronousOnlyOperation). Tests only.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

CHROMIUM = Path(os.environ.get("E2E_CHROMIUM") or "/usr/bin/chromium-headless-shell")
#: scripts/test installs Chromium while the venv is made and the first tests run; this file
#: gets apt's exit status when it is done (its output is printed at the end of the run).
CHROMIUM_STATUS = os.environ.get("TABLESTAKES_CHROMIUM_STATUS", "")
CHROMIUM_WAIT = 900  # seconds: apt on a slow mirror
NO_CHROMIUM = (f"{CHROMIUM} missing: apt-get install chromium-headless-shell "
               "(scripts/ensure-chromium)")


def wait_for_chromium(status: str = CHROMIUM_STATUS, timeout: float = CHROMIUM_WAIT) -> None:
    """Return once the background install of Chromium (scripts/test) has ended, at once when
    none runs; fail the test if it failed or did not end in ``timeout`` seconds."""
    if not status:
        return
    path = Path(status)
    deadline = time.monotonic() + timeout
    while not path.exists():
        if time.monotonic() > deadline:
            pytest.fail(f"Chromium's install (scripts/ensure-chromium) still runs after "
                        f"{timeout:.0f} s")
        time.sleep(0.2)
    code = path.read_text().strip()
    if code != "0":
        log = path.with_name("log")
        output = log.read_text() if log.exists() else ""
        pytest.fail(f"installing Chromium failed (exit {code}):\n{output}")
    if not CHROMIUM.exists() and not os.environ.get("CI"):  # not root: nothing installed
        pytest.skip(NO_CHROMIUM)


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    wait_for_chromium()
    return {
        **browser_type_launch_args,
        "executable_path": str(CHROMIUM),
        "args": [
            "--no-sandbox",  # we run as root in CI
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            # Without these chromium keeps trying to reach Google hosts (no network here).
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
        ],
    }


@pytest.fixture(scope="session")
def browser_context_args(browser_context_args):
    """A phone: the app is used at the card table."""
    from tests.e2e.helpers import SCALE

    return {
        **browser_context_args,
        "viewport": {"width": 390, "height": 844},
        "device_scale_factor": SCALE,  # 2 as on a phone when pictures are taken, else 1
        "is_mobile": True,
        "has_touch": True,
    }


def pytest_report_header(config):
    from django.conf import settings

    db = settings.DATABASES["default"]
    where = f"{db.get('HOST')}:{db.get('PORT')}/{db.get('NAME')}" if db.get("HOST") else ""
    return f"database: {db['ENGINE'].rsplit('.', 1)[-1]} {where}".rstrip()


def pytest_collection_modifyitems(config, items):
    from django.conf import settings

    on_postgres = "postgresql" in settings.DATABASES["default"]["ENGINE"]
    no_pg = pytest.mark.skip(reason="needs PostgreSQL: set DATABASE_URL=postgres://...")
    # In CI a missing browser must fail loudly, not skip quietly.
    no_browser = None
    if not CHROMIUM.exists() and not os.environ.get("CI") and not installing_chromium():
        no_browser = pytest.mark.skip(reason=NO_CHROMIUM)
    for item in items:
        if not on_postgres and "postgres" in item.keywords:
            item.add_marker(no_pg)
        if no_browser is not None and "e2e" in item.keywords:
            item.add_marker(no_browser)
        if "postgres" in item.keywords:
            if "engine_independent" in item.keywords:  # it would run nowhere
                raise pytest.UsageError(f"{item.nodeid}: marked both postgres and "
                                        "engine_independent")
        elif "engine_independent" not in item.keywords and (
                "e2e" in item.keywords or not uses_database(item)
                or _in(item, ENGINE_INDEPENDENT_FOLDERS)):
            item.add_marker(ENGINE_INDEPENDENT)


def installing_chromium() -> bool:
    """Whether scripts/test's background install of Chromium is still running or failed:
    then the browser tests wait for it (and fail with apt's output) instead of being
    skipped."""
    if not CHROMIUM_STATUS:
        return False
    status = Path(CHROMIUM_STATUS)
    return not status.exists() or status.read_text().strip() != "0"


#: Fixtures through which a test reaches the database (pytest-django's, and live_server,
#: whose helper asks for transactional_db).
DB_FIXTURES = frozenset({"db", "transactional_db", "django_db_reset_sequences",
                         "django_db_serialized_rollback", "live_server"})
ENGINE_INDEPENDENT = pytest.mark.engine_independent
#: Folders whose tests use the database only to have something to show, and check what is
#: shown: the words of every screen in each language (tests/i18n) do not depend on the
#: engine; the records they show are written by the same services the PostgreSQL pass tests.
ENGINE_INDEPENDENT_FOLDERS = ("i18n",)


def _in(item, folders) -> bool:
    parts = Path(str(item.fspath)).relative_to(Path(__file__).parent).parts
    return bool(parts) and parts[0] in folders


def uses_database(item) -> bool:
    """Whether a test touches the database: marked ``django_db`` or asking (directly or
    through its fixtures) for one of pytest-django's database fixtures.

    This decides the CI split (``-m "not engine_independent"`` on PostgreSQL): a test
    that uses the database runs on both engines unless its module marks it
    ``engine_independent`` (browser tests, PDF layout, settings); one that does not is
    engine independent by itself, so a new test lands on the right side by default."""
    if item.get_closest_marker("django_db") is not None:
        return True
    return bool(DB_FIXTURES & set(getattr(item, "fixturenames", ())))


@pytest.fixture(autouse=True)
def _empty_cache():
    """The cache holds the sign-up counts per address: each test starts with none."""
    from django.core.cache import cache

    cache.clear()
    yield
    cache.clear()


@pytest.fixture(autouse=True)
def _english_after_each_test():
    """Each test ends in the default language: a request the test client sends with
    Accept-Language: de leaves German active in the thread (LocaleMiddleware activates it and
    nothing deactivates it), and since the catalogs translate, the next test's words outside a
    request would come out German."""
    yield
    from django.conf import settings
    from django.utils import translation

    translation.activate(settings.LANGUAGE_CODE)


@pytest.fixture
def keeper(django_user_model):
    """The scorekeeper most tests act as ("keeper" / "pw"; the browser logs in with it)."""
    return django_user_model.objects.create_user("keeper", password="pw")


@pytest.fixture
def logged_in(client, keeper):
    """Django's test client, logged in as ``keeper``."""
    client.force_login(keeper)
    return client


@pytest.fixture(autouse=True)
def _no_remembered_refusals():
    """Each test starts with no refusal remembered by the process (ledger.limits: the
    worker's memory of the heavy pages and new tables it refused a moment ago)."""
    try:
        from ledger import limits
    except Exception:  # noqa: BLE001 - Django not set up (the core's tests under Pyodide)
        yield
        return
    limits.forget_refusals()
    yield
    limits.forget_refusals()


@pytest.fixture(autouse=True)
def _fresh_scores():
    """Each test scores its records afresh: the process keeps the core's results by record
    (ledger.selectors.games.score, issue 42), and a result another test left there would
    skip a test's own patched or slowed core."""
    try:
        from ledger.selectors import games
    except Exception:  # noqa: BLE001 - Django not set up (the core's tests under Pyodide)
        yield
        return
    games._SCORED.clear()
    yield
