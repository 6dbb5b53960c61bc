"""The phone's copy of the core, served as static files by the app itself.

``CoreFinder`` (in STATICFILES_FINDERS) yields, to ``collectstatic``, ``runserver`` and the
test server alike:

- ``ledger/core/rules.zip``: ``ledger/rules/*.py`` zipped at build time, never edited by hand
  and never committed; deterministic (names sorted, fixed timestamps and modes), so the same
  source always gives the same bytes and so the same hashed name in production: a release
  that does not touch the core does not make phones download it again.
- ``pyodide/<version>/...``: the files of the ``pyodide`` npm package that the browser needs
  (from ``node_modules/pyodide``, installed by ``scripts/bootstrap`` with ``npm ci`` from
  package-lock.json, whose sha512 npm checks). The version is in the path: the files load
  one another by their plain names, so the folder changes when Pyodide does, and only then.

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
from django.contrib.staticfiles.finders import BaseFinder
from django.core.files.storage import FileSystemStorage
from django.templatetags.static import static
from django.utils._os import safe_join

ROOT = Path(__file__).resolve().parents[1]
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


class _PrefixedStorage(FileSystemStorage):
    def __init__(self, location, prefix=None):
        super().__init__(location=location)
        self.prefix = prefix


class CoreFinder(BaseFinder):
    """Finds the core's zip (built on demand) and Pyodide's files."""

    def check(self, **kwargs):
        return []

    def find(self, path, find_all=False, **kwargs):
        found = self._find(path)
        if find_all:
            return [found] if found else []
        return found

    def _find(self, path):
        if path == CORE_ZIP:
            return str(build_core_zip())
        prefix = pyodide_prefix()
        if prefix and path.startswith(prefix + "/") and path[len(prefix) + 1:] in PYODIDE_FILES:
            return safe_join(str(PYODIDE), path[len(prefix) + 1:])
        return None

    def list(self, ignore_patterns):
        build_core_zip()
        yield CORE_ZIP, _PrefixedStorage(BUILD)
        prefix = pyodide_prefix()
        if prefix:
            storage = _PrefixedStorage(PYODIDE, prefix)
            for name in PYODIDE_FILES:
                yield name, storage


# -- production storage: the same as tablestakes.storage's, Brotli quicker on big files -----
from whitenoise.compress import Compressor  # noqa: E402

from .storage import StaticFilesStorage  # noqa: E402

#: Above this size Brotli works at quality 5, not 11: Pyodide's 9.6 MB pyodide.asm.wasm took
#: 27 s of CPU at 11 (2.74 MB), 1.4 s at 5 (3.23 MB; gzip: 3.53 MB), at every collectstatic.
BIG = 1 << 20


class _Compressor(Compressor):
    def compress_brotli(self, data):
        import brotli

        return brotli.compress(data, quality=5 if len(data) > BIG else 11)


class CoreStaticFilesStorage(StaticFilesStorage):
    """tablestakes.storage.StaticFilesStorage with Brotli at quality 5 on big files."""

    def create_compressor(self, **kwargs):
        return _Compressor(**kwargs)


def csp_text() -> str:
    """The app's content security policy as django-csp writes it on every page."""
    from csp.utils import build_policy

    return build_policy()


def add_headers(headers, path: str, url: str) -> None:
    """WhiteNoise's WHITENOISE_ADD_HEADERS_FUNCTION: the core's worker runs under the app's
    own policy. A worker obeys the policy sent with its own script, and WhiteNoise answers
    static files before django-csp sees them; so the worker's script carries it here, and
    'wasm-unsafe-eval' (script-src) is what lets it compile Pyodide, and nothing else."""
    if url.endswith(".mjs") and "/ledger/core/worker" in url:
        headers["Content-Security-Policy"] = csp_text()
