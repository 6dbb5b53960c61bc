"""The arrows of the layout, checked on the source (BRIEF "Architecture"):

(a) the scoring core ``ledger/rules/`` imports only itself and the standard library, and
    its modules import each other without a cycle (imports inside functions count too);
(b) no screen module (``ledger/views/``, ``ledger/forms/``, django-tables2 tables,
    ``ledger/templatetags/``, ``ledger/admin/``) and nothing under ``scoresheets/``
    imports ``ledger.rules``: they go through ``ledger/presentation/`` and the selectors;
(c) only services write models: no screen, print or presentation module saves, creates,
    updates or deletes a model (``.save()``, ``.delete()``, ``objects.create()``,
    ``bulk_create`` ...).

Every checker has a companion test feeding it a made-up module that breaks its rule, so a
checker that can no longer fail is caught too.
"""

from __future__ import annotations

import ast
import functools
import re
import sys
from pathlib import Path

from ledger.rules.catalog import HAND_KINDS, ROLE_ORDER
from ledger.rules.settings import VARIANTS
from ledger.rules.variants import LAYOUTS

ROOT = Path(__file__).resolve().parent.parent
RULES_DIR = ROOT / "ledger" / "rules"
CORE = "ledger.rules"
PROJECT_PACKAGES = ("ledger", "scoresheets", "tablestakes")
STDLIB = frozenset(sys.stdlib_module_names) | {"__future__"}


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


@functools.cache
def _parsed(source: str) -> ast.Module:
    """``source``'s syntax tree, parsed once for all the checks that read it (never change
    a tree got here: it is shared)."""
    return ast.parse(source)


def _source(path: Path) -> tuple[str, str, bool]:
    return path.read_text(encoding="utf-8"), _module_name(path), path.name == "__init__.py"


def imported_modules(source: str, module: str, is_package: bool) -> list[tuple[int, str]]:
    """Absolute names of the modules imported by ``source`` (relative imports resolved),
    anywhere in it: at the top, inside functions, under ``if TYPE_CHECKING``.

    ``from X import y`` yields ``X.y`` as well, since y may be a submodule.
    """
    package = module if is_package else module.rpartition(".")[0]
    found = []
    for node in ast.walk(_parsed(source)):
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


# -- (a) the core: the standard library and itself, no cycle ---------------------------------

def violations(source: str, module: str, is_package: bool = False) -> list[str]:
    """What a core module imports from outside the core and the standard library."""
    out = []
    for lineno, name in imported_modules(source, module, is_package):
        top = name.partition(".")[0]
        if _within(name, "django"):
            out.append(f"{module}:{lineno} imports {name} (the core must not use Django)")
        elif any(_within(name, p) for p in PROJECT_PACKAGES):
            # `from ledger import rules` names the bare parent package on the way: allowed.
            if _within(name, CORE) or name == "ledger":
                continue
            out.append(f"{module}:{lineno} imports {name} (outside {CORE})")
        elif top not in STDLIB:
            out.append(f"{module}:{lineno} imports {name} (not the standard library)")
    return out


def import_graph(sources: dict[str, tuple[str, bool]]) -> dict[str, set[str]]:
    """Which of ``sources``' modules each one imports ({module: (source, is_package)}).

    ``from . import x`` is an import of ``x``, not of the package; an imported name that is
    not a module (``from .cards import parse_cards``) is an import of its module.
    """
    graph: dict[str, set[str]] = {name: set() for name in sources}
    for module, (source, is_package) in sources.items():
        package = module if is_package else module.rpartition(".")[0]
        for node in ast.walk(_parsed(source)):
            names: list[str] = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    parts = package.split(".")
                    parts = parts[: len(parts) - (node.level - 1)]
                    base = ".".join(parts + ([node.module] if node.module else []))
                else:
                    base = node.module or ""
                names = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in sources else base
                         for alias in node.names]
            for name in names:
                while name and name not in sources:
                    name = name.rpartition(".")[0]
                if name and name != module:
                    graph[module].add(name)
    return graph


def import_cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The import cycles of ``graph``: each strongly connected group of two or more modules
    (or one importing itself), sorted (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    cycles: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for other in sorted(graph.get(node, ())):
            if other not in index:
                visit(other)
                low[node] = min(low[node], low[other])
            elif other in on_stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == node:
                    break
            if len(group) > 1 or node in graph.get(node, ()):
                cycles.append(sorted(group))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return sorted(cycles)


def _rules_files() -> list[Path]:
    return sorted(RULES_DIR.rglob("*.py"))


def test_rules_package_exists():
    assert (RULES_DIR / "__init__.py").is_file()


def test_rules_import_only_the_standard_library_and_themselves():
    found = []
    for path in _rules_files():
        found.extend(violations(*_source(path)))
    assert found == []


def test_rules_have_no_import_cycle():
    sources = {}
    for path in _rules_files():
        source, module, is_package = _source(path)
        sources[module] = (source, is_package)
    graph = import_graph(sources)
    assert "ledger.rules.cards" in graph["ledger.rules.hand"]  # an import inside a function
    assert import_cycles(graph) == []


def test_checker_catches_django_project_and_third_party_imports():
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
            "def late():",
            "    import requests",
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
        "ledger.rules.scoring:12 imports requests (not the standard library)",
    ]


