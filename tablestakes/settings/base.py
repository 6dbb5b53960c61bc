"""Settings shared by every environment.

SQLite is the embedded default; set DATABASE_URL (postgres://...) for PostgreSQL.
``dev`` (manage.py) and ``test`` build on this; ``prod`` (wsgi.py) hardens it for a club's
server. The limits (TABLESTAKES_*) are read from the environment with sane defaults.
"""
import os
from datetime import timedelta
from pathlib import Path

import dj_database_url
from csp.constants import NONE, SELF


def env_int(name: str, default: int | None) -> int | None:
    """An integer setting from the environment (a clear error if it is not one); the
    default when it is unset or blank."""
    from django.core.exceptions import ImproperlyConfigured

    raw = os.environ.get(name, "").strip()
    if not raw:
        return default
    if not raw.isascii() or not raw.isdigit():
        raise ImproperlyConfigured(f"{name} must be a whole number, not {raw!r}")
    return int(raw)


def env_flag(name: str, default: bool) -> bool:
    raw = os.environ.get(name)
    if raw is None or not raw.strip():
        return default
    return raw.strip().lower() not in ("0", "false", "no", "off")


BASE_DIR = Path(__file__).resolve().parent.parent.parent

SECRET_KEY = os.environ.get("DJANGO_SECRET_KEY", "dev-only-not-secret-change-me")
DEBUG = False
ALLOWED_HOSTS = os.environ.get("DJANGO_ALLOWED_HOSTS", "127.0.0.1,localhost").split(",")

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "csp",
    "axes",
    "django_tables2",
    "django_filters",
    "django_htmx",
    "ledger",
    "ledger.counters",
    "scoresheets",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    # /healthz for the proxy or a monitor: answered here, before sessions and the rest
    "ledger.middleware.HealthCheckMiddleware",
    # the database unreachable: 503 with Retry-After and the app's own page, not a 500
    "ledger.middleware.DatabaseOutageMiddleware",
    # an account's heavy page (or new table) this worker refused a moment ago, asked again
    # before the Retry-After it was given: the same 429 at once, before the session and the
    # account are read (issue 38, item 5)
    "ledger.middleware.RememberedRefusalMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    # the language: the set_language cookie, else Accept-Language, else English (after the
    # session, before CommonMiddleware, as Django asks); the account's own choice and the
    # table's clock are applied after the log-in is known, below
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # the account's language choice over the cookie and Accept-Language; UTC for each
    # request until a table's page takes the table's time zone (docs/i18n.md)
    "ledger.middleware.AccountLanguageMiddleware",
    "ledger.middleware.TableClockMiddleware",
    # Cache-Control: private, no-store for a logged-in account's answers and the capability
    # pages (share and report links); static files and public pages stay cacheable
    "ledger.middleware.PrivatePagesMiddleware",
    # Every page asks for a log-in unless its view says @login_not_required (the share
    # pages, log-in, sign-up, password reset, the app's worker, manifest and offline page);
    # tests/ledger/test_login_required.py holds the list and walks every URL.
    "django.contrib.auth.middleware.LoginRequiredMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "csp.middleware.CSPMiddleware",
    # Last, as django-axes asks: it turns a locked-out log-in into the lock-out page.
    "axes.middleware.AxesMiddleware",
]

AUTHENTICATION_BACKENDS = [
    # First: refuses, before any password is hashed, a log-in from a client address with
    # too many wrong passwords, or for a username whose next attempt must wait.
    "ledger.views.log_in.LoginLimitsBackend",
    # First: refuses a log-in while its username and address are locked out.
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]

ROOT_URLCONF = "tablestakes.urls"

# the plain widgets (an <input>, a <textarea>) written in Python, the same markup as Django's
# templates (ledger/forms/rendering.py): the hand form drawn on every Save has a dozen
FORM_RENDERER = "ledger.forms.rendering.FastWidgets"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "django.template.context_processors.i18n",
            ],
        },
    },
]

WSGI_APPLICATION = "tablestakes.wsgi.application"

DATABASES = {
    "default": dj_database_url.config(
        default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}",
        conn_max_age=int(os.environ.get("DB_CONN_MAX_AGE", "0")),
        conn_health_checks=True,
    )
}
#: SQLite, the embedded default, kept as a server with several workers needs it:
#: - WAL: readers never wait for the writer nor the writer for them (a long book page does
#:   not hold up a Save), and a commit writes once to the log instead of journal and file;
#:   synchronous stays FULL, so a saved hand survives a power cut;
#: - IMMEDIATE: a transaction that will write takes the write lock when it begins, so two
#:   Saves queue for it (up to ``timeout`` seconds) instead of one failing with "database is
#:   locked" when it upgrades a read lock.
SQLITE_OPTIONS = {
    "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=FULL",
    "transaction_mode": "IMMEDIATE",
    "timeout": 20,
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    DATABASES["default"]["OPTIONS"] = {**SQLITE_OPTIONS,
                                       **DATABASES["default"].get("OPTIONS", {})}

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    # OWASP ASVS level 1 (2.1.1): at least 12 characters. The demo account (demo/demo) is
    # made by load_demo, which does not ask the validators.
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator",
     "OPTIONS": {"min_length": 12}},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

