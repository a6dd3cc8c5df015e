"""The ``rows`` strategy: word rectangles filled cell by cell, row after row, over letter tries.

A word rectangle is a grid without blocks whose rows and columns are all slots
(double word squares among them).  There every cell starts a row prefix and a
column prefix, and a compiled depth-first search over two tries (rows' length,
columns' length, :mod:`.trie`) places letters in reading order: a cell may take
a letter that continues both prefixes (and its given letter, if any); the rest
of the row must still have, in every cell, a letter that some word of the row
prefix has there and the column prefix can take next (forward checking); a
finished row must leave every row below able to be some word whose letters its
columns' words have there (a walk of the row trie); and a finished row or column
must not repeat a word.  No propagation: a node costs a few table lookups
(hundreds of times cheaper than a node of the arc-consistent lanes), which is
what exhausts the search spaces of 7x7 squares (Russian top 100k: no double
square exists).  The check of the rows below makes a node dearer but cuts the
nodes two to four times, and the time with them.  Most of these checks fail, at
the row just below, so each row is walked from its tighter end, in a trie of the
reversed words when that is the last: fewer lookups for the same answer
(scripts/LOG.md has the figures of all three).  A square
without given letters searches only fills whose first column comes after its
first row alphabetically (each fill's transpose is a fill too), unless several
fills are asked for.  Letters are tried in the order of the most frequent word
they lead to, so the first fills use common words; a seed draws that order at random,
common words still likelier first, so that different seeds meet different fills.

The search is resumable: :meth:`RowSearch.advance` runs a turn of work and
returns, like the other lanes of :func:`.csp.solve_csp`.
"""

from __future__ import annotations

import time
from dataclasses import replace

import numba
import numpy as np

from ..index.encoding import encode
from ..jitcache import compiled
from .layout import NROWCTL, ROW_BEST, ROW_K, ROW_NODES, ROW_OPS, ROW_SYM, RowArrays
from .problem import Problem
from .search import EXHAUSTED, FOUND, PAUSED
from .trie import MAX_LETTERS, Trie, build_trie

__all__ = ["RowSearch", "is_rectangle", "rows_can_fill"]

# work units a table lookup here counts for in the portfolio's turns, so that ROWS_SHARE
# is about the ratio of the two lanes' CPU: a lookup costs about as much CPU as a work
# unit of the words lane (measured as the lanes' CPU in a fill over the lookups and units
# they did: scripts/LOG.md, "the rows search's units")
_UNITS_PER_LOOKUP = 1
# the index of a 64-bit mask's one set bit in a multiplication and a table lookup: the bit
# times a de Bruijn sequence has distinct top six bits for each of the 64 positions (a loop
# shifting the bit costs a fair part of the search's time)
_DEBRUIJN_MUL = 0x03F79D71B4CB0A89


def _debruijn_table() -> np.ndarray:
    """Bit position by the top six bits of ``(1 << position) * _DEBRUIJN_MUL`` (mod 2**64)."""
    table = np.zeros(64, dtype=np.int64)
    for b in range(64):
        table[((1 << b) * _DEBRUIJN_MUL % (1 << 64)) >> 58] = b
    return table


_DEBRUIJN = _debruijn_table()


def _seeded_order(trie: Trie, seed: int, prio: np.ndarray | None = None) -> np.ndarray:
    """``trie.order`` drawn anew with ``seed``: each node's letters as a Plackett-Luce sample
    weighted 1 / (1 + rank) of the most frequent word each leads to (Gumbel keys on log
    ranks), so the commonest words stay likeliest first but every letter gets its turn;
    ``prio``: each word's rank in the order of trial, when not its frequency rank (preferred
    words first, :mod:`.rules`)."""
    child, order = trie.child, trie.order
    nodes, letters = child.shape
    # best[v]: the rank of the most frequent word below v, the first letter's subtree's
    # (order[v, 0]); n passes carry the leaves' ranks up the n levels
    best = trie.leaf.astype(np.float64)
    if prio is not None:
        leaves = trie.leaf >= 0
        best[leaves] = prio[trie.leaf[leaves]]
    inner = np.flatnonzero((trie.leaf < 0) & (order[:, 0] >= 0))
    first = child[inner, order[inner, 0]]
    for _ in range(trie.n):
        best[inner] = best[first]
    parent, letter = np.nonzero(child >= 0)
    kid = child[parent, letter]
    rng = np.random.default_rng(seed & 0xFFFFFFFFFFFFFFFF)
    key = np.log1p(best[kid]) - rng.gumbel(size=len(kid))
    srt = np.lexsort((key, parent))
    parent, letter = parent[srt], letter[srt]
    drawn = np.full((nodes, letters + 1), -1, dtype=order.dtype)
    drawn[parent, np.arange(len(parent)) - np.searchsorted(parent, parent)] = letter
    return drawn


