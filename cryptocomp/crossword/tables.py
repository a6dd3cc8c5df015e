"""The compiled engine's arrays: words as letter codes, per-letter word lists, slot tables.

Static (one per :class:`~.problem.Problem`, shared by every run):

* ``wl[row, p]``: letter code (index into the alphabet) of the ``p``-th letter of
  each usable word, as the index encodes it (:meth:`~cryptocomp.index.Index.encoded`);
  rows grouped by length (``grow[n]`` is the first row of the
  ``n``-letter words), each group in frequency order.  ``wid[row]`` is the
  word's id in the index, ``wscore[row]`` log(1 + count), ``wbonus[row]`` the bonus
  of a preferred word (:mod:`.rules`), ``prio[row]`` its place in its group's order of
  trial (preferred words first, then by frequency; None when no word is preferred).
* conflict keys (:func:`.rules.conflict_keys`): ``keys[kstart[row]:kstart[row + 1]]``
  a word's keys; ``klen``/``kk[pstart[key]:pstart[key + 1]]`` the length and place in
  its group of each word with that key.
* ``pl[pl_start[key] : pl_start[key + 1]]`` with ``key = (n * maxlen + p) * A + a``:
  the words (index ``k`` in their length group) with letter ``a`` at position
  ``p``, most frequent first.
* ``slot[s]``: length, then the offsets of the slot's domain (``dom``), word
  places (``pos``), letter counts (``cnt``) and length group, and its number of
  candidates; ``cross[s * maxlen + p]``: the crossing slot, its position, and
  the crossing's id (-1 where the cell is unchecked).
* ``same[same_start[n] : same_start[n + 1]]``: the slots of ``n`` letters.

Dynamic state (:class:`State`, fresh per run): the domains' sparse sets, sizes
and letter counts, the trail, the queues, the decisions and the control
scalars (see :mod:`.propagation` and :mod:`.search`).  The compiled code reads both
as the named tuples of :mod:`.layout` (:attr:`State.T`, :attr:`State.D`), where the
columns of the tables and the slots of the control arrays are defined.
"""

from __future__ import annotations

import copy
from typing import TYPE_CHECKING, Protocol

import numpy as np

from .grid import GridError
from .layout import (
    AGE,
    AT,
    BEST,
    CBASE,
    DBASE,
    DEADLINE,
    FREQ_WEIGHT,
    GROW,
    LEN,
    LOOKAHEAD,
    NCROSS,
    NCTL,
    NDEC,
    NGL,
    NGN,
    NOISE,
    NPARAMS,
    NSLOT,
    NTRAIL,
    OTHER,
    PAUSE_AT,
    PBASE,
    RNG,
    XID,
    Dynamic,
    M,
    Static,
)
from .rules import PREFER_BONUS, conflict_keys

if TYPE_CHECKING:
    from pyroaring import FrozenBitMap

    from .grid import Grid
    from .lexicon import Lexicon


__all__ = ["Tables", "Shape", "State", "MAX_STATE_BYTES", "state_bytes"]

MAX_STATE_BYTES = 4 << 30  # a grid whose search state would not fit is refused up front
SNAPSHOT_BYTES = 64 << 20  # saved letter counts of bulk filters (past it: word by word)
# the nogoods a restart lane may record (:mod:`.nogood`), and their literals: 12 bytes a
# literal, 16 a nogood; past them it records no more (still sound, no longer complete)
NOGOODS = 1 << 16
NOGOOD_LITERALS = 1 << 20


class Shape(Protocol):
    """What the tables are built from: a :class:`~.problem.Problem` (named here by what it
    holds, so that this module need not import the one that builds it)."""

    grid: Grid
    lex: Lexicon
    lengths: list[int]         # each slot's length
    letters: str               # the lexicon's alphabet
    initial: list[FrozenBitMap]  # each slot's candidates, given letters applied
    max_shared: int | None     # the longest run of letters two answers may share
    lemmas: np.ndarray | None  # lemma groups by word id, when kept apart