# Anyone who can reach the site may make a scorekeeper's account at /accounts/signup/ (a
# new account sees only the tables it creates). A club that hands out accounts itself
# (in the admin) turns it off with TABLESTAKES_SIGNUP=0.
TABLESTAKES_SIGNUP = os.environ.get("TABLESTAKES_SIGNUP", "1") not in ("0", "false", "no", "")

# -- limits (each refusal says which limit and what to do) -----------------------------------
# Live hands a game may hold (draws count): a game is a card-table evening, not a log.
TABLESTAKES_MAX_HANDS_PER_GAME = env_int("TABLESTAKES_MAX_HANDS_PER_GAME", 500)
# An imported record (import_game, import_session): its file size, before it is read, and
# its hands over all its games, before anything is scored.
TABLESTAKES_MAX_IMPORT_BYTES = env_int("TABLESTAKES_MAX_IMPORT_BYTES", 4 * 1024 * 1024)
TABLESTAKES_MAX_IMPORT_HANDS = env_int("TABLESTAKES_MAX_IMPORT_HANDS", 2000)
# A whole table (import_table, docs/table-export.md): five years of weekly evenings are 28 MB.
TABLESTAKES_MAX_TABLE_IMPORT_BYTES = env_int("TABLESTAKES_MAX_TABLE_IMPORT_BYTES",
                                             64 * 1024 * 1024)
# Printed sheets: hand rows a PDF may have (checked before rendering), its pages (checked
# after layout, before the PDF is written) and the seconds a rendering may take.
TABLESTAKES_PDF_MAX_HANDS = env_int("TABLESTAKES_PDF_MAX_HANDS", 600)
TABLESTAKES_PDF_MAX_PAGES = env_int("TABLESTAKES_PDF_MAX_PAGES", 40)
TABLESTAKES_PDF_TIMEOUT = env_int("TABLESTAKES_PDF_TIMEOUT", 20)
# The CPU priority a rendering yields (nice 1-19, in a child process of the worker; 0:
# rendered in the worker itself at its priority).
TABLESTAKES_PDF_NICE = min(19, env_int("TABLESTAKES_PDF_NICE", 10))
# PDF renderings at once (slots held in the database, so across gunicorn's workers and app
# servers): in total (default: one less than WEB_CONCURRENCY, gunicorn's worker count, or 2
# for the 3 workers the README runs) and per account; a slot left by a killed worker frees
# itself after TABLESTAKES_PDF_SLOT_SECONDS (longer than a rendering may last).
TABLESTAKES_PDF_RENDERS = env_int(
    "TABLESTAKES_PDF_RENDERS", max(1, env_int("WEB_CONCURRENCY", 3) - 1))
TABLESTAKES_PDF_RENDERS_PER_ACCOUNT = env_int("TABLESTAKES_PDF_RENDERS_PER_ACCOUNT", 1)
TABLESTAKES_PDF_SLOT_SECONDS = env_int("TABLESTAKES_PDF_SLOT_SECONDS",
                                       TABLESTAKES_PDF_TIMEOUT + 40)
