"""The lanes of the CSP's portfolio: one search each, its state and its turns of work.

A :class:`Lane` runs one compiled strategy (:mod:`.search`) on its own
:class:`~.tables.State`, a slice of work at a time (:meth:`Lane.advance`); a lane
that restarts keeps the nogoods of its runs (:mod:`.nogood`: it stays complete), takes
those of the other restart lanes (its mates) at its restarts, from copies they publish
between turns (:meth:`Lane.publish`: lanes may run side by side), and keeps its failure
weights, ageing them, and randomises its ties (a
second one also weighs frequency less in its word choice, :data:`TWIN_FREQ`).
The complete lane beside restart lanes (the proof lane of
:func:`.csp.strategy_for`) gets turns that grow with the odds of its progress
(:func:`boosted_share`) and spends two in three on relaxations (:class:`Relaxation`): the
grid cut down to the slots where the searches fail most, where a proof is cheaper.
"""

from __future__ import annotations

import logging
import signal
import threading
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from . import warmup
from .layout import (
    AGE,
    DBASE,
    DEADLINE,
    DEPTH,
    FAIL_LIMIT,
    FAILS,
    FREQ_WEIGHT,
    LAST_SLOT,
    LEN,
    LETTER_BRANCH,
    LOOKAHEAD,
    NGN,
    NODES,
    NOISE,
    OPS,
    OTHER,
    PAUSE_AT,
    SLOT_NOISE,
    TRAIL,
    XID,
)
from .nogood import adopt, learn
from .propagation import FAIL, OK
from .search import EXHAUSTED, FOUND, PAUSED, RESTART, STOPPED, progress, root, run
from .tables import State

__all__ = ["Lane", "Learned", "Relaxation", "Nogoods", "PeerView", "boosted_share", "held",
           "slot_weight", "SLICE"]

log = logging.getLogger(__name__)

RESTART_GROWTH = 1.1
# the restart lanes' ageing of failure weights at each failure (layout.AGE; ingrid_core's
# factor): recent failures steer more than old ones, which cuts the slow tail of the
# restart lanes over the same seeds (scripts/LOG.md, "failure weights that age")
WEIGHT_AGE = 0.99
NOISE_AFTER_RESTART = 0.3
# the factor on the second restart lane's frequency weight in word choice (0.1 against the
# first's 0.25 by default): the two lanes differ in what they try first, not only by noise,
# which fills hard lists sooner at little cost in the words' ranks; without frequency at
# all the ranks suffer (scripts/LOG.md, "the twin restart lane")
TWIN_FREQ = 0.4
# the largest factor on a complete lane's share (boosted_share): beside two restart lanes
# of share 1, they keep at least a ninth of the time
PROOF_BOOST = 16
# the proof lane's relaxations (Relaxation): the lanes' failures before the first (enough
# for the weights to find the tight part of a 15x15 grid), the first's share of the slots
# (a quarter kept relaxations that still had fills; a third decides the seed-000 layouts
# without a fill at once: scripts/LOG.md, "relaxations"), the fewest slots one has (also
# the least it grows by), and the turns of the proof lane in which one takes all but one
# (its own search of the whole grid goes on in the last)
RELAX_AFTER = 600
RELAX_FIRST = 1 / 3
RELAX_MIN_SLOTS = 4
RELAX_TURNS = 3

# work units (letters touched: a twentieth of a second or so) between returns to Python
# (Ctrl-C, the step budget, the next lane): counted, not timed, so that a seed gives the
# same fill on any machine and under any load (the arrow-word batches rely on it)
SLICE = 5_000_000


def held(compiled: Callable[..., int], *args: object) -> int:
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


@dataclass(frozen=True)
class Nogoods:
    """Nogoods a lane has published for its mates: a copy of its arrays' part holding them
    (the lane's own watches reorder literals in its arrays while mates read the copy)."""

    s: np.ndarray      # the literals' slots, nogood after nogood
    k: np.ndarray      # the literals' words
    start: np.ndarray  # where each nogood starts in s and k, and the end


@dataclass(frozen=True)
class PeerView:
    """What a relaxation reads of the portfolio's lanes, taken while none of them runs: their
    failures, and the slots' failure weights (None: not needed before the next look)."""

    failures: int
    weight: list[float] | None


