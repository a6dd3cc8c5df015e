"""The exact engine's depth-first search over a :class:`~cryptocomp.cryptarithm.plan.Plan`.

One level a symbol, in the plan's order; a digit is tried only if no other symbol holds it
(a bitmask) and it respects the leading-digit rule; the linear relations keep their partial
sums incrementally; each level runs the plan's checks and goes deeper only when all pass.
Every leaf reached is a solution (the last level's checks are exact), so the count is exact.

>>> from cryptocomp.cryptarithm.expr import BinOp, Operand
>>> from cryptocomp.cryptarithm.plan import build_plan
>>> from cryptocomp.cryptarithm.system import Relation, System
>>> s = System.of([Relation("=", BinOp("+", Operand("send", 0), Operand("more", 5), 4),
...                         Operand("money", 10), 9)])
>>> found = Search(build_plan(s), cap=5).run()
>>> found.count, found.solutions[0]["y"], found.complete
(1, 2, True)
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from ..domain import Symbol
from .completion import Completion
from .forms import interval
from .plan import Level, Plan
from .system import evaluate

__all__ = ["Search", "Found"]

DEADLINE_EVERY = 512   # nodes between two looks at the clock


@dataclass
class Found:
    """The search's answer: the count (exact when ``complete``), the first solutions."""

    count: int = 0
    solutions: list[dict[Symbol, int]] = field(default_factory=list)
    complete: bool = True
    nodes: int = 0


class _Stop(Exception):
    """A budget ran out."""


def _compare(op: str, v: int) -> bool:
    """``v op 0``."""
    if op == "<":
        return v < 0
    if op == ">":
        return v > 0
    if op == "<=":
        return v <= 0
    if op == ">=":
        return v >= 0
    if op == "!=":
        return v != 0
    return v == 0


def _possible(op: str, low: int, high: int) -> bool:
    """Whether ``v op 0`` can hold for some ``v`` in ``[low, high]``."""
    if op == "<":
        return low < 0
    if op == ">":
        return high > 0
    if op == "<=":
        return low <= 0
    if op == ">=":
        return high >= 0
    if op == "!=":
        return low != 0 or high != 0
    return low <= 0 <= high


class Search:
    """One run of the search: ``cap`` solutions kept, ``steps`` nodes at most (a node is
    one digit tried for one symbol), stopping at ``deadline`` (monotonic seconds)."""

    def __init__(self, plan: Plan, *, cap: int = 20, deadline: float | None = None,
                 steps: int | None = None) -> None:
        self.plan = plan
        self.cap = cap
        self.deadline = deadline
        self.steps = steps
        self.digits = [0] * len(plan.symbols)
        self.acc = [form.const for _op, form in plan.linear]
        self.found = Found()
        self._next_clock = DEADLINE_EVERY
        self.completion = Completion.of(plan)

    def run(self) -> Found:
        """Search the whole tree (or until a budget ends) and say what was found."""
        plan = self.plan
        if plan.fails or len(plan.symbols) > plan.base:
            return self.found
        if not plan.levels:
            self._leaf()
            return self.found
        try:
            self._level(0, 0)
        except _Stop:
            self.found.complete = False
        return self.found

    def _budget(self) -> None:
        """Raise :class:`_Stop` when the step budget or the deadline is reached."""
        f = self.found
        if self.steps is not None and f.nodes >= self.steps:
            raise _Stop
        if self.deadline is not None and f.nodes >= self._next_clock:
            self._next_clock = f.nodes + DEADLINE_EVERY
            if time.monotonic() >= self.deadline:
                raise _Stop

    def _leaf(self) -> None:
        """Record the solution in :attr:`digits`."""
        f = self.found
        f.count += 1
        if len(f.solutions) < self.cap:
            f.solutions.append(dict(zip(self.plan.symbols, self.digits)))

    def _candidates(self, lv: Level) -> range:
        """The digits worth trying at ``lv``: all, or one in every stride of its solver."""
        sol = lv.solver
        base = self.plan.base
        if sol is None:
            return range(lv.least, base)
        v = self.acc[sol.rel]
        if v % sol.divisor:
            return range(0)
        first = (-(v // sol.divisor) * sol.inverse) % sol.stride
        if first < lv.least:
            first += sol.stride * -(-(lv.least - first) // sol.stride)
        return range(first, base, sol.stride)

    def _level(self, i: int, used: int) -> None:
        """Try the free candidate digits for level ``i``'s symbol; go deeper where the
        checks pass."""
        plan = self.plan
        if self.completion is not None and i == self.completion.start:
            self._complete(used)
            return
        lv: Level = plan.levels[i]
        last = i + 1 == len(plan.levels)
        digits, acc, s = self.digits, self.acc, lv.symbol
        budgeted = self.steps is not None or self.deadline is not None
        updates, equal = lv.updates, lv.equal
        slow = lv.compare or lv.residues or lv.spans or lv.exact
        for d in self._candidates(lv):
            bit = 1 << d
            if used & bit:
                continue
            self.found.nodes += 1
            if budgeted:
                self._budget()
            digits[s] = d
            for r, c in updates:
                acc[r] += c * d
            ok = True
            for r, modulus, low, high in equal:
                v = acc[r]
                if v % modulus or v + low > 0 or v + high < 0:
                    ok = False
                    break
            if ok and (not slow or self._passes(lv)):
                if last:
                    self._leaf()
                else:
                    self._level(i + 1, used | bit)
            for r, c in updates:
                acc[r] -= c * d

    def _complete(self, used: int) -> None:
        """The remaining levels as one numpy block (:class:`Completion`)."""
        comp = self.completion
        assert comp is not None
        f = self.found
        rows = len(comp.table)
        part = self.steps is not None and f.nodes + rows > self.steps
        if part:   # the budget ends inside this block: its first rows only
            rows = self.steps - f.nodes   # type: ignore[operator]
        f.nodes += rows - 1
        self._budget()
        f.nodes += 1
        hits = comp.run(self.digits, used, rows if part else None)
        f.count += len(hits)
        for row in hits[:max(0, self.cap - len(f.solutions))].tolist():
            for s, d in zip(comp.symbols, row):
                self.digits[s] = d
            f.solutions.append(dict(zip(self.plan.symbols, self.digits)))
        if part:
            raise _Stop

    def _passes(self, lv: Level) -> bool:
        """Whether the comparator, polynomial and exact checks of ``lv`` hold."""
        acc, plan, digits = self.acc, self.plan, self.digits
        for r, op, low, high in lv.compare:
            v = acc[r]
            if not _possible(op, v + low, v + high):
                return False
        for r, cols in lv.residues:
            if plan.polys[r][1].residue(digits, cols) != 0:
                return False
        for _r, program in lv.spans:
            low, high = interval(program, digits)
            if low > 0 or high < 0:
                return False
        return all(self._holds_other(r) for r in lv.exact)

    def _holds_other(self, rel: int) -> bool:
        """Exact evaluation of an 'other' relation (all of its symbols have digits)."""
        r = self.plan.others[rel]
        fill = dict(zip(self.plan.symbols, self.digits))
        a, b = evaluate(r.left, fill, self.plan.base), evaluate(r.right, fill, self.plan.base)
        return a is not None and b is not None and _compare(r.op, a - b)

