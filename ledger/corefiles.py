"""The phone's copy of the core as files: the zip of ``ledger/rules`` (built from the source,
deterministic) and the Pyodide files it runs on, with the URLs a page gives its worker and
the service worker keeps. ``tablestakes.staticfiles`` serves them (``CoreFinder``, the
storage); the game page's tag and the service worker's view read their URLs here, so no
module of the app imports the project's settings package.

Nothing here imports the core: it is read as files."""

from __future__ import annotations

import hashlib
import io
import json
import os
import zipfile
from functools import lru_cache
from pathlib import Path

from django.conf import settings
from django.templatetags.static import static

ROOT = Path(__file__).resolve().parents[1]  # the checkout
RULES = ROOT / "ledger" / "rules"
PYODIDE = ROOT / "node_modules" / "pyodide"
#: Where the zip is written (git ignores .cache/).
BUILD = ROOT / ".cache" / "core-static"
CORE_ZIP = "ledger/core/rules.zip"
#: The files of the pyodide package that the browser fetches.
PYODIDE_FILES = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip",
                 "pyodide-lock.json")
#: The zip's one timestamp (zip's earliest).
EPOCH = (1980, 1, 1, 0, 0, 0)


def core_zip_bytes() -> bytes:
    return _zip_of(tuple((path.name, path.stat().st_mtime_ns, path.stat().st_size)
                         for path in sorted(RULES.glob("*.py"))))


@lru_cache(maxsize=2)
def _zip_of(signature: tuple) -> bytes:
    """``ledger/rules/*.py`` as a zip importable as ``ledger.rules`` (with an empty
    ``ledger/__init__.py``: the app's own is not part of the core)."""
    members = [("ledger/__init__.py", b"")]
    members += [(f"ledger/rules/{path.name}", path.read_bytes())
                for path in sorted(RULES.glob("*.py"))]
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name, data in sorted(members):
            info = zipfile.ZipInfo(name, date_time=EPOCH)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            info.create_system = 3
            archive.writestr(info, data, compresslevel=9)
    return buffer.getvalue()


def build_core_zip() -> Path:
    """Write the zip under BUILD (only when its bytes changed) and return its path."""
    data = core_zip_bytes()
    target = BUILD / CORE_ZIP
    if not target.exists() or target.read_bytes() != data:
        target.parent.mkdir(parents=True, exist_ok=True)
        temporary = target.with_suffix(".tmp")
        temporary.write_bytes(data)
        os.replace(temporary, target)
    return target


@lru_cache(maxsize=1)
def pyodide_version() -> str | None:
    try:
        return json.loads((PYODIDE / "package.json").read_text(encoding="utf-8"))["version"]
    except (OSError, ValueError, KeyError):
        return None


def pyodide_prefix() -> str | None:
    version = pyodide_version()
    return f"pyodide/{version}" if version else None


def core_files() -> list[str]:
    """Every static path of the phone's core (the service worker keeps these)."""
    prefix = pyodide_prefix()
    if prefix is None:
        return []
    return [CORE_ZIP, *(f"{prefix}/{name}" for name in PYODIDE_FILES)]


def core_config() -> dict | None:
    """The URLs the page gives the worker, or None where Pyodide is not installed."""
    prefix = pyodide_prefix()
    if prefix is None:
        return None
    core = static(CORE_ZIP)
    if core.endswith(CORE_ZIP):
        # No manifest storage (development, tests): the name carries no hash, so the
        # content's goes in the query, for the service worker's cache.
        core += "?v=" + hashlib.sha256(core_zip_bytes()).hexdigest()[:12]
    return {
        # Pyodide's files by their plain names (they import one another by them).
        "pyodide": settings.STATIC_URL + prefix + "/",
        "core": core,
        "worker": static("ledger/core/worker.mjs"),
    }


def core_cache_urls() -> list[str]:
    """The URLs of the phone's core as the worker fetches them: the service worker keeps
    them apart from the release's files and drops only those no longer named, so a release
    that changes neither Pyodide nor the core downloads neither again."""
    where = core_config()
    if where is None:
        return []
    return [where["core"], where["worker"],
            *(where["pyodide"] + name for name in PYODIDE_FILES)]
