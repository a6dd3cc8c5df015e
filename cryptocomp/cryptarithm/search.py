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
from .plan import EXACT, Level, Plan
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

    def _level(self, i: int, used: int) -> None:
        """Try every free digit for level ``i``'s symbol and go deeper where checks pass."""
        plan = self.plan
        lv: Level = plan.levels[i]
        last = i + 1 == len(plan.levels)
        digits, acc, s = self.digits, self.acc, lv.symbol
        for d in range(lv.least, plan.base):
            bit = 1 << d
            if used & bit:
                continue
            self.found.nodes += 1
            if self.steps is not None or self.deadline is not None:
                self._budget()
            digits[s] = d
            for r, c in lv.updates:
                acc[r] += c * d
            if self._passes(lv):
                if last:
                    self._leaf()
                else:
                    self._level(i + 1, used | bit)
            for r, c in lv.updates:
                acc[r] -= c * d

    def _passes(self, lv: Level) -> bool:
        """Whether every check of level ``lv`` holds for the digits so far."""
        acc = self.acc
        plan = self.plan
        for ch in lv.checks:
            kind = ch.kind
            if kind == "eq":
                v = acc[ch.rel]
                if v % ch.modulus or v + ch.low > 0 or v + ch.high < 0:
                    return False
            elif kind == "cmp":
                op = plan.linear[ch.rel][0]
                v = acc[ch.rel]
                if not _possible(op, v + ch.low, v + ch.high):
                    return False
            elif kind == "poly":
                poly = plan.polys[ch.rel][1]
                if poly.residue(self.digits, ch.columns) != 0:
                    return False
            elif not self._holds_other(ch.rel):
                return False
        return True

    def _holds_other(self, rel: int) -> bool:
        """Exact evaluation of an 'other' relation (all of its symbols have digits)."""
        r = self.plan.others[rel]
        fill = dict(zip(self.plan.symbols, self.digits))
        a, b = evaluate(r.left, fill, self.plan.base), evaluate(r.right, fill, self.plan.base)
        return a is not None and b is not None and _compare(r.op, a - b)


_ = EXACT  # the plan's marker for an exact polynomial check (read by Polynomial.residue)
