"""Improving a fill: another fill whose rarest word is commoner, found on narrower lists.

A constructor judges a fill by its rarest word (the one with the lowest count in the
list), so a fill improves on another when its rarest word is commoner.  Every word of
such a fill is commoner than the old fill's rarest word: the search runs again on the
list cut to those words (:class:`~.lexicon.Lexicon` ``min_count``), and each fill it
finds cuts the list further.  The counts to cut at are bisected over the list's distinct
counts, halving the words each time: a search that proves there is no fill raises the
floor; one that runs out of its time gives way to a milder cut, between its own and the
best fill's (narrow lists are refuted fast and wide ones fill fast; the cuts between
them cost the most).  Measured against starting with mild cuts, removing a quarter or a
tenth of the words and growing the cut after each fill: no better within 1 s or 3 s over
six grids and lists (``scripts/bench_improve.py``).  Words of equal count never improve
on each other: the lists order them alphabetically, which says nothing of how common
they are.  With time enough the bisection proves that no fill has a commoner rarest word
(:attr:`Improvement.optimal`).  The caller's solver may carry what its searches learn of
the grid from one try to the next (``fill`` passes its restart lanes' failure weights,
:class:`~.lane.Learned`).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence

import numpy as np

from ..domain import Count, Word
from .grid import GridError
from .lexicon import Lexicon
from .problem import Budget
from .result import FILLED, NO_FILL, FillResult, Improvement

__all__ = ["improve", "rarest"]

log = logging.getLogger(__name__)

# a search of the grid over a narrower list, within a budget (the caller's engine options)
Solver = Callable[[Lexicon, Budget], FillResult]

# the shortest try worth starting (s): a try builds the narrowed problem before searching
_MIN_TRY = 0.05


def rarest(lex: Lexicon, words: Sequence[Word]) -> tuple[Word, Count]:
    """The word of ``words`` with the lowest count in ``lex``'s index, and that count (of
    equal counts, the later in the list's order)."""
    index = lex.index
    word = max(words, key=lambda w: (-index.count(w), index.id_of(w)))
    return word, index.count(word)


def _levels(lex: Lexicon) -> tuple[np.ndarray, np.ndarray]:
    """The distinct counts of the lexicon's words, highest first, and for each the number
    of words with that count or more."""
    counts = np.asarray(lex.index.counts[:lex.kept], dtype=np.int64)
    levels, sizes = np.unique(counts, return_counts=True)
    return levels[::-1], np.cumsum(sizes[::-1])


def improve(result: FillResult, lex: Lexicon, solve: Solver, *, seconds: float,
            budget: Budget) -> FillResult:
    """Look for fills whose rarest word is commoner than ``result``'s first fill's, for at
    most ``seconds`` (and within ``budget``'s time); ``result`` with the best fill found,
    its message extended and ``result.improvement`` set."""
    if budget.seconds is not None:
        seconds = min(seconds, max(0.0, budget.seconds - budget.elapsed()))
    clock = Budget(seconds=seconds)
    best = result.fills[0]
    before = rarest(lex, best)
    levels, sizes = _levels(lex)
    # level i stands for the list cut to counts >= levels[i]: a fill exists at hi, none at
    # lo (-1: not known), and the last try at ``undecided`` ran out of its time
    hi = _level(levels, before[1])
    lo = undecided = -1
    tries, steps, interrupted = 0, 0, False
    try:
        while hi - max(lo, undecided) > 1:
            left = seconds - clock.elapsed()
            if left < _MIN_TRY:
                break
            floor = max(lo, undecided)
            # halve the words, not the counts: the counts of common words are far apart
            half = ((sizes[floor] if floor >= 0 else 0) + sizes[hi]) / 2
            i = min(max(int(np.searchsorted(sizes, half)), floor + 1), hi - 1)
            tries += 1
            # half the time left, so that milder cuts get their turn; all of it when this is
            # the mildest cut left
            share = left if i == hi - 1 else max(left / 2, _MIN_TRY)
            outcome = _try(solve, _narrowed(lex, int(levels[i])), Budget(seconds=share))
            status = NO_FILL if outcome is None else outcome.status
            log.debug("improvement: counts >= %d: %s", levels[i], status)
            if outcome is not None:
                steps += outcome.steps
            if outcome is not None and status == FILLED:
                best = outcome.fills[0]
                hi = _level(levels, rarest(lex, best)[1])
                if undecided >= hi:  # below the new fill's level nothing was tried yet
                    undecided = -1
            elif status == NO_FILL:
                lo = i
            else:
                undecided = i
    except KeyboardInterrupt:  # keep the best fill so far
        interrupted = True
    result.improvement = Improvement(tries, clock.elapsed(), before, rarest(lex, best),
                                     optimal=hi - lo == 1, interrupted=interrupted)
    result.fills = [best]
    result.steps += steps
    result.seconds = budget.elapsed()
    result.message += "; " + result.improvement.describe()
    return result


def _level(levels: np.ndarray, count: Count) -> int:
    """The index of ``count`` in ``levels`` (distinct counts, highest first)."""
    return int(np.searchsorted(-levels, -count))


def _narrowed(lex: Lexicon, min_count: Count) -> Lexicon:
    """``lex`` cut to its words of count ``min_count`` or more."""
    return lex.cut(min_count)


def _try(solve: Solver, sub: Lexicon, budget: Budget) -> FillResult | None:
    """One search over a narrower list; None when the list has no word for some slot."""
    try:
        return solve(sub, budget)
    except GridError as exc:  # raised by Problem: a slot length the cut list lacks
        log.debug("improvement: %s", exc)
        return None
