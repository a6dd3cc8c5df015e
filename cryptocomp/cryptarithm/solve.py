"""The solver: every solution of a complete cryptarithm, counted exactly.

``solve("SEND+MORE=MONEY")`` enumerates all 10!/(10-k)! injective assignments of digits
to the puzzle's k letters as numpy blocks, drops those with a leading zero in a number of
two or more digits, evaluates both sides (an addition/subtraction puzzle collapses to one
linear form: one coefficient per letter) and counts the assignments where the sides are
equal and every exact division is exact.  The count is exact; the list of solutions is
capped.  Rules: see :mod:`cryptocomp.expr`.

>>> s = solve("SEND+MORE=MONEY")
>>> s.count, s.equations
(1, ['9567+1085=10652'])
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ..domain import Progress
from ..errors import ExpressionError
from . import permutations as perms
from .evaluation import Evaluator, dtype_for, largest
from .expr import BinOp, Puzzle, holds, parse

__all__ = ["Solved", "solve", "solve_puzzle"]



@dataclass(frozen=True)
class Solved:
    """The solutions of a complete puzzle."""

    puzzle: str                                   # normalised, e.g. "send+more=money"
    count: int                                    # exact number of solutions
    solutions: list[dict[str, int]] = field(default_factory=list)  # at most `cap` of them
    equations: list[str] = field(default_factory=list)             # the same in digits

    def to_json(self) -> dict:
        return {"puzzle": self.puzzle, "count": self.count, "solutions": self.solutions,
                "equations": self.equations}

    def _check(self) -> None:
        """Every listed solution holds and is spelled by its equation; distinct; count >= list."""
        p = parse(self.puzzle)
        assert len(self.solutions) == len(self.equations) <= self.count
        seen = set()
        for fill, eq in zip(self.solutions, self.equations):
            assert holds(p, fill), (self.puzzle, fill)
            assert p.render(fill) == eq
            key = tuple(sorted(fill.items()))
            assert key not in seen
            seen.add(key)


def solve(puzzle: str, *, cap: int = 20, progress: Progress | None = None) -> Solved:
    """All solutions of ``puzzle`` (e.g. ``"SEND+MORE=MONEY"``): the exact count, and the
    first ``cap`` listed."""
    return solve_puzzle(parse(puzzle), cap=cap, progress=progress)


def solve_puzzle(p: Puzzle, *, cap: int = 20, progress: Progress | None = None) -> Solved:
    """:func:`solve` for an already parsed puzzle."""
    if p.unknown:
        raise ExpressionError("solve needs a complete puzzle LEFT=RIGHT without '?' "
                              "(use compose to fill an unknown)", None, p.text)
    if cap < 0:
        raise ExpressionError("cap must not be negative", None, p.text)
    letters = p.letters
    k = len(letters)
    assert p.right is not None
    # one side minus the other: a single linear form when both sides are sums
    diff = BinOp("-", p.left, p.right, 0)
    evaluator = Evaluator(letters, dtype_for(largest(diff)))
    total = perms.count(k)
    lead = [letters.index(ch) for ch in p.leading()]
    count = 0
    rows: list[int] = []
    with np.errstate(all="ignore"):
        for block in perms.blocks(k):
            start, cols = block.start, block.cols
            stop = start + len(block)
            value, ok = evaluator.value(diff, cols)
            good = value == 0
            if ok is not None:
                good &= ok
            for j in lead:
                good &= cols[j] != 0
            hits = np.flatnonzero(good)
            count += len(hits)
            if len(rows) < cap:
                rows.extend((hits[:cap - len(rows)] + start).tolist())
            if progress is not None:
                progress(stop, total)
    solutions = [dict(zip(letters, perms.row(k, r))) for r in rows]
    return Solved(puzzle=str(p), count=count, solutions=solutions,
                  equations=[p.render(s) for s in solutions])