def test_cycle_checker_finds_a_cycle_through_an_import_inside_a_function():
    sources = {
        "ledger.rules": ("from .game import score\n", True),
        "ledger.rules.game": ("from .hand import play\n", False),
        "ledger.rules.hand": ("def play():\n    from .cards import parse\n", False),
        "ledger.rules.cards": ("from . import hand\n", False),
        "ledger.rules.money": ("from .cards import parse\n", False),
    }
    graph = import_graph(sources)
    assert graph["ledger.rules.cards"] == {"ledger.rules.hand"}
    assert import_cycles(graph) == [["ledger.rules.cards", "ledger.rules.hand"]]
    sources["ledger.rules.cards"] = ("import re\n", False)
    assert import_cycles(import_graph(sources)) == []
    assert import_cycles({"a": {"a"}}) == [["a"]]


# -- (b) screens and print go through presentation, never the core ---------------------------

#: Screen and print modules that still import the core, each to be moved onto
#: ``ledger/presentation`` by the presentation half of issue 10; the lead empties this list.
#: Never add to it to make a new import pass.
CORE_IMPORT_ALLOWED: set[str] = set()


def _py_files(*parts: str) -> list[Path]:
    path = ROOT.joinpath(*parts)
    if path.is_file():
        return [path]
    return sorted(path.rglob("*.py")) if path.is_dir() else []


def screen_files() -> list[Path]:
    """Screens and print: views, forms, template tags, the admin, scoresheets, and every
    module of ``ledger`` that builds django-tables2 tables."""
    files = (_py_files("ledger", "views") + _py_files("ledger", "forms")
             + _py_files("ledger", "templatetags") + _py_files("ledger", "admin")
             + _py_files("scoresheets"))
    for path in sorted((ROOT / "ledger").rglob("*.py")):
        if "migrations" in path.parts or path in files:
            continue
        source, module, is_package = _source(path)
        if any(_within(name, "django_tables2")
               for _, name in imported_modules(source, module, is_package)):
            files.append(path)
    return [path for path in files if "migrations" not in path.parts]


def core_imports(source: str, module: str, is_package: bool = False) -> list[str]:
    """Where a screen module imports the scoring core."""
    out = []
    for lineno, name in imported_modules(source, module, is_package):
        if _within(name, CORE):
            out.append(f"{module}:{lineno} imports {name}")
    return sorted(set(out))


def test_screens_and_print_do_not_import_the_core():
    files = screen_files()
    modules = {_module_name(path) for path in files}
    # the checker looks where it should
    assert {"ledger.views.cards", "ledger.forms.hands", "ledger.admin", "ledger.admin.tables",
            "scoresheets.selectors", "scoresheets.grid", "ledger.views.sheet_tables"} <= modules
    found = []
    for path in files:
        source, module, is_package = _source(path)
        if module in CORE_IMPORT_ALLOWED:
            continue
        found.extend(core_imports(source, module, is_package))
    assert found == []


def test_the_allow_list_names_only_modules_that_still_import_the_core():
    # a module moved onto presentation must leave the list, so that it cannot slip back
    still = {_module_name(path) for path in screen_files()
             if core_imports(*_source(path))}
    assert CORE_IMPORT_ALLOWED <= still, CORE_IMPORT_ALLOWED - still


def test_core_import_checker_catches_every_form_of_import():
    src = "\n".join([
        "from ledger import selectors",
        "from ledger.rules.cards import parse_cards",
        "from ..rules import money",
        "import ledger.rules",
        "from ledger import rules as core",
        "def late():",
        "    from ledger.rules.limits import knock_limit",
    ])
    got = core_imports(src, "ledger.views.cards")
    assert got == [
        "ledger.views.cards:2 imports ledger.rules.cards",
        "ledger.views.cards:2 imports ledger.rules.cards.parse_cards",
        "ledger.views.cards:3 imports ledger.rules",
        "ledger.views.cards:3 imports ledger.rules.money",
        "ledger.views.cards:4 imports ledger.rules",
        "ledger.views.cards:5 imports ledger.rules",
        "ledger.views.cards:7 imports ledger.rules.limits",
        "ledger.views.cards:7 imports ledger.rules.limits.knock_limit",
    ]
    assert core_imports("from ledger.presentation.cards import read_cards\n",
                        "ledger.forms.hands") == []


# -- (c) only services write models ----------------------------------------------------------

#: Calls that write a model whatever they are called on (a model, a queryset, a manager,
#: a model form).
WRITES_ANYWHERE = {"save", "delete", "bulk_create", "bulk_update", "get_or_create",
                   "update_or_create", "save_m2m"}
#: Calls that write when made on a manager or queryset (``X.objects...``, ``.filter(...)``);
#: on a dict ``update`` is harmless.
WRITES_ON_QUERYSETS = {"create", "update"}
QUERYSET_HINTS = {"objects", "filter", "exclude", "all", "select_for_update"}
#: Calls that write a many-to-many relation when made on a related manager
#: (``table.scorekeepers.add(user)``); on a plain name (``seen.add(x)``, ``cache.set``) no.
WRITES_ON_RELATIONS = {"add", "remove", "set", "clear"}
#: The admin's own writers: ``super().save_model(...)`` in a ModelAdmin saves the object
#: itself, ``super().save_related(...)`` its many-to-many fields and inlines.
WRITES_THROUGH_DJANGO = {"save_model", "save_related", "save_formset", "delete_model",
                         "delete_queryset"}


def _chain(node: ast.AST) -> list[str]:
    """The attribute and call names along ``a.objects.filter(x).update`` (outermost last)."""
    names = []
    while True:
        if isinstance(node, ast.Call):
            node = node.func
        elif isinstance(node, ast.Attribute):
            names.append(node.attr)
            node = node.value
        elif isinstance(node, ast.Name):
            names.append(node.id)
            return names[::-1]
        else:
            return names[::-1]