def _ids(bitmap: FrozenBitMap) -> np.ndarray:
    """A bitmap's ids as a sorted int64 array."""
    return np.frombuffer(bitmap.to_array(), dtype=np.uint32).astype(np.int64)


class Tables:
    """The static arrays of a problem (see the module docstring)."""

    def __init__(self, prob: Shape) -> None:
        lex = prob.lex
        self.prob = prob
        lengths = sorted(set(prob.lengths))
        self.maxlen = maxlen = max(lengths)
        self.alphabet = prob.letters
        self.A = A = len(self.alphabet)
        if A >= 1 << 16:
            raise GridError(f"the word list has {A} different letters; at most 65535 are supported")
        # refused on the sizes alone, before any array is made (a 1000x1000 slot list of
        # 5-letter slots on the English list asked for 16 GB of candidate lists first)
        _check_state_bytes(state_bytes(prob.lengths, [len(dom) for dom in prob.initial],
                                       [len(lex.base(n)) for n in prob.lengths], A))
        ids_of: dict[int, np.ndarray] = {}
        grow = np.zeros(maxlen + 2, dtype=np.int64)
        blocks, rows = [], 0
        for n in range(maxlen + 1):
            grow[n] = rows
            if n not in lengths:
                continue
            # the index's letter codes are the engine's: both are places in its alphabet
            enc = lex.index.encoded(n, lex.base(n))
            ids_of[n] = enc.ids
            block = np.zeros((len(enc.ids), maxlen), dtype=np.uint16)
            block[:, :n] = enc.codes
            blocks.append(block)
            rows += len(enc.ids)
        grow[maxlen + 1] = rows
        self.grow = grow
        self.wl = np.concatenate(blocks) if blocks else np.zeros((0, maxlen), np.uint16)
        self.wid = np.concatenate([ids_of[n] for n in lengths])
        counts = np.frombuffer(lex.index.counts, dtype=np.uint64)
        self.wscore = np.log1p(counts[self.wid].astype(np.float64))
        # preferred words first: a bonus in the CSP's word choice, the first ranks in the
        # rows search's tries (prio: the order within each length group)
        # (None: no word is preferred, the order is the rows')
        self.wbonus = np.zeros(len(self.wid), dtype=np.float64)
        self.prio: np.ndarray | None = None
        if lex.preferred:
            pref = np.isin(self.wid, _ids(lex.preferred))
            self.wbonus[pref] = PREFER_BONUS
            self.prio = np.zeros(len(self.wid), dtype=np.int64)
            for n in lengths:
                g0, g1 = int(grow[n]), int(grow[n + 1])
                order = np.lexsort((np.arange(g1 - g0), ~pref[g0:g1]))
                self.prio[g0 + order] = np.arange(g1 - g0)
        lemmas = None if prob.lemmas is None else np.asarray(prob.lemmas)[self.wid]
        self.keys = conflict_keys(self.wl, lengths, grow, prob.max_shared, lemmas)
        self.klen = np.zeros(len(self.keys.post), dtype=np.int64)  # length of each posting row
        self.kk = np.zeros(len(self.keys.post), dtype=np.int64)  # its place in the group
        if self.keys.active:
            posted = self.keys.post.astype(np.int64)
            self.klen = np.searchsorted(grow, posted, side="right") - 1
            self.kk = posted - grow[self.klen]
        self._build_letter_lists(ids_of, lengths)
        cands = []
        for s, length in enumerate(prob.lengths):
            ids, init = ids_of[length], prob.initial[s]
            cands.append(np.arange(len(ids), dtype=np.int32) if len(init) == len(ids)
                         else np.searchsorted(ids, _ids(init)).astype(np.int32))
        self._build_slots(prob.lengths, cands, prob.grid.crossings())

    def _build_letter_lists(self, ids_of: dict, lengths: list[int]) -> None:
        A, maxlen = self.A, self.maxlen
        nkeys = (maxlen + 1) * maxlen * A
        keys_all, ks_all = [], []
        for n in lengths:
            codes = self.wl[self.grow[n]:self.grow[n] + len(ids_of[n]), :n].astype(np.int64)
            ks = np.repeat(np.arange(len(codes), dtype=np.int64)[:, None], n, axis=1)
            keys = (n * maxlen + np.arange(n, dtype=np.int64)[None, :]) * A + codes
            keys_all.append(keys.T.ravel())
            ks_all.append(ks.T.ravel())
        keys = np.concatenate(keys_all)
        ks = np.concatenate(ks_all)
        order = np.lexsort((ks, keys))
        self.pl = ks[order].astype(np.int32)
        self.pl_start = np.zeros(nkeys + 1, dtype=np.int64)
        np.cumsum(np.bincount(keys, minlength=nkeys), out=self.pl_start[1:])

    def restricted(self, keep: list[int], cands: list[np.ndarray]) -> Tables:
        """The tables of a relaxation: only the slots ``keep`` (in that order), their
        crossings among themselves, ``cands[i]`` the candidates (indices in the length
        group, most frequent first) of slot ``keep[i]``.  Every fill of the grid, cut down
        to these slots, fills the relaxation: when the relaxation has none, the grid has
        none."""
        sub = copy.copy(self)  # the words and their letter lists are shared; slots made anew
        where = {s: i for i, s in enumerate(keep)}
        crossings = [(where[a], pa, where[b], pb) for a, pa, b, pb in self._crossings
                     if a in where and b in where]
        sub._build_slots([int(self.slot[s, LEN]) for s in keep], cands, crossings)
        return sub

    def _build_slots(self, lengths: list[int], cands: list[np.ndarray],
                     crossings: list[tuple[int, int, int, int]]) -> None:
        A, maxlen = self.A, self.maxlen
        S = len(lengths)
        self._crossings = crossings
        slot = np.zeros((S, NSLOT), dtype=np.int64)
        d = p = c = 0
        for s, length in enumerate(lengths):
            cand = cands[s]
            slot[s, LEN], slot[s, DBASE], slot[s, PBASE] = length, d, p
            slot[s, CBASE], slot[s, GROW], slot[s, M] = c, self.grow[length], len(cand)
            d += len(cand)
            p += int(self.grow[length + 1] - self.grow[length])
            c += length * A
        _check_state_bytes(state_bytes(lengths, [len(cand) for cand in cands],
                                       [int(self.grow[n + 1] - self.grow[n]) for n in lengths],
                                       A))
        self.slot = slot
        self.dom0 = np.concatenate(cands) if cands else np.zeros(0, np.int32)
        self.pos0 = np.full(max(1, p), -1, dtype=np.int32)
        self.cnt0 = np.zeros(max(1, c), dtype=np.int32)
        for s, cand in enumerate(cands):
            length, pb, cb, g0, m = (slot[s, LEN], slot[s, PBASE], slot[s, CBASE], slot[s, GROW],
                                     slot[s, M])
            self.pos0[pb + cand] = np.arange(m, dtype=np.int32)
            if m:
                codes = self.wl[g0 + cand, :length].astype(np.int64)
                flat = (np.arange(length, dtype=np.int64)[None, :] * A + codes).ravel()
                self.cnt0[cb:cb + length * A] = np.bincount(flat, minlength=length * A)
        self.size0 = slot[:, M].copy()
        cross = np.full((max(1, S * maxlen), NCROSS), -1, dtype=np.int64)
        for xid, (a, pa, b, pb) in enumerate(crossings):
            for x, o, q in ((a * maxlen + pa, b, pb), (b * maxlen + pb, a, pa)):
                cross[x, OTHER], cross[x, AT], cross[x, XID] = o, q, xid
        self.cross = cross
        self.ncross = len(crossings)
        by_len = np.argsort(np.array(lengths, dtype=np.int64), kind="stable")
        self.same = by_len.astype(np.int64)
        self.same_start = np.zeros(maxlen + 2, dtype=np.int64)
        np.cumsum(np.bincount(np.array(lengths, dtype=np.int64), minlength=maxlen + 1),
                  out=self.same_start[1:])
        self.path_cap = d + 2 * S + 1

    def _check(self) -> None:
        """Invariants of the slot tables: each domain's places, letter counts recounted,
        crossings seen alike from both sides, slots grouped by length."""
        A, maxlen = self.A, self.maxlen
        lengths = self.slot[:, LEN]
        for s, row in enumerate(self.slot.tolist()):
            n, db, pb, cb, g0, m = (row[LEN], row[DBASE], row[PBASE], row[CBASE], row[GROW],
                                    row[M])
            assert g0 == self.grow[n]
            dom = self.dom0[db:db + m]
            assert (self.pos0[pb + dom] == np.arange(m)).all()
            assert (dom < self.grow[n + 1] - g0).all() and len(set(dom.tolist())) == m
            flat = (np.arange(n)[None, :] * A + self.wl[g0 + dom, :n].astype(np.int64)).ravel()
            assert (self.cnt0[cb:cb + n * A] == np.bincount(flat, minlength=n * A)).all()
            for p in range(n):
                o, q, x = (int(self.cross[s * maxlen + p, col]) for col in (OTHER, AT, XID))
                if o >= 0:
                    back = self.cross[o * maxlen + q]
                    assert q < lengths[o] and (back[OTHER], back[AT], back[XID]) == (s, p, x)
        assert (np.diff(lengths[self.same]) >= 0).all()
        assert (self.same_start[lengths[self.same]] <= np.arange(len(self.same))).all()

    def word(self, s: int, k: int) -> str:
        """The word of index ``k`` in slot ``s``'s length group."""
        return self.prob.lex.index.word(int(self.wid[self.slot[s, GROW] + k]))


