"""Deploy checks (``manage.py check --deploy``): the settings that make a club's server fail
unsafe without saying so. The production settings refuse most of these outright; the checks
speak for any other settings module a club may write."""

from __future__ import annotations

import os
import stat
import sys
from pathlib import Path

from django.conf import settings
from django.core.checks import Error, Tags, Warning, register

from tablestakes import cookies

SHARED_CACHES = ("DatabaseCache", "FileBasedCache", "RedisCache", "PyMemcacheCache",
                 "PyLibMCCache")


@register(Tags.security, deploy=True)
def proxy_count_stated(app_configs=None, **kwargs):
    proxies = getattr(settings, "TABLESTAKES_PROXY_COUNT", None)
    header = getattr(settings, "SECURE_PROXY_SSL_HEADER", None)
    if proxies is None:
        return [Warning(
            "TABLESTAKES_PROXY_COUNT is not stated.",
            hint="Set it to the number of proxies in front of the app (1 behind nginx or "
                 "Caddy) or to 0 when clients reach it directly. Read wrongly, the log-in "
                 "lock-out and the sign-up limit see the proxy's address for every client.",
            id="ledger.W001")]
    if proxies == 0 and not header:
        return [Warning(
            "TABLESTAKES_PROXY_COUNT=0: clients reach gunicorn directly, with no buffering "
            "proxy in front.",
            hint="A club's server needs nginx or Caddy in front of gunicorn (then "
                 "TABLESTAKES_PROXY_COUNT=1): gunicorn's sync workers read each request "
                 "themselves, so three connections that send a header line every few seconds "
                 "hold all three workers and the log-in page waits 30 s; a buffering proxy "
                 "passes gunicorn only whole requests.",
            id="ledger.W007")]
    if proxies == 0 and header:
        return [Warning(
            "SECURE_PROXY_SSL_HEADER trusts a proxy's X-Forwarded-Proto, but "
            "TABLESTAKES_PROXY_COUNT=0 says there is no proxy.",
            hint="Behind a proxy set TABLESTAKES_PROXY_COUNT=1 (else every client shares the "
                 "proxy's address for the log-in and sign-up limits); without one, unset "
                 "SECURE_PROXY_SSL_HEADER (any client could claim https).",
            id="ledger.W002")]
    if proxies > 0 and not header:
        return [Warning(
            f"TABLESTAKES_PROXY_COUNT={proxies} but SECURE_PROXY_SSL_HEADER is not set.",
            hint="Requests the proxy forwards over plain http are taken as plain http "
                 "(redirected to https again, cookies refused).",
            id="ledger.W003")]
    return []


@register(Tags.security, deploy=True)
def no_wildcard_host(app_configs=None, **kwargs):
    if any(host.strip() == "*" for host in settings.ALLOWED_HOSTS):
        return [Warning("ALLOWED_HOSTS contains '*': any Host header is believed, in "
                        "password-reset links too.",
                        hint="Name the site's host names (DJANGO_ALLOWED_HOSTS).",
                        id="ledger.W004")]
    return []


def _unsafe_directory(path: Path) -> bool:
    """Another user of the machine could write there: the directory is not ours or is group-
    or world-writable, or (not made yet) its nearest existing parent is world-writable, so
    anybody could make it first (/tmp/something-predictable)."""
    if path.exists():
        info = path.stat()
        return info.st_uid != os.getuid() or bool(info.st_mode & (stat.S_IWGRP | stat.S_IWOTH))
    parent = next((folder for folder in path.parents if folder.exists()), Path("/"))
    return bool(parent.stat().st_mode & stat.S_IWOTH)


@register(Tags.caches, deploy=True)
def shared_private_cache(app_configs=None, **kwargs):
    cache = settings.CACHES.get("default", {})
    backend = cache.get("BACKEND", "").rsplit(".", 1)[-1]
    if backend not in SHARED_CACHES:
        return [Warning(
            f"The default cache ({backend}) is not shared by the server's processes.",
            hint="The sign-up limit counts in the cache: each gunicorn worker would count "
                 "alone. Use the database cache of tablestakes.settings.prod.",
            id="ledger.W005")]
    if backend == "FileBasedCache":
        location = Path(os.path.abspath(cache.get("LOCATION", "")))
        if _unsafe_directory(location):
            return [Warning(
                f"The file cache {location} is in a place other users can write.",
                hint="A file cache unpickles what it finds there: use the database cache, "
                     "or a directory only the app's user can write (mode 0700).",
                id="ledger.W006")]
    return []


@register(Tags.security, deploy=True)
def cookie_parsing_linear(app_configs=None, **kwargs):
    """CVE-2024-7592: judged by the behaviour of the ``http.cookies._unquote`` in effect
    (tablestakes/cookies.py puts the fixed one in place on an affected interpreter), not by
    the version number (distributions fix 3.11.2 and leave the number)."""
    if cookies.is_quadratic():
        return [Error(
            f"Python {sys.version.split()[0]} ({sys.executable}) parses a crafted Cookie "
            "header in quadratic time (CVE-2024-7592): one request of 128 KB of cookies "
            "holds a worker for its whole timeout.",
            hint="Run the app on a fixed interpreter (CPython 3.11.10+, 3.12.6+, or the "
                 "distribution's patched python3, e.g. Debian 12's python3.11); "
                 "tablestakes/cookies.py should have put the fix in place: check that "
                 "nothing replaced http.cookies._unquote after it.",
            id="ledger.E001")]
    return []
