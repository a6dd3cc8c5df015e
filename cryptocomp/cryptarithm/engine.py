"""The exact solver of relation systems (:mod:`cryptocomp.cryptarithm.system`) in any base.

:func:`solve_system` counts every solution of a :class:`~cryptocomp.cryptarithm.system.System`
exactly, listing the first ``cap``, without trying every assignment: a column-wise search
from the units (:mod:`~cryptocomp.cryptarithm.plan`, :mod:`~cryptocomp.cryptarithm.search`)
with carries for sums and differences, last digits for products and powers, bounds from the
high side, the leading-digit rule and all-different over the symbols.  A ``deadline`` (a
:func:`time.monotonic` instant) or a ``steps`` budget (search nodes: one digit tried for one
symbol) stops it early, and the answer then says it is incomplete (the count is a lower
bound).

>>> from cryptocomp.cryptarithm.expr import BinOp, Operand
>>> from cryptocomp.cryptarithm.system import Relation, System
>>> s = System.of([Relation("=", BinOp("+", Operand("a", 0), Operand("a", 2), 1),
...                         Operand("b", 4), 3)])
>>> r = solve_system(s)
>>> r.count, r.complete
(4, True)
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..domain import Symbol
from .kernel import Kernel
from .plan import build_plan
from .search import Search
from .system import System

__all__ = ["Solutions", "solve_system"]


@dataclass(frozen=True)
class Solutions:
    """What the solver found: the exact count when ``complete``, else a lower bound."""

    count: int
    solutions: list[dict[Symbol, int]] = field(default_factory=list)  # at most `cap`
    complete: bool = True
    steps: int = 0          # search nodes visited


def solve_system(system: System, *, cap: int = 20, deadline: float | None = None,
                 steps: int | None = None) -> Solutions:
    """Every solution of ``system``: the count, the first ``cap`` listed; stops at
    ``deadline`` (monotonic seconds) or after ``steps`` search nodes."""
    plan = build_plan(system)
    kernel = Kernel.of(plan, cap)
    if kernel is not None:   # every relation linear: the compiled search
        got = kernel.run(deadline=deadline, steps=steps)
        return Solutions(got.count, got.solutions, got.complete, got.nodes)
    found = Search(plan, cap=cap, deadline=deadline, steps=steps).run()
    return Solutions(found.count, found.solutions, found.complete, found.nodes)