def model_writes(source: str, module: str) -> list[str]:
    """Where ``source`` writes a model itself instead of calling a service."""
    out = []
    for node in ast.walk(_parsed(source)):
        if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Attribute):
            continue
        method = node.func.attr
        receiver = _chain(node.func.value)
        if receiver[:1] == ["services"]:
            continue
        if method in WRITES_ANYWHERE or (
                method in WRITES_ON_QUERYSETS and QUERYSET_HINTS & set(receiver)) or (
                method in WRITES_ON_RELATIONS and len(receiver) >= 2) or (
                method in WRITES_THROUGH_DJANGO and receiver == ["super"]):
            out.append(f"{module}:{node.lineno} {'.'.join([*receiver, method])}()")
    return out


#: Calls the write checker names by their shape that write no model, each with its reason.
NOT_MODEL_WRITES = {
    # Django's PasswordResetForm.save() makes a token and sends the mail (the outbox's job
    # password_reset_mail); it writes nothing
    ("ledger.views.log_in", "form.save()"),
}


def test_only_services_write_models():
    files = screen_files() + _py_files("ledger", "presentation")
    found = []
    for path in files:
        source, module, _ = _source(path)
        found.extend(write for write in model_writes(source, module)
                     if (write.split(":")[0], write.split(" ", 1)[1]) not in NOT_MODEL_WRITES)
    assert found == []


def test_write_checker_catches_saves_creates_updates_and_deletes():
    src = "\n".join([
        "from ledger import services",
        "def view(request, form, game, link):",
        "    ShareLink.objects.create(table=1)",
        "    link.save(update_fields=['revoked_at'])",
        "    user = form.save()",
        "    Hand.objects.filter(game=game).update(number=2)",
        "    game.hands.all().delete()",
        "    Player.objects.bulk_create([])",
        "    Player.objects.get_or_create(name='x')",
        "    context = {}",
        "    context.update({'a': 1})",
        "    services.player_get_or_create(table=1, name='x')",
        "    services.share_link_revoke(link=link)",
        "    form.instance.scorekeepers.add(request.user)",
        "    table.players.clear()",
        "    super().save_model(request, obj, form, change)",
        "    super().save_related(request, form, formsets, change)",
        "    form.save_m2m()",
        "    seen.add('Ann')",
        "    cache.set('key', 1)",
        "    services.table_set_scorekeepers(table=table, scorekeepers=[request.user])",
        "    super().get_queryset(request)",
    ])
    assert model_writes(src, "ledger.views.demo") == [
        "ledger.views.demo:3 ShareLink.objects.create()",
        "ledger.views.demo:4 link.save()",
        "ledger.views.demo:5 form.save()",
        "ledger.views.demo:6 Hand.objects.filter.update()",
        "ledger.views.demo:7 game.hands.all.delete()",
        "ledger.views.demo:8 Player.objects.bulk_create()",
        "ledger.views.demo:9 Player.objects.get_or_create()",
        "ledger.views.demo:14 form.instance.scorekeepers.add()",
        "ledger.views.demo:15 table.players.clear()",
        "ledger.views.demo:16 super.save_model()",
        "ledger.views.demo:17 super.save_related()",
        "ledger.views.demo:18 form.save_m2m()",
    ]


def test_write_checker_catches_the_admin_writes_that_services_now_make():
    # What ledger/admin.py did before "add player" and the staff table's keeper went
    # through services: both are caught, and the admin of today has neither.
    before = "\n".join([
        "class TableAdmin(admin.ModelAdmin):",
        "    def save_related(self, request, form, formsets, change):",
        "        super().save_related(request, form, formsets, change)",
        "        if not request.user.is_superuser:",
        "            form.instance.scorekeepers.add(request.user)",
        "class PlayerAdmin(admin.ModelAdmin):",
        "    def save_model(self, request, obj, form, change):",
        "        if change:",
        "            player_rename(player=obj, name=form.cleaned_data['name'])",
        "        else:",
        "            super().save_model(request, obj, form, change)",
    ])
    assert model_writes(before, "ledger.admin") == [
        "ledger.admin:3 super.save_related()",
        "ledger.admin:5 form.instance.scorekeepers.add()",
        "ledger.admin:11 super.save_model()",
    ]
    admin_modules = [path for path in screen_files() if "admin" in path.parts]
    assert {_module_name(path) for path in admin_modules} >= {
        "ledger.admin", "ledger.admin.tables", "ledger.admin.forms"}
    assert [write for path in admin_modules
            for write in model_writes(_source(path)[0], _module_name(path))] == []


#: ModelAdmins of ledger models that still let Django write (its default ``save_model``,
#: ``delete_model``, ``delete_queryset`` or ``save_formset``, which the source checker above
#: cannot see since they are inherited, not called): to be routed through services. The
#: lead empties this list; never add to it to make a new admin pass.
ADMIN_DJANGO_WRITES_ALLOWED = {
    "TableAdmin.delete_model", "TableAdmin.delete_queryset",
    "PlayerAdmin.delete_model", "PlayerAdmin.delete_queryset",
    "SessionAdmin.delete_model", "SessionAdmin.delete_queryset",
}
DJANGO_ADMIN_WRITERS = ("save_model", "delete_model", "delete_queryset", "save_formset")


def admin_django_writes() -> set[str]:
    """Which registered ledger ModelAdmins may add, change or delete and leave the writing
    to Django's inherited methods (``Class.method``)."""
    from django.contrib import admin

    found = set()
    for model, model_admin in admin.site._registry.items():
        if model._meta.app_label != "ledger":
            continue
        cls = type(model_admin)
        saves = not (_denies(cls.has_add_permission)
                     and _denies(cls.has_change_permission, obj=object()))
        deletes = not _denies(cls.has_delete_permission, obj=object())
        inline_saves = any(not (_denies(inline.has_add_permission, obj=object())
                                and _denies(inline.has_change_permission, obj=object()))
                           for inline in cls.inlines)
        for name, may in (("save_model", saves), ("save_formset", saves and inline_saves),
                          ("delete_model", deletes), ("delete_queryset", deletes)):
            if may and getattr(cls, name) is getattr(admin.ModelAdmin, name):
                found.add(f"{cls.__name__}.{name}")  # not overridden: Django writes
    return found


