"""The whole-bag search: an exact branch and bound (the rules are in :mod:`.bag`).

Its algorithm (canonical order, branching, bound, iterative deepening) is described in
the docstring of :mod:`.bag`.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache

import numpy as np

from ..errors import CryptocompError
from ..index.index import Index
from ..index.wordfilter import ALL_WORDS, WordFilter
from ..jitcache import cache_dir, compile_note, is_cached, prune
from .bagbound import NONE, child_bounds, children_check, node_bound
from .bagrows import fitting_rows, rows_holding, rows_without
from .bagwords import BagWords, Candidate, Phase
from .tiles import TileSet

__all__ = ["BagSearch", "load_kernels"]

log = logging.getLogger(__name__)

_INF = float("inf")
# the children check first pairs the children with this many of the most valuable rows
# (see BagSearch._children_hopeful)
_SCREEN = 64
# a children check of at most this many (child, row) pairs is one compiled call; a longer
# one goes in chunks of about this size, reading the clock between them
_ONE_CALL = 100_000
# each round of the iterative deepening looks for a loss below the last budget times this
_GROWTH = 1.25
_NO_COLS = np.zeros(0, dtype=np.int64)
_NO_FITS = np.zeros((0, 0), dtype=bool)
# the time load_kernels() takes from no cache, as the line before compiling says it
# (README "First use" has the measurements)
COMPILE_SECONDS = 8
_loaded = False


def load_kernels() -> None:
    """Load the compiled bounds' and rows' machine code, compiling it where none is cached
    (once for each version of their sources: :mod:`..jitcache`), with one line
    that says so, so that no bag's time limit pays for it; later calls return at once.
    A whole-bag search of three tiles calls every kernel with the types of any other."""
    global _loaded
    if _loaded or not hasattr(node_bound, "compile"):  # NUMBA_DISABLE_JIT: plain Python
        return
    cache = cache_dir(node_bound)
    if not is_cached(cache, ("bagbound", "bagrows")):
        (log.info if cache is not None else log.warning)(
            "%s", compile_note("bag", "the whole-bag search", COMPILE_SECONDS))
        if cache is not None:
            prune(cache)  # the code of older sources, which no install loads any more
    tiles = TileSet("kernels", "en", "load_kernels", {"a": 2, "b": 1, "t": 1},
                    {"a": 1, "b": 3, "t": 1}, 1)
    words = Index.from_counts({"ab": 5, "ba": 4, "at": 3, "tab": 2, "bat": 1}, name="kernels")
    BagSearch(tiles, words, 3, None, None).run()
    _loaded = True


@cache
def _cuts(L: int, longest: int, s: int, shortest: int = 1) -> tuple[tuple[int, ...], ...]:
    """For every way to cut ``s`` tiles into words of ``shortest`` to ``longest`` tiles, the loss
    coefficients (``L - length`` per tile) sorted high to low, dominated ones dropped:
    charging the cheapest tiles to the highest coefficients gives the least loss."""
    vectors: set[tuple[int, ...]] = set()

    def walk(left: int, most: int, parts: list[int]) -> None:
        if left == 0:
            vectors.add(tuple(sorted((L - p for p in parts for _ in range(p)), reverse=True)))
            return
        for p in range(min(most, left), shortest - 1, -1):
            parts.append(p)
            walk(left - p, p, parts)
            parts.pop()

    if longest >= 1:
        walk(s, longest, [])
    kept: list[tuple[int, ...]] = []
    for vec in sorted(vectors, key=sum):
        if not any(all(a <= b for a, b in zip(k, vec)) for k in kept):
            kept.append(vec)
    return tuple(kept)


@cache
def _cut_table(L: int, longest: int, s: int, shortest: int) -> np.ndarray:
    """:func:`_cuts` as an array, one cut a row (``s`` columns; no rows when ``s`` tiles
    cannot be cut so)."""
    return np.array(_cuts(L, longest, s, shortest), dtype=np.int64).reshape(-1, s)


@dataclass(frozen=True)
class Branching:
    """A node about to branch on a face in phase ``ell``: its state and the rows (fitting
    ``ell``-words) it chooses among.  Row arrays are aligned: row ``i`` is candidate
    ``phase.cand(rows[i])``."""

    ell: int                 # the phase: words of ell tiles
    remaining: np.ndarray    # tiles left, per face
    blanks: int              # blanks left
    bans: int                # bit mask of faces no further ell-word may hold
    loss: int                # loss so far
    phase: Phase             # the phase's candidates
    rows: np.ndarray         # fitting rows of the phase
    value: np.ndarray        # per row: the value of the real tiles it takes (blanks the rest)
    deficit: np.ndarray      # per row: blanks it needs
    choices: np.ndarray      # the rows holding the branching face, best value first


class BagSearch:
    """The branch and bound of the module docstring over one tile set and index."""

    def __init__(self, ts: TileSet, index: Index, max_length: int, time_limit: float | None,
                 progress: Callable[[str], None] | None, words: WordFilter = ALL_WORDS):
        self.ts = ts
        self.allowed = words  # the words the bag may use
        self.faces = list(ts.counts)
        if len(self.faces) > 62:
            raise CryptocompError(f"the {ts.name} set has {len(self.faces)} faces; at most 62 "
                                  "are supported")
        self.code = {f: i for i, f in enumerate(self.faces)}
        self.values = np.array([ts.values[f] for f in self.faces], dtype=np.int64)
        self.L = max_length
        self.bag = np.array([ts.counts[f] for f in self.faces], dtype=np.int16)
        self.blanks = ts.blanks
        self.total_value = int(self.bag @ self.values)
        # value levels (0 first, for blanks) and each face's level as a one-hot matrix
        self.levels = np.array(sorted({0, *self.values.tolist()}), dtype=np.int64)
        self.level_index = np.searchsorted(self.levels, self.values).astype(np.int64, copy=False)
        self.time_limit = time_limit
        self.progress = progress
        self.started = time.perf_counter()
        self.deadline = _INF if time_limit is None else self.started + time_limit
        self._collect(index)
        self.nodes = 0
        self.memo: dict[tuple, float] = {}
        self.best = _INF
        self.best_path: list[tuple[Candidate, np.ndarray]] | None = None
        self.path: list[tuple[Candidate, np.ndarray]] = []
        self.rounds: list[float] = []
        self.visits: dict[tuple[int, int], int] = {}  # (words so far, phase length) -> nodes
        self.refuted = 0.0  # every solution has at least this loss

    def _collect(self, index: Index) -> None:
        """The dictionary's fitting tilings as phases by length (:class:`.bagwords.BagWords`);
        the time limit covers this preparation too."""
        words = BagWords(self.ts, index, self.faces, self.L, self._out_of_time, self.allowed)
        self.timed_out = not words.complete
        self.words = words
        self.phases = words.phases
        self.lengths = words.lengths if words.complete else []
        self.short_firsts = words.firsts  # length -> first faces of words that long
        self.n_candidates = words.count

    def _out_of_time(self) -> bool:
        return time.perf_counter() > self.deadline

    def _look(self) -> None:
        """Read the clock (a node costs a thousand times as much): ``timed_out`` once the
        deadline has passed.  Read every 64 nodes, a limit ran 2.3 s over 2 s on the
        Russian list, whose nodes take up to 0.7 s."""
        if self._out_of_time():
            self.timed_out = True

    # -- the bound ------------------------------------------------------------------------

    def _bound(self, ell: int, remaining: np.ndarray, blanks: int, bans: int,
               values_fit: np.ndarray, first_fit: np.ndarray) -> float:
        """A lower bound on the loss of any completion in phase ``ell`` whose ``ell``-tile
        words are among the fitting candidates given by their real values and first faces
        (:func:`.bagbound.node_bound`)."""
        n_tiles = int(remaining.sum()) + blanks
        cuts = _cut_table(self.L, ell - 1, n_tiles % ell + ell, self.lengths[-1])
        bound = node_bound(self.L, ell, remaining, blanks, bans, values_fit, first_fit,
                           self.values, self.lengths[-1], cuts)
        return _INF if bound >= NONE else int(bound)

    def _children_hopeful(self, node: Branching) -> tuple[np.ndarray, np.ndarray | None]:
        """For each child (choosing row ``node.choices[a]``), whether a cheap version of its bound
        -- computed for all children at once -- leaves it a chance of beating the best loss;
        and, near the leaves, each child's fitting rows (None: the caller works them out).

        Two passes, each giving a lower bound on the child's loss (so skipping a child that
        either condemns is safe):

        1. *Screen* (only when there are many rows): pair the children with the
           ``_SCREEN`` most valuable rows only.  Every other row is worth at most ``pad``
           (the best value left out; blanks only lower a row's value), so a child's true
           caps are at most those of its screened fitting rows merged with unlimited extra
           words of value ``pad`` at distinct first faces: caps too high, never too low,
           and any number of further words allowed.  Only the parent's bans count: a
           subset of the child's banned faces, and the bound holds for any subset of truly
           banned faces (the others are charged as free tiles, at most their value).
        2. *Exact pairing* of the children the screen kept with every row.

        Near the leaves most children die of their value caps, which the screen sees at a
        fraction of the cost of pairing with every row."""
        n_children, rows = len(node.choices), node.rows
        if n_children == 0:
            return np.zeros(0, dtype=bool), None
        # pairing up pays near the leaves only, where a child can hold at most two more
        # ell-words and most children die of their value caps
        if int(node.remaining.sum()) + node.blanks - node.ell >= 4 * node.ell:
            return np.ones(n_children, dtype=bool), None
        if n_children * max(len(rows), _SCREEN) <= _ONE_CALL:  # one compiled call, no clock
            return self._children_check(node)
        hopeful = np.ones(n_children, dtype=bool)
        if len(rows) > 2 * _SCREEN:
            row_values = node.phase.value[rows]
            top = np.sort(np.argpartition(-row_values, _SCREEN)[:_SCREEN])  # keeps P's order
            rest = np.ones(len(rows), dtype=bool)
            rest[top] = False
            pad = int(row_values[rest].max())
            chunk = max(1, _ONE_CALL // _SCREEN)
            for i in range(0, n_children, chunk):
                if i:  # a long check reads the clock between its chunks
                    self._look()
                if self.timed_out:
                    break
                picked = np.arange(i, min(i + chunk, n_children))
                hopeful[picked] = self._child_bounds(node, picked, top, pad, _NO_FITS) < self.best
        fits = np.zeros((n_children, len(rows)), dtype=bool)
        alive = np.flatnonzero(hopeful)
        chunk = max(1, _ONE_CALL // max(1, len(rows)))  # bounds the c x k x F temporaries
        for i in range(0, len(alive), chunk):
            if i:
                self._look()
            if self.timed_out:
                break
            picked = alive[i:i + chunk]
            bound = self._child_bounds(node, picked, None, None, fits)
            hopeful[picked] = bound < self.best
        return hopeful, fits

    def _children_check(self, node: Branching) -> tuple[np.ndarray, np.ndarray]:
        """:meth:`_children_hopeful`'s two passes in one compiled call
        (:func:`.bagbound.children_check`), for a check small enough not to read the clock."""
        P, ell = node.phase, node.ell
        n_tiles = int(node.remaining.sum()) + node.blanks - ell
        cuts = _cut_table(self.L, ell - 1, n_tiles % ell + ell, self.lengths[-1])
        best = NONE if self.best >= NONE else int(self.best)
        hopeful, fits = children_check(
            self.L, ell, node.remaining, node.blanks, node.bans, node.loss, best, node.rows,
            P.first, P.value, P.present, P.counts, node.value, node.deficit, node.choices,
            _SCREEN, self.values, self.levels, self.level_index, self.lengths[-1], cuts)
        return hopeful, fits

    def _child_bounds(self, node: Branching, picked: np.ndarray, cols: np.ndarray | None,
                      pad: int | None, fits: np.ndarray) -> np.ndarray:
        """For the children ``node.choices[picked]``: a cheap lower bound on their loss; which
        rows fit each goes to ``fits[picked]`` (when not screening).  ``cols`` None: pair
        them with every row; else with the rows at ``cols`` only, every other row counting
        as a word worth ``pad`` (the screen of :meth:`_children_hopeful`): the i-th best
        true cap word is worth at most the larger of the i-th best screened one and ``pad``
        (if one of the i best first faces has its
        best word left out, that word is worth at most ``pad``; if none has, the screened
        rows hold i first faces worth as much), so the caps only grow.

        The child's fitting rows are found exactly (every pair); its value caps come from
        them; its cheapest tiles are charged at its own free tiles; the cut refinement is
        as in :meth:`_bound` (:func:`.bagbound.child_bounds` computes it all).  Where this
        bound is weaker than the child's own it is still a lower bound."""
        P, ell = node.phase, node.ell
        n_tiles = int(node.remaining.sum()) + node.blanks - ell
        cuts = _cut_table(self.L, ell - 1, n_tiles % ell + ell, self.lengths[-1])
        bound = child_bounds(
            self.L, ell, node.remaining, node.blanks, node.bans, node.loss, node.rows,
            P.first, P.value, P.present, P.counts, node.value, node.deficit,
            node.choices, picked, _NO_COLS if cols is None else cols,
            -1 if pad is None else pad, self.values, self.levels, self.level_index,
            self.lengths[-1], cuts, fits)
        return np.where(bound >= NONE, _INF, bound.astype(np.float64))

    # -- the search -----------------------------------------------------------------------

    def run(self) -> None:
        """The search, within the time limit that started with the preparation."""
        if not self.lengths:
            return
        # iterative deepening on the loss: each round refutes every loss below its budget
        # (the memo keeps what earlier rounds refuted), so rounds stay shallow until the
        # budget reaches the optimum
        ceiling = self.L * self.total_value
        P = self.phases[self.lengths[0]]
        values = np.minimum(P.counts, self.bag) @ self.values
        self.refuted = self._bound(self.lengths[0], self.bag, self.blanks, 0, values, P.first)
        budget = self.refuted + 1
        while budget <= ceiling + 1:
            self.best = budget
            self.rounds.append(budget)
            if self.progress:
                self.progress(f"looking for a score above {ceiling - budget}")
            self._search(0, self.bag, self.blanks, 0, 0, 0, None)
            if self.best_path is not None or self.timed_out:
                break
            self.refuted = budget
            budget = int(budget * _GROWTH) + 1

    def _record(self, loss: int) -> None:
        self.best = loss
        self.best_path = list(self.path)
        if self.progress:
            self.progress(f"found {self.L * self.total_value - loss} after {self.nodes} nodes")

    def _counts_of(self, cand: Candidate) -> np.ndarray:
        out = np.zeros(len(self.faces), dtype=np.int16)
        for f in cand.tiling:
            out[self.code[f]] += 1
        return out

    def _blank_words(self, blanks: int, used: int, longest: int) -> list[Candidate] | None:
        """Words made of blanks alone (value 0) using up ``blanks``, or None."""
        if blanks == 0:
            return []
        for ell in range(min(blanks, longest), 0, -1):
            free = self.short_firsts.get(ell, 0) & ~used
            while free:  # every free first face: one may block a shorter word's only one
                first = (free & -free).bit_length() - 1
                free &= free - 1
                rest = self._blank_words(blanks - ell, used | 1 << first, ell)
                if rest is not None:
                    return [self.words.any_of(ell, first)] + rest
        return None

    def _search(self, phase: int, remaining: np.ndarray, blanks: int, used: int, bans: int,
                loss: int, rows: np.ndarray | None) -> None:
        self.nodes += 1
        self._look()
        if self.timed_out:
            return
        ell = self.lengths[phase]
        self.visits[len(self.path), ell] = self.visits.get((len(self.path), ell), 0) + 1
        if not remaining.any():
            self._bag_used_up(blanks, used, loss)
            return
        P = self.phases[ell]
        key = None
        if rows is None:  # a phase starts: memoise here, where the state says it all
            key = (phase, remaining.tobytes(), blanks, used)
            known = self.memo.get(key)
            if known is not None and loss + known >= self.best:
                return
            rows = P.all_rows
        rows, deficit, value, holding = fitting_rows(
            P.counts, P.first_bit, P.present, rows, used, bans, remaining, blanks, self.values)
        base = self.L - ell
        live = remaining > 0
        exhausted = True
        while True:
            for face in np.flatnonzero(live & (holding == 0)):
                bans |= 1 << int(face)  # no fitting ell-word holds it: it goes in a shorter one
            live &= holding > 0
            if loss + self._bound(ell, remaining, blanks, bans, value, P.first[rows]) \
                    >= self.best:
                exhausted = False
                break
            if not live.any():
                break
            x = int(np.flatnonzero(live)[np.argmin(holding[live])])
            choices = rows_holding(P.counts, x, rows, value)
            hopeful, child_fits = self._children_hopeful(Branching(
                ell, remaining, blanks, bans, loss, P, rows, value, deficit, choices))
            if self.timed_out:  # a children check can be long: it reads the clock
                return
            allowed = np.ones(len(rows), dtype=bool)
            for a, (j, hope) in enumerate(zip(choices, hopeful)):
                # words holding x tried before j are left out below j: each set of words
                # is then met once (through its first word holding x)
                allowed[j] = False
                if not hope:
                    continue
                cand = P.cand(int(rows[j]))
                tiles = P.counts[rows[j]]
                real = np.minimum(tiles, remaining)
                self.path.append((cand, tiles - real))
                self._search(phase, remaining - real, blanks - int(deficit[j]),
                             used | 1 << cand.first, bans, loss + base * int(value[j]),
                             rows[allowed if child_fits is None else child_fits[a]])
                self.path.pop()
                if self.timed_out:
                    return
            bans |= 1 << x
            live[x] = False
            rows, deficit, value, holding = rows_without(P.counts, x, rows, deficit, value,
                                                         holding)
        if exhausted and phase + 1 < len(self.lengths):
            self._search(phase + 1, remaining, blanks, used, 0, loss, None)
        if self.timed_out:
            return
        self._memoise(key, loss)

    def _bag_used_up(self, blanks: int, used: int, loss: int) -> None:
        """Records the path, the blanks left made into words, when its loss beats the best."""
        if loss < self.best:
            words = self._blank_words(blanks, used, self.L)
            if words is not None:
                self.path.extend((c, self._counts_of(c)) for c in words)
                self._record(loss)
                del self.path[len(self.path) - len(words):]

    def _memoise(self, key: tuple | None, loss: int) -> None:
        """Remembers the loss refuted from a phase's start ``key`` (None: not a phase start)."""
        if key is not None:
            refuted = self.best - loss
            known = self.memo.get(key)
            if known is None or refuted > known:
                self.memo[key] = refuted

    # -- the answer -----------------------------------------------------------------------
