"""The house rules a newcomer can rely on, checked on the source: no import cycles (lazy
imports inside functions count too), no module over 600 lines, no import of another
module's private names, and a public API in ``__all__`` for every subpackage."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import cryptocomp

PACKAGE = Path(cryptocomp.__file__).parent
MAX_LINES = 600


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


def _resolve(module: str, node: ast.ImportFrom) -> str:
    """The absolute module an ``from ... import`` statement in ``module`` names."""
    if not node.level:
        return node.module or ""
    base = module.split(".")
    is_package = MODULES[module].name == "__init__.py"
    base = base if is_package else base[:-1]
    base = base[:len(base) - (node.level - 1)]
    return ".".join(base + ([node.module] if node.module else []))


def _imports(module: str) -> list[tuple[str, str | None, bool]]:
    """(imported module, imported name or None, at import time?) for every import."""
    tree = ast.parse(MODULES[module].read_text(encoding="utf-8"))
    top_level = {id(n) for n in tree.body}
    type_checking = set()
    for n in tree.body:  # imports under `if TYPE_CHECKING:` never run
        if isinstance(n, ast.If) and "TYPE_CHECKING" in ast.unparse(n.test):
            type_checking.update(id(m) for m in ast.walk(n))
    out = []
    for node in ast.walk(tree):
        if id(node) in type_checking:
            continue
        if isinstance(node, ast.Import):
            out += [(a.name, None, id(node) in top_level) for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            target = _resolve(module, node)
            for alias in node.names:
                sub = f"{target}.{alias.name}"
                name = None if sub in MODULES else alias.name
                out.append((sub if sub in MODULES else target, name, id(node) in top_level))
    return [(m, n, t) for m, n, t in out if m.startswith("cryptocomp")]


def _graph() -> dict[str, set[str]]:
    """Module -> the package modules it imports (at import time or lazily), packages
    standing for their ``__init__``; a subpackage's own ``__init__`` re-exporting its
    modules is the one edge left out (it is how a package exposes its API)."""
    graph: dict[str, set[str]] = {m: set() for m in MODULES}
    for module in MODULES:
        for target, _name, _eager in _imports(module):
            if target in MODULES and target != module and not target.startswith(module + "."):
                graph[module].add(target)
    return graph


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
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


def test_no_import_cycles():
    graph = _graph()
    # the package root and the subpackages' __init__ files import their own modules to expose
    # the API; an import *of* a package by one of its own modules would close a cycle
    assert _cycles(graph) == []


def test_the_cycle_finder_finds_cycles():
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert _cycles({"a": {"b"}, "b": set()}) == []


def test_no_module_over_600_lines():
    long = {m: n for m, p in MODULES.items()
            if (n := len(p.read_text(encoding="utf-8").splitlines())) > MAX_LINES}
    assert long == {}


def test_no_imports_of_private_names_across_modules():
    private = sorted(f"{module} imports {target}.{name}"
                     for module in MODULES for target, name, _ in _imports(module)
                     if name and name.startswith("_") and not name.startswith("__")
                     and target != module)
    private += sorted(f"{module} imports private module {target}"
                      for module in MODULES for target, _, _ in _imports(module)
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
