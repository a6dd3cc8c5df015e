"""The house rules a newcomer can rely on, checked on the source: no import cycles of any
kind (imports inside functions, the names a package exports lazily and imports for the type
checker count too), none between packages, no import running up a floor of the house
(:data:`FLOORS`), no module over 600 lines, no import of another module's private names, and
a public API in ``__all__`` for every subpackage.  Each checker is also fed a made-up package
that breaks its rule, so that it can be seen to fail."""

from __future__ import annotations

import ast
from collections.abc import Collection, Mapping
from pathlib import Path
from typing import NamedTuple

import pytest

import cryptocomp

PACKAGE = Path(cryptocomp.__file__).parent
MAX_LINES = 600
MAX_TEST_LINES = 800


def _modules() -> dict[str, Path]:
    """Dotted module name -> file, for every module of the package."""
    out = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join(parts)] = path
    return out


MODULES = _modules()


# how an import reaches its module: when the importing module is imported (``eager``), when
# the function holding it runs (``deferred``), never (``type``: under ``if TYPE_CHECKING:``,
# read by the type checker only), or on first use of a name listed for ``lazy_exports``
# (``lazy``: the module-level dict of name -> submodule a package hands it)
EAGER, DEFERRED, TYPE, LAZY = "eager", "deferred", "type", "lazy"
KINDS = (EAGER, DEFERRED, TYPE, LAZY)


class Import(NamedTuple):
    target: str          # the package module imported (a package standing for its __init__)
    name: str | None     # the name imported from it, None for a module
    kind: str            # EAGER, DEFERRED, TYPE or LAZY


def _resolve(module: str, node: ast.ImportFrom, is_package: bool) -> str:
    """The absolute module an ``from ... import`` statement in ``module`` names."""
    if not node.level:
        return node.module or ""
    base = module.split(".")
    base = base if is_package else base[:-1]
    base = base[:len(base) - (node.level - 1)]
    return ".".join(base + ([node.module] if node.module else []))


def _homes(node: ast.expr, assigned: dict[str, ast.expr]) -> set[str]:
    """The submodules named by the mapping ``node`` given to ``lazy_exports`` (a dict of
    string constants, ``**`` unpackings, ``dict.fromkeys(names, home)``, or a module-level
    name bound to one of these)."""
    if isinstance(node, ast.Name) and node.id in assigned:
        return _homes(assigned[node.id], assigned)
    if isinstance(node, ast.Dict):
        out: set[str] = set()
        for key, value in zip(node.keys, node.values):
            if key is None:
                out |= _homes(value, assigned)
            elif isinstance(value, ast.Constant) and isinstance(value.value, str):
                out.add(value.value)
            else:
                raise ValueError(f"a lazy export's home is not a string: {ast.unparse(value)}")
        return out
    if isinstance(node, ast.Call) and ast.unparse(node.func) == "dict.fromkeys" \
            and len(node.args) == 2 and isinstance(node.args[1], ast.Constant):
        return {node.args[1].value}
    raise ValueError(f"lazy exports the house test cannot read: {ast.unparse(node)}")


