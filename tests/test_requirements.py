"""The requirements, runtime and tools apart (issue 18 item 11, issue 19): requirements.txt
is what a club's server installs (``pip install --require-hashes -r requirements.txt``), so
every package in it, transitive ones too, is pinned with its hashes and none is a test or
lint tool; requirements-dev.txt adds the tools over exactly the same runtime packages."""

from __future__ import annotations

import ast
import re
import sys
from importlib.metadata import packages_distributions
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
TOOLS = {"pytest", "pytest-django", "pytest-xdist", "pytest-cov", "pytest-playwright",
         "pytest-base-url", "coverage", "hypothesis", "pypdf", "playwright", "ruff",
         "pip-tools", "greenlet", "pyee", "execnet", "iniconfig", "pluggy"}
APP_PACKAGES = ("ledger", "scoresheets", "tablestakes")


def canonical(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def lock(name: str) -> dict[str, tuple[str, frozenset[str]]]:
    """A pip-compile lock: canonical name -> (version, hashes). Fails on any requirement
    that is not ``name==version`` (or ``name[extra]==version``) with hashes."""
    text = (ROOT / name).read_text().replace("\\\n", " ")
    found = {}
    for line in text.splitlines():
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        assert not line.startswith("-"), f"{name}: an option line, not a package: {line}"
        match = re.fullmatch(r"([A-Za-z0-9][A-Za-z0-9._-]*)(?:\[[^\]]+\])?==([^\s;]+)"
                             r"((?:\s+--hash=sha256:"
                             r"[0-9a-f]{64})+)", line)
        assert match, f"{name}: not pinned with hashes: {line}"
        hashes = frozenset(re.findall(r"sha256:([0-9a-f]{64})", match.group(3)))
        found[canonical(match.group(1))] = (match.group(2), hashes)
    return found


def top_level(name: str) -> dict[str, str]:
    pins = {}
    for line in (ROOT / name).read_text().splitlines():
        line = line.split("#", 1)[0].strip()
        if line and not line.startswith("-"):
            match = re.fullmatch(r"([A-Za-z0-9._-]+)(?:\[[^\]]+\])?==(\S+)", line)
            assert match, f"{name}: every requirement is pinned: {line}"
            pins[canonical(match.group(1))] = match.group(2)
    return pins


@pytest.fixture(scope="module")
def runtime():
    return lock("requirements.txt")


@pytest.fixture(scope="module")
def dev():
    return lock("requirements-dev.txt")


def test_every_runtime_package_is_pinned_with_hashes(runtime):
    # the lock parsed, every line name==version with sha256 hashes: now what it holds
    assert {"django", "gunicorn", "whitenoise", "weasyprint", "psycopg", "psycopg-binary",
            "asgiref", "sqlparse", "tinycss2", "pillow"} <= set(runtime)
    assert runtime["django"][0].startswith("5.2.")
    assert all(hashes for _, hashes in runtime.values())
    assert len(runtime) >= 25  # the app's 14 and their dependencies


def test_the_runtime_brings_no_test_or_lint_tool(runtime):
    assert not TOOLS & set(runtime), sorted(TOOLS & set(runtime))
    assert not [name for name in runtime if name.startswith("pytest")]


def test_the_locks_name_no_index_of_this_machine():
    for name in ("requirements.txt", "requirements-dev.txt", "requirements-installer.txt"):
        text = (ROOT / name).read_text()
        assert "--index-url" not in text and "--find-links" not in text and "file://" not in text


def test_the_inputs_are_what_the_locks_pin(runtime, dev):
    for name, version in top_level("requirements.in").items():
        assert runtime[name][0] == version, name
    tools = top_level("requirements-dev.in")
    assert {"pytest", "pytest-django", "hypothesis", "pypdf", "playwright",
            "pytest-playwright", "ruff", "pytest-xdist", "pytest-cov", "coverage",
            "pip-tools"} <= set(tools)
    for name, version in tools.items():
        assert dev[name][0] == version, name


def test_the_installer_is_uv_alone_pinned_with_hashes(runtime, dev):
    """scripts/bootstrap installs the installer lock first (pip refuses an unhashed line),
    then the dev lock with it: uv alone, at the version requirements-installer.in names, and
    apart from the app's packages (a club's pip install brings no uv)."""
    installer = lock("requirements-installer.txt")
    assert set(installer) == {"uv"}
    assert installer["uv"][0] == top_level("requirements-installer.in")["uv"]
    assert len(installer["uv"][1]) >= 2  # a wheel per platform
    assert "uv" not in runtime and "uv" not in dev


def test_the_dev_lock_holds_the_runtime_packages_as_they_are(runtime, dev):
    """bootstrap installs requirements-dev.txt alone: the tests run on the very packages a
    club installs (same versions, same hashes)."""
    for name, pinned in runtime.items():
        assert dev.get(name) == pinned, name
    assert TOOLS - {"pytest-base-url", "pyee"} <= set(dev)


def imports_of_the_app() -> set[str]:
    names = set()
    for package in APP_PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            for node in ast.walk(ast.parse(path.read_text(), str(path))):
                if isinstance(node, ast.Import):
                    names.update(alias.name.split(".")[0] for alias in node.names)
                elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                    names.add(node.module.split(".")[0])
    return names - set(APP_PACKAGES) - set(sys.stdlib_module_names)


def test_everything_the_app_imports_is_in_the_runtime_lock(runtime):
    """What ledger/, scoresheets/ and tablestakes/ import comes from a package of
    requirements.txt (pypdf, hypothesis... are the tests' alone)."""
    where = packages_distributions()
    imported = imports_of_the_app()
    assert {"django", "weasyprint", "dj_database_url"} <= imported
    missing = {name: where.get(name) for name in imported
               if not any(canonical(dist) in runtime for dist in where.get(name, []))}
    assert missing == {}


def extras_asked_for(names) -> set[str]:
    """Canonical names of the packages that an installed package of ``names`` asks for with
    an extra ("coverage[toml]>=7.10.6"), where the extra's marker applies to this Python."""
    from importlib.metadata import PackageNotFoundError, distribution

    from packaging.requirements import Requirement

    asked = set()
    for name in names:
        try:
            dist = distribution(name)
        except PackageNotFoundError:
            continue
        for line in dist.requires or []:
            requirement = Requirement(line)
            if requirement.marker and not requirement.marker.evaluate({"extra": ""}):
                continue
            if requirement.extras:
                asked.add(canonical(requirement.name))
    return asked


def test_the_dev_lock_pins_each_package_with_the_extras_asked_for(dev):
    """pip's hash-checking mode takes a package asked for with an extra as a requirement of
    its own: unless the lock pins it with that extra (``coverage[toml]==7.17.4``), a fresh
    install fails with "all requirements must have their versions pinned" as soon as the
    index has a newer release (scripts/bootstrap failed so on 2026-11-27)."""
    text = (ROOT / "requirements-dev.txt").read_text()
    with_extras = {canonical(m) for m in re.findall(r"^([A-Za-z0-9._-]+)\[[^\]]+\]==", text,
                                                      re.M)}
    asked = extras_asked_for(dev) & set(dev)
    assert "coverage" in asked  # pytest-cov asks for coverage[toml]
    assert asked <= with_extras, sorted(asked - with_extras)


def test_the_club_venv_gets_pip_and_setuptools_from_the_lock(runtime, dev):
    """``python3 -m venv`` puts in the pip and setuptools bundled with the interpreter (3.11:
    pip 23.2.1, CVE-2023-5752 and CVE-2025-8869; setuptools 65.5.0, CVE-2022-40897,
    CVE-2024-6345 and CVE-2025-47273), and nothing replaced them (issue 38). The runtime lock
    pins both, hashed: installing it upgrades them; the dev lock (bootstrap's uv) has the same."""

    def version(text: str) -> tuple[int, ...]:
        return tuple(int(part) for part in text.split(".")[:3])

    assert version(runtime["pip"][0]) >= (25, 3)
    assert version(runtime["setuptools"][0]) >= (78, 1, 1)
    assert dev["pip"] == runtime["pip"] and dev["setuptools"] == runtime["setuptools"]
    assert top_level("requirements.in")["pip"] == runtime["pip"][0]
