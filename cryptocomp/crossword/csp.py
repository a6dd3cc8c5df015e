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
root, which proves the outcome (no fill, or every fill found).  Beside lanes that
restart, a complete lane's share grows with the odds of its progress
(:func:`boosted_share`), so that a proof near its end is not kept waiting, and that
proof lane spends two turns in three on relaxations (:class:`_Relaxation`): the grid
cut down to the slots where the searches fail most, where a proof is cheaper.
"""

from __future__ import annotations

import logging
import signal
import threading
from collections.abc import Callable

import numba
import numpy as np

from ..index.index import Index
from .grid import GridError
from .lexicon import Lexicon
from .problem import Budget, Problem
from .propagation import DBASE, FAIL, OK, OPS, WIPED, undo
from .rectangle import RowSearch, is_rectangle, rows_can_fill
from .result import BUDGET, FILLED, NO_FILL, FillResult
from .search import (
    AGE,
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
    PAUSED,
    RESTART,
    SLOT_NOISE,
    STOPPED,
    progress,
    root,
    run,
)
from .square import square_grid
from .tables import State, refresh_compiled_cache
from .trie import MAX_LETTERS

__all__ = ["solve_csp", "root_domains", "strategy_for", "load_engine", "Problem", "Budget",
           "RootWipeout", "STRATEGIES"]

log = logging.getLogger(__name__)
refresh_compiled_cache()

RESTART_BASE = 400  # failures before the first restart
RESTART_GROWTH = 1.1
# the restart lanes' ageing of failure weights at each failure (search.AGE; ingrid_core's
# factor).  Measured against none, the same seeds side by side (CPU s): WordNet 15x15, 9
# seeds, mean 6.0 -> 4.7, slowest 17.2 -> 9.5 (median 4.8 -> 5.6); Russian top 100k, 4
# seeds, mean 5.7 -> 4.4; seed 000 layout 02 filled in 64 s and 49 s on two seeds of three
# (before: one, 82 s)
WEIGHT_AGE = 0.99
NOISE_AFTER_RESTART = 0.3
# the largest factor on a complete lane's share (boosted_share): beside two restart lanes
# of share 1, they keep at least a ninth of the time
PROOF_BOOST = 16
# the proof lane's relaxations (_Relaxation): its failures before the first, the first's
# share of the slots, and the fewest slots one has (also the least it grows by)
RELAX_AFTER = 600
RELAX_FIRST = 1 / 3
RELAX_MIN_SLOTS = 4
RELAX_TURNS = 3
ROWS_SHARE = 8  # the rows search's slices per word-branching slice on word rectangles
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
    """Call ``compiled(*args)`` with Ctrl-C held until it returns: where the compiled
    search reads the clock through a Python callback (:mod:`.clock` off Linux), a
    KeyboardInterrupt raised there comes out of numba as a SystemError and a traceback.
    Each call returns within a slice of work (a twentieth of a second or so), so the
    interrupt is still prompt."""
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


STRATEGIES = ("auto", "restarts", "words", "cells", "rows")
_loaded = False


def load_engine() -> None:
    """Load the searches' machine code, compiling it where numba has none cached (once
    after installing or upgrading: about 30 s), so that no fill's budget pays for it;
    later calls return at once.  Nothing runs: the signatures come from a 2x2 square."""
    global _loaded
    if _loaded or not hasattr(root, "compile"):  # NUMBA_DISABLE_JIT: plain Python
        return
    words = {"ab": 4, "ba": 3, "aa": 2, "bb": 1}
    prob = Problem(square_grid(2), Lexicon(Index.from_counts(words, name="engine")))
    state = State(prob.tables)
    for compiled, args in ((root, (state.T, state.D)), (run, (state.T, state.D, 1)),
                           (undo, (state.T, state.D, 0))):
        compiled.compile(tuple(numba.typeof(a) for a in args))
    RowSearch(prob).compile()
    _loaded = True


class _Lane:
    """One search of a portfolio: its state, configuration and restart schedule."""

    def __init__(self, state: State, kind: str, share: int, *, seed: int | None, twin: bool,
                 beside_restarts: bool, lookahead: bool, freq_weight: float, letter_branch: int,
                 restart_base: int):
        self.state, self.kind, self.share = state, kind, share
        params, ctl = state.params, state.ctl
        params[LOOKAHEAD] = 1.0 if lookahead else 0.0
        params[FREQ_WEIGHT] = freq_weight if lookahead else 1.0
        restarts = kind.endswith("restarts")
        params[LETTER_BRANCH] = -1 if kind.startswith("cells") else letter_branch
        params[AGE] = WEIGHT_AGE if restarts else 1.0
        self.root_mark = int(ctl[0])
        self.limit = float(restart_base) if restarts else 0.0
        ctl[FAIL_LIMIT] = int(self.limit)
        # a complete lane beside restart lanes has its turns widened by its progress
        self.boosted = beside_restarts and not restarts
        # a seed perturbs word scores in every word lane, slot ties only in a lane that
        # restarts: on word squares the first slot matters (the 7x7 all-English square:
        # 1.7 s from the first row, no fill in 60 s from a random one of the equal slots).
        # A twin (a second lane of a kind) is perturbed from the start, or it would repeat
        # the first one's first run
        self._noise(NOISE_AFTER_RESTART if seed is not None or twin else 0.0)
        self.runs = 1
        self.failed = 0  # in the runs before the current one
        # the proof lane beside restart lanes also searches relaxations (_Relaxation)
        self.relax: _Relaxation | None = None
        if self.boosted and kind == "cells":
            self.relax = _Relaxation(state, dict(lookahead=lookahead, freq_weight=freq_weight,
                                                 restart_base=restart_base))
            self.relax.peers = [self]

    def failures(self) -> int:
        """Failures of the lane's own search so far (its relaxations' aside)."""
        return self.failed + int(self.state.ctl[FAILS])

    @property
    def nodes(self) -> int:
        """Search nodes so far (those of its relaxations included)."""
        return int(self.state.ctl[NODES]) + (self.relax.nodes if self.relax else 0)

    def advance(self, node_limit: int, deadline: float) -> int:
        """Search on for the lane's slice of work, at most ``node_limit`` nodes, until
        ``deadline``: FOUND, EXHAUSTED, RESTART, STOPPED or PAUSED.  A proof lane spends
        every other turn on its relaxation (once its own search has failed often enough to
        tell where the grid is tight)."""
        state = self.state
        share = boosted_share(self.share, self.progress()) if self.boosted else self.share
        if self.relax is not None and self.relax.due():
            return self.relax.advance(share, node_limit, deadline)
        state.params[PAUSE_AT] = state.ctl[OPS] + _SLICE * share
        state.params[0] = deadline
        return _held(run, state.T, state.D, node_limit)

    def words(self) -> list[str]:
        """The fill just found."""
        return self.state.words()

    def progress(self) -> float:
        """The part of a complete lane's search already done (:func:`.search.progress`;
        of its relaxation's, when that is further on)."""
        done = progress(self.state.dec, int(self.state.ctl[DEPTH]))
        return max(done, self.relax.progress()) if self.relax else done

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
        self.failed += int(state.ctl[FAILS])
        state.ctl[FAILS] = 0
        state.ctl[LAST_SLOT] = -1
        self.limit *= RESTART_GROWTH
        state.ctl[FAIL_LIMIT] = int(self.limit)
        self._noise(NOISE_AFTER_RESTART)
        self.runs += 1