# Names and text: players a table may have (archived ones count), players one imported
# record may list, names one form may send at once, and the bytes of any one form field.
TABLESTAKES_MAX_PLAYERS_PER_TABLE = env_int("TABLESTAKES_MAX_PLAYERS_PER_TABLE", 200)
TABLESTAKES_MAX_RECORD_PLAYERS = env_int("TABLESTAKES_MAX_RECORD_PLAYERS", 50)
TABLESTAKES_MAX_NAMES_PER_REQUEST = env_int("TABLESTAKES_MAX_NAMES_PER_REQUEST", 50)
TABLESTAKES_MAX_FIELD_BYTES = env_int("TABLESTAKES_MAX_FIELD_BYTES", 16 * 1024)
# One account's heavy pages and downloads (a game's page, the book, CSV, XLSX, JSON) at
# once, slots held in the database (across workers); one left by a killed worker frees
# itself after TABLESTAKES_HEAVY_SLOT_SECONDS. New tables and evenings one account may make
# in an hour (ledger.limits).
TABLESTAKES_HEAVY_PER_ACCOUNT = env_int("TABLESTAKES_HEAVY_PER_ACCOUNT", 1)
TABLESTAKES_HEAVY_SLOT_SECONDS = env_int("TABLESTAKES_HEAVY_SLOT_SECONDS", 60)
TABLESTAKES_TABLES_PER_HOUR = env_int("TABLESTAKES_TABLES_PER_HOUR", 10)
TABLESTAKES_EVENINGS_PER_HOUR = env_int("TABLESTAKES_EVENINGS_PER_HOUR", 20)
# Sign-ups asked per client address and per e-mail address in TABLESTAKES_SIGNUP_WINDOW
# seconds, password resets likewise in TABLESTAKES_RESET_WINDOW (each request counts, known
# address or not, atomically in the database: ledger.counters).
TABLESTAKES_SIGNUPS_PER_ADDRESS = env_int("TABLESTAKES_SIGNUPS_PER_ADDRESS", 3)
TABLESTAKES_SIGNUPS_PER_EMAIL = env_int("TABLESTAKES_SIGNUPS_PER_EMAIL", 3)
TABLESTAKES_SIGNUP_WINDOW = env_int("TABLESTAKES_SIGNUP_WINDOW", 3600)
# Reports sent through a table's report link (issue 23), per link and per client address
# in TABLESTAKES_REPORT_WINDOW seconds (ledger.limits.count_report).
TABLESTAKES_REPORTS_PER_LINK = env_int("TABLESTAKES_REPORTS_PER_LINK", 30)
TABLESTAKES_REPORTS_PER_ADDRESS = env_int("TABLESTAKES_REPORTS_PER_ADDRESS", 60)
TABLESTAKES_REPORT_WINDOW = env_int("TABLESTAKES_REPORT_WINDOW", 60)
TABLESTAKES_RESETS_PER_ADDRESS = env_int("TABLESTAKES_RESETS_PER_ADDRESS", 20)
TABLESTAKES_RESETS_PER_EMAIL = env_int("TABLESTAKES_RESETS_PER_EMAIL", 5)
TABLESTAKES_RESET_WINDOW = env_int("TABLESTAKES_RESET_WINDOW", 3600)
# The account mails (sign-up, reset) are sent after the response, by a background thread
# ("thread"; the tests use "after_response"): ledger/outbox.py.
TABLESTAKES_OUTBOX = os.environ.get("TABLESTAKES_OUTBOX", "thread")
# Behind a TLS proxy that appends the client's address to X-Forwarded-For: how many proxies
# to trust (0: no proxy, the client is REMOTE_ADDR). Used for the sign-up and log-in limits.
# None: not stated (read as 0); the production settings refuse to start without it, and
# `check --deploy` warns about it under any other settings.
TABLESTAKES_PROXY_COUNT = env_int("TABLESTAKES_PROXY_COUNT", None)
# True only in tablestakes.settings.prod: commands that must never run on a club's server
# (load_demo, which makes the account demo/demo) refuse to.
TABLESTAKES_PRODUCTION = False
# Seconds a client is asked to wait (Retry-After) when the database cannot be reached.
TABLESTAKES_RETRY_AFTER = env_int("TABLESTAKES_RETRY_AFTER", 30)

# Log-in attempts (django-axes): after this many failures for one username from one
# address, that pair is locked out for the cool-off time; a success resets the count.
AXES_FAILURE_LIMIT = env_int("TABLESTAKES_LOGIN_FAILURES", 5)
AXES_COOLOFF_TIME = timedelta(minutes=env_int("TABLESTAKES_LOGIN_LOCKOUT_MINUTES", 15))
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_CALLABLE = "ledger.views.log_in.locked_out"
AXES_CLIENT_IP_CALLABLE = "ledger.limits.client_key"  # an IPv6 address by its /64
# a log-in from its account's trusted device (the device cookie) has its own count
AXES_WHITELIST_CALLABLE = "ledger.limits.axes_trusted_device"
AXES_USERNAME_CALLABLE = "ledger.limits.axes_username"
AXES_VERBOSE = False
# Wrong passwords from one client address across all usernames (ledger.limits): this many
# in the cool-off time lock every log-in from that address until it ends.
TABLESTAKES_LOGIN_FAILURES_PER_ADDRESS = env_int("TABLESTAKES_LOGIN_FAILURES_PER_ADDRESS", 20)
# Wrong passwords for one username from any address in TABLESTAKES_LOGIN_USERNAME_WINDOW
# seconds, after which each attempt for it waits its turn: 1 s, 2, 4... up to
# TABLESTAKES_LOGIN_DELAY_MAX seconds (a growing delay, never a lock).
TABLESTAKES_LOGIN_FAILURES_PER_USERNAME = env_int("TABLESTAKES_LOGIN_FAILURES_PER_USERNAME", 10)
TABLESTAKES_LOGIN_USERNAME_WINDOW = env_int("TABLESTAKES_LOGIN_USERNAME_WINDOW", 24 * 3600)
TABLESTAKES_LOGIN_DELAY_MAX = env_int("TABLESTAKES_LOGIN_DELAY_MAX", 900)
# The signed cookie a browser gets when it logs in (OWASP's device cookies): for this many
# days a log-in to that account from it skips the limits per address and per username.
TABLESTAKES_DEVICE_COOKIE_DAYS = env_int("TABLESTAKES_DEVICE_COOKIE_DAYS", 365)

