"""Compiled propagation of the CSP engine: sparse-set domains, letter counts, a trail.

Every function here is compiled by numba (``nopython``): an interpreted engine
spends nearly all its time in Python-level loops around the array operations.

The arrays come in two named tuples (:mod:`.layout`): ``T``, static
(:class:`~.layout.Static`), and ``D``, the dynamic state (:class:`~.layout.Dynamic`).
State of a slot ``s``:

* its domain is a sparse set: ``dom[db : db + m]`` holds the candidate words
  (indices ``k`` into the slot's length group), the first ``size[s]`` of them
  alive; ``pos[pb + k]`` is k's place in ``dom``.  Words leave by being swapped
  past the end of the alive part, so undoing in reverse order only grows ``size``
  again.
* ``cnt[cb + p * A + a]`` counts the alive words with letter ``a`` at position
  ``p``.  When a count drops to zero the letter has left that cell, and the
  crossing slot must lose every word with that letter there: the crossing slot
  joins the revision queue (``rq``, once: ``inq`` flags it), and its revision
  filters it against every crossing at once.  This is arc consistency on the
  crossings.
* a slot down to one word is a singleton: its word is marked used (no word twice
  in a grid) and removed from the other slots of its length, and so is every word that
  shares a conflict key with it (:mod:`.rules`: a run of letters too long, a lemma).

Words leave in one of three ways, whichever touches the fewest letters (undo
included): one at a time from the words lists of the leaving letters, one at a
time in a walk over the alive words, or in bulk: one pass partitions the
domain, the counts are recounted from the smaller side, and the old counts are
saved on a snapshot stack so that undoing costs one copy.  The trail records
each removal (its slot) or snapshot.  One revision per slot against all its
crossings (smallest domain first), rather than one per letter that left a cell,
and the cheapest of the three ways, rather than bulk or letter lists alone, make
the same search markedly quicker (scripts/LOG.md).

Failure (a slot without words, a word used twice) returns FAIL and leaves the
trail consistent: :func:`undo` restores any earlier state exactly.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..jitcache import compiled
from .clock import clock
from .layout import (
    AT,
    CBASE,
    DBASE,
    DEADLINE,
    GROW,
    LEN,
    NEXT_CHECK,
    NSINGLE,
    OPS,
    OTHER,
    PBASE,
    RQN,
    SNAPN,
    SQN,
    T_SLOT,
    T_TAG,
    TRAIL,
    WIPED,
    XID,
)

__all__ = ["propagate", "undo", "assign", "refute", "drop_letter", "keep_letter",
           "past_deadline", "queue_slot", "halves"]

# results
OK, FAIL, OUT_OF_TIME = 0, 1, 2
CHECK_EVERY = 1 << 15  # work units (letters touched) between two looks at the clock
# trail entries: (slot, -1) one word left; (slot, -2 - j) a bulk filter saved as snapshot j;
# (slot, row >= 0) the slot became the singleton of that row
_REMOVAL = -1
# slots sharing a length with this many others or fewer drop a singleton's word eagerly;
# in larger groups the word is only checked when it would be used a second time
EAGER_DUPES = 512
# letters touched per word removed one at a time (its counts now, again at undo, the trail)
_REMOVE_COST = 3
_SCAN = 64  # queued slots compared when picking the next revision
# Integer arguments of compiled calls are written np.int64(0), not 0: numba types a bare 0
# as the literal 0 and compiles the callee once for it and once more for int64 (a variable
# set to 0 and counted up does the same while its type is inferred); the engine then
# compiled _shrink three times and _bulk four (scripts/LOG.md, "one signature each").
# Likewise a place or slot read from an int32 array (pos, a nogood's literals and watches)
# is widened to np.int64 before it is passed: _remove was compiled three times, refute and
# _after_shrink twice


@compiled(entry=False, allocates=False)
def past_deadline(ctl, params):
    """True once the deadline has passed (the clock is read every CHECK_EVERY work units)."""
    if ctl[OPS] < ctl[NEXT_CHECK]:
        return False
    ctl[NEXT_CHECK] = ctl[OPS] + CHECK_EVERY
    return clock() > params[DEADLINE]


@compiled(entry=False, allocates=False)
def queue_slot(D, o):
    """Queue slot ``o`` for revision (once)."""
    rq, ctl, inq = D.rq, D.ctl, D.inq
    if inq[o] == 0:
        inq[o] = 1
        e = ctl[RQN]
        rq[e] = o
        ctl[RQN] = e + 1


@compiled(entry=False, allocates=False)
def _after_shrink(T, D, s):
    """FAIL when slot ``s`` is empty; queue it when it is down to one word."""
    size, sq, ctl = D.size, D.sq, D.ctl
    if size[s] == 0:
        ctl[WIPED] = s
        return FAIL
    if size[s] == 1:
        q = ctl[SQN]
        sq[q] = s
        ctl[SQN] = q + 1
    return OK


@compiled(entry=False, allocates=False)
def _remove(T, D, s, i):
    """Remove the alive word at place ``i`` of slot ``s``; queue the crossing slots that
    still have a letter that left one of its cells."""
    wl, slot, cross, A, maxlen = T.wl, T.slot, T.cross, T.A, T.maxlen
    dom, pos, size, cnt, trail, ctl = D.dom, D.pos, D.size, D.cnt, D.trail, D.ctl
    db, pb = slot[s, DBASE], slot[s, PBASE]
    last = size[s] - 1
    k = dom[db + i]
    other = dom[db + last]
    dom[db + i] = other
    pos[pb + other] = i
    dom[db + last] = k
    pos[pb + k] = last
    size[s] = last
    t = ctl[TRAIL]
    trail[t, T_SLOT] = s
    trail[t, T_TAG] = _REMOVAL
    ctl[TRAIL] = t + 1
    n = slot[s, LEN]
    row = slot[s, GROW] + k
    cb = slot[s, CBASE]
    for p in range(n):
        a = wl[row, p]
        c = cb + p * A + a
        cnt[c] -= 1
        if cnt[c] == 0:
            x = s * maxlen + p
            o = cross[x, OTHER]
            if o >= 0 and size[o] > 0 and cnt[slot[o, CBASE] + cross[x, AT] * A + a] > 0:
                queue_slot(D, o)
    ctl[OPS] += n
    return _after_shrink(T, D, s)


@compiled(entry=False, allocates=False)
def _fits(wl, mask, act, nact, row, A):
    """Whether the word of row ``row`` has a marked letter at every active position."""
    for j in range(nact):
        p = act[j]
        if mask[p * A + wl[row, p]] == 0:
            return False
    return True


@compiled(entry=False, allocates=False)
def _bulk(T, D, s, nact, word):
    """Keep in one pass the words of slot ``s`` that fit the mask at the ``nact`` active
    positions (``word`` < 0), or the word ``word`` alone; save the counts for undo and
    queue the crossings that lose letters.  -1 when the snapshot stack is full."""
    wl, slot, cross, A, maxlen = T.wl, T.slot, T.cross, T.A, T.maxlen
    dom, pos, size, cnt, trail = D.dom, D.pos, D.size, D.cnt, D.trail
    ctl, snap, snap_size, mask, act = D.ctl, D.snap, D.snap_size, D.mask, D.act
    j = ctl[SNAPN]
    if j >= snap_size.shape[0]:
        return -1
    db, pb, cb = slot[s, DBASE], slot[s, PBASE], slot[s, CBASE]
    n, row0 = slot[s, LEN], slot[s, GROW]
    m = size[s]
    kept = 0
    for i in range(m):
        k = dom[db + i]
        if (k == word) if word >= 0 else _fits(wl, mask, act, nact, row0 + k, A):
            if i != kept:
                other = dom[db + kept]
                dom[db + kept] = k
                pos[pb + k] = kept
                dom[db + i] = other
                pos[pb + other] = i
            kept += 1
    ctl[OPS] += m
    if kept == m:
        return OK
    width = n * A
    for c in range(width):
        snap[j, c] = cnt[cb + c]
    snap_size[j] = m
    ctl[SNAPN] = j + 1
    t = ctl[TRAIL]
    trail[t, T_SLOT] = s
    trail[t, T_TAG] = -2 - j
    ctl[TRAIL] = t + 1
    size[s] = kept
    if kept < m - kept:
        for c in range(width):
            cnt[cb + c] = 0
        lo, hi, sign = 0, kept, 1
    else:
        lo, hi, sign = kept, m, -1
    for i in range(lo, hi):
        row = row0 + dom[db + i]
        for p in range(n):
            cnt[cb + p * A + wl[row, p]] += sign
    ctl[OPS] += (hi - lo) * n + 2 * width
    for p in range(n):
        x = s * maxlen + p
        o = cross[x, OTHER]
        if o < 0 or size[o] == 0:
            continue
        ob = slot[o, CBASE] + cross[x, AT] * A
        for a in range(A):
            if snap[j, p * A + a] > 0 and cnt[cb + p * A + a] == 0 and cnt[ob + a] > 0:
                queue_slot(D, o)
                break
    return _after_shrink(T, D, s)


@compiled(entry=False, allocates=False)
def _shrink(T, D, t, nact):
    """Keep the alive words of slot ``t`` that fit the mask at the ``nact`` positions listed
    in ``act``: in bulk, in one walk over the alive words, or by walking the leaving
    letters' word lists, whichever touches the fewest letters (undo included)."""
    wl, slot, pl, pl_start, A, maxlen = T.wl, T.slot, T.pl, T.pl_start, T.A, T.maxlen
    dom, pos, size, cnt, ctl, mask, act = D.dom, D.pos, D.size, D.cnt, D.ctl, D.mask, D.act
    n = slot[t, LEN]
    cb = slot[t, CBASE]
    m = size[t]
    leaving, most, listed = 0, 0, 0
    for j in range(nact):
        q = act[j]
        base = (n * maxlen + q) * A
        here = 0
        for b in range(A):
            if mask[q * A + b] == 0 and cnt[cb + q * A + b] > 0:
                here += cnt[cb + q * A + b]
                listed += pl_start[base + b + 1] - pl_start[base + b]
        leaving += here
        most = max(most, here)
    if leaving == 0:
        return OK
    leaving = min(leaving, m)
    by_lists = listed + _REMOVE_COST * leaving * n
    by_walk = m * nact + _REMOVE_COST * leaving * n
    in_bulk = m * nact + min(leaving, m - most) * n + 3 * n * A
    if in_bulk < by_lists and in_bulk < by_walk:
        r = _bulk(T, D, t, nact, np.int64(-1))
        if r >= 0:
            return r
    db, pb = slot[t, DBASE], slot[t, PBASE]
    if by_lists < by_walk:
        for j in range(nact):
            q = act[j]
            base = (n * maxlen + q) * A
            for b in range(A):
                c = cb + q * A + b
                if mask[q * A + b] != 0 or cnt[c] == 0:
                    continue
                lo, hi = pl_start[base + b], pl_start[base + b + 1]
                for h in range(lo, hi):
                    i = np.int64(pos[pb + pl[h]])
                    if 0 <= i < size[t]:
                        if _remove(T, D, t, i) != OK:
                            return FAIL
                        if cnt[c] == 0:
                            break
                ctl[OPS] += hi - lo
        return OK
    # walk the alive words from the end: a removal swaps in a word already seen
    # (one position: ``leaving`` is exact, and the walk stops when they are gone)
    row0 = slot[t, GROW]
    exact = nact == 1
    i = m - 1
    while i >= 0 and leaving > 0:
        if not _fits(wl, mask, act, nact, row0 + dom[db + i], A):
            if _remove(T, D, t, i) != OK:
                return FAIL
            if exact:
                leaving -= 1
        i -= 1
    ctl[OPS] += (m - 1 - i) * nact
    return OK