def is_rectangle(prob: Problem) -> bool:
    """True when the grid is a word rectangle: no blocks, every row and column one slot,
    rows and columns distinct (not a symmetric square)."""
    grid = prob.grid
    spans = all(s.length == (grid.width if s.direction == "across" else grid.height)
                for s in prob.slots)
    return (spans and not grid.symmetric and grid.width >= 2 and grid.height >= 2
            and len(prob.slots) == grid.width + grid.height)


def rows_can_fill(prob: Problem) -> bool:
    """True when the ``rows`` search can fill the grid: a word rectangle over at most
    :data:`~.trie.MAX_LETTERS` letters (its letter sets are 64-bit masks)."""
    return is_rectangle(prob) and len(prob.letters) <= MAX_LETTERS


@compiled(entry=False, allocates=False)
def _pop(k, W, H, rn, cn, rleaf, cleaf, rbase, cbase, used, kstart, keys, kused):
    """Take back cell ``k``'s letter's finished words (the prefixes need no undo)."""
    i = k // W
    j = k - i * W
    if j == W - 1:
        w = rbase + rleaf[rn[i, W]]
        used[w] = 0
        _count_keys(kstart, keys, kused, w, -1)
    if i == H - 1:
        w = cbase + cleaf[cn[j, H]]
        used[w] = 0
        _count_keys(kstart, keys, kused, w, -1)


@compiled(entry=False, allocates=False)
def _count_keys(kstart, keys, kused, w, delta):
    """Count word row ``w``'s conflict keys as placed (``delta`` 1) or taken back (-1)."""
    for h in range(kstart[w], kstart[w + 1]):
        kused[keys[h]] += delta


@compiled(entry=False, allocates=False)
def _keys_free(kstart, keys, kused, w):
    """Whether no placed word has a conflict key of word row ``w``."""
    for h in range(kstart[w], kstart[w + 1]):  # noqa: SIM110 (a plain loop compiles leaner)
        if kused[keys[h]] > 0:
            return False
    return True


@compiled(entry=False, allocates=False)
def _keys_shared(kstart, keys, a, b):
    """Whether word rows ``a`` and ``b`` have a conflict key in common."""
    for h in range(kstart[a], kstart[a + 1]):
        for g in range(kstart[b], kstart[b + 1]):
            if keys[h] == keys[g]:
                return True
    return False


@compiled(entry=False, allocates=False)
def _save(ctl, k, ops, nodes, letter, best):
    """Store the search's scalars; keep the letters placed when they are the deepest
    partial fill yet (sampled when the search returns: tracking every new depth in the
    inner loop cost a fifth of its speed)."""
    ctl[ROW_K] = k
    ctl[ROW_OPS] = ops
    ctl[ROW_NODES] = nodes
    if k > ctl[ROW_BEST]:
        ctl[ROW_BEST] = k
        for q in range(k):  # a slice assignment compiles numba's checks of shapes (2 s)
            best[q] = letter[q]


@compiled(allocates=False)
def _fits(rch, rmask, rahead, sets, W, vs, ms):
    """Whether some word of the trie has, at every position p, a letter of ``sets[p]``,
    and the table lookups it took to tell."""
    for p in range(W):
        if rahead[0, p] & sets[p] == 0:
            return False, p + 1
    steps = W
    d = 0
    vs[0] = 0
    ms[0] = rmask[0] & sets[0]
    while d >= 0:
        m = ms[d]
        if m == 0:
            d -= 1
            continue
        low = m & (~m + np.uint64(1))
        ms[d] = m ^ low
        a = _DEBRUIJN[(low * np.uint64(_DEBRUIJN_MUL)) >> np.uint64(58)]
        v = rch[vs[d], a]
        ok = True
        for p in range(d + 1, W):
            steps += 1
            if rahead[v, p] & sets[p] == 0:
                ok = False
                break
        if not ok:
            continue
        if d == W - 1:
            return True, steps
        d += 1
        vs[d] = v
        ms[d] = rmask[v] & sets[d]
    return False, steps