def _denies(permission, **kwargs) -> bool:
    """Does the admin's ``permission`` method say False whatever the request?"""
    try:
        return permission(None, None, **kwargs) is False
    except Exception:  # it looks at the request or the object: it may allow
        return False


def test_the_admin_leaves_no_new_write_to_django():
    found = admin_django_writes()
    assert found <= ADMIN_DJANGO_WRITES_ALLOWED, found - ADMIN_DJANGO_WRITES_ALLOWED
    # an entry that no longer writes must leave the list, so that it cannot slip back
    assert ADMIN_DJANGO_WRITES_ALLOWED <= found, ADMIN_DJANGO_WRITES_ALLOWED - found
    # the admins that now go through services are not among them (with TableAdmin's
    # save_formset override removed, "TableAdmin.save_formset" is found and this fails)
    assert not {"PlayerAdmin.save_model", "TableAdmin.save_model", "TableAdmin.save_formset",
                "SessionAdmin.save_model"} & found
    assert "HandAdmin.save_model" not in found  # read-only: Django's save is never reached


# -- (d) the core decides every fact of a variant; no one else compares a variant's name ------
#
# Outside ``ledger/rules/`` (where each variant is declared once, ``variants.py``) and
# migrations, no module, template or script decides anything by a variant's or a sheet
# layout's name: it reads the core's facts instead (a result's
# ``facts``, ``game_facts(variant, players)``). A name is "decided on" when it is compared
# with (``==``, ``!=``, ``in``) an expression that names a variant or a layout
# (``variant``, ``game.variant``, ``result["variant"]``, ``layout.kind``,
# ``facts["layout"]``), or when a dict literal is looked up by one, or when a dict literal is
# keyed by several variant names (a table per variant). Role names that are
# also variant names ("box", "captain": a hand's roles) are not variant names here unless
# they are compared with a variant.

#: Every variant and every sheet layout, by name: the core's declarations.
VARIANT_WORDS = frozenset(VARIANTS) | frozenset(LAYOUTS)
#: Names that only a variant has (not also a role or a hand's result).
VARIANT_ONLY = frozenset(VARIANTS) - frozenset(ROLE_ORDER) - frozenset(HAND_KINDS)
VARIANT_ALLOWED_PLACES = ("ledger/rules/",)

#: Modules owned by the other halves of issue 20 (the one column specification, one set of
#: labels), still comparing a layout's or keyed by a variant's name until those land; the
#: lead empties this list. Never add to it to make a new comparison pass.
VARIANT_PENDING: set[str] = set()


def _names_a_variant(node: ast.AST) -> bool:
    """``variant``, ``x.variant``, ``x["variant"]``, ``layout.kind``, ``x.layout.kind``,
    ``facts["layout"]``."""
    if isinstance(node, ast.Name):
        return node.id == "variant"
    if isinstance(node, ast.Attribute):
        if node.attr == "variant":
            return True
        if node.attr == "kind":
            inner = node.value
            return (isinstance(inner, ast.Name) and inner.id == "layout") or (
                isinstance(inner, ast.Attribute) and inner.attr == "layout")
        return False
    if isinstance(node, ast.Subscript):
        key = node.slice
        return isinstance(key, ast.Constant) and key.value in ("variant", "layout")
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
            and node.func.attr == "get" and node.args:
        key = node.args[0]
        return isinstance(key, ast.Constant) and key.value in ("variant", "layout")
    return False


def _variant_literals(node: ast.AST) -> set[str]:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return {node.value} & VARIANT_WORDS
    if isinstance(node, ast.Tuple | ast.List | ast.Set):
        return set().union(*(_variant_literals(item) for item in node.elts)) if node.elts \
            else set()
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) \
            and node.func.id in ("frozenset", "set", "tuple") and node.args:
        return _variant_literals(node.args[0])
    return set()


def _dict_keys(node: ast.Dict) -> set[str]:
    return {key.value for key in node.keys
            if isinstance(key, ast.Constant) and isinstance(key.value, str)}


def variant_decisions(source: str, module: str) -> list[str]:
    """Where ``source`` decides by a variant's or a layout's name."""
    out = []
    for node in ast.walk(_parsed(source)):
        if isinstance(node, ast.Compare):
            operands = [node.left, *node.comparators]
            named = set().union(*(_variant_literals(op) for op in operands))
            if named and any(_names_a_variant(op) for op in operands):
                out.append(f"{module}:{node.lineno} compares a variant with "
                           f"{', '.join(sorted(named))}")
        elif isinstance(node, ast.Subscript) and isinstance(node.value, ast.Dict) \
                and _names_a_variant(node.slice):
            out.append(f"{module}:{node.lineno} looks a variant up in a dict")
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                and node.func.attr == "get" and isinstance(node.func.value, ast.Dict) \
                and node.args and _names_a_variant(node.args[0]):
            out.append(f"{module}:{node.lineno} looks a variant up in a dict")
        elif isinstance(node, ast.Dict) and _dict_keys(node) & VARIANT_ONLY \
                and len(_dict_keys(node) & VARIANT_WORDS) >= 2:
            out.append(f"{module}:{node.lineno} keys a dict by variant "
                       f"({', '.join(sorted(_dict_keys(node) & VARIANT_WORDS))})")
    return sorted(set(out), key=lambda line: (line.split(":")[0],
                                              int(line.split(":")[1].split()[0]), line))


