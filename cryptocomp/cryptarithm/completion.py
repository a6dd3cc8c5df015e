"""The last symbols of a one-relation polynomial system, completed as a numpy block.

Column checks (last digits of products) prune the first levels of a product's search well
and its last levels badly; there the search hands over: every way to give the remaining
``t`` symbols distinct free digits is one row of a table built once (indices into the free
digits, in order), and the relation is evaluated exactly on all rows at once.  It is used
only when every intermediate value provably fits in 63 bits (interval arithmetic over the
relation with every digit unknown), so the numpy values are exact.

>>> from cryptocomp.cryptarithm.expr import BinOp, Operand
>>> from cryptocomp.cryptarithm.plan import build_plan
>>> from cryptocomp.cryptarithm.system import Relation, System
>>> s = System.of([Relation("=", BinOp("*", Operand("ab", 0), Operand("c", 3), 2),
...                         Operand("dc", 5), 4)])
>>> c = Completion.of(build_plan(s))
>>> c is not None and c.size
4
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

import numpy as np

from .forms import interval_program, span
from .plan import Plan

__all__ = ["Completion", "BLOCK_ROWS"]

BLOCK_ROWS = 5040     # at most this many rows a block (7! : a few hundred microseconds)
LIMIT = 2 ** 62       # every intermediate value must stay below this in magnitude


@dataclass(frozen=True)
class Completion:
    """Levels ``start ..`` of :attr:`plan` as one numpy evaluation."""

    plan: Plan
    start: int
    symbols: tuple[int, ...]          # the completed symbols (level order)
    table: np.ndarray                 # (rows, len(symbols)) indices into the free digits
    program: tuple[tuple, ...]        # the relation: words as (known pairs, column pairs)

    @property
    def size(self) -> int:
        """How many levels it completes."""
        return len(self.symbols)

    @classmethod
    def of(cls, plan: Plan) -> Completion | None:
        """The completion of ``plan``'s last levels, or None when it has none: the system is
        not one polynomial relation, or its values may not fit in 63 bits."""
        if len(plan.polys) != 1 or plan.linear or plan.others or not _fits(plan):
            return None
        n, base = len(plan.levels), plan.base
        t = 0
        while t < n and _rows(base - (n - t - 1), t + 1) <= BLOCK_ROWS:
            t += 1
        if t < 2:
            return None
        start = n - t
        symbols = tuple(lv.symbol for lv in plan.levels[start:])
        table = np.array(list(itertools.permutations(range(base - start), t)), dtype=np.int64)
        column = {s: j for j, s in enumerate(symbols)}
        program = []
        for step in plan.polys[0][1].program:
            if step[0] != "w":
                program.append(step)
                continue
            known: dict[int, int] = {}
            cols: dict[int, int] = {}
            place = 1
            for s in step[1]:
                where = cols if s in column else known
                key = column.get(s, s)
                where[key] = where.get(key, 0) + place
                place *= base
            program.append(("w", tuple(known.items()), tuple(cols.items())))
        return cls(plan, start, symbols, table, tuple(program))

    def run(self, digits: list[int], used: int, rows: int | None = None) -> np.ndarray:
        """The rows of :attr:`table` (the first ``rows`` of them; as digits, one column a
        symbol) that solve the relation, given ``digits`` of the earlier levels and the
        ``used`` digit mask."""
        plan = self.plan
        free = np.array([d for d in range(plan.base) if not used >> d & 1], dtype=np.int64)
        cand = free[self.table if rows is None else self.table[:rows]]
        stack: list = []
        for step in self.program:
            tag = step[0]
            if tag == "w":
                v = sum(digits[s] * p for s, p in step[1])
                for j, p in step[2]:
                    v = v + cand[:, j] * p
                stack.append(v)
            elif tag == "c":
                stack.append(step[1])
            elif tag == "^":
                stack.append(stack.pop() ** step[1])
            else:
                b = stack.pop()
                a = stack.pop()
                stack.append(a + b if tag == "+" else a - b if tag == "-" else a * b)
        good = np.asarray(stack[0]) == 0
        if good.ndim == 0:
            good = np.full(len(cand), bool(good))
        for j in range(len(self.symbols)):
            if plan.levels[self.start + j].least:
                good &= cand[:, j] != 0
        return cand[good]


def _rows(free: int, t: int) -> int:
    """The t-permutations of ``free`` digits."""
    out = 1
    for k in range(t):
        out *= free - k
    return out


def _fits(plan: Plan) -> bool:
    """Whether every intermediate value of the relation stays within :data:`LIMIT`."""
    least = [0] * len(plan.symbols)
    program = interval_program(plan.polys[0][1], set(), least)
    stack: list[tuple[int, int]] = []
    for step in program:
        tag = step[0]
        if tag == "w":
            stack.append((step[2], step[3]))
        elif tag == "c":
            stack.append((step[1], step[1]))
        elif tag == "^":
            a, b = stack.pop()
            pa, pb = a ** step[1], b ** step[1]
            stack.append((min(pa, pb, 0), max(pa, pb, 0)))
        else:
            right = stack.pop()
            stack.append(span(tag, stack.pop(), right))
        if max(abs(stack[-1][0]), abs(stack[-1][1])) >= LIMIT:
            return False
    return True