class Lane:
    """One search of a portfolio: its state, configuration and restart schedule."""

    def __init__(self, state: State, kind: str, share: int, *, seed: int | None, twin: bool,
                 beside_restarts: bool, lookahead: bool, freq_weight: float, letter_branch: int,
                 restart_base: int):
        self.state, self.kind, self.share = state, kind, share
        params, ctl = state.params, state.ctl
        params[LOOKAHEAD] = 1.0 if lookahead else 0.0
        restarts = kind.endswith("restarts")
        params[FREQ_WEIGHT] = (freq_weight * (TWIN_FREQ if twin and restarts else 1.0)
                               if lookahead else 1.0)
        params[LETTER_BRANCH] = -1 if kind.startswith("cells") else letter_branch
        params[AGE] = WEIGHT_AGE if restarts else 1.0
        self.root_mark = int(ctl[TRAIL])
        if restarts:
            state.record_nogoods()
        self.over: int | None = None  # EXHAUSTED or STOPPED: what a restart's root found
        self.limit = float(restart_base) if restarts else 0.0
        ctl[FAIL_LIMIT] = int(self.limit)
        # a complete lane beside restart lanes has its turns widened by its progress
        self.boosted = beside_restarts and not restarts
        # a seed perturbs word scores in every word lane, slot ties only in a lane that
        # restarts: on word squares the first slot matters (the 7x7 all-English square fills
        # at once from the first row, and not in a minute from a random one of the equal
        # slots: scripts/LOG.md).
        # A twin (a second lane of a kind) is perturbed from the start, or it would repeat
        # the first one's first run
        self._noise(NOISE_AFTER_RESTART if seed is not None or twin else 0.0)
        self.runs = 1
        self.failed = 0  # in the runs before the current one
        # the ranges of the nogoods it recorded itself (not taken from mates), run after run
        self.own: list[tuple[int, int]] = []
        self.published: list[Nogoods] = []  # copies of its own, for the mates
        self.mates: list[Lane] = []
        self.taken: list[int] = []  # how many of each mate's published copies it has taken
        self.halted = False
        # the proof lane beside restart lanes also searches relaxations (Relaxation)
        self.relax: Relaxation | None = None
        if self.boosted and kind == "cells":
            self.relax = Relaxation(state, dict(lookahead=lookahead, freq_weight=freq_weight,
                                                 restart_base=restart_base))
            self.relax.peers = [self]

    def failures(self) -> int:
        """Failures of the lane's own search so far (its relaxations' aside)."""
        return self.failed + int(self.state.ctl[FAILS])

    @property
    def nodes(self) -> int:
        """Search nodes so far (those of its relaxations included)."""
        return int(self.state.ctl[NODES]) + (self.relax.nodes if self.relax else 0)

    def turn_share(self) -> int:
        """The slices of the lane's next turn: its share, times the odds of its progress for
        a complete lane beside restart lanes (:func:`boosted_share`)."""
        return boosted_share(self.share, self.progress()) if self.boosted else self.share

    def advance(self, node_limit: int, deadline: float, share: int | None = None,
                through_restarts: bool = False) -> int:
        """Search on for ``share`` slices of work (default :meth:`turn_share`), at most
        ``node_limit`` nodes, until ``deadline``: FOUND, EXHAUSTED, RESTART, STOPPED or
        PAUSED; ``through_restarts``: restart within the turn (never RESTART).  A proof
        lane spends most turns on a relaxation once the lanes have failed often enough to
        tell where the grid is tight (:meth:`Relaxation.due`)."""
        if self.over is not None:
            return self.over
        state = self.state
        share = self.turn_share() if share is None else share
        if self.relax is not None and self.relax.due():
            return self.relax.advance(share, node_limit, deadline)
        state.params[PAUSE_AT] = state.ctl[OPS] + SLICE * share
        state.params[DEADLINE] = deadline
        start = self.nodes
        while True:
            if self.halted:  # after DEADLINE is set: halt() may have set it first
                return STOPPED
            r = held(run, state.T, state.D, node_limit - (self.nodes - start))
            if r != RESTART or not through_restarts:
                return r
            self.restart()
            if self.over is not None:
                return self.over

    def halt(self) -> None:
        """Make a turn running in another thread return soon (STOPPED), and every later one
        at once."""
        self.halted = True
        self.state.params[DEADLINE] = -1.0
        if self.relax is not None and self.relax.lane is not None:
            self.relax.lane.halt()

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

    def pair(self, lanes: list[Lane]) -> None:
        """Take the nogoods of ``lanes`` (restart lanes of the same grid) at each restart."""
        self.mates = [lane for lane in lanes if lane is not self]
        # a nogood names words by their index in a slot's tables: the same tables only
        assert all(mate.state.t is self.state.t for mate in self.mates)
        self.taken = [0] * len(self.mates)

    def publish(self) -> None:
        """Copy the nogoods it recorded since the last call for its mates to take (call it
        while the lane does not run)."""
        state = self.state
        for first, end in self.own[len(self.published):]:
            b, e = int(state.ng_start[first]), int(state.ng_start[end])
            start = state.ng_start[first:end + 1] - state.ng_start[first]
            self.published.append(Nogoods(state.ng_s[b:e].copy(), state.ng_k[b:e].copy(),
                                          start))

    def restart(self) -> None:
        """Back to the root, keeping the nogoods of the run that ends there and taking the
        mates' new ones, with a longer failure limit and randomised tie-breaks."""
        state = self.state
        if not warmup.await_nogoods(float(state.params[DEADLINE])):
            self.over = STOPPED  # the budget ran out while the nogoods compiled (first use)
            return
        before = int(state.ctl[NGN])
        r = held(learn, state.T, state.D, self.root_mark)
        self.own.append((before, int(state.ctl[NGN])))
        if r == OK:
            r = self._adopt()
        if r == OK:
            self.root_mark = int(state.ctl[TRAIL])
        else:  # the nogoods leave no fill, or the deadline came in their propagation
            self.over = EXHAUSTED if r == FAIL else STOPPED
        self.failed += int(state.ctl[FAILS])
        state.ctl[FAILS] = 0
        state.ctl[LAST_SLOT] = -1
        self.limit *= RESTART_GROWTH
        state.ctl[FAIL_LIMIT] = int(self.limit)
        self._noise(NOISE_AFTER_RESTART)
        self.runs += 1

    def _adopt(self) -> int:
        """Apply at the root the nogoods the mates published since the last restart: OK,
        FAIL or OUT_OF_TIME."""
        state = self.state
        for i, mate in enumerate(self.mates):
            fresh = mate.published[self.taken[i]:]
            self.taken[i] += len(fresh)
            for got in fresh:
                if len(got.start) < 2:
                    continue
                r = held(adopt, state.T, state.D, got.s, got.k, got.start, 0,
                         len(got.start) - 1, int(state.ctl[TRAIL]))
                if r != OK:
                    return r
        return OK


