"""The queue's ES modules (static/ledger/offline.js importing static/ledger/queue/*.js)
under the production storage (tablestakes/storage.py): collectstatic writes each module's
imports with the hashed names it wrote, so a page loads only hashed files (kept for good,
and kept by the service worker), never a module by its plain name; and the worker's
SHELL lists every module, so the game page's queue loads offline."""

from __future__ import annotations

import posixpath
import re
from pathlib import Path

from ledger.views.pwa import SHELL

from .conftest import ROOT

IMPORT = re.compile(r"""^import\s.*?\sfrom\s*"([^"]+)";""", re.M | re.S)
MODULES = ["ledger/offline.js",
           *sorted(p.relative_to(ROOT / "static").as_posix()
                   for p in (ROOT / "static" / "ledger" / "queue").glob("*.js"))]


def imports(path: Path) -> list[str]:
    return IMPORT.findall(path.read_text())


def test_every_module_is_in_the_shell_the_worker_keeps():
    assert len(MODULES) == 10
    assert set(MODULES) <= set(SHELL)


def test_the_hashed_modules_import_the_hashed_modules(collected_static, static_manifest):
    source = ROOT / "static" / "ledger" / "offline.js"
    assert imports(source) == [f"./queue/{name}.js" for name in (
        "words", "store", "records", "lock", "sender", "view", "form", "page", "scoring")]
    seen = 0
    for name in MODULES:
        hashed = collected_static / static_manifest[name]
        plain = imports(ROOT / "static" / name)
        written = imports(hashed)
        assert len(written) == len(plain)
        for url, was in zip(written, plain, strict=True):
            # ./queue/store.js -> ./queue/store.<12 hex>.js, a file collectstatic wrote
            assert re.fullmatch(re.escape(was[:-3]) + r"\.[0-9a-f]{12}\.js", url), url
            target = (hashed.parent / url).resolve()
            assert target.is_file(), url
            wanted = posixpath.normpath(posixpath.join(posixpath.dirname(name), was))
            assert target == (collected_static / static_manifest[wanted]).resolve()
            seen += 1
    # offline.js imports nine modules; sender.js three, view.js two, form.js and scoring.js one
    assert seen == 9 + 3 + 2 + 1 + 1
    # the compressed copy says the same as the hashed file
    hashed = collected_static / static_manifest["ledger/offline.js"]
    assert (hashed.parent / (hashed.name + ".gz")).is_file()

