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

from django.contrib.staticfiles.finders import BaseFinder
from django.core.files.storage import FileSystemStorage
from django.utils._os import safe_join

from ledger.corefiles import (  # noqa: F401 - the names the settings and tests read here
    BUILD,
    CORE_ZIP,
    PYODIDE,
    PYODIDE_FILES,
    build_core_zip,
    core_cache_urls,
    core_config,
    core_files,
    core_zip_bytes,
    pyodide_prefix,
    pyodide_version,
)


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
