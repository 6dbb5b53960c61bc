"""Production: a club's server, gunicorn behind a TLS proxy, PostgreSQL.

``tablestakes/wsgi.py`` uses this module unless DJANGO_SETTINGS_MODULE says otherwise.
It refuses to start without a real secret key and the host names it answers to:

    DJANGO_SECRET_KEY      50+ random characters (python -c "import secrets;
                           print(secrets.token_urlsafe(50))")
    DJANGO_ALLOWED_HOSTS   comma-separated host names, e.g. rummy.example.org
    DATABASE_URL           postgres://USER:PASSWORD@HOST:PORT/NAME

and reads, when given: DJANGO_CSRF_TRUSTED_ORIGINS (https://... origins, comma-separated),
DJANGO_HSTS_SECONDS (default one year), DJANGO_HSTS_PRELOAD (default on),
DJANGO_SSL_REDIRECT (default on), DJANGO_STATIC_ROOT, DJANGO_CACHE_DIR, the mail settings of
base.py (DJANGO_EMAIL_HOST, ...) and the TABLESTAKES_* limits.

The proxy must pass the Host header through and set ``X-Forwarded-Proto: https``; requests
that arrive without it are redirected to https.
"""
import tempfile

from django.core.exceptions import ImproperlyConfigured

from .base import *  # noqa: F401,F403

DEBUG = False


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
CSRF_TRUSTED_ORIGINS = [origin.strip() for origin in
                        os.environ.get("DJANGO_CSRF_TRUSTED_ORIGINS", "").split(",")
                        if origin.strip()]

# -- HTTPS behind a TLS proxy ----------------------------------------------------------------
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SECURE_SSL_REDIRECT = env_flag("DJANGO_SSL_REDIRECT", True)
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
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"},
}

# -- one cache for every gunicorn worker (the sign-up limit counts in it) ---------------------
CACHE_DIR = Path(tempfile.gettempdir()) / f"tablestakes-cache-{os.getuid()}"
CACHES = {
    "default": {
        "BACKEND": "django.core.cache.backends.filebased.FileBasedCache",
        "LOCATION": os.environ.get("DJANGO_CACHE_DIR", str(CACHE_DIR)),
    }
}

DATABASES["default"]["CONN_MAX_AGE"] = env_int("DB_CONN_MAX_AGE", 60)