def _parse_imports(module: str, source: str, is_package: bool,
                   known: Collection[str]) -> list[Import]:
    """Every import of ``module`` (its ``source``) into its own package (the modules
    ``known``), of every kind."""
    tree = ast.parse(source)
    top_level = {id(n) for n in tree.body}
    type_checking = set()
    for n in tree.body:  # imports under `if TYPE_CHECKING:` never run
        if isinstance(n, ast.If) and "TYPE_CHECKING" in ast.unparse(n.test):
            type_checking.update(id(m) for m in ast.walk(n))
    assigned = {t.id: n.value for n in tree.body if isinstance(n, ast.Assign)
                for t in n.targets if isinstance(t, ast.Name)}

    def kind(node: ast.AST) -> str:
        return TYPE if id(node) in type_checking else EAGER if id(node) in top_level \
            else DEFERRED

    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out += [Import(a.name, None, kind(node)) for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            target = _resolve(module, node, is_package)
            for alias in node.names:
                sub = f"{target}.{alias.name}"
                out.append(Import(sub, None, kind(node)) if sub in known
                           else Import(target, alias.name, kind(node)))
        elif isinstance(node, ast.Call) and ast.unparse(node.func) == "lazy_exports":
            # lazy_exports(__name__, homes): each home is a submodule of this package
            package = module if is_package else module.rpartition(".")[0]
            out += [Import(f"{package}.{home}", None, LAZY)
                    for home in sorted(_homes(node.args[1], assigned))]
    root = module.split(".")[0]
    return [i for i in out if i.target.split(".")[0] == root]


def _imports(module: str) -> list[Import]:
    """Every import of one of the package's modules, of every kind."""
    path = MODULES[module]
    return _parse_imports(module, path.read_text(encoding="utf-8"), path.name == "__init__.py",
                          MODULES)


IMPORTS = {m: _imports(m) for m in MODULES}


def _graph(imports: Mapping[str, list[Import]], kinds: Collection[str] = KINDS
           ) -> dict[str, set[str]]:
    """Module -> the modules it imports by one of ``kinds``, packages standing for their
    ``__init__``.  A package's ``__init__`` importing its own modules (its API) is an edge like
    any other: a module importing its own package closes a cycle through it."""
    graph: dict[str, set[str]] = {m: set() for m in imports}
    for module, found in imports.items():
        for target, _name, kind in found:
            if kind in kinds and target in imports and target != module:
                graph[module].add(target)
    return graph


def _cycles(graph: Mapping[str, Collection[str]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                found.append(sorted(comp))

    for v in graph:
        if v not in index:
            visit(v)
    return found


def _room(module: str) -> str:
    """The part of the package ``module`` belongs to: its subpackage (``crossword``), a
    top-level module (``errors``), or ``""`` for the package root."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else ""


def _package_graph(graph: Mapping[str, Collection[str]]) -> dict[str, set[str]]:
    """Room -> the other rooms its modules import (see :func:`_room`)."""
    out: dict[str, set[str]] = {_room(m): set() for m in graph}
    for module, targets in graph.items():
        out[_room(module)] |= {_room(t) for t in targets} - {_room(module)}
    return out


# The floors of the house, lowest first: a module imports (eagerly, deferred, lazily or for
# the type checker alone) only from its own floor's top-level modules or from lower floors,
# and never from another subpackage of its own floor.  A new subpackage or top-level module
# must be given its floor here.
FLOORS = {
    # the top-level modules: words and helpers every part uses
    **dict.fromkeys(["domain", "errors", "files", "numbers", "lazy", "shipped", "version",
                     "jitcache"], 0),
    "index": 1,                                       # the dictionary index
    **dict.fromkeys(["cryptarithm", "crossword", "tiles"], 2),   # the engines on it
    "batch": 3,                                       # running many items on all cores
    "arrow": 4,                                       # arrow-word puzzles: crossword + batch
    "rendering": 5,                                   # presentation shared by prompt and CLI
    "pages": 5,                                       # printed pages (PDF) of every puzzle kind
    "prompt": 6,
    "studio": 6,                                      # the web app and JSON API (serve)
    "cli": 7,
    # the package root re-exports the public API of every floor (lazily) and `python -m
    # cryptocomp` runs the CLI: they stand above them all, and no module imports them
    "": 8,
    "__main__": 8,
}
# imports between two subpackages of one floor that are allowed, each with its reason
# (a new one needs a reason here, and the package graph keeps it acyclic)
SIDEWAYS: dict[tuple[str, str], str] = {}


def _floor_problems(imports: Mapping[str, list[Import]], floors: Mapping[str, int],
                    sideways: Mapping[tuple[str, str], str]) -> list[str]:
    """Every import running up a floor, sideways between subpackages of one floor (unless
    allowed in ``sideways``), or from or to a part of the package without a floor."""
    problems = sorted(f"{_room(m) or 'the package root'} ({m}) has no floor"
                      for m in imports if _room(m) not in floors)
    for module, found in imports.items():
        here = _room(module)
        for target, _name, kind in found:
            there = _room(target)
            if here == there or here not in floors or target not in imports:
                continue
            if there not in floors:
                problems.append(f"{module} imports {target} ({kind}), which has no floor")
            elif floors[there] > floors[here]:
                problems.append(f"{module} (floor {floors[here]}) imports {target} "
                                f"(floor {floors[there]}, {kind}): up a floor")
            elif floors[there] == floors[here] and floors[here] > 0 \
                    and (here, there) not in sideways:
                problems.append(f"{module} imports {target} ({kind}): sideways on floor "
                                f"{floors[here]}")
    return sorted(set(problems))


def test_no_import_cycles():
    # no cycle of any kind: imports that run, lazy exports, imports for the type checker
    assert _cycles(_graph(IMPORTS)) == []


def test_no_cycles_between_packages():
    assert _cycles(_package_graph(_graph(IMPORTS))) == []


def test_no_import_runs_up_a_floor():
    assert _floor_problems(IMPORTS, FLOORS, SIDEWAYS) == []


def test_the_batch_layer_knows_nothing_of_the_arrow_words():
    # the arrow-word wing stands on the batch layer; the layer names no arrow module, not
    # even in a docstring's cross-reference
    assert [i for m in MODULES if _room(m) == "batch" for i in IMPORTS[m]
            if _room(i.target) == "arrow"] == []
    assert [m for m in MODULES if _room(m) == "batch"
            and "cryptocomp.arrow" in MODULES[m].read_text(encoding="utf-8")] == []


def test_the_cycle_finder_finds_cycles():
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert _cycles({"a": {"b"}, "b": set()}) == []


def _synthetic(sources: dict[str, str]) -> dict[str, list[Import]]:
    """The imports of a made-up package: module name -> source (a name ending in
    ``.__init__`` is a package)."""
    names = {m.removesuffix(".__init__"): m.endswith(".__init__") for m in sources}
    return {name: _parse_imports(name, sources[name + ".__init__" if package else name],
                                 package, names)
            for name, package in names.items()}


# the loop the house had: a package's lazy export of a module that imports the package
LAZY_LOOP = {
    "cc.__init__": "",
    "cc.lazy": "",
    "cc.eng.__init__": "from ..lazy import lazy_exports\n"
                       "_ARROW = {'make': 'maker', **dict.fromkeys(['Puzzle'], 'puzzle')}\n"
                       "__getattr__ = lazy_exports(__name__, _ARROW)\n"
                       "def fill(): pass\n",
    "cc.eng.maker": "from . import fill\n",
    "cc.eng.puzzle": "",
}


def test_lazy_exports_are_import_edges():
    imports = _synthetic(LAZY_LOOP)
    assert sorted(i for i in imports["cc.eng"] if i.kind == LAZY) == [
        Import("cc.eng.maker", None, LAZY), Import("cc.eng.puzzle", None, LAZY)]
    assert _cycles(_graph(imports)) == [["cc.eng", "cc.eng.maker"]]
    assert _cycles(_graph(imports, kinds=(EAGER, DEFERRED))) == []
    with pytest.raises(ValueError, match="cannot read"):
        _synthetic({"cc.__init__": "__getattr__ = lazy_exports(__name__, homes())\n"})


def test_type_checking_imports_are_edges():
    imports = _synthetic({
        "cc.__init__": "",
        "cc.a": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .b import B\n",
        "cc.b": "def f():\n    from .a import A\n",
    })
    assert imports["cc.a"] == [Import("cc.b", "B", TYPE)]
    assert imports["cc.b"] == [Import("cc.a", "A", DEFERRED)]
    assert _cycles(_graph(imports)) == [["cc.a", "cc.b"]]


def test_the_package_graph_finds_cycles_the_module_graph_does_not():
    graph = {"cc.x.a": {"cc.y.b"}, "cc.y.b": set(), "cc.y.c": {"cc.x.d"}, "cc.x.d": set()}
    assert _cycles(graph) == []
    assert _cycles(_package_graph(graph)) == [["x", "y"]]


def test_the_floor_check_finds_imports_up_sideways_and_without_a_floor():
    imports = _synthetic({
        "cc.__init__": "",
        "cc.errors": "",
        "cc.low.__init__": "from ..errors import E\nfrom ..high import H\n",
        "cc.high.__init__": "from ..low import L\n",
        "cc.side.__init__": "from ..high import H\n",
        "cc.new.__init__": "from ..low import L\n",
    })
    floors = {"": 9, "errors": 0, "low": 1, "high": 2, "side": 2}
    assert _floor_problems(imports, floors, {}) == [
        "cc.low (floor 1) imports cc.high (floor 2, eager): up a floor",
        "cc.side imports cc.high (eager): sideways on floor 2",
        "new (cc.new) has no floor",
    ]
    assert _floor_problems(imports, floors, {("side", "high"): "a reason"}) == [
        "cc.low (floor 1) imports cc.high (floor 2, eager): up a floor",
        "new (cc.new) has no floor",
    ]


def test_no_module_over_600_lines():
    long = {m: n for m, p in MODULES.items()
            if (n := len(p.read_text(encoding="utf-8").splitlines())) > MAX_LINES}
    assert long == {}


def test_no_test_file_over_800_lines():
    tests = Path(__file__).parent
    long = {p.name: n for p in sorted(tests.glob("*.py"))
            if (n := len(p.read_text(encoding="utf-8").splitlines())) > MAX_TEST_LINES}
    assert long == {}


def test_no_imports_of_private_names_across_modules():
    private = sorted(f"{module} imports {target}.{name}"
                     for module in MODULES for target, name, _ in IMPORTS[module]
                     if name and name.startswith("_") and not name.startswith("__")
                     and target != module)
    private += sorted(f"{module} imports private module {target}"
                      for module in MODULES for target, _, _ in IMPORTS[module]
                      if any(p.startswith("_") and not p.startswith("__")
                             for p in target.split(".")))
    assert private == []


@pytest.mark.parametrize("package", sorted(m for m, p in MODULES.items()
                                           if p.name == "__init__.py"))
def test_every_package_declares_its_public_api(package):
    tree = ast.parse(MODULES[package].read_text(encoding="utf-8"))
    names = [t.id for n in tree.body if isinstance(n, ast.Assign) for t in n.targets
             if isinstance(t, ast.Name)]
    assert "__all__" in names, f"{package} has no __all__"
    assert ast.get_docstring(tree), f"{package} has no docstring"
