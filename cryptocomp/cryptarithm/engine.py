"""The exact solver of relation systems (:mod:`cryptocomp.cryptarithm.system`) in any base.

:func:`solve_system` counts every solution of a :class:`~cryptocomp.cryptarithm.system.System`
exactly, listing the first ``cap``, without trying every assignment: a column-wise search
from the units (:mod:`~cryptocomp.cryptarithm.plan`, :mod:`~cryptocomp.cryptarithm.search`)
with carries for sums and differences, last digits for products and powers, bounds from the
high side, the leading-digit rule and all-different over the symbols.  Two shapes run
compiled: systems of linear relations (:mod:`~cryptocomp.cryptarithm.kernel`, the column
order racing the largest-coefficient-first order) and a product of words equal to another
(:mod:`~cryptocomp.cryptarithm.products`).  A ``deadline`` (a
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

import time
from dataclasses import dataclass, field

from ..domain import Symbol
from .kernel import SLICE_NODES, Kernel
from .plan import build_plan
from .products import Products
from .search import Search
from .system import System

__all__ = ["Solutions", "solve_system"]

HEAD_START = 2048   # nodes the column order gets alone: most puzzles end within them


@dataclass(frozen=True)
class Solutions:
    """What the solver found: the exact count when ``complete``, else a lower bound."""

    count: int
    solutions: list[dict[Symbol, int]] = field(default_factory=list)  # at most `cap`
    complete: bool = True
    steps: int = 0          # search nodes visited


def _race(system: System, columns: Kernel, cap: int, deadline: float | None,
          steps: int | None) -> Solutions:
    """The compiled search of a linear system in the column order; when that does not end
    within :data:`HEAD_START` nodes, the same in the magnitude order too, the two taking
    turns in slices (each count is exact, so the first to end answers; neither order wins
    on every puzzle, and the turns cost at most twice the better one)."""
    kernels = [columns]
    limit = HEAD_START
    while True:
        for k in kernels:
            part = limit
            if steps is not None:
                part = min(part, steps - sum(x.nodes for x in kernels))
            if part <= 0:
                return _partial(kernels)
            if k.advance(part):
                got = k.outcome()
                return Solutions(got.count, got.solutions, True, sum(x.nodes for x in kernels))
            if deadline is not None and time.monotonic() >= deadline:
                return _partial(kernels)
        if len(kernels) == 1:
            other = Kernel.of(build_plan(system, magnitude=True), cap)
            if other is not None:
                kernels.append(other)
        limit = min(2 * limit, SLICE_NODES)


def _partial(kernels: list[Kernel]) -> Solutions:
    """A budget ended the race: the larger count found (a lower bound)."""
    best = max(kernels, key=lambda k: k.count).outcome()
    return Solutions(best.count, best.solutions, False, sum(k.nodes for k in kernels))


def solve_system(system: System, *, cap: int = 20, deadline: float | None = None,
                 steps: int | None = None) -> Solutions:
    """Every solution of ``system``: the count, the first ``cap`` listed; stops at
    ``deadline`` (monotonic seconds) or after ``steps`` search nodes."""
    products = Products.of(system, cap)
    if products is not None:   # a product of words equal to another: compiled too
        got = products.run(deadline=deadline, steps=steps)
        return Solutions(got.count, got.solutions, got.complete, got.nodes)
    plan = build_plan(system)
    kernel = Kernel.of(plan, cap)
    if kernel is not None:   # every relation linear: the compiled search
        return _race(system, kernel, cap, deadline, steps)
    found = Search(plan, cap=cap, deadline=deadline, steps=steps).run()
    return Solutions(found.count, found.solutions, found.complete, found.nodes)
