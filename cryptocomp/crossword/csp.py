"""The CSP engine: maintained arc consistency, compiled search strategies, a portfolio.

Domains are sparse sets of word indices with per-cell letter counts (arc
consistency on the crossings, :mod:`.propagation`); a slot reduced to one word
takes that word away from the other slots (no repeats).  Strategies
(:mod:`.search`):

* ``restarts``: the slot with the smallest domain per unit of failure weight
  (dom/wdeg), its word with the best look-ahead score (the support its letters
  leave the crossing slots, weighed with frequency), binary branching; a run
  stops after ``restart_base`` failures, the next gets 10 % more with randomised
  ties, and the failure weights carry over.  Finds fills on hard lists.
* ``words``: the same as one complete run.
* ``cells``: the crossed cell whose best letter is least supported, that letter
  or not (Qxw's order).  Complete; on word squares it finds fills, on blocked
  grids it proves "no fill" far sooner than word branching (measured: seed 000
  layout 21 with English top 100k, 85 s where words did not finish in 150 s).

``auto`` runs several strategies as lanes of one portfolio, each on its own
state, in turns of a fixed amount of work (:func:`strategy_for`); the first lane
to decide wins.  A lane that ends on its own has searched everything below the
root, which proves the outcome (no fill, or every fill found).
"""

from __future__ import annotations

import logging
import signal
import threading
from collections.abc import Callable

from .problem import Budget, Problem
from .propagation import FAIL, OK, OPS, WIPED, undo
from .result import BUDGET, FILLED, NO_FILL, FillResult
from .search import (
    BEST,
    BEST_CULPRIT,
    BEST_OPEN,
    DEPTH,
    EXHAUSTED,
    FAIL_LIMIT,
    FAILS,
    FOUND,
    FREQ_WEIGHT,
    LAST_SLOT,
    LETTER_BRANCH,
    LOOKAHEAD,
    NODES,
    NOISE,
    PAUSE_AT,
    RESTART,
    SLOT_NOISE,
    STOPPED,
    root,
    run,
)
from .tables import State, refresh_compiled_cache

__all__ = ["solve_csp", "root_domains", "strategy_for", "Problem", "Budget", "RootWipeout",
           "STRATEGIES"]

log = logging.getLogger(__name__)
refresh_compiled_cache()

RESTART_BASE = 400  # failures before the first restart
RESTART_GROWTH = 1.1
NOISE_AFTER_RESTART = 0.3
# work units (letters touched, about 100 million a second here) between returns to Python
# (Ctrl-C, the step budget, the next lane): counted, not timed, so that a seed gives the
# same fill on any machine and under any load (the arrow-word batches rely on it)
_SLICE = 5_000_000


class RootWipeout(Exception):
    """Arc consistency alone empties slot ``slot`` before any search: no fill exists."""

    def __init__(self, slot: int):
        super().__init__(slot)
        self.slot = slot


def _held(compiled: Callable[..., int], *args: object) -> int:
    """Call ``compiled(*args)`` with Ctrl-C held until it returns: the compiled search
    reads the clock through a Python callback, and a KeyboardInterrupt raised there
    comes out of numba as a SystemError and a traceback.  Each call returns within a
    slice of work (a twentieth of a second or so), so the interrupt is still prompt."""
    if threading.current_thread() is not threading.main_thread():
        return compiled(*args)  # signals go to the main thread only
    hit: list[int] = []
    previous = signal.signal(signal.SIGINT, lambda signum, frame: hit.append(signum))
    try:
        return compiled(*args)
    finally:
        signal.signal(signal.SIGINT, previous)
        if hit and previous is not signal.SIG_IGN:
            if callable(previous):
                previous(signal.SIGINT, None)  # the default handler raises KeyboardInterrupt
            else:
                raise KeyboardInterrupt


def _root_state(prob: Problem, budget: Budget, seed: int) -> State | None:
    """A fresh state made arc consistent; None when the budget ran out first."""
    state = State(prob.tables, seed=seed)
    state.params[0] = budget.deadline()
    r = _held(root, state.T, state.D)
    if r == FAIL:
        raise RootWipeout(int(state.ctl[WIPED]))
    if r != OK:
        return None
    return state


def root_domains(prob: Problem, budget: Budget | None = None) -> list | None:
    """Each slot's words (index ids, most frequent first) once the initial domains are arc
    consistent; RootWipeout when that proves no fill; None when the budget ran out."""
    state = _root_state(prob, budget or Budget(), 1)
    if state is None:
        return None
    return [state.domain_ids(s) for s in range(prob.n)]


STRATEGIES = ("auto", "restarts", "words", "cells")