# -- mail (password reset); dev prints mails on the console, tests keep them in memory --------
EMAIL_BACKEND = os.environ.get("DJANGO_EMAIL_BACKEND",
                               "django.core.mail.backends.smtp.EmailBackend")
EMAIL_HOST = os.environ.get("DJANGO_EMAIL_HOST", "")
EMAIL_PORT = env_int("DJANGO_EMAIL_PORT", 587)
EMAIL_HOST_USER = os.environ.get("DJANGO_EMAIL_USER", "")
EMAIL_HOST_PASSWORD = os.environ.get("DJANGO_EMAIL_PASSWORD", "")
EMAIL_USE_TLS = env_flag("DJANGO_EMAIL_TLS", True)
EMAIL_TIMEOUT = 10
DEFAULT_FROM_EMAIL = os.environ.get("DJANGO_DEFAULT_FROM_EMAIL", "tablestakes@localhost")
SERVER_EMAIL = DEFAULT_FROM_EMAIL
# Password reset by mail is offered only where mail can be sent (else the page says whom
# to ask, instead of claiming a mail is on its way): unset, it is offered when a mail host
# is configured or mail goes elsewhere than SMTP (the console in dev, memory in tests).
TABLESTAKES_PASSWORD_RESET = (env_flag("TABLESTAKES_PASSWORD_RESET", True)
                              if os.environ.get("TABLESTAKES_PASSWORD_RESET") else None)

# -- content security policy (django-csp): no inline script or style anywhere ---------------
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        # 'wasm-unsafe-eval': WebAssembly may be compiled (Pyodide, the phone's copy of the
        # core, in static/ledger/core/worker.mjs); no JavaScript eval.
        "script-src": [SELF, "'wasm-unsafe-eval'"],
        "worker-src": [SELF],
        "style-src": [SELF],
        "img-src": [SELF, "data:"],
        "font-src": [SELF],
        "connect-src": [SELF],
        "object-src": [NONE],
        "base-uri": [NONE],
        "frame-ancestors": [NONE],
        "form-action": [SELF],
    },
}

# -- logging: everything to standard error, 500s with their traceback -----------------------
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {
        "plain": {"format": "{asctime} {levelname} {name} {process:d}: {message}",
                  "style": "{"},
    },
    "handlers": {
        "stderr": {"class": "logging.StreamHandler", "stream": "ext://sys.stderr",
                   "formatter": "plain"},
    },
    "root": {"handlers": ["stderr"], "level": "WARNING"},
    "loggers": {
        # django.request logs each 500 with exc_info: the formatter prints the traceback.
        "django": {"handlers": ["stderr"], "level": os.environ.get("DJANGO_LOG_LEVEL", "INFO"),
                   "propagate": False},
        "ledger": {"handlers": ["stderr"], "level": "INFO", "propagate": False},
        "scoresheets": {"handlers": ["stderr"], "level": "INFO", "propagate": False},
    },
}

# -- languages and clocks (docs/i18n.md) ----------------------------------------------------
# The languages shipped (each a catalog under locale/ and a glossary, docs/i18n.md):
# the screens speak the account's choice, else the browser's Accept-Language, else English;
# a table's paper and share pages speak the table's own language (Table.language).
LANGUAGE_CODE = "en"
LANGUAGES = [
    ("en", "English"),
    ("de", "Deutsch"),
    ("es", "Español"),
    ("fr", "Français"),
    ("ru", "Русский"),
]
LOCALE_PATHS = [BASE_DIR / "locale"]
# Stored times are UTC; a table's screens, paper and share pages show them in the table's
# own time zone (Table.time_zone), activated per request by ledger.clock.
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"] if (BASE_DIR / "static").is_dir() else []
# The phone's copy of the core: ledger/core/rules.zip built from ledger/rules, and Pyodide's
# files from node_modules (tablestakes/staticfiles.py).
STATICFILES_FINDERS = [
    "django.contrib.staticfiles.finders.FileSystemFinder",
    "django.contrib.staticfiles.finders.AppDirectoriesFinder",
    "tablestakes.staticfiles.CoreFinder",
]

FIXTURE_DIRS = [BASE_DIR / "fixtures"]

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "/"
LOGOUT_REDIRECT_URL = "/"

DJANGO_TABLES2_TEMPLATE = "django_tables2/table.html"