class Learned:
    """What the restart lanes learned of a grid, kept for its next search over another list
    (a fill's improvement, :mod:`.improvement`): the failure weights of its crossings and
    slots, from the restart lane that failed most: improvements find commoner rarest words
    more often than they find rarer ones (scripts/LOG.md, "learned weights")."""

    def __init__(self) -> None:
        self.grid: object = None
        self.weight: np.ndarray | None = None
        self.sweight: np.ndarray | None = None

    def give(self, lanes: list) -> None:
        """Start ``lanes``' restart lanes from the kept weights, when they are of its grid."""
        if self.weight is None or self.sweight is None:
            return
        for lane in _restart_lanes(lanes):
            state = lane.state
            if state.t.prob.grid is self.grid and state.weight.shape == self.weight.shape \
                    and state.sweight.shape == self.sweight.shape:
                state.weight[:] = self.weight
                state.sweight[:] = self.sweight

    def take(self, lanes: list) -> None:
        """Keep the weights of the restart lane of ``lanes`` that failed most."""
        restarts = _restart_lanes(lanes)
        if restarts:
            state = max(restarts, key=Lane.failures).state
            self.grid = state.t.prob.grid
            self.weight, self.sweight = state.weight.copy(), state.sweight.copy()


def _restart_lanes(lanes: list) -> list[Lane]:
    """The lanes of ``lanes`` that restart."""
    return [lane for lane in lanes if isinstance(lane, Lane) and lane.kind == "restarts"]