@compiled(entry=False, allocates=False)
def drop_letter(T, D, t, q, a):
    """Remove every alive word of slot ``t`` with letter ``a`` at position ``q``."""
    A, mask, act = T.A, D.mask, D.act
    for b in range(A):
        mask[q * A + b] = 1
    mask[q * A + a] = 0
    act[0] = q
    return _shrink(T, D, t, np.int64(1))


@compiled(entry=False, allocates=False)
def keep_letter(T, D, s, p, a):
    """Remove every word of slot ``s`` without letter ``a`` at position ``p``."""
    A, mask, act = T.A, D.mask, D.act
    for b in range(A):
        mask[p * A + b] = 0
    mask[p * A + a] = 1
    act[0] = p
    return _shrink(T, D, s, np.int64(1))


@compiled(entry=False, allocates=False)
def _revise(T, D, t):
    """Slot ``t`` keeps only the words whose letters every crossing slot still has at the
    shared cells; the crossed positions where it loses words are left in ``act`` (their
    number in ``act[maxlen]``: the crossings to blame when the slot runs empty)."""
    slot, cross, A, maxlen = T.slot, T.cross, T.A, T.maxlen
    size, cnt, mask, act = D.size, D.cnt, D.mask, D.act
    cb = slot[t, CBASE]
    nact = np.int64(0)
    for q in range(slot[t, LEN]):
        x = t * maxlen + q
        o = cross[x, OTHER]
        if o < 0 or size[o] == 0:
            continue
        ob = slot[o, CBASE] + cross[x, AT] * A
        loses = False
        for b in range(A):
            keep = cnt[ob + b] > 0
            mask[q * A + b] = 1 if keep else 0
            if not keep and cnt[cb + q * A + b] > 0:
                loses = True
        if loses:
            act[nact] = q
            nact += 1
    act[maxlen] = nact
    D.ctl[OPS] += slot[t, LEN] * A
    if nact == 0:
        return OK
    return _shrink(T, D, t, nact)


