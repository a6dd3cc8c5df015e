"""Names a package exports from its submodules, imported on first use (PEP 562).

A one-shot command should pay only for the systems it uses: the package root, the
arrow-word wing and the batch layer each list which submodule defines which public name,
and :func:`lazy_exports` makes the module-level ``__getattr__`` that imports it the first
time the name is read and keeps it.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from typing import Any

__all__ = ["lazy_exports"]


def lazy_exports(package: str, homes: Mapping[str, str]) -> Callable[[str], Any]:
    """A module ``__getattr__`` for ``package``: name -> ``getattr(package.homes[name], name)``,
    imported once and kept in the package's namespace."""
    module = importlib.import_module(package)

    def __getattr__(name: str) -> Any:
        home = homes.get(name)
        if home is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(f".{home}", package), name)
        setattr(module, name, value)
        return value

    return __getattr__
