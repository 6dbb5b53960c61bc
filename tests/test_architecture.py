"""Architecture rules for the scoring core in ledger/rules/.

The core is pure Python: plain data in, plain data out. It must not import Django, nor
anything from the rest of the project (ledger models/services, scoresheets, settings),
so that it can be tested and reused without a database.
"""
import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RULES_DIR = ROOT / "ledger" / "rules"
CORE = "ledger.rules"
PROJECT_PACKAGES = ("ledger", "scoresheets", "tablestakes")


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imported_modules(source: str, module: str, is_package: bool) -> list[tuple[int, str]]:
    """Absolute names of the modules imported by ``source`` (relative imports resolved).

    ``from X import y`` yields ``X.y`` as well, since y may be a submodule.
    """
    package = module if is_package else module.rpartition(".")[0]
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found.extend((node.lineno, alias.name) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base_parts = package.split(".")
                base_parts = base_parts[: len(base_parts) - (node.level - 1)]
                base = ".".join(base_parts + ([node.module] if node.module else []))
            else:
                base = node.module or ""
            found.append((node.lineno, base))
            found.extend((node.lineno, f"{base}.{alias.name}") for alias in node.names)
    return found


def _within(name: str, package: str) -> bool:
    return name == package or name.startswith(package + ".")


def violations(source: str, module: str, is_package: bool = False) -> list[str]:
    out = []
    for lineno, name in imported_modules(source, module, is_package):
        if _within(name, "django"):
            out.append(f"{module}:{lineno} imports {name} (the core must not use Django)")
        elif any(_within(name, p) for p in PROJECT_PACKAGES) and not _within(name, CORE):
            # `from ledger import rules` names the bare parent package on the way: allowed.
            if name == "ledger":
                continue
            out.append(f"{module}:{lineno} imports {name} (outside {CORE})")
    return out


def _rules_files() -> list[Path]:
    return sorted(RULES_DIR.rglob("*.py"))


def test_rules_package_exists():
    assert (RULES_DIR / "__init__.py").is_file()


def test_rules_do_not_import_django_or_the_rest_of_the_project():
    found = []
    for path in _rules_files():
        found.extend(
            violations(
                path.read_text(encoding="utf-8"),
                _module_name(path),
                is_package=path.name == "__init__.py",
            )
        )
    assert found == []


def test_checker_catches_django_and_project_imports():
    # The rule above is only worth something if the checker can fail.
    src = "\n".join(
        [
            "import json",
            "import django",
            "from django.db import models",
            "from decimal import Decimal",
            "from ledger.models import Hand",
            "from .. import services",
            "from ..rules import money",
            "from . import hands",
            "from ledger.rules.money import allocate",
            "import scoresheets.views",
        ]
    )
    got = violations(src, "ledger.rules.scoring")
    assert got == [
        "ledger.rules.scoring:2 imports django (the core must not use Django)",
        "ledger.rules.scoring:3 imports django.db (the core must not use Django)",
        "ledger.rules.scoring:3 imports django.db.models (the core must not use Django)",
        "ledger.rules.scoring:5 imports ledger.models (outside ledger.rules)",
        "ledger.rules.scoring:5 imports ledger.models.Hand (outside ledger.rules)",
        "ledger.rules.scoring:6 imports ledger.services (outside ledger.rules)",
        "ledger.rules.scoring:10 imports scoresheets.views (outside ledger.rules)",
    ]
