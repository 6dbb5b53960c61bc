"""Layer order (issue 39): arrows point down only.

    screens and print   views, forms, template tags, the admin, scoresheets, the commands,
                        the log-in screens (ledger/views/log_in.py), the URLs
    presentation        ledger/presentation/: every word, row and money line people read
    record              models, services, selectors, cleaning, book, exceptions, and the
                        request's guards beside them (access, clock, limits, languages,
                        middleware, outbox, checks, fields, counters) and the app's start
    core                ledger/rules/: the standard library only

A module imports nothing of a layer above its own, anywhere in it: at the top, inside a
function, under ``if TYPE_CHECKING``. The record says what happened as data (a refusal is a
code and its facts, ``ledger.exceptions``); the presentation words it; the screens show it.
Every module of ``ledger/`` and ``scoresheets/`` belongs to exactly one layer, so a new
module is placed before it can import anything.

(``tests/test_architecture.py`` holds the other checks; this file only adds the order.)
"""

from __future__ import annotations

from pathlib import Path

from tests.test_architecture import ROOT, _within, imported_modules

#: The layers, top first: each is a list of module prefixes.
LAYERS: list[tuple[str, tuple[str, ...]]] = [
    ("screens", ("ledger.views", "ledger.forms", "ledger.templatetags", "ledger.admin",
                 "scoresheets", "ledger.management", "ledger.views.log_in", "ledger.urls",
                 "ledger.counters.apps", "ledger.corefiles")),
    ("presentation", ("ledger.presentation",)),
    ("record", ("ledger.models", "ledger.services", "ledger.selectors", "ledger.cleaning",
                "ledger.book", "ledger.exceptions", "ledger.fields", "ledger.counters",
                "ledger.migrations", "ledger.access", "ledger.clock", "ledger.limits",
                "ledger.languages", "ledger.middleware", "ledger.outbox", "ledger.checks",
                # the app's start: it wires the record's signals and hands the record nothing
                # of the presentation (no wording hook: a refusal is worded where shown)
                "ledger.apps")),
    ("core", ("ledger.rules",)),
]


def layer_of(module: str) -> int | None:
    """The layer of ``module`` (its index in ``LAYERS``, top first): the longest prefix
    that names it; None for a module of no layer (outside the project)."""
    if module == "ledger":  # the package's own __init__: the record's
        return 2
    best, found = -1, None
    for index, (_, prefixes) in enumerate(LAYERS):
        for prefix in prefixes:
            if _within(module, prefix) and len(prefix) > best:
                best, found = len(prefix), index
    return found


def upward_imports(source: str, module: str, is_package: bool = False) -> list[str]:
    """Where ``module`` imports a module of a layer above its own."""
    mine = layer_of(module)
    if mine is None:
        return []
    out = []
    for lineno, name in imported_modules(source, module, is_package):
        if name == "ledger":  # `from ledger import x` names the bare package on the way
            continue
        theirs = layer_of(name)
        if theirs is not None and theirs < mine:
            out.append(f"{module}:{lineno} ({LAYERS[mine][0]}) imports {name} "
                       f"({LAYERS[theirs][0]})")
    return out


def project_files(root: Path = ROOT) -> list[Path]:
    return [path for package in ("ledger", "scoresheets")
            for path in sorted((root / package).rglob("*.py"))]


def _module(path: Path, root: Path) -> tuple[str, bool]:
    parts = list(path.relative_to(root).with_suffix("").parts)
    is_package = parts[-1] == "__init__"
    if is_package:
        parts.pop()
    return ".".join(parts), is_package


def layer_violations(root: Path = ROOT) -> list[str]:
    out = []
    for path in project_files(root):
        module, is_package = _module(path, root)
        out += upward_imports(path.read_text(encoding="utf-8"), module, is_package)
    return out


def test_no_import_runs_back_up():
    assert layer_violations() == []


def test_every_module_is_in_one_layer():
    """A new top-level module of ledger/ is placed in ``LAYERS`` before it imports."""
    assert layer_of("ledger.planted") is None
    unplaced = [path for path in project_files()
                if layer_of(_module(path, ROOT)[0]) is None]
    assert unplaced == []


def test_the_layers_are_in_their_order():
    assert [name for name, _ in LAYERS] == ["screens", "presentation", "record", "core"]
    assert layer_of("ledger.rules.facts") == 3
    assert layer_of("ledger.exceptions") == 2 and layer_of("ledger.book.selectors") == 2
    assert layer_of("ledger.apps") == 2
    assert layer_of("ledger.presentation.refusals") == 1
    assert layer_of("ledger.views.book_tables") == 0
    assert layer_of("ledger.forms.book_filters") == 0
    assert layer_of("django.db") is None


# -- the checker catches what it must (planted examples) -----------------------------------------

PLANTED_SERVICE = '''
from ledger.models import Game
from ledger.rules import score_record


def refuse(game):
    from ledger.presentation.notices import taken_text  # inside a function
    return taken_text(1, 2)


def shown():
    from ..presentation import money  # relative, two levels up
    import ledger.views.book
    from ledger import forms
    return money, ledger.views.book, forms
'''