class _Lane:
    """One search of a portfolio: its state, configuration and restart schedule."""

    def __init__(self, state: State, kind: str, share: int, *, seed: int | None, twin: bool,
                 lookahead: bool, freq_weight: float, letter_branch: int, restart_base: int):
        self.state, self.kind, self.share = state, kind, share
        params, ctl = state.params, state.ctl
        params[LOOKAHEAD] = 1.0 if lookahead else 0.0
        params[FREQ_WEIGHT] = freq_weight if lookahead else 1.0
        restarts = kind.endswith("restarts")
        params[LETTER_BRANCH] = -1 if kind.startswith("cells") else letter_branch
        self.root_mark = int(ctl[0])
        self.limit = float(restart_base) if restarts else 0.0
        ctl[FAIL_LIMIT] = int(self.limit)
        # a seed perturbs word scores in every word lane, slot ties only in a lane that
        # restarts: on word squares the first slot matters (the 7x7 all-English square:
        # 1.7 s from the first row, no fill in 60 s from a random one of the equal slots).
        # A twin (a second lane of a kind) is perturbed from the start, or it would repeat
        # the first one's first run
        self._noise(NOISE_AFTER_RESTART if seed is not None or twin else 0.0)
        self.runs = 1

    def _noise(self, amount: float) -> None:
        """Perturb word scores by ``amount``, and slot ties too when the lane restarts."""
        params = self.state.params
        params[NOISE] = amount
        params[SLOT_NOISE] = amount if self.state.ctl[FAIL_LIMIT] > 0 else 0.0

    def restart(self) -> None:
        """Back to the root with a longer failure limit and randomised tie-breaks."""
        state = self.state
        undo(state.T, state.D, self.root_mark)
        state.ctl[DEPTH] = 0
        state.ctl[FAILS] = 0
        state.ctl[LAST_SLOT] = -1
        self.limit *= RESTART_GROWTH
        state.ctl[FAIL_LIMIT] = int(self.limit)
        self._noise(NOISE_AFTER_RESTART)
        self.runs += 1


def strategy_for(prob: Problem) -> tuple[tuple[str, int], ...]:
    """The lanes ``auto`` runs, each with its share of the time slices: word rectangles (no
    blocks, every slot spanning the grid) get cell branching and plain word branching (2:1);
    other grids two dom/wdeg searches with restarts, which find fills, beside cell
    branching, which proves that none exists far sooner (1:1:1).  Two restart lanes,
    randomised apart, cut the heavy tail of one (WordNet 15x15, 8 seeds: slowest 14.8 s
    with one, 7.4 s with two; medians 2.7 and 2.9 s)."""
    grid = prob.grid
    spans = all(s.length == (grid.width if s.direction == "across" else grid.height)
                for s in prob.slots)
    if spans and not grid.symmetric and len(prob.slots) == grid.width + grid.height:
        return (("cells", 2), ("words", 1))
    return (("restarts", 1), ("restarts", 1), ("cells", 1))


