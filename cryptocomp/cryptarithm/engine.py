"""The exact solver of relation systems (:mod:`cryptocomp.cryptarithm.system`) in any base.

:func:`solve_system` counts every solution of a :class:`~cryptocomp.cryptarithm.system.System`
exactly, listing the first ``cap``; a ``deadline`` (a :func:`time.monotonic` instant) or a
``steps`` budget stops it early, and the answer then says it is incomplete (the count is a
lower bound).

>>> from cryptocomp.cryptarithm.expr import BinOp, Operand
>>> from cryptocomp.cryptarithm.system import Relation, System
>>> s = System.of([Relation("=", BinOp("+", Operand("a", 0), Operand("a", 2), 1),
...                         Operand("b", 4), 3)])
>>> r = solve_system(s)
>>> r.count, r.complete
(4, True)
"""

from __future__ import annotations

import itertools
import time
from dataclasses import dataclass, field

from ..domain import Symbol
from .system import System, holds_system

__all__ = ["Solutions", "solve_system"]


@dataclass(frozen=True)
class Solutions:
    """What the solver found: the exact count when ``complete``, else a lower bound."""

    count: int
    solutions: list[dict[Symbol, int]] = field(default_factory=list)  # at most `cap`
    complete: bool = True


def solve_system(system: System, *, cap: int = 20, deadline: float | None = None,
                 steps: int | None = None) -> Solutions:
    """Every solution of ``system``: the count, the first ``cap`` listed; stops at
    ``deadline`` (monotonic seconds) or after ``steps`` assignments tried."""
    count = 0
    found: list[dict[Symbol, int]] = []
    symbols = system.symbols
    digits = itertools.permutations(range(system.base), len(symbols))
    for tried, assignment in enumerate(digits, 1):
        fill = dict(zip(symbols, assignment))
        if holds_system(system, fill):
            count += 1
            if len(found) < cap:
                found.append(fill)
        if (steps is not None and tried >= steps) or (
                deadline is not None and tried % 1024 == 0 and time.monotonic() >= deadline):
            return Solutions(count, found, complete=False)
    return Solutions(count, found)