def test_the_layer_check_catches_a_planted_upward_import_of_the_record():
    found = upward_imports(PLANTED_SERVICE, "ledger.services.planted")
    assert [line.split(" imports ")[1] for line in found] == [
        "ledger.presentation.notices (presentation)",
        "ledger.presentation.notices.taken_text (presentation)",
        "ledger.presentation (presentation)",
        "ledger.presentation.money (presentation)",
        "ledger.views.book (screens)",
        "ledger.forms (screens)",
    ]
    assert found[0].startswith("ledger.services.planted:7 (record)")


def test_the_layer_check_catches_the_presentation_importing_a_screen_or_the_core_the_record():
    presentation = "def f():\n    from ledger.forms.hands import HandSpec\n"
    assert upward_imports(presentation, "ledger.presentation.planted") == [
        "ledger.presentation.planted:2 (presentation) imports ledger.forms.hands (screens)",
        "ledger.presentation.planted:2 (presentation) imports ledger.forms.hands.HandSpec "
        "(screens)"]
    core = "from ..models import Game\n"
    assert upward_imports(core, "ledger.rules.planted") == [
        "ledger.rules.planted:1 (core) imports ledger.models (record)",
        "ledger.rules.planted:1 (core) imports ledger.models.Game (record)"]
    # downward imports pass
    assert upward_imports("from ledger.selectors import games\nfrom ledger.rules import x\n",
                          "ledger.presentation.planted") == []
    assert upward_imports("from ledger.presentation import money\n",
                          "ledger.views.planted") == []


def test_the_layer_check_finds_a_planted_module_on_disk(tmp_path):
    (tmp_path / "ledger" / "services").mkdir(parents=True)
    (tmp_path / "scoresheets").mkdir()
    (tmp_path / "ledger" / "services" / "planted.py").write_text(PLANTED_SERVICE)
    (tmp_path / "ledger" / "exceptions.py").write_text(
        "class E(Exception):\n    def m(self):\n"
        "        from ledger.presentation.problems import lines\n        return lines\n")
    found = layer_violations(tmp_path)
    assert "ledger.exceptions:3 (record) imports ledger.presentation.problems (presentation)" \
        in found
    assert len(found) == 6 + 2


# -- the record words nothing (issue 39): a refusal is a code and its facts ----------------------

#: Django's translation functions: whoever calls one makes words people read
WORDING = frozenset({"gettext", "gettext_lazy", "gettext_noop", "ngettext", "ngettext_lazy",
                     "pgettext", "pgettext_lazy", "npgettext", "npgettext_lazy"})

#: The modules of the record that may still name words, each with its reason.
WORDS_OF_THE_RECORD = {
    "ledger.models.games": "GameStatus is a Django TextChoices: its choices carry their labels "
                           "(gettext_lazy), the model's metadata that the admin shows and "
                           "the presentation reads (GameStatus(status).label)",
}


def wording(source: str, module: str) -> list[str]:
    """Where ``module`` imports or calls one of Django's translation functions."""
    import ast

    out = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom) and node.module == "django.utils.translation":
            out += [f"{module}:{node.lineno} imports {alias.name}" for alias in node.names
                    if alias.name in WORDING]
        elif isinstance(node, ast.Attribute) and node.attr in WORDING \
                and isinstance(node.value, ast.Name) and node.value.id == "translation":
            out.append(f"{module}:{node.lineno} calls translation.{node.attr}")
    return out


def record_wording(root: Path = ROOT) -> list[str]:
    out = []
    for path in project_files(root):
        module, _ = _module(path, root)
        if layer_of(module) == 2 and module not in WORDS_OF_THE_RECORD:
            out += wording(path.read_text(encoding="utf-8"), module)
    return out


def test_the_record_words_nothing():
    """Models, services, selectors, cleaning, the book, exceptions, limits... raise and
    return codes and facts; the presentation (``refusal_sentences``) has the sentences."""
    assert record_wording() == []
    assert set(WORDS_OF_THE_RECORD) <= {
        _module(path, ROOT)[0] for path in project_files() if "django.utils.translation"
        in path.read_text(encoding="utf-8")}  # (an exception no longer needed is removed)


def test_the_wording_check_catches_a_planted_sentence_of_the_record(tmp_path):
    planted = ("from django.utils import translation\n"
               "from django.utils.translation import gettext as _, get_language\n\n"
               "def refuse(n):\n"
               "    raise ValueError(translation.ngettext('%(n)s hand', '%(n)s hands', n))\n")
    assert wording(planted, "ledger.services.planted") == [
        "ledger.services.planted:2 imports gettext",
        "ledger.services.planted:5 calls translation.ngettext"]
    (tmp_path / "ledger" / "cleaning").mkdir(parents=True)
    (tmp_path / "scoresheets").mkdir()
    (tmp_path / "ledger" / "cleaning" / "planted.py").write_text(planted)
    (tmp_path / "ledger" / "presentation").mkdir()
    (tmp_path / "ledger" / "presentation" / "words.py").write_text(planted)  # its own place
    assert record_wording(tmp_path) == ["ledger.cleaning.planted:2 imports gettext",
                                        "ledger.cleaning.planted:5 calls translation.ngettext"]
