"""The CSP engine: backtracking over roaring-bitmap domains with letter-set arc consistency.

Each slot's domain is a bitmap of word ids (most frequent first).  Placing a
word narrows every crossing slot by the index's (position, letter) bitmaps;
then arc consistency runs on the letter sets per cell: a letter survives in a
cell only if both slots crossing there still have a candidate with it.  A slot
left with one word removes that word from every other slot of its length (no
repeats).  Search: the slot with the fewest candidates weighted by how often it
ran dry (dom/wdeg; ties by most crossings, then a seeded random draw).  While
that slot has many candidates, branch on a letter of its most constrained
crossed cell (keep the letter in both slots, else drop it); once it has few,
branch on a word: the candidate whose letters leave the crossing slots the most
words, weighed with its frequency (look-ahead), or simply the most frequent.
Binary branching: place the word (or letter), else forbid it and propagate.
Optional restarts on a Luby schedule.  A run that finishes inside its limits has
searched everything, which proves the outcome (no fill, or all fills found).
"""

from __future__ import annotations

import logging
import random
import time
from dataclasses import dataclass, field
from typing import Iterator

import numpy as np
from pyroaring import FrozenBitMap

from .grid import Grid, GridError
from .lexicon import Lexicon, WordId
from .result import BUDGET, FILLED, NO_FILL, FillResult

__all__ = ["Problem", "solve_csp", "Budget"]

log = logging.getLogger(__name__)

Domains = list  # list[FrozenBitMap], one per slot
LetterMask = int  # bit i set: the i-th letter of the alphabet is possible

_SMALL = 24  # domains this small are scanned word by word for their letter sets


@dataclass
class Budget:
    """Limits of one fill: CSP steps (words placed) and wall-clock seconds (None: unlimited)."""

    steps: int | None = None
    seconds: float | None = None
    start: float = field(default_factory=time.monotonic)

    def elapsed(self) -> float:
        return time.monotonic() - self.start

    def out_of_time(self) -> bool:
        return self.seconds is not None and self.elapsed() > self.seconds


class _Wipeout(Exception):
    """A slot lost its last candidate."""

    def __init__(self, slot: int):
        self.slot = slot


class _Restart(Exception):
    """The current run used up its step limit."""