@compiled(allocates=False)
def _popcount(m):
    """The number of bits set in the 64-bit mask ``m``."""
    m = m - ((m >> np.uint64(1)) & np.uint64(0x5555555555555555))
    m = (m & np.uint64(0x3333333333333333)) + ((m >> np.uint64(2)) & np.uint64(0x3333333333333333))
    m = (m + (m >> np.uint64(4))) & np.uint64(0x0F0F0F0F0F0F0F0F)
    return (m * np.uint64(0x0101010101010101)) >> np.uint64(56)


@compiled(entry=False, allocates=False)
def _rows_below(rch, rmask, rahead, xch, xmask, xahead, cahead, given, W, H, i, cn, c, sets,
                xsets, vs, ms):
    """Whether every row below row ``i``, just finished with column W-1's node ``c``,
    can still be some word (each of its cells takes a letter its column's words have
    there, given letters applied), and the table lookups it took to tell.  A row is
    walked from its tighter end (fewer letter pairs in its first or last two cells), in
    the trie of the reversed words (``x*``) when that is the last: most of these checks
    fail, and a walk that starts where the letters are few fails in fewer steps."""
    steps = 0
    for i2 in range(i + 1, H):
        for j2 in range(W):
            v = cn[j2, i + 1] if j2 < W - 1 else c
            sets[j2] = cahead[v, i2] & given[i2 * W + j2]
        if (_popcount(sets[W - 1]) * _popcount(sets[W - 2])
                < _popcount(sets[0]) * _popcount(sets[1])):
            for j2 in range(W):
                xsets[j2] = sets[W - 1 - j2]
            ok, n = _fits(xch, xmask, xahead, xsets, W, vs, ms)
        else:
            ok, n = _fits(rch, rmask, rahead, sets, W, vs, ms)
        steps += W + n
        if not ok:
            return False, steps
    return True, steps


@compiled(allocates=False, nogil=True)
def _search(R, pause_at, node_limit):
    """Run the search of the arrays ``R`` (:class:`~.layout.RowArrays`) from its saved
    state until a fill (FOUND), the end (EXHAUSTED), ``pause_at`` work units or
    ``node_limit`` more nodes (PAUSED)."""
    rch, rmask, rahead, rorder, rleaf = R.rch, R.rmask, R.rahead, R.rorder, R.rleaf
    xch, xmask, xahead = R.xch, R.xmask, R.xahead
    cch, cmask, cahead, cleaf = R.cch, R.cmask, R.cahead, R.cleaf
    rbase, cbase, given, W, H = R.rbase, R.cbase, R.given, R.W, R.H
    rn, cn, pos, allowed, rowset, eq = R.rn, R.cn, R.pos, R.allowed, R.rowset, R.eq
    letter, best, dead, used, ctl = R.letter, R.best, R.dead, R.used, R.ctl
    kstart, keys, kused = R.kstart, R.keys, R.kused
    sets, xsets, vs, ms = R.sets, R.xsets, R.vs, R.ms
    total = W * H
    k = ctl[ROW_K]
    ops = ctl[ROW_OPS]
    nodes0 = ctl[ROW_NODES]
    nodes = nodes0
    sym = ctl[ROW_SYM] != 0
    if k == total:  # resuming after a fill: take its last letter back
        k -= 1
        _pop(k, W, H, rn, cn, rleaf, cleaf, rbase, cbase, used, kstart, keys, kused)
    while k >= 0:
        if ops >= pause_at or nodes - nodes0 >= node_limit:
            _save(ctl, k, ops, nodes, letter, best)
            return PAUSED
        i = k // W
        j = k - i * W
        v = rn[i, j]
        a = -1
        while True:
            x = rorder[v, pos[k]]
            ops += 1
            if x < 0:
                break
            pos[k] += 1
            if (allowed[k] >> np.uint64(x)) & np.uint64(1):
                a = x
                break
        if a < 0:
            k -= 1
            if k >= 0:
                _pop(k, W, H, rn, cn, rleaf, cleaf, rbase, cbase, used, kstart, keys, kused)
            continue
        nodes += 1
        r = rch[v, a]
        c = cch[cn[j, i], a]
        ok = True
        for j2 in range(j + 1, W):
            if rahead[r, j2] & rowset[i, j2] == 0:
                ok = False
                ops += j2 - j
                break
        if not ok:
            dead[k] += 1
            continue
        ops += W - 1 - j
        if sym and j == 0 and i > 0:
            if eq[i - 1]:
                first = letter[i]  # the first row's letter in column i
                if a < first:
                    continue
                eq[i] = 1 if a == first else 0
            else:
                eq[i] = 0
        if j == W - 1 and (used[rbase + rleaf[r]]
                           or not _keys_free(kstart, keys, kused, rbase + rleaf[r])):
            continue
        if j == W - 1 and i < H - 1:
            ok, n = _rows_below(rch, rmask, rahead, xch, xmask, xahead, cahead, given, W, H, i,
                                cn, c, sets, xsets, vs, ms)
            ops += n
            if not ok:
                dead[k] += 1
                continue
        if i == H - 1:
            w = cbase + cleaf[c]
            if used[w] or (j == W - 1 and w == rbase + rleaf[r]):
                continue
            if not _keys_free(kstart, keys, kused, w) or (
                    j == W - 1 and _keys_shared(kstart, keys, w, rbase + rleaf[r])):
                continue
        rn[i, j + 1] = r
        cn[j, i + 1] = c
        letter[k] = a
        if j == W - 1:
            used[rbase + rleaf[r]] = 1
            _count_keys(kstart, keys, kused, rbase + rleaf[r], 1)
        if i == H - 1:
            used[cbase + cleaf[c]] = 1
            _count_keys(kstart, keys, kused, cbase + cleaf[c], 1)
        k += 1
        if k == total:
            _save(ctl, k, ops, nodes, letter, best)
            return FOUND
        i = k // W
        j = k - i * W
        if j == 0:  # a new row: what each column can take next, given letters applied
            for j2 in range(W):
                rowset[i, j2] = cmask[cn[j2, i]] & given[k + j2]
        allowed[k] = rmask[rn[i, j]] & rowset[i, j]
        pos[k] = 0
        if allowed[k] == 0:
            dead[k] += 1
    _save(ctl, np.int64(-1), ops, nodes, letter, best)  # int64: one signature (propagation)
    return EXHAUSTED


