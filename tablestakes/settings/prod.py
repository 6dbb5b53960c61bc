"""Production: a club's server, gunicorn behind a TLS proxy, PostgreSQL.

``tablestakes/wsgi.py`` uses this module unless DJANGO_SETTINGS_MODULE says otherwise.
It refuses to start without a real secret key and the host names it answers to:

    DJANGO_SECRET_KEY      50+ random characters (python -c "import secrets;
                           print(secrets.token_urlsafe(50))")
    DJANGO_ALLOWED_HOSTS   comma-separated host names, e.g. rummy.example.org ('*' is
                           refused)
    TABLESTAKES_PROXY_COUNT  how many proxies stand in front of gunicorn: 1 behind nginx or
                           Caddy, 0 when there is none (gunicorn then terminates TLS itself)
    DATABASE_URL           postgres://USER:PASSWORD@HOST:PORT/NAME

and reads, when given: DJANGO_CSRF_TRUSTED_ORIGINS (https://... origins, comma-separated),
DJANGO_HSTS_SECONDS (default one year), DJANGO_HSTS_PRELOAD (default on),
DJANGO_SSL_REDIRECT (default on), DJANGO_STATIC_ROOT, the mail settings of base.py
(DJANGO_EMAIL_HOST, ...) and the TABLESTAKES_* limits.

Behind a proxy (TABLESTAKES_PROXY_COUNT=1) the proxy must pass the Host header through, set
``X-Forwarded-Proto: https`` and append the client's address to ``X-Forwarded-For``;
requests that arrive without ``X-Forwarded-Proto: https`` are redirected to https. Without
one (0) no forwarded header is trusted. ``/healthz`` answers plain http too (for a monitor).
"""
from django.core.exceptions import ImproperlyConfigured

from .base import *  # noqa: F401,F403

DEBUG = False
TABLESTAKES_PRODUCTION = True


def _required(name: str, why: str) -> str:
    value = os.environ.get(name, "").strip()
    if not value:
        raise ImproperlyConfigured(
            f"{name} is not set: tablestakes.settings.prod refuses to start without it "
            f"({why})."
        )
    return value


SECRET_KEY = _required("DJANGO_SECRET_KEY", "a long random string that signs sessions and "
                                            "password-reset links; never the development one")
if len(SECRET_KEY) < 50 or len(set(SECRET_KEY)) < 5 or SECRET_KEY.startswith("django-insecure"):
    raise ImproperlyConfigured(
        "DJANGO_SECRET_KEY is too weak: use at least 50 random characters, e.g. the output of "
        'python -c "import secrets; print(secrets.token_urlsafe(50))"'
    )

ALLOWED_HOSTS = [host.strip() for host in _required(
    "DJANGO_ALLOWED_HOSTS", "the host names of the site, comma-separated, e.g. "
                            "rummy.example.org").split(",") if host.strip()]
if not ALLOWED_HOSTS:
    raise ImproperlyConfigured("DJANGO_ALLOWED_HOSTS names no host.")
if any("*" in host for host in ALLOWED_HOSTS):
    raise ImproperlyConfigured(
        f"DJANGO_ALLOWED_HOSTS={','.join(ALLOWED_HOSTS)!r}: tablestakes.settings.prod refuses "
        "'*' (any Host header would be believed, in password-reset links too); name the "
        "site's host names, e.g. rummy.example.org (.example.org for every subdomain)."
    )
CSRF_TRUSTED_ORIGINS = [origin.strip() for origin in
                        os.environ.get("DJANGO_CSRF_TRUSTED_ORIGINS", "").split(",")
                        if origin.strip()]

# -- HTTPS behind a TLS proxy ----------------------------------------------------------------
# The proxies in front: stated, never assumed. With the wrong number the log-in lock-out and
# the sign-up limit count the proxy's address for every client (one stranger's wrong
# passwords lock a user out for everybody; the whole club shares 3 sign-ups an hour).
_required("TABLESTAKES_PROXY_COUNT",
          "how many proxies stand in front of gunicorn and append to X-Forwarded-For: 1 behind "
          "nginx or Caddy, 0 when clients reach gunicorn directly")
TABLESTAKES_PROXY_COUNT = env_int("TABLESTAKES_PROXY_COUNT", None)
# X-Forwarded-Proto says https only where a proxy sets it; without a proxy any client could.
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https") if TABLESTAKES_PROXY_COUNT else None
SECURE_SSL_REDIRECT = env_flag("DJANGO_SSL_REDIRECT", True)
# a monitor may ask gunicorn itself, over plain http (ledger.middleware.HealthCheckMiddleware)
SECURE_REDIRECT_EXEMPT = [r"^healthz$"]
SECURE_HSTS_SECONDS = env_int("DJANGO_HSTS_SECONDS", 365 * 24 * 3600)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_flag("DJANGO_HSTS_SUBDOMAINS", True)
SECURE_HSTS_PRELOAD = env_flag("DJANGO_HSTS_PRELOAD", True)
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
SECURE_CROSS_ORIGIN_OPENER_POLICY = "same-origin"
SESSION_COOKIE_SECURE = True
SESSION_COOKIE_HTTPONLY = True
CSRF_COOKIE_SECURE = True
X_FRAME_OPTIONS = "DENY"

# -- static files: collectstatic writes hashed, compressed copies; WhiteNoise serves them ------
MIDDLEWARE = [*MIDDLEWARE[:1], "whitenoise.middleware.WhiteNoiseMiddleware", *MIDDLEWARE[1:]]
STATIC_ROOT = Path(os.environ.get("DJANGO_STATIC_ROOT", BASE_DIR / "staticfiles"))
# The DejaVu fonts are for WeasyPrint (read from disk) and the rare HTML preview: Brotli at
# its best level takes many seconds per font at every collectstatic, for nothing.
WHITENOISE_SKIP_COMPRESS_EXTENSIONS = [
    "jpg", "jpeg", "png", "gif", "webp", "zip", "gz", "tgz", "bz2", "tbz", "xz", "br", "swf",
    "flv", "woff", "woff2", "3gp", "3gpp", "asf", "avi", "m4v", "mov", "mp4", "mpeg", "mpg",
    "webm", "wmv", "ttf"]


def _static_headers(headers, path, url):
    """The phone's core: its worker's script carries the app's CSP (tablestakes/staticfiles.py)."""
    from tablestakes.staticfiles import add_headers

    add_headers(headers, path, url)


WHITENOISE_ADD_HEADERS_FUNCTION = _static_headers
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    # tablestakes.storage's, with Brotli quicker on Pyodide's big files (staticfiles.py)
    "staticfiles": {"BACKEND": "tablestakes.staticfiles.CoreStaticFilesStorage"},
}

# -- one cache for every gunicorn worker (the sign-up limit counts in it) ---------------------
# In the database: shared by every worker and every app server, nothing in a directory that
# other users of the machine could write (a file cache unpickles what it finds there), and
# nothing more to back up or to set up: `migrate` creates the table (ledger/apps.py runs
# createcachetable after every migrate). It holds small, short-lived entries (sign-up
# counts, the share pages' live parts); MAX_ENTRIES keeps the counts from being culled.
CACHES = {
    "default": {
        "BACKEND": "django.core.cache.backends.db.DatabaseCache",
        "LOCATION": "tablestakes_cache",
        "OPTIONS": {"MAX_ENTRIES": 20000},
    }
}

DATABASES["default"]["CONN_MAX_AGE"] = env_int("DB_CONN_MAX_AGE", 60)