class Problem:
    """A grid over a lexicon: slots, crossings and initial domains (given letters applied)."""

    def __init__(self, grid: Grid, lex: Lexicon):
        self.grid, self.lex = grid, lex
        self.slots = grid.slots
        self.n = len(self.slots)
        self.lengths = [s.length for s in self.slots]
        self.letters = lex.alphabet
        self.bit = {ch: 1 << i for i, ch in enumerate(self.letters)}
        self.words = lex.words
        self._points = np.array([ord(ch) for ch in self.letters], dtype=np.uint32)
        # numpy letter sets need a letter to fit a bit of a uint64
        self._bits = (np.left_shift(np.uint64(1), np.arange(len(self.letters), dtype=np.uint64))
                      if len(self.letters) <= 63 else None)
        self._code_rows: dict[int, tuple[np.ndarray, np.ndarray]] = {}
        self._log_counts: np.ndarray | None = None
        self._letter_tables: dict[tuple[int, int], dict[int, FrozenBitMap]] = {}
        longest = lex.longest()
        for slot in self.slots:
            if not lex.base(slot.length):
                if slot.length > longest:
                    raise GridError(f"slot {slot.name} has {slot.length} letters, longer than "
                                    f"any word of the list (at most {longest})")
                raise GridError(f"slot {slot.name} has {slot.length} letters and the list has "
                                f"no word of that length")
        for (r, c), ch in grid.given.items():
            if ch not in self.bit:
                raise GridError(f"letter {ch!r} at row {r + 1}, column {c + 1} does not occur "
                                f"in the word list {lex.describe()}")
        self.cross: list[list[tuple[int, int, int]]] = [[] for _ in range(self.n)]
        for a, pa, b, pb in grid.crossings():
            self.cross[a].append((pa, b, pb))
            self.cross[b].append((pb, a, pa))
        self.degree = [len(c) for c in self.cross]
        self.same_length = [[t for t in range(self.n) if t != s and self.lengths[t] == self.lengths[s]]
                            for s in range(self.n)]
        # (position, letter, bit, bitmap) per slot length and position, for letter sets
        self._pos_letters: dict[tuple[int, int], list[tuple[int, FrozenBitMap]]] = {}
        self.initial: Domains = []
        for slot in self.slots:
            dom = lex.base(slot.length)
            for p, cell in enumerate(slot.cells):
                ch = grid.given.get(cell)
                if ch is not None:
                    dom = dom & lex.at(slot.length, p, ch)
            self.initial.append(dom)

    def letter_bitmaps(self, n: int, p: int) -> dict[int, FrozenBitMap]:
        """Letter bit -> bitmap of the ``n``-letter words with that letter at ``p``."""
        key = (n, p)
        got = self._letter_tables.get(key)
        if got is None:
            got = self._letter_tables[key] = dict(self.pos_letters(n, p))
        return got

    def pos_letters(self, n: int, p: int) -> list[tuple[int, FrozenBitMap]]:
        """(letter bit, bitmap) for each letter at position ``p`` of ``n``-letter words."""
        key = (n, p)
        got = self._pos_letters.get(key)
        if got is None:
            got = []
            for ch in self.letters:
                bm = self.lex.at(n, p, ch)
                if bm:
                    got.append((self.bit[ch], bm))
            self._pos_letters[key] = got
        return got

    def _codes(self, n: int) -> tuple[np.ndarray, np.ndarray]:
        """Sorted ids of the usable n-letter words, and per word its n keys ``p * A + letter``."""
        got = self._code_rows.get(n)
        if got is None:
            ids = self.lex.base(n).to_array()
            joined = "".join(self.words[i] for i in ids.tolist())
            points = np.frombuffer(joined.encode("utf-32-le"), dtype=np.uint32)
            codes = np.searchsorted(self._points, points).astype(np.int64).reshape(len(ids), n)
            codes += np.arange(n, dtype=np.int64) * len(self.letters)
            got = self._code_rows[n] = (ids, codes)
        return got

    @property
    def log_counts(self) -> np.ndarray:
        """log(1 + count) of every word id, for value ordering."""
        if self._log_counts is None:
            self._log_counts = np.log1p(np.frombuffer(self.lex.index.counts, dtype=np.uint64)
                                        .astype(np.float64))
        return self._log_counts

    def counts(self, d: FrozenBitMap, n: int) -> np.ndarray:
        """How many words of ``d`` have each letter at each position (flat, ``p * A + letter``)."""
        ids, codes = self._codes(n)
        rows = np.searchsorted(ids, d.to_array())
        return np.bincount(codes[rows].ravel(), minlength=n * len(self.letters))

    def masks_of_counts(self, cnt: np.ndarray, n: int) -> list[LetterMask]:
        """The letter set (bit mask) of each position, from :meth:`counts`."""
        present = (cnt.reshape(n, len(self.letters)) > 0).astype(np.uint64)
        return (present @ self._bits).tolist()

    def masks_small(self, d: FrozenBitMap, n: int) -> list[LetterMask]:
        """The letter set (bit mask) of each position over the words of a small ``d``."""
        bit, words = self.bit, self.words
        out = [0] * n
        for i in d:
            for p, ch in enumerate(words[i]):
                out[p] |= bit[ch]
        return out

    def masks_bitmaps(self, d: FrozenBitMap, n: int) -> list[LetterMask]:
        """Letter sets by bitmap tests (alphabets too large for 64-bit masks in numpy)."""
        out = []
        for p in range(n):
            m = 0
            for b, bm in self.pos_letters(n, p):
                if not d.isdisjoint(bm):
                    m |= b
            out.append(m)
        return out

    def pattern(self, s: int, dom: FrozenBitMap | None = None) -> str:
        """The slot's given letters as a template, e.g. ``a?z``."""
        return "".join(self.grid.given.get(cell, "?") for cell in self.slots[s].cells)