class Relaxation:
    """The proof lane's relaxations: the grid cut down to its slots where searches fail
    most (the failure weights of all the portfolio's lanes), each with the words it had
    after the root's propagation, crossings to the other slots dropped.  A fill of the
    grid fills any such relaxation, so a relaxation without a fill proves that the grid
    has none; its propagation touches only its own slots, which is what makes it cheaper:
    about as many nodes as on the whole grid, each a fraction of the cost (scripts/LOG.md,
    "relaxations").  A relaxation that has a fill (found at once on fewer slots) gives way
    to one half as large again."""

    def __init__(self, state: State, options: dict):
        """``state``: the proof lane's, at its root; ``options``: its lanes' options."""
        self.state, self.options = state, options
        # a slot's words at the root stay the first root_size[s] of its sparse set: later
        # removals only swap within the alive part, and undo only grows it again
        self.root_size = state.size.copy()
        self.n = len(state.size)
        self.slots = max(RELAX_MIN_SLOTS, int(self.n * RELAX_FIRST))
        self.lane: Lane | None = None
        self.keep: list[int] = []
        self.turn = 0
        self.done_nodes = 0  # of relaxations that ended
        self.proved = False  # a relaxation was found to have no fill
        self.peers: list[Lane] = []  # the lanes whose failure weights choose the slots
        # the peers as last observed (None: read them live, as when the lanes take turns)
        self.view: PeerView | None = None

    @property
    def nodes(self) -> int:
        """Search nodes of every relaxation so far."""
        return self.done_nodes + (self.lane.nodes if self.lane else 0)

    def due(self) -> bool:
        """True when this turn of the proof lane goes to a relaxation: all but one turn in
        RELAX_TURNS, once the lanes have failed RELAX_AFTER times in all, while a
        relaxation is smaller than the grid."""
        if self.slots >= self.n or (self.lane is None and self.failures() < RELAX_AFTER):
            return False
        self.turn += 1
        return self.turn % RELAX_TURNS != 0

    def failures(self) -> int:
        """The failures of the peers' searches so far (when last observed)."""
        return self.view.failures if self.view is not None else self._peer_failures()

    def observe(self) -> None:
        """Note the peers' failures, and their weights when the next turn may make a
        relaxation from them: the lanes running side by side read this view, not one
        another's changing state (call it while no peer runs)."""
        failures = self._peer_failures()
        due = self.lane is None and self.slots < self.n and failures >= RELAX_AFTER
        self.view = PeerView(failures, self._peer_weights() if due else None)

    def _peer_failures(self) -> int:
        """The peers' failures now."""
        return sum(peer.failures() for peer in self.peers)

    def _weights(self) -> list[float]:
        """Each slot's failure weight over the peers (as last observed, when observed)."""
        if self.view is not None and self.view.weight is not None:
            return self.view.weight
        return self._peer_weights()

    def _peer_weights(self) -> list[float]:
        """Each slot's failure weight over the peers now."""
        return [sum(peer.state.sweight[s] + slot_weight(peer.state, s)
                    for peer in self.peers) for s in range(self.n)]

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
        weight = self._weights()
        heavy = sorted(range(self.n), key=lambda s: -weight[s])
        self.keep = sorted(heavy[:self.slots])
        t = state.t
        cands = []
        for s in self.keep:
            db = t.slot[s, DBASE]
            cands.append(np.sort(state.dom[db:db + self.root_size[s]]))
        sub = State(t.restricted(self.keep, cands), seed=1)
        sub.params[DEADLINE] = deadline
        r = held(root, sub.T, sub.D)
        if r == FAIL:
            self.proved = True
            return EXHAUSTED
        if r != OK:
            return STOPPED
        log.debug("relaxation of %d of %d slots after %d failures", len(self.keep), self.n,
                  self.failures())
        self.lane = Lane(sub, "cells", 1, seed=None, twin=False, beside_restarts=False,
                          letter_branch=0, **self.options)
        return None


def boosted_share(share: int, done: float) -> int:
    """``share`` times the odds that a complete search is ``done`` of the way through,
    done / (1 - done), rounded down, between 1 and PROOF_BOOST: beside lanes that restart
    (and cannot tell how far they are), a proof that is near its end gets the time to
    finish, while one stuck in a deep subtree keeps its plain share (scripts/LOG.md, "the
    proof lane's boost")."""
    odds = done / (1.0 - done) if done < 1.0 else float(PROOF_BOOST)
    return share * int(min(max(odds, 1.0), PROOF_BOOST))


def slot_weight(state: State, s: int) -> float:
    """The failure weight slot ``s`` gained on its crossings (their weights' excess over 1)."""
    t = state.t
    total = 0.0
    for p in range(t.slot[s, LEN]):
        x = s * t.maxlen + p
        if t.cross[x, OTHER] >= 0:
            total += state.weight[t.cross[x, XID]] - 1.0
    return total