_WORDS = "|".join(sorted((w.replace("-", r"\-") for w in VARIANT_WORDS), key=len, reverse=True))
_TEMPLATE_TAG = re.compile(r"\{%-?\s*(?:if|elif)\b(.*?)-?%\}", re.S)
_TEMPLATE_VARIANT = re.compile(r"(?:\bvariant\b|\blayout\.kind\b)")
_TEMPLATE_LITERAL = re.compile(rf"""["']({_WORDS})["']""")


def template_variant_decisions(text: str, name: str) -> list[str]:
    """Where a template's ``{% if %}``/``{% elif %}`` compares a variant or a layout with
    a variant's or a layout's name."""
    out = []
    for match in _TEMPLATE_TAG.finditer(text):
        condition = match.group(1)
        words = _TEMPLATE_LITERAL.findall(condition)
        if words and _TEMPLATE_VARIANT.search(condition):
            line = text.count("\n", 0, match.start()) + 1
            out.append(f"{name}:{line} compares a variant with {', '.join(sorted(set(words)))}")
    return out


def variant_checked_files() -> list[Path]:
    """Every Python module of the project (views, forms, print, services, selectors, the
    book, the presentation, scripts...) but the core, the catalog and migrations."""
    files = []
    for folder in ("ledger", "scoresheets", "tablestakes", "scripts"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            rel = path.relative_to(ROOT).as_posix()
            if "migrations" in path.parts or rel.startswith(VARIANT_ALLOWED_PLACES):
                continue
            files.append(path)
    return files


def test_no_module_outside_the_core_decides_by_a_variant_name():
    files = variant_checked_files()
    modules = {_module_name(path) for path in files}
    assert {"ledger.views.game_page", "ledger.forms.start", "ledger.presentation.words",
            "scoresheets.blank", "ledger.services.games", "ledger.book.stats",
            "scripts.render_all_pdfs"} <= modules
    assert "ledger.rules.facts" not in modules and "ledger.presentation.catalog" in modules
    found = []
    for path in files:
        source, module, _ = _source(path)
        if module not in VARIANT_PENDING:
            found.extend(variant_decisions(source, module))
    assert found == []


def test_no_template_decides_by_a_variant_name():
    templates = sorted((ROOT / "templates").rglob("*.html")) + sorted(
        (ROOT / "scoresheets").rglob("*.html")) + sorted((ROOT / "ledger").rglob("*.html"))
    assert len(templates) > 20
    found = []
    for path in templates:
        found.extend(template_variant_decisions(path.read_text(encoding="utf-8"),
                                                path.relative_to(ROOT).as_posix()))
    assert found == []


def test_variant_checker_fails_on_planted_comparisons(tmp_path):
    planted = tmp_path / "planted.py"
    planted.write_text("\n".join([
        "def view(game, result, sheet, variant, roles, kind):",
        "    what = 'Round' if game.variant == 'cap-it' else 'Hand'",
        "    if result['variant'] in ('captain', 'partnership'):",
        "        pass",
        "    if sheet.layout.kind == 'hollywood':",
        "        pass",
        "    rows = {'cap-it': 5}.get(variant, 30)",
        "    doubled = result.get('variant') != 'oklahoma'",
        "    labels = {'gin': 'Gin', 'oklahoma': 'Oklahoma'}",
        "    if 'box' == variant:",
        "        pass",
        "    # not decisions by a variant: roles, a hand's result, a setting's kind",
        "    box = next(n for n, r in roles.items() if r == 'box')",
        "    if kind == 'gin':",
        "        pass",
        "    order = {'box': 0, 'captain': 1, 'opponent': 2}",
        "    ok = result['facts']['table_game']",
    ]))
    got = variant_decisions(planted.read_text(), "ledger.views.planted")
    assert got == [
        "ledger.views.planted:2 compares a variant with cap-it",
        "ledger.views.planted:3 compares a variant with captain, partnership",
        "ledger.views.planted:5 compares a variant with hollywood",
        "ledger.views.planted:7 looks a variant up in a dict",
        "ledger.views.planted:8 compares a variant with oklahoma",
        "ledger.views.planted:9 keys a dict by variant (gin, oklahoma)",
        "ledger.views.planted:10 compares a variant with box",
    ]


def test_template_variant_checker_fails_on_planted_comparisons(tmp_path):
    planted = tmp_path / "planted.html"
    planted.write_text(
        '<h2>{% if variant == "cap-it" %}Rounds{% else %}Hands{% endif %}</h2>\n'
        "<p data-x=\"{% if game.variant == 'box' or game.variant == 'captain' %}1{% endif %}\">\n"
        '{% elif target and game.variant != "cap-it" %}\n'
        '{% if layout.kind == "hollywood" %}x{% endif %}\n'
        '{% if t.a_role == "box" %}in the box{% endif %}\n'
        "{% if result.facts.rounds %}Rounds{% endif %}\n")
    got = template_variant_decisions(planted.read_text(), "planted.html")
    assert got == [
        "planted.html:1 compares a variant with cap-it",
        "planted.html:2 compares a variant with box, captain",
        "planted.html:3 compares a variant with cap-it",
        "planted.html:4 compares a variant with hollywood",
    ]


def test_the_pending_list_names_only_modules_that_still_decide_by_a_variant():
    # a module another helper fixed must leave the list, so that it cannot slip back
    still = {_module_name(path) for path in variant_checked_files()
             if variant_decisions(*_source(path)[:2])}
    assert VARIANT_PENDING <= still, VARIANT_PENDING - still


#: Where the core declares its variants: the one module of ``ledger/rules/`` that writes a
#: variant's name (a role's or a hand result's name that is also a variant's, "box",
#: "captain", "gin", is written where that role or result is).
VARIANT_REGISTRY = RULES_DIR / "variants.py"


def core_variant_names(source: str) -> set[str]:
    """The names that only a variant has (``VARIANT_ONLY``) that ``source`` writes as a
    string of their own."""
    return {node.value for node in ast.walk(_parsed(source))
            if isinstance(node, ast.Constant) and node.value in VARIANT_ONLY}


def test_the_checker_takes_its_words_from_the_core():
    # the core's seven variants and six kinds of sheet; names shared with a role or a
    # hand's result ("box", "captain", "gin") are not the variant-only names
    assert {"gin", "oklahoma", "cap-it", "duel", "capit", "tables"} <= VARIANT_WORDS
    assert len(VARIANT_WORDS) == len(VARIANTS) + len(LAYOUTS) - len(set(VARIANTS) & set(LAYOUTS))
    assert {"oklahoma", "cap-it"} <= VARIANT_ONLY
    assert not VARIANT_ONLY & {"box", "captain", "gin", "sits_out"}


def test_inside_the_core_only_the_registry_names_a_variant():
    found = []
    for path in sorted(RULES_DIR.rglob("*.py")):
        if path == VARIANT_REGISTRY:
            continue
        source, module, _ = _source(path)
        found.extend(variant_decisions(source, module))
        found.extend(f"{module} writes {name!r}" for name in sorted(core_variant_names(source)))
    assert found == []
    assert core_variant_names(VARIANT_REGISTRY.read_text(encoding="utf-8")) == VARIANT_ONLY


def test_core_variant_checker_fails_on_planted_names():
    planted = "\n".join([
        "VARIANTS = ('gin', 'oklahoma')",
        "def facts(variant):",
        "    if variant in ('box', 'captain'):",
        "        return 1",
        "    return {'gin': 2, 'cap-it': 3}",
        "ROLES = ('box', 'captain')  # roles, not variants",
    ])
    assert core_variant_names(planted) == {"oklahoma", "cap-it"}
    assert variant_decisions(planted, "ledger.rules.planted") == [
        "ledger.rules.planted:3 compares a variant with box, captain",
        "ledger.rules.planted:5 keys a dict by variant (cap-it, gin)",
    ]


# -- (d2) the core answers who plays, who sits out, who is in the box -------------------------
#
# Outside the core and the presentation layer no module compares a hand's role with a role's
# name ("sits_out", ``SITS_OUT``...), nor a variant with one of the core's lists of variants
# (``ANTE_VARIANTS``, ``FIRST_DEALER_CHOSEN``...): it asks the core (``plays_hand``,
# ``sitting_out``, ``hand_pair``, ``in_the_box``, ``opponents``, ``ante_staked``,
# ``first_dealer_chosen``). Filtering a query by one of those lists (``variant__in=``) is
# not a comparison: the list is still the core's.

#: The roles of a hand, by name (ledger.rules.catalog.ROLE_ORDER).
ROLE_NAMES = frozenset({"box", "captain", "opponent", "player", "sits_out"})
#: The core's names for a role and its lists of variants, which only the core compares with.
CORE_DECIDING_NAMES = frozenset({"BOX", "CAPTAIN", "OPPONENT", "PLAYER", "SITS_OUT",
                                 "ROLE_ORDER", "ANTE_VARIANTS", "FIRST_DEALER_CHOSEN",
                                 "PRESET_VARIANTS", "LOWER_WINS_VARIANTS"})
ROLE_ALLOWED_PLACES = ("ledger/rules/", "ledger/presentation/")


def _names_a_role(node: ast.AST) -> bool:
    """``role``, ``r``, ``a_role``, ``x.role``, ``x["role"]``, ``roles[name]``,
    ``roles.get(name)``."""
    if isinstance(node, ast.Name):
        return node.id in ("role", "r") or node.id.endswith("_role")
    if isinstance(node, ast.Attribute):
        return node.attr == "role" or node.attr.endswith("_role")
    if isinstance(node, ast.Subscript):
        key, value = node.slice, node.value
        return (isinstance(key, ast.Constant) and key.value == "role") or (
            isinstance(value, ast.Name | ast.Attribute)
            and getattr(value, "id", getattr(value, "attr", "")) == "roles")
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
            and node.func.attr == "get":
        owner = node.func.value
        return getattr(owner, "id", getattr(owner, "attr", "")) == "roles"
    return False


def _core_name(node: ast.AST) -> str | None:
    name = node.id if isinstance(node, ast.Name) else (
        node.attr if isinstance(node, ast.Attribute) else None)
    return name if name in CORE_DECIDING_NAMES else None


def role_decisions(source: str, module: str) -> list[str]:
    """Where ``source`` compares a role with a role's name, or anything with one of the
    core's role names or lists of variants."""
    out = []
    for node in ast.walk(_parsed(source)):
        if not isinstance(node, ast.Compare):
            continue
        operands = [node.left, *node.comparators]
        core = sorted({name for op in operands if (name := _core_name(op))})
        if core:
            out.append(f"{module}:{node.lineno} compares with the core's {', '.join(core)}")
            continue
        roles = {item.value for op in operands
                 for item in (op.elts if isinstance(op, ast.Tuple | ast.List | ast.Set)
                              else [op])
                 if isinstance(item, ast.Constant) and item.value in ROLE_NAMES}
        if roles and any(_names_a_role(op) for op in operands):
            out.append(f"{module}:{node.lineno} compares a role with "
                       f"{', '.join(sorted(roles))}")
    return sorted(set(out), key=lambda line: (line.split(":")[0],
                                              int(line.split(":")[1].split()[0]), line))


def role_checked_files() -> list[Path]:
    return [path for path in variant_checked_files()
            if not path.relative_to(ROOT).as_posix().startswith(ROLE_ALLOWED_PLACES)]


def test_no_module_outside_the_core_decides_by_a_role_name():
    files = role_checked_files()
    modules = {_module_name(path) for path in files}
    assert {"ledger.views.game_context", "ledger.book.stats", "ledger.services.games",
            "ledger.forms.start"} <= modules
    assert not {module for module in modules if module.startswith("ledger.presentation")}
    found = []
    for path in files:
        source, module, _ = _source(path)
        found.extend(role_decisions(source, module))
    assert found == []


def test_role_checker_fails_on_planted_comparisons():
    planted = "\n".join([
        "def panel(roles, hand, variant, nxt):",
        "    out = [n for n, r in roles.items() if r == 'sits_out']",
        "    box = [n for n, role in roles.items() if role == BOX]",
        "    if roles.get('Ann') != 'opponent':",
        "        pass",
        "    rate = None if variant in ANTE_VARIANTS else 1",
        "    if hand['role'] in ('box', 'captain'):",
        "        pass",
        "    if nxt.a_role == 'box':",
        "        pass",
        "    # not decisions by a role: the core's answers, a query filtered by its list",
        "    out = sitting_out(roles)",
        "    rows = games.filter(variant__in=LOWER_WINS_VARIANTS)",
        "    if kind == 'box':",
        "        pass",
    ])
    assert role_decisions(planted, "ledger.views.planted") == [
        "ledger.views.planted:2 compares a role with sits_out",
        "ledger.views.planted:3 compares with the core's BOX",
        "ledger.views.planted:4 compares a role with opponent",
        "ledger.views.planted:6 compares with the core's ANTE_VARIANTS",
        "ledger.views.planted:7 compares a role with box, captain",
        "ledger.views.planted:9 compares a role with box",
    ]


# -- (e) no import cycle anywhere in ledger/ -------------------------------------------------

def _without_type_checking(source: str) -> str:
    """``source`` without its ``if TYPE_CHECKING:`` blocks (imports for annotations only,
    never run)."""
    tree = ast.parse(source)  # (a tree of its own: the transformer below changes it)

    class Strip(ast.NodeTransformer):
        def visit_If(self, node):
            test = node.test
            if (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
                    isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"):
                return node.orelse or ast.Pass()
            return self.generic_visit(node)

    return ast.unparse(Strip().visit(tree))


def ledger_import_graph(root: Path = ROOT) -> dict[str, set[str]]:
    sources = {}
    for path in sorted((root / "ledger").rglob("*.py")):
        if "migrations" in path.parts:
            continue
        source = path.read_text(encoding="utf-8")
        parts = list(path.relative_to(root).with_suffix("").parts)
        is_package = parts[-1] == "__init__"
        if is_package:
            parts.pop()
        sources[".".join(parts)] = (_without_type_checking(source), is_package)
    return import_graph(sources)


def test_ledger_has_no_import_cycle():
    graph = ledger_import_graph()
    assert "ledger.presentation.catalog" in graph["ledger.presentation.words"]
    assert "ledger.selectors.sharing" in graph["ledger.views.freshness"]
    assert import_cycles(graph) == []


def test_ledger_cycle_check_fails_on_a_planted_cycle(tmp_path):
    package = tmp_path / "ledger"
    (package / "views").mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "views" / "__init__.py").write_text("")
    (package / "selectors.py").write_text(
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n    from ledger.models import Game\n"
        "def late():\n    from ledger.views import games\n")
    (package / "views" / "games.py").write_text("from ledger import selectors\n")
    (package / "models.py").write_text("from ledger import selectors\n")
    graph = ledger_import_graph(tmp_path)
    assert import_cycles(graph) == [["ledger.selectors", "ledger.views.games"]]
    # the TYPE_CHECKING import of models makes no cycle
    assert "ledger.models" not in graph["ledger.selectors"]


# -- the views: no private name taken from another view module -------------------------------

VIEWS = "ledger.views"


def private_view_imports(source: str, module: str, is_package: bool = False) -> list[str]:
    """Where a view module uses a private name (``_x``, not ``__x__``) of another view
    module: ``from .games import _render``, ``from ledger.views.games import _render``, or
    ``games._render`` after ``from . import games``. What several views share is public
    (in a helper module such as ``views/actions.py``, or in ``ledger/presentation/``)."""
    package = module if is_package else module.rpartition(".")[0]
    aliases: dict[str, str] = {}  # a name bound to another view module -> that module
    found = []

    def private(name: str) -> bool:
        return name.startswith("_") and not name.endswith("__")

    tree = _parsed(source)
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                parts = package.split(".")
                parts = parts[: len(parts) - (node.level - 1)]
                base = ".".join(parts + ([node.module] if node.module else []))
            else:
                base = node.module or ""
            if not _within(base, VIEWS) or base == module:
                continue
            for alias in node.names:
                if private(alias.name):
                    found.append(f"{module}:{node.lineno} imports {alias.name} from {base}")
                elif base == VIEWS:  # a view module itself: its attributes are checked below
                    aliases[alias.asname or alias.name] = f"{VIEWS}.{alias.name}"
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if _within(alias.name, VIEWS) and alias.name != module and alias.asname:
                    aliases[alias.asname] = alias.name
    for node in ast.walk(tree):
        if (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)
                and node.value.id in aliases and private(node.attr)):
            found.append(f"{module}:{node.lineno} uses {node.attr} of "
                         f"{aliases[node.value.id]}")
    return found