class _Search:
    """One CSP search over a :class:`Problem` (state: domains and cached letter sets)."""

    def __init__(self, prob: Problem, budget: Budget, rng: random.Random | None):
        self.p = prob
        self.budget = budget
        self.rng = rng
        self.lookahead = False
        # branch on letters of crossed cells while the chosen slot has more candidates than
        # this (0: always branch on words)
        self.letter_branch = 0
        self.freq_weight = 0.25  # log-frequency weight against log crossing support
        self.steps = 0
        self.limit: int | None = None
        self.fails = [0] * prob.n
        self.best_settled = -1
        self.best: tuple[list[str], int, int] | None = None  # partial words, culprit, its count

    # -- letter sets and propagation --------------------------------------------------

    def _mask(self, dom: Domains, aux: list, s: int, p: int) -> LetterMask:
        a = aux[s]
        if a is None or a[1] is None:
            prob, d, n = self.p, dom[s], self.p.lengths[s]
            if len(d) <= _SMALL:
                a = (None, prob.masks_small(d, n))
            elif prob._bits is None:
                a = (None, prob.masks_bitmaps(d, n))
            else:
                cnt = a[0] if a is not None else prob.counts(d, n)
                a = (cnt, prob.masks_of_counts(cnt, n))
            aux[s] = a
        return a[1][p]

    def _set(self, dom: Domains, aux: list, t: int, d: FrozenBitMap, queue: dict) -> None:
        if not d:
            self.fails[t] += 1
            raise _Wipeout(t)
        old, a = dom[t], aux[t]
        if t not in queue:
            # remember the letter sets before the change: crossings whose set stays need no visit
            queue[t] = a[1] if a is not None else None
        dom[t] = d
        if a is not None and a[0] is not None and len(d) > _SMALL \
                and len(old) - len(d) < len(d):
            # fewer words left the domain than stay: count them out
            aux[t] = (a[0] - self.p.counts(old - d, self.p.lengths[t]), None)
        else:
            aux[t] = None
        if len(d) == 1:
            w = d.min()
            single = FrozenBitMap([w])
            for u in self.p.same_length[t]:
                du = dom[u]
                if w in du:
                    self._set(dom, aux, u, du - single, queue)

    def _propagate(self, dom: Domains, lets: list, queue: dict) -> None:
        """Letter-set arc consistency from the slots in ``queue`` (slot -> its letter sets
        before the change, or None); raise _Wipeout on failure.

        Changed slots mark the crossing slots whose letter set at the crossing shrank;
        a marked slot is then revised against all its crossings at once, so a domain is
        cut once per revision rather than once per crossing.
        """
        p = self.p
        mask = self._mask
        lengths, letter_bitmaps, cross = p.lengths, p.letter_bitmaps, p.cross
        pending: dict[int, None] = {}
        while queue or pending:
            while queue:
                s, before = queue.popitem()
                mask(dom, lets, s, 0)
                masks = lets[s][1]
                for ps, t, pt in cross[s]:
                    if before is None or before[ps] != masks[ps]:
                        pending[t] = None
            if not pending:
                break
            t, _ = pending.popitem()
            mask(dom, lets, t, 0)
            mt = lets[t][1]
            gone = []
            for pt, u, pu in cross[t]:
                drop = mt[pt] & ~mask(dom, lets, u, pu)
                if drop:
                    table = letter_bitmaps(lengths[t], pt)
                    while drop:
                        low = drop & -drop
                        gone.append(table[low])
                        drop ^= low
            if gone:
                self._set(dom, lets, t, dom[t].difference(*gone), queue)

    def root(self) -> tuple[Domains, list]:
        """The initial domains made arc consistent (may raise _Wipeout)."""
        dom = list(self.p.initial)
        lets: list = [None] * self.p.n
        queue: dict = {}
        for s, d in enumerate(dom):
            if not d:
                self.fails[s] += 1
                raise _Wipeout(s)
            if len(d) == 1:
                self._set(dom, lets, s, d, queue)
        queue = dict.fromkeys(range(self.p.n))
        self._propagate(dom, lets, queue)
        return dom, lets

    # -- search ---------------------------------------------------------------------------

    def _choose(self, dom: Domains) -> int | None:
        best, best_key = None, None
        degree = self.p.degree
        fails = self.fails
        for s, d in enumerate(dom):
            k = len(d)
            if k == 1:
                continue
            # dom/wdeg: slots that often ran out of candidates go first (weights survive restarts)
            key = (k / (1 + fails[s]), -degree[s], s)
            if best_key is None or key < best_key:
                best, best_key = s, key
        return best

    def _pick(self, dom: Domains, aux: list, s: int) -> WordId:
        d = dom[s]
        if self.lookahead and len(d) > 2 and self.p._bits is not None:
            return self._pick_lookahead(dom, aux, s)
        if self.rng is not None and len(d) > 1 and self.rng.random() < 0.2:
            return d[self.rng.randrange(min(len(d), 3))]
        return d.min()

    def _pick_lookahead(self, dom: Domains, aux: list, s: int) -> WordId:
        """The candidate leaving its crossings the most support: the sum over its letters of
        log(words of the crossing slot with that letter there), plus log frequency / 4."""
        prob = self.p
        n, A = prob.lengths[s], len(prob.letters)
        ids, codes = prob._codes(n)
        cand = dom[s].to_array()
        rows = codes[np.searchsorted(ids, cand)]
        score = self.freq_weight * prob.log_counts[cand]
        for ps, t, pt in prob.cross[s]:
            a = aux[t]
            cnt = a[0] if a is not None and a[0] is not None else None
            if cnt is None:
                if len(dom[t]) == 1:
                    continue
                cnt = prob.counts(dom[t], prob.lengths[t])
                aux[t] = (cnt, a[1] if a is not None else None)
            support = cnt[pt * A + (rows[:, ps] - ps * A)]
            score = score + np.log(np.maximum(support, 1))
        if self.rng is not None:
            # a seed perturbs the order a little: different fills, same search quality
            noise = np.random.default_rng(self.rng.getrandbits(32)).random(len(cand))
            score = score + 0.5 * noise
        return int(cand[int(np.argmax(score))])

    def _note(self, dom: Domains) -> None:
        settled = sum(1 for d in dom if len(d) == 1)
        if settled > self.best_settled:
            self.best_settled = settled
            words = self.p.words
            partial = [words[d.min()] if len(d) == 1 else "." * n
                       for d, n in zip(dom, self.p.lengths)]
            open_ = [(len(d), s) for s, d in enumerate(dom) if len(d) != 1]
            culprit, count = (min(open_)[1], min(open_)[0]) if open_ else (-1, 0)
            self.best = (partial, culprit, count)

    def _letter_choice(self, dom: Domains, aux: list, s: int) -> tuple[int, int, int, int, int] | None:
        """For letter branching in slot ``s``: (p, t, q, letter bit, letter index) of its
        crossed cell with the fewest letters left, the letter most supported by both slots."""
        prob = self.p
        self._mask(dom, aux, s, 0)
        ms = aux[s][1]
        best = None
        for p, t, q in prob.cross[s]:
            k = ms[p].bit_count()
            if k > 1 and (best is None or k < best[0]):
                best = (k, p, t, q)
        if best is None:
            return None
        _, p, t, q = best
        A = len(prob.letters)
        cs = self._counts(dom, aux, s)
        ct = self._counts(dom, aux, t)
        support = (np.log(np.maximum(cs[p * A:(p + 1) * A], 1))
                   + np.log(np.maximum(ct[q * A:(q + 1) * A], 1)))
        support[(cs[p * A:(p + 1) * A] == 0) | (ct[q * A:(q + 1) * A] == 0)] = -np.inf
        a = int(np.argmax(support))
        if not np.isfinite(support[a]):
            return None  # letter sets not yet consistent here: branch on a word instead
        return p, t, q, 1 << a, a

    def _counts(self, dom: Domains, aux: list, s: int) -> np.ndarray:
        a = aux[s]
        if a is None or a[0] is None:
            cnt = self.p.counts(dom[s], self.p.lengths[s])
            aux[s] = (cnt, a[1] if a is not None else None)
            return cnt
        return a[0]

    def _tick(self) -> None:
        self.steps += 1
        if self.limit is not None and self.steps > self.limit:
            raise _Restart
        if not self.steps & 63:
            if self.budget.out_of_time() or (self.budget.steps is not None
                                             and self.steps >= self.budget.steps):
                raise _Restart

    def run(self, dom: Domains, lets: list) -> Iterator[list[WordId]]:
        """Yield every fill below this state (raises _Restart past the step limit)."""
        prob = self.p
        while True:
            s = self._choose(dom)
            if s is None:
                yield [d.min() for d in dom]
                return
            self._note(dom)
            choice = None
            if self.letter_branch and len(dom[s]) > self.letter_branch and prob._bits is not None:
                choice = self._letter_choice(dom, lets, s)
            self._tick()
            if choice is not None:
                # branch on a letter of a crossed cell: both slots keep / lose it
                p, t, q, bit, _ = choice
                cuts = [(s, prob.letter_bitmaps(prob.lengths[s], p)[bit]),
                        (t, prob.letter_bitmaps(prob.lengths[t], q)[bit])]
            else:
                cuts = [(s, FrozenBitMap([self._pick(dom, lets, s)]))]
            child = self._branch(dom, lets, cuts, keep=True)
            if child is not None:
                yield from self.run(*child)
            rest = self._branch(dom, lets, cuts, keep=False)
            if rest is None:
                return
            dom, lets = rest

    def _branch(self, dom: Domains, lets: list, cuts: list[tuple[int, FrozenBitMap]],
                keep: bool) -> tuple[Domains, list] | None:
        """A propagated copy of the state in which each slot of ``cuts`` keeps (or loses) the
        words of its bitmap; None when some domain is wiped out."""
        dom, lets = list(dom), list(lets)
        queue: dict = {}
        try:
            for slot, words in cuts:
                self._set(dom, lets, slot, dom[slot] & words if keep else dom[slot] - words,
                          queue)
            self._propagate(dom, lets, queue)
        except _Wipeout:
            return None
        return dom, lets

