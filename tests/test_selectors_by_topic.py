"""The selectors are split by topic (issue 20, HackSoft style): every caller imports from the
topic module (``from ledger.selectors.games import game_record``), and the package's
``__init__`` re-exports nothing, so that no grab-bag can grow back."""

from __future__ import annotations

import ast
from pathlib import Path

from tests.test_architecture import ROOT, _module_name, imported_modules

SELECTORS = ROOT / "ledger" / "selectors"


def grab_bag_imports(source: str, module: str, is_package: bool = False) -> list[str]:
    """Where ``source`` imports the selectors package itself, not one of its topics
    (``from ledger import selectors``, ``import ledger.selectors``, ``from ledger.selectors
    import game_record``)."""
    topics = {path.stem for path in SELECTORS.glob("*.py") if path.stem != "__init__"}
    out = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            out += [f"{module}:{node.lineno} imports ledger.selectors" for alias in node.names
                    if alias.name == "ledger.selectors"]
        elif isinstance(node, ast.ImportFrom):
            (_, base), *names = imported_modules(ast.unparse(node), module, is_package)
            if base == "ledger":
                names = [name for _, name in names if name == "ledger.selectors"]
            elif base == "ledger.selectors":
                names = [name for _, name in names
                         if name.rpartition(".")[2] not in topics]
            else:
                names = []
            out += [f"{module}:{node.lineno} imports {name}" for name in names]
    return out


def _python_files() -> list[Path]:
    return [path for folder in ("ledger", "scoresheets", "scripts", "bench", "tests")
            for path in sorted((ROOT / folder).rglob("*.py"))
            if path.resolve() != Path(__file__).resolve()]


def test_every_caller_imports_a_topic_module():
    found = []
    for path in _python_files():
        module = _module_name(path)
        found += grab_bag_imports(path.read_text(encoding="utf-8"), module,
                                  path.name == "__init__.py")
    assert found == []


def test_the_package_re_exports_nothing():
    tree = ast.parse((SELECTORS / "__init__.py").read_text(encoding="utf-8"))
    assert [node for node in tree.body if not isinstance(node, ast.Expr)] == []
    assert not (ROOT / "ledger" / "selectors.py").exists()
    assert {"games", "hands", "evenings", "exports", "sharing"} <= {
        path.stem for path in SELECTORS.glob("*.py")}


def test_the_check_fails_on_planted_grab_bag_imports():
    planted = "\n".join([
        "from ledger import selectors",
        "from ledger import access, selectors as s",
        "import ledger.selectors",
        "from ledger.selectors import game_record",
        "from ..selectors import live_settlements",
        "# imports of a topic are fine",
        "from ledger.selectors.games import game_record",
        "from ledger.selectors import games",
        "from ..selectors.evenings import live_settlements",
        "from ledger.book import selectors",
    ])
    assert grab_bag_imports(planted, "ledger.admin.planted") == [
        "ledger.admin.planted:1 imports ledger.selectors",
        "ledger.admin.planted:2 imports ledger.selectors",
        "ledger.admin.planted:3 imports ledger.selectors",
        "ledger.admin.planted:4 imports ledger.selectors.game_record",
        "ledger.admin.planted:5 imports ledger.selectors.live_settlements",
    ]