def solve_csp(prob: Problem, *, count: int = 1, budget: Budget | None = None,
              seed: int | None = None, strategy: str = "auto", restart_base: int = RESTART_BASE,
              lookahead: bool = True, freq_weight: float = 0.25,
              letter_branch: int = 0) -> FillResult:
    """Fill ``prob.grid`` with up to ``count`` different fills by the CSP engine.

    ``strategy``: ``restarts`` (dom/wdeg, word branching, restarts), ``words`` (the
    same without restarts), ``cells`` (branch on the letter of the cell whose best
    letter is least supported), or ``auto`` (:func:`strategy_for`; several lanes
    share the time slice by slice, the first to finish decides).  ``lookahead``
    orders words by the support they leave their crossings, weighed with
    ``freq_weight`` times their log frequency (off: frequency alone).
    ``restart_base``: failures before the first restart.  ``letter_branch`` > 0:
    word-branching lanes branch on a crossed cell's letter while the slot has more
    candidates than that.  A ``seed`` perturbs word scores from the first run on (and the
    slot order of ``restarts``); ``cells`` does not depend on it.
    """
    if strategy not in STRATEGIES:
        raise ValueError(f"unknown strategy {strategy!r}")
    budget = budget or Budget()
    result = FillResult(prob.grid, BUDGET, engine="csp")
    kinds = strategy_for(prob) if strategy == "auto" else ((strategy, 1),)
    lanes: list[_Lane] = []
    for i, (kind, share) in enumerate(kinds):
        try:
            state = _root_state(prob, budget, (0 if seed is None else seed + 1) + 7919 * i)
        except RootWipeout as exc:
            return no_fill_at_root(prob, exc.slot, result, budget)
        if state is None:
            return _out_of_budget(prob, lanes[0].state if lanes else None, result, budget)
        twin = any(lane.kind == kind for lane in lanes)
        lanes.append(_Lane(state, kind, share, seed=seed, twin=twin, lookahead=lookahead,
                           freq_weight=freq_weight, letter_branch=letter_branch,
                           restart_base=restart_base))
    found: list[list[str]] = []
    seen: set[tuple[str, ...]] = set()
    complete, done = False, False
    nodes = 0
    while not done:
        for lane in lanes:
            if budget.steps is not None and nodes >= budget.steps:
                done = True
                break
            state = lane.state
            state.params[PAUSE_AT] = state.ctl[OPS] + _SLICE * lane.share
            state.params[0] = budget.deadline()
            before = int(state.ctl[NODES])
            node_limit = budget.steps - nodes if budget.steps is not None else 1 << 62
            r = _held(run, state.T, state.D, node_limit)
            nodes += int(state.ctl[NODES]) - before
            if r == FOUND:
                words = state.words()
                if tuple(words) not in seen:
                    seen.add(tuple(words))
                    found.append(words)
                    done = len(found) >= count
            elif r == EXHAUSTED:
                complete = done = True
            elif r == RESTART:
                lane.restart()
            elif r == STOPPED or budget.out_of_time():
                done = True
            if done:
                break
    best = max(lanes, key=lambda lane: lane.state.ctl[BEST])
    result.steps = nodes
    result.seconds = budget.elapsed()
    result.fills = found
    result.complete = complete
    for lane in lanes:
        log.debug("CSP lane %s: %d nodes, %d runs, %d work units", lane.kind,
                  lane.state.ctl[NODES], lane.runs, lane.state.ctl[1])
    if found:
        result.status = FILLED
        result.message = (f"filled {len(found)} way{'s' if len(found) > 1 else ''}"
                          + (" (all fills)" if complete and len(found) < count else ""))
    elif complete:
        state = best.state
        result.status = NO_FILL
        worst = max(range(prob.n), key=lambda s: state.sweight[s] + _slot_weight(state, s))
        result.culprit = prob.slots[worst].name
        result.message = (f"no fill exists (proved by the CSP's complete search, "
                          f"{result.steps} steps); its candidates ran out most often at "
                          f"{result.culprit}")
    else:
        return _out_of_budget(prob, best.state, result, budget)
    return result


def _slot_weight(state: State, s: int) -> float:
    t = state.t
    total = 0.0
    for p in range(t.slot[s, 0]):
        x = s * t.maxlen + p
        if t.cross[x, 0] >= 0:
            total += state.weight[t.cross[x, 2]] - 1.0
    return total


def _out_of_budget(prob: Problem, state: State | None, result: FillResult,
                   budget: Budget) -> FillResult:
    """The budget outcome: the best partial fill and its tightest open slot."""
    result.status = BUDGET
    result.seconds = budget.elapsed()
    settled = 0
    if state is not None and state.ctl[BEST] >= 0:
        t = state.t
        partial = []
        for s in range(prob.n):
            k = int(state.best[s])
            partial.append(t.word(s, k) if k >= 0 else "." * prob.lengths[s])
            settled += k >= 0
        result.partial = partial
        culprit = int(state.ctl[BEST_CULPRIT])
        if culprit >= 0:
            result.culprit = prob.slots[culprit].name
            result.culprit_candidates = int(state.ctl[BEST_OPEN])
    else:
        result.partial = ["." * n for n in prob.lengths]
        tight = min(range(prob.n), key=lambda s: len(prob.initial[s]))
        result.culprit = prob.slots[tight].name
        result.culprit_candidates = len(prob.initial[tight])
    result.message = (f"budget exhausted after {result.steps} steps and {result.seconds:.1f} s; "
                      f"best partial fill settles {settled} of {prob.n} slots"
                      + (f", fewest candidates at {result.culprit} ({result.culprit_candidates})"
                         if result.culprit else ""))
    return result


def no_fill_at_root(prob: Problem, slot: int, result: FillResult, budget: Budget) -> FillResult:
    """The no-fill outcome proved before any search: slot ``slot`` has no candidate."""
    name = prob.slots[slot].name
    result.status = NO_FILL
    result.complete = True
    result.culprit = name
    result.culprit_candidates = 0
    result.seconds = budget.elapsed()
    pattern = prob.pattern(slot)
    if not prob.initial[slot]:
        result.message = f"no fill exists: no word of the list fits {name} ({pattern})"
    else:
        result.message = (f"no fill exists (proved by propagation): {name} ({pattern}) has no "
                          f"candidate left once its crossings are made consistent")
    return result