def state_bytes(lengths: list[int], candidates: list[int], groups: list[int], A: int) -> int:
    """The bytes of one search state over slots of ``lengths`` with that many candidates,
    in length groups of that many words, over an alphabet of ``A`` letters."""
    S, d, p = len(lengths), sum(candidates), sum(groups)
    c = sum(lengths) * A
    return 4 * (2 * d + p + S * 8) + 4 * c + 16 * (d + S)


def _check_state_bytes(need: int) -> None:
    if need > MAX_STATE_BYTES:
        raise GridError(f"the grid is too large for the engine: its search state would take "
                        f"{need / 2**30:.1f} GiB (at most {MAX_STATE_BYTES / 2**30:.0f} GiB)")


class State:
    """The dynamic arrays of one search over ``tables`` (fresh domains, empty trail)."""

    def __init__(self, t: Tables, *, seed: int = 1):
        S = len(t.size0)
        self.t = t
        self.dom = t.dom0.copy()
        self.pos = t.pos0.copy()
        self.size = t.size0.copy()
        self.cnt = t.cnt0.copy()
        self.trail = np.zeros((t.path_cap, NTRAIL), dtype=np.int64)
        self.rq = np.zeros(max(1, S), dtype=np.int64)
        self.inq = np.zeros(max(1, S), dtype=np.uint8)
        self.act = np.zeros(t.maxlen + 1, dtype=np.int64)
        self.sq = np.zeros(max(1, 2 * S), dtype=np.int64)
        self.ctl = np.zeros(NCTL, dtype=np.int64)
        self.ctl[RNG] = (seed * 0x9E3779B97F4A7C15 + 1) & 0x7FFFFFFFFFFFFFFF or 1
        self.ctl[BEST] = -1
        self.params = np.zeros(NPARAMS, dtype=np.float64)
        self.params[DEADLINE] = np.inf
        self.params[PAUSE_AT] = np.inf
        self.params[FREQ_WEIGHT] = 0.25
        self.params[LOOKAHEAD] = 1.0
        self.params[NOISE] = 0.0
        self.params[AGE] = 1.0
        self.used = np.full(max(1, len(t.wid)), -1, dtype=np.int64)
        self.single = np.full(S, -1, dtype=np.int64)
        self.weight = np.ones(max(1, t.ncross), dtype=np.float64)
        self.sweight = np.zeros(S, dtype=np.float64)
        self.dec = np.zeros((t.path_cap, NDEC), dtype=np.int64)
        self.best = np.full(S, -1, dtype=np.int64)
        stride = t.maxlen * t.A
        cap = max(1, min(t.path_cap, SNAPSHOT_BYTES // (4 * stride)))
        self.snap = np.zeros((cap, stride), dtype=np.int32)
        self.snap_size = np.zeros(cap, dtype=np.int64)
        self.mask = np.zeros(max(1, t.maxlen * t.A), dtype=np.uint8)
        self._nogood_arrays(0, 0)

    def _nogood_arrays(self, nogoods: int, literals: int) -> None:
        """Room for that many nogoods and literals (none: the search records nothing)."""
        self.ng_s = np.zeros(max(1, literals), dtype=np.int32)
        self.ng_k = np.zeros(max(1, literals), dtype=np.int32)
        self.ng_start = np.zeros(nogoods + 1, dtype=np.int64)
        self.w_head = np.full(len(self.pos) if nogoods else 1, -1, dtype=np.int32)
        self.w_next = np.full(max(1, 2 * nogoods), -1, dtype=np.int32)
        self.ctl[NGN] = self.ctl[NGL] = 0

    def record_nogoods(self) -> None:
        """Make room for the nogoods of a search that restarts (:mod:`.nogood`)."""
        self._nogood_arrays(NOGOODS, NOGOOD_LITERALS)

    def nogoods(self) -> list[list[tuple[int, int]]]:
        """The nogoods recorded so far, each as its literals ``(slot, word index)``."""
        start = self.ng_start[:int(self.ctl[NGN]) + 1]
        return [list(zip(self.ng_s[b:e].tolist(), self.ng_k[b:e].tolist()))
                for b, e in zip(start[:-1].tolist(), start[1:].tolist())]

    def _check(self) -> None:
        """The nogoods' invariants: literals of distinct slots, each nogood watched on its
        first two literals or (applied at the root) not at all, each watch listed once."""
        n, lits = int(self.ctl[NGN]), int(self.ctl[NGL])
        assert self.ng_start[0] == 0 and self.ng_start[n] == lits
        listed: dict[int, int] = {}
        for h in np.flatnonzero(self.w_head >= 0).tolist():
            node = int(self.w_head[h])
            while node >= 0:
                assert node not in listed, f"watch {node} listed twice"
                listed[node] = h
                node = int(self.w_next[node])
        for c, literals in enumerate(self.nogoods()):
            assert literals and len({s for s, _ in literals}) == len(literals)
            watched = [2 * c + j in listed for j in (0, 1)]
            assert watched[0] == watched[1] and (len(literals) >= 2 or not watched[0])
            for j in (0, 1) if watched[0] else ():
                s, k = literals[j]
                assert listed[2 * c + j] == self.t.slot[s, PBASE] + k

    @property
    def T(self) -> Static:
        """The static arrays, as the compiled code reads them."""
        t = self.t
        k = t.keys
        return Static(t.wl, t.wscore, t.wbonus, t.slot, t.cross, t.pl, t.pl_start, t.same,
                      t.same_start, k.kstart, k.keys, k.pstart, t.klen, t.kk, t.A, t.maxlen)

    @property
    def D(self) -> Dynamic:
        """The dynamic arrays, as the compiled code reads them."""
        return Dynamic(self.dom, self.pos, self.size, self.cnt, self.trail, self.rq, self.sq,
                       self.ctl, self.params, self.used, self.single, self.weight, self.sweight,
                       self.snap, self.snap_size, self.mask, self.dec, self.best, self.inq,
                       self.act, self.ng_s, self.ng_k, self.ng_start, self.w_head,
                       self.w_next)

    def domain(self, s: int) -> np.ndarray:
        """The alive words of slot ``s`` (indices in its length group), most frequent first."""
        db = self.t.slot[s, DBASE]
        return np.sort(self.dom[db:db + self.size[s]])

    def domain_ids(self, s: int) -> np.ndarray:
        """The alive words of slot ``s`` as index ids, most frequent first."""
        return self.t.wid[self.t.slot[s, GROW] + self.domain(s)]

    def words(self) -> list[str]:
        """Every slot's word (each slot must be settled)."""
        return [self.t.word(s, int(self.dom[self.t.slot[s, DBASE]]))
                for s in range(len(self.size))]
