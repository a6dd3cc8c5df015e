"""The CSP engine: maintained arc consistency, compiled search strategies, a portfolio.

Domains are sparse sets of word indices with per-cell letter counts (arc
consistency on the crossings, :mod:`.propagation`); a slot reduced to one word
takes that word away from the other slots (no repeats).  Strategies
(:mod:`.search`):

* ``restarts``: the slot with the smallest domain per unit of failure weight
  (dom/wdeg), its word with the best look-ahead score (the support its letters
  leave the crossing slots, weighed with frequency), binary branching; a run
  stops after ``restart_base`` failures, the next gets 10 % more with randomised
  ties, and the failure weights carry over, and so do the nogoods of the runs
  (:mod:`.nogood`: no run searches again what an earlier one refuted, and the
  restarts stay a complete search); two restart lanes of a portfolio take each
  other's nogoods at their restarts.  Finds fills on hard lists.
* ``words``: the same as one complete run.
* ``cells``: the crossed cell whose best letter is least supported, that letter
  or not (Qxw's order).  Complete; on word squares it finds fills, on blocked
  grids it proves "no fill" far sooner than word branching (scripts/LOG.md).

``auto`` runs several strategies as lanes of one portfolio, each on its own
state and thread, in rounds of a fixed amount of work a lane (:func:`strategy_for`,
:func:`_rounds`: the outcome does not depend on the threads' timing); the first lane
to decide wins.  A lane that ends on its own has searched everything below the
root, which proves the outcome (no fill, or every fill found).  Beside lanes that
restart, a complete lane's share grows with the odds of its progress
(:func:`.lane.boosted_share`), so that a proof near its end is not kept waiting, and that
proof lane spends two turns in three on relaxations (:class:`.lane.Relaxation`): the grid
cut down to the slots where the searches fail most, where a proof is cheaper.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from ..jitcache import cache_dir, compile_note, is_cached, prune
from . import warmup
from .grid import GridError
from .lane import SLICE, Lane, Learned, held, slot_weight
from .layout import BEST, BEST_CULPRIT, BEST_OPEN, DEADLINE, WIPED
from .problem import MAX_STEPS, Budget, Problem
from .propagation import FAIL, OK
from .rectangle import RowSearch, is_rectangle, rows_can_fill
from .result import BUDGET, FILLED, NO_FILL, FillResult, SearchProgress
from .search import EXHAUSTED, FOUND, RESTART, STOPPED, root, run
from .tables import State
from .trie import MAX_LETTERS

__all__ = ["solve_csp", "root_domains", "strategy_for", "load_engine", "load_engine_soon",
           "Problem", "Budget",
           "RootWipeout", "STRATEGIES"]

log = logging.getLogger(__name__)

RESTART_BASE = 400  # failures before the first restart
ROWS_SHARE = 8  # the rows search's slices per word-branching slice on word rectangles


class RootWipeout(Exception):
    """Arc consistency alone empties slot ``slot`` before any search: no fill exists."""

    def __init__(self, slot: int):
        super().__init__(slot)
        self.slot = slot


def _root_state(prob: Problem, budget: Budget, seed: int) -> State | None:
    """A fresh state made arc consistent; None when the budget ran out first."""
    state = State(prob.tables, seed=seed)
    state.params[DEADLINE] = budget.deadline()
    r = held(root, state.T, state.D)
    if r == FAIL:
        raise RootWipeout(int(state.ctl[WIPED]))
    if r != OK:
        return None
    return state


def root_domains(prob: Problem, budget: Budget | None = None) -> list | None:
    """Each slot's words (index ids, most frequent first) once the initial domains are arc
    consistent; RootWipeout when that proves no fill; None when the budget ran out."""
    load_engine()
    state = _root_state(prob, budget or Budget(), 1)
    if state is None:
        return None
    return [state.domain_ids(s) for s in range(prob.n)]


STRATEGIES = ("auto", "restarts", "words", "cells", "rows")
_loaded = False


_loading = threading.Lock()  # one loader at a time: a fill waits for the one started early


def load_engine() -> None:
    """Load the searches' machine code, compiling it where numba has none cached (once
    for each version of the engine's sources, whatever virtualenv they are installed in:
    :mod:`.jitcache`), with one line that says so, so that no fill's budget pays for it;
    later calls return at once (or wait for :func:`load_engine_soon`'s).  A first use
    shares the compile with a helper process (:mod:`.warmup`), which goes on with the
    restarts' nogoods while the fills run.  Nothing runs: the signatures come from a 2x2
    square."""
    global _loaded
    if _loaded or not hasattr(root, "compile"):  # NUMBA_DISABLE_JIT: plain Python
        return
    with _loading:
        if _loaded:
            return
        cache = cache_dir(run)
        helper = None
        if not is_cached(cache):
            (log.info if cache is not None else log.warning)("%s", compile_note())
            if cache is not None:
                prune(cache)  # the code of older sources, which no install loads any more
                helper = warmup.start_helper(cache)
        prob = warmup.tiny_problem()
        try:
            warmup.compile_searches(prob, helper)
            warmup.compile_side(prob, helper)  # loaded from what the helper wrote
        except BaseException:
            if helper is not None:
                helper.stop()
            raise
        warmup.keep_finishing(helper)  # the nogoods, which a first restart waits for
        _loaded = True


def load_engine_soon() -> None:
    """Start :func:`load_engine` in a background thread, so that compiling overlaps with
    what precedes the fill (loading or building the index); the fill's own call waits for
    it.  Nothing to do when the machine code is cached: loading it takes a second."""
    if _loaded or not hasattr(root, "compile") or is_cached(cache_dir(run)):
        return

    def load() -> None:
        try:
            load_engine()
        except Exception:  # the fill's own load_engine() meets it again, and says it
            log.debug("loading the engine early failed", exc_info=True)

    threading.Thread(target=load, name="load-engine", daemon=True).start()


def strategy_for(prob: Problem) -> tuple[tuple[str, int], ...]:
    """The lanes ``auto`` runs, each with its share of the time slices: word rectangles
    (:func:`.rectangle.is_rectangle`) get the ``rows`` search, which decides 7x7 squares
    outright, beside plain word branching, which finds fills sooner on long lists
    (ROWS_SHARE:1; cell and word branching, 2:1, past 64 letters); other grids two
    dom/wdeg searches with restarts, which find fills, beside cell branching, which
    proves that none exists far sooner (1:1:1).  Two restart lanes, randomised apart, cut
    the heavy tail of one at little cost to the median (scripts/LOG.md)."""
    if rows_can_fill(prob):
        return (("rows", ROWS_SHARE), ("words", 1))
    if is_rectangle(prob):  # over more letters than the rows search handles
        return (("cells", 2), ("words", 1))
    return (("restarts", 1), ("restarts", 1), ("cells", 1))


_AnyLane = Lane | RowSearch


def _lanes(prob: Problem, kinds: tuple[tuple[str, int], ...], budget: Budget, count: int,
           seed: int | None, **options: Any) -> list[_AnyLane] | FillResult:
    """The portfolio's lanes, each at its root; a FillResult when the roots decide (no
    fill by propagation, or the budget ran out first)."""
    lanes: list[_AnyLane] = []
    beside_restarts = any(kind.endswith("restarts") for kind, _ in kinds)
    for i, (kind, share) in enumerate(kinds):
        if kind == "rows":
            if not rows_can_fill(prob):
                raise GridError("the rows strategy fills word rectangles only (no blocks, "
                                "rows and columns distinct slots, at most "
                                f"{MAX_LETTERS} letters)")
            lanes.append(RowSearch(prob, count=count, share=share, slice_units=SLICE, seed=seed))
            continue
        try:
            state = _root_state(prob, budget, (0 if seed is None else seed + 1) + 7919 * i)
        except RootWipeout as exc:
            return no_fill_at_root(prob, exc.slot, FillResult(prob.grid, BUDGET, engine="csp"),
                                   budget)
        if state is None:
            first = next((lane.state for lane in lanes if isinstance(lane, Lane)), None)
            return _out_of_budget(prob, first, FillResult(prob.grid, BUDGET, engine="csp"),
                                  budget)
        twin = any(lane.kind == kind for lane in lanes)
        lanes.append(Lane(state, kind, share, seed=seed, twin=twin,
                           beside_restarts=beside_restarts, **options))
    peers = [lane for lane in lanes if isinstance(lane, Lane)]
    restarts = [lane for lane in peers if lane.kind == "restarts"]
    for lane in peers:
        if lane in restarts:
            lane.pair(restarts)
        if lane.relax is not None:
            lane.relax.peers = peers
    return lanes


def solve_csp(prob: Problem, *, count: int = 1, budget: Budget | None = None,
              seed: int | None = None, strategy: str = "auto", restart_base: int = RESTART_BASE,
              lookahead: bool = True, freq_weight: float = 0.25,
              letter_branch: int = 0, learned: Learned | None = None,
              progress: Callable[[SearchProgress], None] | None = None,
              parallel: bool = True) -> FillResult:
    """Fill ``prob.grid`` with up to ``count`` different fills by the CSP engine.

    ``strategy``: ``restarts`` (dom/wdeg, word branching, restarts), ``words`` (the
    same without restarts), ``cells`` (branch on the letter of the cell whose best
    letter is least supported), ``rows`` (word rectangles only: letters in reading
    order over tries, :mod:`.rectangle`), or ``auto`` (:func:`strategy_for`; several
    lanes share the time slice by slice, the first to finish decides).  ``lookahead``
    orders words by the support they leave their crossings, weighed with
    ``freq_weight`` times their log frequency (off: frequency alone).
    ``restart_base``: failures before the first restart.  ``letter_branch`` > 0:
    word-branching lanes branch on a crossed cell's letter while the slot has more
    candidates than that.  A ``seed`` perturbs word scores from the first run on (and the
    slot order of ``restarts``) and draws the letter order of ``rows``; ``cells`` does not
    depend on it.  Steps are
    the nodes of the propagating lanes (letters placed when ``rows`` runs alone: beside
    them it runs its share of work uncounted, its nodes being a thousand times cheaper).
    ``learned`` carries the restart lanes' failure weights from one search of the grid to
    the next (:class:`.lane.Learned`): they start from its weights and leave theirs in it.
    ``progress`` is told how far the search is after each lane's turn (a slice of work,
    some 50 ms; reading the lanes' counters changes nothing of the search).
    ``parallel``: the lanes run side by side, one thread each, in rounds (:func:`_rounds`;
    the fills and steps are the same on any number of cores); else they take turns in this
    thread, as where other processes have the cores (a batch's workers).
    """
    if strategy not in STRATEGIES:
        raise ValueError(f"unknown strategy {strategy!r}")
    load_engine()
    budget = budget or Budget()
    kinds = strategy_for(prob) if strategy == "auto" else ((strategy, 1),)
    made = _lanes(prob, kinds, budget, count, seed, lookahead=lookahead,
                  freq_weight=freq_weight, letter_branch=letter_branch,
                  restart_base=restart_base)
    if isinstance(made, FillResult):
        return made
    lanes = made
    if learned is not None:
        learned.give(lanes)
    result = FillResult(prob.grid, BUDGET, engine="csp")
    if parallel and len(lanes) > 1:
        run = _rounds(prob, lanes, budget, count, progress)
    else:
        run = _run_lanes(prob, lanes, budget, count, progress)
    if learned is not None:
        learned.take(lanes)
    found = run.found
    result.steps = run.nodes
    result.seconds = budget.elapsed()
    result.fills = found
    result.complete = run.complete
    for lane in lanes:
        log.debug("CSP lane %s: %d nodes", lane.kind, lane.nodes)
    if found:
        result.status = FILLED
        result.message = (f"filled {len(found)} way{'s' if len(found) > 1 else ''}"
                          + (" (all fills)" if run.complete and len(found) < count else ""))
    elif run.complete:
        _no_fill(prob, lanes, run.decider, result)
    else:
        csp = [lane for lane in lanes if isinstance(lane, Lane)]
        if not csp:
            rows = lanes[0]
            assert isinstance(rows, RowSearch)
            return _rows_out_of_budget(prob, rows, result, budget)
        best = max(csp, key=lambda lane: lane.state.ctl[BEST])
        return _out_of_budget(prob, best.state, result, budget)
    return result


@dataclass
class _Run:
    """What the portfolio's turns came to: the fills found, whether a lane searched the
    whole space (``decider``), and the counted steps."""

    found: list[list[str]] = field(default_factory=list)
    complete: bool = False
    nodes: int = 0
    decider: _AnyLane | None = None


def _run_lanes(prob: Problem, lanes: list[_AnyLane], budget: Budget, count: int,
               progress: Callable[[SearchProgress], None] | None) -> _Run:
    """Give the lanes their slices of work in turn until ``count`` fills, a complete
    search, or the budget's end."""
    run = _Run()
    seen: set[tuple[str, ...]] = set()
    while True:
        for lane in lanes:
            if budget.steps is not None and run.nodes >= budget.steps:
                return run
            # beside other lanes the rows search runs its share uncounted (see solve_csp)
            if _turn(lane, run, budget, _counted(lane, lanes), seen, count):
                return run
            if progress is not None:
                progress(_progress_of(lanes, run.nodes, prob, len(run.found)))


def _turn(lane: _AnyLane, run: _Run, budget: Budget, counted: bool,
          seen: set[tuple[str, ...]], count: int) -> bool:
    """One slice of ``lane``'s work, noted in ``run``; whether the search is over."""
    before = lane.nodes
    node_limit = budget.steps - run.nodes if budget.steps is not None and counted \
        else MAX_STEPS
    r = lane.advance(node_limit, budget.deadline())
    if counted:
        run.nodes += lane.nodes - before
    over = _settle(lane, r, run, budget, seen, count)
    if isinstance(lane, Lane):
        lane.publish()  # after a restart's learning, for the mates' next restarts
    return over


def _rounds(prob: Problem, lanes: list[_AnyLane], budget: Budget, count: int,
            progress: Callable[[SearchProgress], None] | None) -> _Run:
    """:func:`_run_lanes` with the lanes side by side, one thread each, round after round:
    a round gives each lane its turn at once (restarts within it), then notes the outcomes
    in lane order, as turns taken one after another would.  While a round runs no lane
    reads another's state (mates take the nogoods published between rounds, a relaxation
    the peers' view taken there), so the outcome does not depend on the threads' timing.
    Beside a boosted proof lane the other lanes get half its share, so that two cores stay
    busy."""
    run = _Run()
    seen: set[tuple[str, ...]] = set()
    with ThreadPoolExecutor(max_workers=len(lanes), thread_name_prefix="fill-lane") as pool:
        while True:
            if budget.steps is not None and run.nodes >= budget.steps:
                return run
            for lane in lanes:
                if isinstance(lane, Lane) and lane.relax is not None:
                    lane.relax.observe()
            befores = [lane.nodes for lane in lanes]
            work = [pool.submit(_advance, lane, share, limit, budget.deadline())
                    for lane, share, limit in zip(lanes, _round_shares(lanes),
                                                  _round_limits(lanes, budget, run))]
            outcomes = _outcomes(work, lanes)
            for lane, r, before in zip(lanes, outcomes, befores):
                if _counted(lane, lanes):
                    run.nodes += lane.nodes - before
                if _settle(lane, r, run, budget, seen, count):
                    return run
                if progress is not None:
                    progress(_progress_of(lanes, run.nodes, prob, len(run.found)))
            for lane in lanes:
                if isinstance(lane, Lane):
                    lane.publish()


def _advance(lane: _AnyLane, share: int, node_limit: int, deadline: float) -> int:
    """One round's turn of ``lane`` (run in a thread of :func:`_rounds`)."""
    if isinstance(lane, RowSearch):
        return lane.advance(node_limit, deadline)
    return lane.advance(node_limit, deadline, share=share, through_restarts=True)


def _outcomes(work: list[Future], lanes: list[_AnyLane]) -> list[int]:
    """The round's outcomes, lane by lane; on Ctrl-C (or an error) the lanes are halted
    and waited for before it goes on up."""
    try:
        return [future.result() for future in work]
    except BaseException:
        for lane in lanes:
            lane.halt()
        for future in work:
            future.exception()  # wait for it: its arrays stay the lanes' alone
        raise


def _counted(lane: _AnyLane, lanes: list[_AnyLane]) -> bool:
    """Whether ``lane``'s nodes count as steps (beside other lanes the rows search runs its
    share uncounted: see :func:`solve_csp`)."""
    return len(lanes) == 1 or not isinstance(lane, RowSearch)


def _round_shares(lanes: list[_AnyLane]) -> list[int]:
    """Each lane's slices this round: its turn's share, and at least half the largest
    boosted share, so the lanes beside a boosted proof lane keep the second core busy."""
    shares = [lane.turn_share() if isinstance(lane, Lane) else lane.share for lane in lanes]
    boost = max((share for lane, share in zip(lanes, shares)
                 if isinstance(lane, Lane) and lane.boosted), default=0)
    return [share if isinstance(lane, Lane) and lane.boosted else max(share, boost // 2)
            for lane, share in zip(lanes, shares)]


def _round_limits(lanes: list[_AnyLane], budget: Budget, run: _Run) -> list[int]:
    """Each lane's node limit this round: the steps left, split between the counted lanes
    (so a round overshoots the budget by a node or two a lane: its part rounded up, and a
    backtrack that ends its turn)."""
    counted = [_counted(lane, lanes) for lane in lanes]
    if budget.steps is None:
        return [MAX_STEPS] * len(lanes)
    left = max(0, budget.steps - run.nodes)
    each = max(1, -(-left // max(1, sum(counted))))
    return [each if c else MAX_STEPS for c in counted]


def _settle(lane: _AnyLane, r: int, run: _Run, budget: Budget,
            seen: set[tuple[str, ...]], count: int) -> bool:
    """Note in ``run`` what ``lane``'s turn came to (``r``); whether the search is over."""
    if r == FOUND:
        words = lane.words()
        if tuple(words) in seen:
            return False
        seen.add(tuple(words))
        run.found.append(words)
        return len(run.found) >= count
    if r == EXHAUSTED:
        run.complete, run.decider = True, lane
        return True
    if r == RESTART and isinstance(lane, Lane):
        lane.restart()
        return False
    return r == STOPPED or budget.out_of_time()


def _no_fill(prob: Problem, lanes: list[_AnyLane], decider: _AnyLane | None,
             result: FillResult) -> None:
    """``result`` as the proof that no fill exists: its status, culprit and message."""
    result.status = NO_FILL
    if isinstance(decider, RowSearch):
        result.culprit = prob.slots[decider.culprit()].name
        how = f"the rows search, {decider.nodes} letters placed"
    else:
        state = max((lane for lane in lanes if isinstance(lane, Lane)),
                    key=lambda lane: lane.state.ctl[BEST]).state
        worst = max(range(prob.n), key=lambda s: state.sweight[s] + slot_weight(state, s))
        result.culprit = prob.slots[worst].name
        how = f"the CSP's complete search, {result.steps} steps"
        if isinstance(decider, Lane) and decider.kind.endswith("restarts"):
            mates = " and those of a twin search" if decider.mates else ""
            how = (f"the CSP's search with restarts and the nogoods of its {decider.runs} "
                   f"runs{mates}, {result.steps} steps in all")
        relax = decider.relax if isinstance(decider, Lane) else None
        if relax is not None and relax.proved:
            how = (f"the CSP's complete search of the grid cut down to {len(relax.keep)} of "
                   f"its {prob.n} slots, {result.steps} steps in all")
    result.message = (f"no fill exists (proved by {how}); its candidates ran out most "
                      f"often at {result.culprit}")


def _progress_of(lanes: list[_AnyLane], nodes: int, prob: Problem, found: int
                 ) -> SearchProgress:
    """The portfolio's progress: its steps and the best partial fill of its CSP lanes."""
    csp = [lane for lane in lanes if isinstance(lane, Lane)]
    if not csp:
        return SearchProgress(nodes, None, prob.n, found)
    best = max(csp, key=lambda lane: lane.state.ctl[BEST])

    def partial() -> list[str]:
        state = best.state
        return [state.t.word(s, int(state.best[s])) if state.ctl[BEST] >= 0 and
                state.best[s] >= 0 else "." * prob.lengths[s] for s in range(prob.n)]
    return SearchProgress(nodes, max(0, int(best.state.ctl[BEST])), prob.n, found, partial)


def _rows_out_of_budget(prob: Problem, lane: RowSearch, result: FillResult,
                        budget: Budget) -> FillResult:
    """The budget outcome of the rows search alone: its deepest partial fill."""
    result.partial = lane.partial()
    result.culprit = prob.slots[lane.culprit()].name
    return _budget_outcome(prob, result, budget, f"; cells ran out of letters most often in "
                                                 f"{result.culprit}")


def _budget_outcome(prob: Problem, result: FillResult, budget: Budget, why: str) -> FillResult:
    """``result`` as the budget outcome: its partial fill (set) and its message, ``why``
    after the common part."""
    result.status = BUDGET
    result.seconds = budget.elapsed()
    settled = sum("." not in w for w in result.partial or [])
    result.message = (f"budget exhausted after {result.steps} steps and {result.seconds:.1f} s; "
                      f"best partial fill settles {settled} of {prob.n} slots{why}")
    return result


def _out_of_budget(prob: Problem, state: State | None, result: FillResult,
                   budget: Budget) -> FillResult:
    """The budget outcome: the best partial fill and its tightest open slot."""
    if state is not None and state.ctl[BEST] >= 0:
        t = state.t
        result.partial = [t.word(s, int(state.best[s])) if state.best[s] >= 0
                          else "." * prob.lengths[s] for s in range(prob.n)]
        culprit = int(state.ctl[BEST_CULPRIT])
        if culprit >= 0:
            result.culprit = prob.slots[culprit].name
            result.culprit_candidates = int(state.ctl[BEST_OPEN])
    else:
        result.partial = ["." * n for n in prob.lengths]
        tight = min(range(prob.n), key=lambda s: len(prob.initial[s]))
        result.culprit = prob.slots[tight].name
        result.culprit_candidates = len(prob.initial[tight])
    return _budget_outcome(prob, result, budget,
                           f", fewest candidates at {result.culprit} ({result.culprit_candidates})"
                           if result.culprit else "")


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