def test_no_view_module_takes_a_private_name_from_another():
    files = _py_files("ledger", "views")
    assert len(files) > 20 and any(path.name == "actions.py" for path in files)
    found = []
    for path in files:
        found.extend(private_view_imports(*_source(path)))
    assert found == []


def test_private_view_import_check_fails_on_planted_imports():
    module = "ledger.views.queue"
    assert private_view_imports(
        "from .games import _render_game, saved_parts\n", module) == [
        "ledger.views.queue:1 imports _render_game from ledger.views.games"]
    assert private_view_imports(
        "def late():\n    from ledger.views.games import _seat_names\n", module) == [
        "ledger.views.queue:2 imports _seat_names from ledger.views.games"]
    assert private_view_imports(
        "from . import games\nx = games._recorded_message(1)\n", module) == [
        "ledger.views.queue:2 uses _recorded_message of ledger.views.games"]
    assert private_view_imports(
        "import ledger.views.games as g\ng._to_game()\n", module) == [
        "ledger.views.queue:2 uses _to_game of ledger.views.games"]
    # public names, private names of other packages and a module's own are fine
    assert private_view_imports(
        "from .game_page import render_game\nfrom ledger.cleaning.text import _trim\n"
        "from . import confirm\nconfirm.undo_question\n_local = 1\n", module) == []
    # the package's __init__ is a view module too
    assert private_view_imports("from .book import _player_for\n", VIEWS, True) == [
        "ledger.views:1 imports _player_for from ledger.views.book"]


