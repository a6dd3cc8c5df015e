"""Crossword filling over the dictionary index: grids, the CSP and SAT engines, word squares.

>>> from cryptocomp import Index
>>> from cryptocomp.crossword import Grid, fill
>>> idx = Index.from_counts({"car": 9, "cat": 8, "cob": 7, "ten": 6, "bun": 5, "tar": 4})
>>> grid = Grid.from_rows(["c..", ".#.", "..."])
>>> result = fill(grid, idx)
>>> result.status, result.words
('filled', ['cat', 'bun', 'cob', 'ten'])
"""

from __future__ import annotations

import importlib
import logging
from typing import TYPE_CHECKING

from ..index.index import Index
from .csp import Budget, Problem, solve_csp
from .grid import Grid, GridError, Slot, format_slots, format_text, parse_slots, parse_text
from .gridfile import read_grid
from .lexicon import Lexicon
from .result import BUDGET, FILLED, NO_FILL, FillResult

__all__ = ["fill", "Grid", "Slot", "GridError", "Lexicon", "FillResult", "Budget", "ENGINES",
           "read_grid", "parse_text", "parse_slots", "format_text", "format_slots",
           "FILLED", "NO_FILL", "BUDGET", "arrowword", "ArrowPuzzle", "ArrowResult", "ArrowError"]

log = logging.getLogger(__name__)

if TYPE_CHECKING:
    from .arrowbatch import arrowword
    from .arrowgenerator import ArrowError
    from .arrowpuzzle import ArrowPuzzle, ArrowResult

# the arrow-word generator is imported on first use (PEP 562): `fill` and `square` need not
# pay for it, and its modules may import `fill` from this package
_ARROW = {"arrowword": "arrowbatch", "ArrowError": "arrowgenerator",
          "ArrowPuzzle": "arrowpuzzle", "ArrowResult": "arrowpuzzle"}


def __getattr__(name: str):
    home = _ARROW.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{home}", __name__), name)
    globals()[name] = value
    return value

ENGINES = ("csp", "sat", "auto")


def fill(grid: Grid, index: Index | Lexicon, *, engine: str = "auto", count: int = 1,
         top: int | None = None, min_count: int | None = None, min_length: int = 1,
         max_length: int | None = None, steps: int | None = None,
         seconds: float | None = None, seed: int | None = None,
         lookahead: bool = True, letter_branch: int = 50) -> FillResult:
    """Fill ``grid`` from ``index`` (its ``top`` words, ``min_length``..``max_length``
    letters) with up to ``count`` different fills.

    ``engine`` is ``csp``, ``sat`` or ``auto`` (CSP first; SAT when the CSP runs
    out of budget, to finish or to prove that no fill exists).  ``steps`` bounds
    the CSP's placed words, ``seconds`` the whole attempt.  ``lookahead`` orders
    the CSP's candidates by the support they leave their crossings (else by
    frequency alone).
    """
    if engine not in ENGINES:
        raise GridError(f"unknown engine {engine!r} (choose from {', '.join(ENGINES)})")
    if count < 1:
        raise GridError("count must be at least 1")
    lex = index if isinstance(index, Lexicon) else Lexicon(
        index, top=top, min_count=min_count, min_length=min_length, max_length=max_length)
    prob = Problem(grid, lex)
    budget = Budget(steps=steps, seconds=seconds)
    if engine == "sat":
        from .sat import solve_sat

        return solve_sat(prob, count=count, budget=budget, seed=seed)
    if engine == "csp":
        return solve_csp(prob, count=count, budget=budget, seed=seed, lookahead=lookahead,
                         letter_branch=letter_branch)
    # auto: the CSP gets the step budget (or a share of the time), SAT finishes
    csp_budget = Budget(steps=steps if steps is not None else 20_000,
                        seconds=None if seconds is None else seconds / 2, start=budget.start)
    result = solve_csp(prob, count=count, budget=csp_budget, seed=seed, lookahead=lookahead,
                         letter_branch=letter_branch)
    if result.status != BUDGET and (result.filled or result.complete):
        if len(result.fills) >= count or result.complete:
            return result
    log.info("CSP: %s; trying SAT", result.message)
    from .sat import solve_sat

    sat = solve_sat(prob, count=count, budget=Budget(seconds=seconds, start=budget.start),
                    seed=seed)
    sat.engine = "csp+sat"
    sat.steps += result.steps
    if sat.status == BUDGET and result.partial is not None:
        sat.partial, sat.culprit = result.partial, result.culprit
        sat.culprit_candidates = result.culprit_candidates
    return sat