@compiled(entry=False, allocates=False)
def _settle(T, D, s):
    """Slot ``s`` is down to one word: mark the word used, drop it from its length group."""
    slot, same, same_start = T.slot, T.same, T.same_start
    dom, pos, size, trail = D.dom, D.pos, D.size, D.trail
    ctl, used, single = D.ctl, D.used, D.single
    k = dom[slot[s, DBASE]]
    row = slot[s, GROW] + k
    if used[row] >= 0:
        ctl[WIPED] = s
        return FAIL
    used[row] = s
    single[s] = k
    ctl[NSINGLE] += 1
    t = ctl[TRAIL]
    trail[t, T_SLOT] = s
    trail[t, T_TAG] = row
    ctl[TRAIL] = t + 1
    n = slot[s, LEN]
    lo, hi = same_start[n], same_start[n + 1]
    if hi - lo - 1 <= EAGER_DUPES:
        for j in range(lo, hi):
            u = same[j]
            if u == s or size[u] == 0:
                continue
            i = np.int64(pos[slot[u, PBASE] + k])
            if 0 <= i < size[u] and _remove(T, D, u, i) != OK:
                return FAIL
    if T.kstart[row + 1] > T.kstart[row]:
        return _drop_conflicts(T, D, s, row)
    return OK


@compiled(entry=False, allocates=False)
def _drop_conflicts(T, D, s, row):
    """Slot ``s`` settled on word row ``row``: the words that share a conflict key with it
    (:mod:`.rules`) leave every other slot."""
    slot, same, same_start = T.slot, T.same, T.same_start
    kstart, keys, pstart, klen, kk = T.kstart, T.keys, T.pstart, T.klen, T.kk
    pos, size, ctl = D.pos, D.size, D.ctl
    for j in range(kstart[row], kstart[row + 1]):
        key = keys[j]
        for h in range(pstart[key], pstart[key + 1]):
            n2, k2 = klen[h], kk[h]
            for g in range(same_start[n2], same_start[n2 + 1]):
                u = same[g]
                if u == s or size[u] == 0:
                    continue
                i = np.int64(pos[slot[u, PBASE] + k2])
                if 0 <= i < size[u] and _remove(T, D, u, i) != OK:
                    return FAIL
            ctl[OPS] += same_start[n2 + 1] - same_start[n2]
    return OK