class RowSearch:
    """One resumable ``rows`` search of a word rectangle (:func:`rows_can_fill`), run in
    turns of ``share`` slices of ``slice_units`` work units (the portfolio's units); a
    ``seed`` draws the letter order (:func:`_seeded_order`), None keeps the frequency order."""

    kind = "rows"

    def __init__(self, prob: Problem, *, count: int = 1, share: int = 1,
                 slice_units: int = 5_000_000, seed: int | None = None):
        t = prob.tables
        grid = prob.grid
        self.prob, self.share, self.slice_units = prob, share, slice_units
        self.W, self.H = W, H = grid.width, grid.height
        self.rtrie = self._trie(W)
        if seed is not None:  # only the rows' letter order steers the search
            self.rtrie = replace(self.rtrie, order=_seeded_order(self.rtrie, seed,
                                                                 self._prio(W)))
        self.xtrie = self._trie(W, reverse=True)  # for the rows-below check only
        self.ctrie = self.rtrie if H == W else self._trie(H)
        self.rbase, self.cbase = int(t.grow[W]), int(t.grow[H])
        self.given = np.full(W * H, np.uint64((1 << t.A) - 1), dtype=np.uint64)
        codes = encode("".join(grid.given.values()), t.alphabet).tolist()
        for ((r, c), a) in zip(grid.given, codes, strict=True):
            self.given[r * W + c] = np.uint64(1 << a)
        cells = W * H
        self.rn = np.zeros((H, W + 1), dtype=np.int32)
        self.cn = np.zeros((W, H + 1), dtype=np.int32)
        self.rowset = np.zeros((H, W), dtype=np.uint64)
        self.rowset[0] = self.ctrie.mask[0] & self.given[:W]
        self.pos = np.zeros(cells + 1, dtype=np.int64)
        self.allowed = np.zeros(cells + 1, dtype=np.uint64)
        self.allowed[0] = self.rtrie.mask[0] & self.rowset[0, 0]
        self.eq = np.zeros(H + 1, dtype=np.uint8)
        self.eq[0] = 1
        self.letter = np.zeros(cells, dtype=np.int64)
        self.best = np.zeros(cells, dtype=np.int64)
        self.dead = np.zeros(cells + 1, dtype=np.int64)
        self.used = np.zeros(max(1, len(t.wid)), dtype=np.uint8)
        self.kused = np.zeros(max(1, len(t.keys.pstart) - 1), dtype=np.int32)
        self.ctl = np.zeros(NROWCTL, dtype=np.int64)
        # the rows-below check's scratch, made here: the compiled search makes no array
        self.sets, self.xsets = np.zeros(W, dtype=np.uint64), np.zeros(W, dtype=np.uint64)
        self.vs, self.ms = np.zeros(W + 1, dtype=np.int64), np.zeros(W + 1, dtype=np.uint64)
        # a fill's transpose is a fill: one of each pair is enough for one fill (or a proof)
        self.ctl[ROW_SYM] = W == H and not grid.given and count == 1
        self.halted = False

    def _trie(self, n: int, *, reverse: bool = False) -> Trie:
        """The trie of the list's ``n``-letter words (spelt backwards with ``reverse``)."""
        t = self.prob.tables
        g0, g1 = int(t.grow[n]), int(t.grow[n + 1])
        codes = t.wl[g0:g1, :n]
        return build_trie(codes[:, ::-1] if reverse else codes, t.A, self._prio(n))

    def _prio(self, n: int) -> np.ndarray | None:
        """The order of trial of the ``n``-letter words (None: their rows' order)."""
        t = self.prob.tables
        return None if t.prio is None else t.prio[int(t.grow[n]):int(t.grow[n + 1])]

    @property
    def nodes(self) -> int:
        """Letters placed so far."""
        return int(self.ctl[ROW_NODES])

    def advance(self, node_limit: int, deadline: float) -> int:
        """Search on for the lane's turn, at most ``node_limit`` more nodes, until
        ``deadline`` (looked at between slices): FOUND, EXHAUSTED or PAUSED."""
        start = self.nodes
        lookups = max(1, self.slice_units // _UNITS_PER_LOOKUP)
        status = PAUSED
        arrays = self._arrays()
        for _ in range(self.share):
            status = _search(arrays, self.ctl[ROW_OPS] + lookups,
                             node_limit - (self.nodes - start))
            if status != PAUSED or self.halted or time.monotonic() >= deadline:
                break
        return status

    def halt(self) -> None:
        """Make a turn running in another thread return after its current slice."""
        self.halted = True

    def compile(self) -> None:
        """Load the compiled search (compile it when no cached code fits) without running it."""
        if hasattr(_search, "compile"):  # not under NUMBA_DISABLE_JIT
            args = (self._arrays(), self.ctl[ROW_OPS], 0)
            _search.compile(tuple(numba.typeof(a) for a in args))

    def _arrays(self) -> RowArrays:
        """The compiled search's arrays: the tries' and this search's state."""
        r, x, c = self.rtrie, self.xtrie, self.ctrie
        t = self.prob.tables
        return RowArrays(r.child, r.mask, r.ahead, r.order, r.leaf, x.child, x.mask, x.ahead,
                         c.child, c.mask, c.ahead, c.leaf, self.rbase, self.cbase, self.given,
                         self.W, self.H, self.rn, self.cn, self.pos, self.allowed, self.rowset,
                         self.eq, self.letter, self.best, self.dead, self.used,
                         t.keys.kstart, t.keys.keys, self.kused, self.ctl,
                         self.sets, self.xsets, self.vs, self.ms)

    def _grid_words(self, letters: np.ndarray, depth: int) -> list[str]:
        """Every slot's word, or its pattern with ``.`` past ``depth`` letters placed."""
        alphabet = self.prob.tables.alphabet
        W = self.W
        return self.prob.grid.words_of({(k // W, k % W): alphabet[letters[k]]
                                        for k in range(depth)})

    def words(self) -> list[str]:
        """The fill just found, one word per slot."""
        return self._grid_words(self.letter, self.W * self.H)

    def partial(self) -> list[str]:
        """The deepest partial fill reached, one word or pattern per slot."""
        return self._grid_words(self.best, int(self.ctl[ROW_BEST]))

    def culprit(self) -> int:
        """The slot whose cells ran out of letters most often."""
        W, dead = self.W, self.dead
        return max(range(self.prob.n), key=lambda s: sum(
            int(dead[r * W + c]) for r, c in self.prob.slots[s].cells))
