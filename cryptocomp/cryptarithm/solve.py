"""The solver: every solution of a complete cryptarithm or system, counted exactly.

:func:`solve` reads its text in the cryptarithm language
(:func:`~cryptocomp.cryptarithm.grammar.parse_system`: systems, comparators, constants, any
base from 2 to 36) and counts every solution under the rules of
:mod:`cryptocomp.cryptarithm.system`, listing the first ``cap``, with the exact search of
:func:`~cryptocomp.cryptarithm.engine.solve_system`.  :func:`solve_puzzle` (a puzzle of
today's syntax, as compose makes them) enumerates instead: numpy blocks of all
10!/(10-k)! injective assignments of digits to its k letters, both sides evaluated at once.

A ``time`` budget (seconds) or a ``steps`` budget (the engine's steps) stops the count
early: ``complete`` is then False and ``count`` a lower bound.

>>> s = solve("SEND+MORE=MONEY")
>>> s.count, s.equations
(1, ['9567+1085=10652'])
>>> s = solve("ab + ba = cc ; a < b", base=16, cap=2)
>>> s.count, s.equations, s.complete
(49, ['12+21=33 ; 1<2', '13+31=44 ; 1<3'], True)
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from time import monotonic

import numpy as np

from ..domain import Progress, Symbol
from ..errors import ExpressionError
from . import permutations as perms
from .engine import solve_system
from .evaluation import Evaluator, dtype_for, largest
from .expr import BinOp, Node, Puzzle
from .grammar import parse_system
from .system import System, holds_system

__all__ = ["Solved", "solve", "solve_parsed", "solve_puzzle", "MAX_STEPS", "MAX_SECONDS"]

MAX_STEPS = 1 << 62                # a step budget beyond this is no budget
MAX_SECONDS = 7 * 24 * 3600.0      # a time budget beyond a week is a typo
RELIST = 100_000                   # solutions listed all to keep the first cap in digit order


@dataclass(frozen=True)
class Solved:
    """The solutions of a complete puzzle or system."""

    puzzle: str                                   # normalised, e.g. "send+more=money"
    count: int                                    # exact when complete, else a lower bound
    solutions: list[dict[str, int]] = field(default_factory=list)  # at most `cap` of them
    equations: list[str] = field(default_factory=list)             # the same in digits
    base: int = 10
    complete: bool = True                         # False: a time or step budget stopped it

    def to_json(self) -> dict:
        return {"puzzle": self.puzzle, "base": self.base, "count": self.count,
                "complete": self.complete, "solutions": self.solutions,
                "equations": self.equations}

    def _check(self) -> None:
        """Every listed solution holds and is spelled by its equation; distinct; count >= list."""
        s = parse_system(self.puzzle, base=self.base)
        assert len(self.solutions) == len(self.equations) <= self.count
        seen = set()
        for fill, eq in zip(self.solutions, self.equations):
            assert holds_system(s, fill), (self.puzzle, fill)
            assert s.render(fill) == eq
            key = tuple(sorted(fill.items()))
            assert key not in seen
            seen.add(key)


def solve(text: str, *, base: int = 10, cap: int = 20, time: float | None = None,
          steps: int | None = None, progress: Progress | None = None,
          fold_yo: bool = False) -> Solved:
    """All solutions of ``text`` (``"SEND+MORE=MONEY"``, ``"cc+a=cl && on+d=go"``) in
    ``base``: the count, the first ``cap`` listed; ``time`` seconds or ``steps`` at most."""
    _check_budgets(text, cap, time, steps)
    return solve_parsed(parse_system(text, base=base, fold_yo=fold_yo), cap=cap, time=time,
                        steps=steps, progress=progress)


def _check_budgets(text: str, cap: int, time: float | None, steps: int | None) -> None:
    """Refuses a negative cap and a budget that is no number of seconds or steps."""
    if isinstance(cap, bool) or not isinstance(cap, int) or cap < 0:
        raise ExpressionError("cap must not be negative", None, text)
    if time is not None and (isinstance(time, bool) or not isinstance(time, (int, float))
                             or not 0 < time <= MAX_SECONDS or math.isnan(time)):
        raise ExpressionError(f"the time budget must be a number of seconds above 0, at most "
                              f"{MAX_SECONDS:,.0f} (a week), not {time!r}", None, text)
    if steps is not None and (isinstance(steps, bool) or not isinstance(steps, int)
                              or not 1 <= steps <= MAX_STEPS):
        raise ExpressionError(f"the step budget must be a whole number from 1 to {MAX_STEPS:,},"
                              f" not {steps!r}", None, text)


def solve_parsed(system: System, *, cap: int = 20, time: float | None = None,
                 steps: int | None = None, progress: Progress | None = None) -> Solved:
    """:func:`solve` for a parsed system (the budgets as there)."""
    _check_budgets(system.text, cap, time, steps)
    deadline = None if time is None else monotonic() + time
    # the exact engine, not the enumeration: it wins on every puzzle of Cryptator's
    # collection (README, "Cryptarithm engine"); ``progress`` is for the enumeration only
    found = solve_system(system, cap=cap, deadline=deadline, steps=steps)
    if found.complete and cap < found.count <= RELIST:
        # the list is the first ``cap`` in digit order: the engine's own order is another
        found = solve_system(system, cap=found.count, deadline=deadline, steps=steps)
    count, solutions, complete = found.count, found.solutions, found.complete
    if complete:
        solutions = sorted(solutions, key=lambda f: [f[s] for s in system.symbols])[:cap]
    return Solved(puzzle=system.render(), count=count, solutions=solutions,
                  equations=[system.render(s) for s in solutions], base=system.base,
                  complete=complete)


def solve_puzzle(p: Puzzle, *, cap: int = 20, progress: Progress | None = None) -> Solved:
    """:func:`solve` for a puzzle of :func:`~cryptocomp.cryptarithm.expr.parse` (base 10)."""
    if p.unknown:
        raise ExpressionError("solve needs a complete puzzle LEFT=RIGHT without '?' "
                              "(use compose to fill an unknown)", None, p.text)
    if cap < 0:
        raise ExpressionError("cap must not be negative", None, p.text)
    assert p.right is not None
    count, solutions, _ = _enumerate(p.left, p.right, p.letters, p.leading(), cap, progress,
                                     None)
    return Solved(puzzle=str(p), count=count, solutions=solutions,
                  equations=[p.render(s) for s in solutions])


def _enumerate(left: Node, right: Node, letters: tuple[Symbol, ...], leading: tuple[Symbol, ...],
               cap: int, progress: Progress | None, deadline: float | None
               ) -> tuple[int, list[dict[Symbol, int]], bool]:
    """(count, the first ``cap`` solutions, complete) of ``left = right`` in base 10 by
    numpy blocks of assignments; stops after the block that passes ``deadline``."""
    k = len(letters)
    # one side minus the other: a single linear form when both sides are sums
    diff = BinOp("-", left, right, 0)
    evaluator = Evaluator(letters, dtype_for(largest(diff)))
    total = perms.count(k)
    lead = [letters.index(ch) for ch in leading]
    count = 0
    rows: list[int] = []
    complete = True
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
            if deadline is not None and stop < total and monotonic() >= deadline:
                complete = False
                break
    solutions = [dict(zip(letters, perms.row(k, r))) for r in rows]
    return count, solutions, complete