class _Relaxation:
    """The proof lane's relaxations: the grid cut down to its slots where searches fail
    most (the proof lane's failure weights), each with the words it had after the root's
    propagation, crossings to the other slots dropped.  A fill of the grid fills any such
    relaxation, so a relaxation without a fill proves that the grid has none; its
    propagation touches only its own slots, which is what makes it cheaper.  Measured on
    seed 000's layouts without a fill (English top 100k, complete cell branching, the
    top-weighted slots after 5 s): layout 21, 29,640 nodes in 41 s on the grid, 29,716
    in 12.5 s on its 24 heaviest slots (78 slots); 27, 28,466 nodes in 13.3 s on 24; 24,
    5,574 in 1.8 s on 16; 19, 3,134 in 1.5 s on 20.  A relaxation that has a fill (found
    at once on fewer slots: 0.01-2 s) gives way to a larger one."""

    def __init__(self, state: State, options: dict):
        self.state, self.options = state, options
        self.root_dom, self.root_size = state.dom.copy(), state.size.copy()
        self.n = len(state.size)
        self.slots = max(RELAX_MIN_SLOTS, int(self.n * RELAX_FIRST))
        self.lane: _Lane | None = None
        self.keep: list[int] = []
        self.turn = 0
        self.done_nodes = 0  # of relaxations that ended
        self.proved = False  # a relaxation was found to have no fill
        self.peers: list[_Lane] = []  # the lanes whose failure weights choose the slots

    @property
    def nodes(self) -> int:
        """Search nodes of every relaxation so far."""
        return self.done_nodes + (self.lane.nodes if self.lane else 0)

    def due(self) -> bool:
        """True when this turn of the proof lane goes to a relaxation: every other turn,
        once the lane's own search has failed RELAX_AFTER times, while a relaxation is
        smaller than the grid."""
        if self.slots >= self.n or (self.lane is None and self.failures() < RELAX_AFTER):
            return False
        self.turn += 1
        return self.turn % RELAX_TURNS != 0

    def failures(self) -> int:
        """The failures of the peers' searches so far."""
        return sum(peer.failures() for peer in self.peers)

    def progress(self) -> float:
        """The part of the current relaxation's search already done."""
        return self.lane.progress() if self.lane else 0.0

    def advance(self, share: int, node_limit: int, deadline: float) -> int:
        """Search the current relaxation (made first, if needed) for a turn: EXHAUSTED
        when it has no fill (nor has the grid), PAUSED or STOPPED otherwise."""
        if self.lane is None:
            made = self._make(deadline)
            if made is not None:
                return made
        lane = self.lane
        assert lane is not None
        lane.share = share
        r = lane.advance(node_limit, deadline)
        if r == EXHAUSTED:
            self.proved = True
        elif r == FOUND:  # the relaxation has a fill: next time a larger one
            self.done_nodes += lane.nodes
            self.lane = None
            self.slots += max(RELAX_MIN_SLOTS, self.slots // 2)
            return PAUSED
        return r

    def _make(self, deadline: float) -> int | None:
        """Make the next relaxation from the current weights; EXHAUSTED when its root
        propagation proves it has no fill, STOPPED at the deadline, None otherwise."""
        state = self.state
        weight = [sum(peer.state.sweight[s] + _slot_weight(peer.state, s)
                      for peer in self.peers) for s in range(self.n)]
        heavy = sorted(range(self.n), key=lambda s: -weight[s])
        self.keep = sorted(heavy[:self.slots])
        t = state.t
        cands = []
        for s in self.keep:
            db = t.slot[s, DBASE]
            cands.append(np.sort(self.root_dom[db:db + self.root_size[s]]))
        sub = State(t.restricted(self.keep, cands), seed=1)
        sub.params[0] = deadline
        r = _held(root, sub.T, sub.D)
        if r == FAIL:
            self.proved = True
            return EXHAUSTED
        if r != OK:
            return STOPPED
        log.debug("relaxation of %d of %d slots after %d failures", len(self.keep), self.n,
                  self.failures())
        self.lane = _Lane(sub, "cells", 1, seed=None, twin=False, beside_restarts=False,
                          letter_branch=0, **self.options)
        return None


def boosted_share(share: int, done: float) -> int:
    """``share`` times the odds that a complete search is ``done`` of the way through,
    done / (1 - done), rounded down, between 1 and PROOF_BOOST: beside lanes that restart
    (and cannot tell how far they are), a proof that is near its end gets the time to
    finish, while one stuck in a deep subtree keeps its plain share.  Seed 000 layouts 21
    and 27 (no fill): proved in 88 s each, where the plain 1:1:1 shares did not in 120 s."""
    odds = done / (1.0 - done) if done < 1.0 else float(PROOF_BOOST)
    return share * int(min(max(odds, 1.0), PROOF_BOOST))


def strategy_for(prob: Problem) -> tuple[tuple[str, int], ...]:
    """The lanes ``auto`` runs, each with its share of the time slices: word rectangles
    (:func:`.rectangle.is_rectangle`) get the ``rows`` search, which decides 7x7 squares
    outright, beside plain word branching, which finds fills sooner on long lists
    (ROWS_SHARE:1; cell and word branching, 2:1, past 64 letters); other grids two
    dom/wdeg searches with restarts, which find fills, beside cell branching, which
    proves that none exists far sooner (1:1:1).  Two restart lanes, randomised apart, cut
    the heavy tail of one (WordNet 15x15, 8 seeds: slowest 14.8 s with one, 7.4 s with
    two; medians 2.7 and 2.9 s)."""
    if rows_can_fill(prob):
        return (("rows", ROWS_SHARE), ("words", 1))
    if is_rectangle(prob):  # over more letters than the rows search handles
        return (("cells", 2), ("words", 1))
    return (("restarts", 1), ("restarts", 1), ("cells", 1))


_AnyLane = _Lane | RowSearch


def _lanes(prob: Problem, kinds: tuple[tuple[str, int], ...], budget: Budget, count: int,
           seed: int | None, **options) -> list[_AnyLane] | FillResult:
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
            lanes.append(RowSearch(prob, count=count, share=share, slice_units=_SLICE))
            continue
        try:
            state = _root_state(prob, budget, (0 if seed is None else seed + 1) + 7919 * i)
        except RootWipeout as exc:
            return no_fill_at_root(prob, exc.slot, FillResult(prob.grid, BUDGET, engine="csp"),
                                   budget)
        if state is None:
            first = next((lane.state for lane in lanes if isinstance(lane, _Lane)), None)
            return _out_of_budget(prob, first, FillResult(prob.grid, BUDGET, engine="csp"),
                                  budget)
        twin = any(lane.kind == kind for lane in lanes)
        lanes.append(_Lane(state, kind, share, seed=seed, twin=twin,
                           beside_restarts=beside_restarts, **options))
    peers = [lane for lane in lanes if isinstance(lane, _Lane)]
    for lane in lanes:
        if isinstance(lane, _Lane) and lane.relax is not None:
            lane.relax.peers = peers
    return lanes


def solve_csp(prob: Problem, *, count: int = 1, budget: Budget | None = None,
              seed: int | None = None, strategy: str = "auto", restart_base: int = RESTART_BASE,
              lookahead: bool = True, freq_weight: float = 0.25,
              letter_branch: int = 0) -> FillResult:
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
    slot order of ``restarts``); ``cells`` and ``rows`` do not depend on it.  Steps are
    the nodes of the propagating lanes (letters placed when ``rows`` runs alone: beside
    them it runs its share of work uncounted, its nodes being a thousand times cheaper).
    """
    if strategy not in STRATEGIES:
        raise ValueError(f"unknown strategy {strategy!r}")
    budget = budget or Budget()
    kinds = strategy_for(prob) if strategy == "auto" else ((strategy, 1),)
    made = _lanes(prob, kinds, budget, count, seed, lookahead=lookahead,
                  freq_weight=freq_weight, letter_branch=letter_branch,
                  restart_base=restart_base)
    if isinstance(made, FillResult):
        return made
    lanes = made
    result = FillResult(prob.grid, BUDGET, engine="csp")
    found: list[list[str]] = []
    seen: set[tuple[str, ...]] = set()
    complete, done = False, False
    nodes = 0
    decider: _AnyLane | None = None
    while not done:
        for lane in lanes:
            if budget.steps is not None and nodes >= budget.steps:
                done = True
                break
            counted = len(lanes) == 1 or not isinstance(lane, RowSearch)
            before = lane.nodes
            node_limit = budget.steps - nodes if budget.steps is not None and counted \
                else 1 << 62
            r = lane.advance(node_limit, budget.deadline())
            if counted:
                nodes += lane.nodes - before
            if r == FOUND:
                words = lane.words()
                if tuple(words) not in seen:
                    seen.add(tuple(words))
                    found.append(words)
                    done = len(found) >= count
            elif r == EXHAUSTED:
                complete = done = True
                decider = lane
            elif r == RESTART and isinstance(lane, _Lane):
                lane.restart()
            elif r == STOPPED or budget.out_of_time():
                done = True
            if done:
                break
    result.steps = nodes
    result.seconds = budget.elapsed()
    result.fills = found
    result.complete = complete
    for lane in lanes:
        log.debug("CSP lane %s: %d nodes", lane.kind, lane.nodes)
    if found:
        result.status = FILLED
        result.message = (f"filled {len(found)} way{'s' if len(found) > 1 else ''}"
                          + (" (all fills)" if complete and len(found) < count else ""))
    elif complete:
        result.status = NO_FILL
        if isinstance(decider, RowSearch):
            result.culprit = prob.slots[decider.culprit()].name
            how = f"the rows search, {decider.nodes} letters placed"
        else:
            state = max((lane for lane in lanes if isinstance(lane, _Lane)),
                        key=lambda lane: lane.state.ctl[BEST]).state
            worst = max(range(prob.n), key=lambda s: state.sweight[s] + _slot_weight(state, s))
            result.culprit = prob.slots[worst].name
            how = f"the CSP's complete search, {result.steps} steps"
            relax = decider.relax if isinstance(decider, _Lane) else None
            if relax is not None and relax.proved:
                how = (f"the CSP's complete search of the grid cut down to {len(relax.keep)} of "
                       f"its {prob.n} slots, {result.steps} steps in all")
        result.message = (f"no fill exists (proved by {how}); its candidates ran out most "
                          f"often at {result.culprit}")
    else:
        csp = [lane for lane in lanes if isinstance(lane, _Lane)]
        if not csp:
            rows = lanes[0]
            assert isinstance(rows, RowSearch)
            return _rows_out_of_budget(prob, rows, result, budget)
        best = max(csp, key=lambda lane: lane.state.ctl[BEST])
        return _out_of_budget(prob, best.state, result, budget)
    return result


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