# -- (f) the core's vocabulary is not restated around it --------------------------------------
#
# The words the core decides with (a hand's roles, the setup's keys, the plain knock) are
# read from its catalog and facts (``ROLE_ORDER``, ``setup_from_seats``, ``setup_sides``,
# ``HAND_KINDS``/``KNOCK`` through ``ledger/presentation/catalog.py``), not written again:
# no screen, form, print module, script or the book names a setup key or the knock in a
# string, and no module outside the core and the presentation layer (which keys its words
# by them) keys a dict by several roles.

#: The setup's keys for captain play at several tables, and the plain knock.
CORE_VOCABULARY = frozenset({"captains", "opponents", "sitter", "knock"})
#: A hand's roles (the result's ``roles``).
ROLE_NAMES = frozenset({"box", "captain", "opponent", "player", "sits_out"})
VOCABULARY_CHECKED = ("ledger/views/", "ledger/forms/", "ledger/templatetags/",
                      "ledger/admin/", "ledger/book/", "scoresheets/", "scripts/")


def _docstrings(tree: ast.AST) -> set[int]:
    return {id(node.body[0].value) for node in ast.walk(tree)
            if isinstance(node, ast.Module | ast.FunctionDef | ast.ClassDef)
            and node.body and isinstance(node.body[0], ast.Expr)
            and isinstance(node.body[0].value, ast.Constant)}


