"""What a page's answer depends on, as short strings: the release (so that a new version of
the app's files replaces what phones keep) and the version of a shared game or table (so that
a share page's poll is answered 304 Not Modified when nothing changed).

Both are computed from what every app server sees alike (the files of the release, the
database), never from a server's memory of earlier requests, so any number of app servers
behind a load balancer give the same answers."""

from __future__ import annotations

import hashlib
import os
from functools import lru_cache
from pathlib import Path

from django.conf import settings

from ledger.selectors.sharing import game_live_version, table_live_version

# the app's own files whose change makes a new release for the phones (and the pinned
# libraries, whose static files, htmx's among them, the phones keep too)
_RELEASE_PATHS = ("static", "templates", "requirements.txt")


@lru_cache(maxsize=1)
def release() -> str:
    """``TABLESTAKES_RELEASE`` if set (a deploy may name its release), else a hash of the
    app's static files, templates and pinned requirements: any change to them is a new
    release."""
    named = getattr(settings, "TABLESTAKES_RELEASE", "") or os.environ.get(
        "TABLESTAKES_RELEASE", "")
    if named:
        return str(named)[:40]
    digest = hashlib.sha256()
    base = Path(settings.BASE_DIR)
    for name in _RELEASE_PATHS:
        top = base / name
        for path in sorted(top.rglob("*")) if top.is_dir() else [top]:
            if path.is_file():
                digest.update(str(path.relative_to(base)).encode())
                digest.update(path.read_bytes())
    return digest.hexdigest()[:12]


def game_etag(game_id: int) -> str:
    return _etag(game_live_version(game_id))


def table_etag(table_id: int) -> str:
    return _etag(table_live_version(table_id))


def _etag(version: str) -> str:
    # hashed: the row ids and counts in the version are nobody's business on a share page
    return f'"{release()}-{hashlib.sha256(version.encode()).hexdigest()[:16]}"'