def halves() -> tuple[tuple[Any, int], ...]:
    """The propagation's two halves, each with the number of int arguments it takes after
    ``(T, D)``: revising a slot and settling one, which share only the removal of a word,
    so that :mod:`.warmup` compiles them in two processes at once."""
    return ((_revise, 1), (_settle, 1))


@compiled(entry=False, allocates=False)
def propagate(T, D):
    """Run the queues to a fixpoint: slot revisions, then singletons.  OK, FAIL
    (``ctl[WIPED]`` names the slot; the crossings that emptied it gain weight) or
    OUT_OF_TIME."""
    cross, maxlen = T.cross, T.maxlen
    size, rq, sq, ctl, params, single = D.size, D.rq, D.sq, D.ctl, D.params, D.single
    weight, sweight, inq, act = D.weight, D.sweight, D.inq, D.act
    while ctl[RQN] > 0 or ctl[SQN] > 0:
        if past_deadline(ctl, params):
            return OUT_OF_TIME
        if ctl[RQN] > 0:
            # the smallest domain first (among the latest few: long queues, such as the
            # root's on a large grid, are not scanned whole at every step)
            e = ctl[RQN] - 1
            b = e
            for h in range(max(0, e - _SCAN), e):
                if size[rq[h]] < size[rq[b]]:
                    b = h
            t = rq[b]
            rq[b] = rq[e]
            ctl[RQN] = e
            inq[t] = 0
            if _revise(T, D, t) != OK:
                share = 1.0 / act[maxlen]
                for j in range(act[maxlen]):
                    weight[cross[t * maxlen + act[j], XID]] += share
                return FAIL
        else:
            q = ctl[SQN] - 1
            ctl[SQN] = q
            s = sq[q]
            if size[s] == 1 and single[s] < 0 and _settle(T, D, s) != OK:
                sweight[ctl[WIPED]] += 1.0
                return FAIL
    return OK