def vocabulary_literals(source: str, module: str, *, words: bool = True) -> list[str]:
    """Where ``source`` restates the core's vocabulary: a string naming a setup key or the
    knock (``words``: screens, print, scripts, the book), a dict keyed by two or more roles
    (anywhere)."""
    tree = _parsed(source)
    docstrings = _docstrings(tree)
    out = []
    for node in ast.walk(tree):
        if words and isinstance(node, ast.Constant) and node.value in CORE_VOCABULARY \
                and id(node) not in docstrings:
            out.append(f"{module}:{node.lineno} names {node.value!r}")
        elif isinstance(node, ast.Dict) and len(_dict_keys(node) & ROLE_NAMES) >= 2:
            out.append(f"{module}:{node.lineno} keys a dict by role "
                       f"({', '.join(sorted(_dict_keys(node) & ROLE_NAMES))})")
    return sorted(out, key=lambda line: int(line.split(":")[1].split()[0]))


def test_no_module_restates_the_core_vocabulary():
    found = []
    checked = set()
    for path in variant_checked_files():
        rel = path.relative_to(ROOT).as_posix()
        if rel.startswith("ledger/presentation/"):
            continue
        source, module, _ = _source(path)
        checked.add(module)
        found += vocabulary_literals(source, module, words=rel.startswith(VOCABULARY_CHECKED))
    assert {"ledger.views.game_context", "ledger.forms.start", "ledger.forms.hands",
            "ledger.book.selectors", "scripts.render_all_pdfs"} <= checked
    assert found == []


def test_vocabulary_checker_fails_on_planted_literals():
    planted = "\n".join([
        '"""A docstring may say knock and captains."""',
        "ROLE_ORDER = {'box': 0, 'captain': 1, 'opponent': 2}",
        "def setup(data):",
        "    return {'captains': data['c1'], 'opponents': [data['o1']], 'sitter': data['s']}",
        "KIND = 'knock'",
        "# not the vocabulary: one role, a word in a sentence, a record's field",
        "chip = {'box': 'chip-box'}",
        "text = 'Ann knocks'",
        "entry = {'big_gin': True, 'deadwood': {}}",
    ])
    assert vocabulary_literals(planted, "ledger.forms.planted") == [
        "ledger.forms.planted:2 keys a dict by role (box, captain, opponent)",
        "ledger.forms.planted:4 names 'captains'",
        "ledger.forms.planted:4 names 'opponents'",
        "ledger.forms.planted:4 names 'sitter'",
        "ledger.forms.planted:5 names 'knock'",
    ]
    assert vocabulary_literals(planted, "ledger.services.planted", words=False) == [
        "ledger.services.planted:2 keys a dict by role (box, captain, opponent)"]