def _luby(i: int) -> int:
    """The i-th term (1-based) of the Luby sequence 1 1 2 1 1 2 4 ..."""
    while True:
        k = 1
        while (1 << k) - 1 < i:
            k += 1
        if i == (1 << k) - 1:
            return 1 << (k - 1)
        i -= (1 << (k - 1)) - 1


def solve_csp(prob: Problem, *, count: int = 1, budget: Budget | None = None,
              seed: int | None = None, restart_base: int = 0,
              lookahead: bool = True, letter_branch: int = 50) -> FillResult:
    """Fill ``prob.grid`` with up to ``count`` different fills by the CSP engine.

    ``lookahead`` orders values by the support they leave their crossings (see
    :meth:`_Search._pick_lookahead`); off, plain frequency order.  ``restart_base``
    scales the Luby restart schedule (0: no restarts, the default: measured, restarts
    lost more work than they saved on the squares and on the Russian 15x15).
    ``letter_branch``: while the chosen slot has more candidates than this, branch
    on the best-supported letter of its most constrained crossed cell (a cut of the
    candidates into ~26 groups) instead of on one word (0: always on words).
    """
    budget = budget or Budget()
    grid = prob.grid
    search = _Search(prob, budget, None)
    search.lookahead = lookahead
    search.letter_branch = letter_branch
    result = FillResult(grid, BUDGET, engine="csp")
    words = prob.words
    try:
        dom, lets = search.root()
    except _Wipeout as exc:
        return _no_fill_root(prob, search, exc.slot, result)
    found: list[list[WordId]] = []
    seen: set[tuple[int, ...]] = set()
    rng = random.Random(seed if seed is not None else 0)
    run_no = 0
    complete = False
    while True:
        run_no += 1
        # the first run is plain (frequency order, static ties) unless a seed asks otherwise
        search.rng = rng if (seed is not None or run_no > 1) else None
        search.limit = None if restart_base <= 0 else search.steps + restart_base * _luby(run_no)
        try:
            for sol in search.run(list(dom), list(lets)):
                key = tuple(sol)
                if key not in seen:
                    seen.add(key)
                    found.append(sol)
                    if len(found) >= count:
                        break
            else:
                complete = True
        except _Restart:
            if budget.out_of_time() or (budget.steps is not None and search.steps >= budget.steps):
                break
            continue
        break
    result.steps = search.steps
    result.seconds = budget.elapsed()
    result.fills = [[words[i] for i in sol] for sol in found]
    result.complete = complete
    if found:
        result.status = FILLED
        result.message = (f"filled {len(found)} way{'s' if len(found) > 1 else ''}"
                          + (" (all fills)" if complete and len(found) < count else ""))
    elif complete:
        result.status = NO_FILL
        worst = max(range(prob.n), key=lambda s: search.fails[s])
        result.culprit = prob.slots[worst].name
        result.message = (f"no fill exists: the complete search ({search.steps} steps) ran out "
                          f"of candidates most often at {result.culprit}")
    else:
        if search.best is None:
            search._note(dom)
        partial, culprit, cnt = search.best
        result.partial = partial
        if culprit >= 0:
            result.culprit = prob.slots[culprit].name
            result.culprit_candidates = cnt
        result.message = (f"budget exhausted after {search.steps} steps and "
                          f"{result.seconds:.1f} s; best partial fill settles "
                          f"{sum(1 for w in partial if '.' not in w)} of {prob.n} slots"
                          + (f", fewest candidates at {result.culprit} ({cnt})"
                             if result.culprit else ""))
    return result


def _no_fill_root(prob: Problem, search: _Search, slot: int, result: FillResult) -> FillResult:
    name = prob.slots[slot].name
    result.status = NO_FILL
    result.complete = True
    result.culprit = name
    result.culprit_candidates = 0
    result.steps = search.steps
    result.seconds = search.budget.elapsed()
    pattern = prob.pattern(slot)
    if not prob.initial[slot]:
        result.message = f"no fill exists: no word of the list fits {name} ({pattern})"
    else:
        result.message = (f"no fill exists: {name} ({pattern}) has no candidate left once "
                          f"its crossings are made consistent")
    return result