@compiled(allocates=False)
def undo(T, D, mark):
    """Restore the state the trail had at length ``mark``."""
    wl, slot, A = T.wl, T.slot, T.A
    dom, size, cnt, trail, ctl, used = D.dom, D.size, D.cnt, D.trail, D.ctl, D.used
    rq, single, snap, snap_size, inq = D.rq, D.single, D.snap, D.snap_size, D.inq
    t = ctl[TRAIL]
    while t > mark:
        t -= 1
        s = trail[t, T_SLOT]
        tag = trail[t, T_TAG]
        if tag >= 0:
            used[tag] = -1
            single[s] = -1
            ctl[NSINGLE] -= 1
        elif tag == _REMOVAL:
            k = dom[slot[s, DBASE] + size[s]]
            size[s] += 1
            r = slot[s, GROW] + k
            cb = slot[s, CBASE]
            for p in range(slot[s, LEN]):
                cnt[cb + p * A + wl[r, p]] += 1
        else:
            j = -2 - tag
            size[s] = snap_size[j]
            cb = slot[s, CBASE]
            for c in range(slot[s, LEN] * A):
                cnt[cb + c] = snap[j, c]
            ctl[SNAPN] = j
    ctl[TRAIL] = t
    for e in range(ctl[RQN]):
        inq[rq[e]] = 0
    ctl[RQN] = 0
    ctl[SQN] = 0


@compiled(entry=False, allocates=False)
def assign(T, D, s, k):
    """Keep word ``k`` alone in slot ``s`` (queues the crossings; call propagate)."""
    slot = T.slot
    dom, size = D.dom, D.size
    r = _bulk(T, D, s, np.int64(0), k)
    if r >= 0:
        return r
    i = size[s] - 1
    db = slot[s, DBASE]
    while i >= 0:
        if dom[db + i] != k and _remove(T, D, s, i) != OK:
            return FAIL
        i -= 1
    return OK


@compiled(entry=False, allocates=False)
def refute(T, D, s, k):
    """Remove word ``k`` from slot ``s`` (queues the crossings; call propagate)."""
    slot = T.slot
    pos, size = D.pos, D.size
    i = np.int64(pos[slot[s, PBASE] + k])
    if i < 0 or i >= size[s]:
        return OK
    return _remove(T, D, s, i)
