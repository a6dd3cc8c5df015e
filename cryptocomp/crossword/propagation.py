"""Compiled propagation of the CSP engine: sparse-set domains, letter counts, a trail.

Every function here is compiled by numba (``nopython``): the search visits tens of
thousands of nodes a second, and the interpreted version spent 95 % of its time in
Python-level loops around the bitmap operations (profiled: 300 nodes a second on
the WordNet 15x15), so the hot loops live here.

State of a slot ``s`` (arrays described in :mod:`.tables`):

* its domain is a sparse set: ``dom[db : db + m]`` holds the candidate words
  (indices ``k`` into the slot's length group), the first ``size[s]`` of them
  alive; ``pos[ab + k]`` is k's place in ``dom``.  Removing swaps the word to the
  end of the alive part, so undoing removals in reverse order only grows
  ``size`` again: the trail stores the slot alone.
* ``cnt[cb + p * A + a]`` counts the alive words with letter ``a`` at position
  ``p``.  When a count drops to zero the letter has left that cell, and the
  crossing slot must lose every word with that letter there: that is the event
  ``(s, p, a)`` of the queue.  This is arc consistency on the crossings.
* a slot down to one word is a singleton: its word is marked used (no word twice
  in a grid) and removed from the other slots of its length.

Failure (a slot without words, a word used twice) returns nonzero and leaves the
trail consistent: :func:`undo` restores any earlier state exactly.
"""

from __future__ import annotations

import time

import numpy as np
from numba import njit, objmode

__all__ = ["remove", "propagate", "undo", "assign", "refute", "clock", "drop_letter",
           "keep_letter"]

# columns of the slot table
LEN, DBASE, PBASE, CBASE, GROW, M = 0, 1, 2, 3, 4, 5
# control scalars (ctl array)
TRAIL, OPS, NEXT_CHECK, WIPED, NSINGLE, EVN, SQN = 0, 1, 2, 3, 4, 5, 6
# float parameters (params array): the hard deadline is read here, the rest by the search
DEADLINE = 0
# results
OK, FAIL, OUT_OF_TIME = 0, 1, 2
CHECK_EVERY = 1 << 15  # work units (letters touched) between two looks at the clock
# trail entries: (slot, -1) a removal; (slot, row) the slot became the singleton of that row
_REMOVAL = -1
# slots sharing a length with this many others or fewer drop a singleton's word eagerly;
# in larger groups the word is only checked when it would be used a second time
EAGER_DUPES = 512


@njit(cache=True)
def clock():
    """time.monotonic(), from compiled code (about a microsecond a call)."""
    with objmode(t="float64"):
        t = time.monotonic()
    return t


@njit(cache=True)
def past_deadline(ctl, params):
    """True once the deadline has passed (the clock is read every CHECK_EVERY work units)."""
    if ctl[OPS] < ctl[NEXT_CHECK]:
        return False
    ctl[NEXT_CHECK] = ctl[OPS] + CHECK_EVERY
    return clock() > params[DEADLINE]


@njit(cache=True)
def remove(s, i, bq, wl, slot, cross, dom, pos, size, cnt, trail, evq, sq, ctl, A, maxlen):
    """Remove the alive word at place ``i`` of slot ``s``'s domain; queue the letters that
    left a cell (except at position ``bq``, whose crossing is the cause).  FAIL on wipeout."""
    db = slot[s, DBASE]
    last = db + size[s] - 1
    k = dom[db + i]
    other = dom[last]
    # swap to the end of the alive part
    dom[db + i] = other
    pos[slot[s, PBASE] + other] = i
    dom[last] = k
    pos[slot[s, PBASE] + k] = size[s] - 1
    size[s] -= 1
    t = ctl[TRAIL]
    trail[t, 0] = s
    trail[t, 1] = _REMOVAL
    ctl[TRAIL] = t + 1
    n = slot[s, LEN]
    row = slot[s, GROW] + k
    cb = slot[s, CBASE]
    for p in range(n):
        a = wl[row, p]
        c = cb + p * A + a
        cnt[c] -= 1
        if cnt[c] == 0 and p != bq:
            x = s * maxlen + p
            o = cross[x, 0]
            if o >= 0 and size[o] > 0 and cnt[slot[o, CBASE] + cross[x, 1] * A + a] > 0:
                e = ctl[EVN]
                evq[e, 0] = s
                evq[e, 1] = p
                evq[e, 2] = a
                ctl[EVN] = e + 1
    ctl[OPS] += n
    if size[s] == 0:
        ctl[WIPED] = s
        return FAIL
    if size[s] == 1:
        q = ctl[SQN]
        sq[q] = s
        ctl[SQN] = q + 1
    return OK


@njit(cache=True)
def drop_letter(t, q, a, bq, wl, slot, cross, dom, pos, size, cnt, trail, evq, sq, ctl, A,
                maxlen, pl, pl_start):
    """Remove every alive word of slot ``t`` with letter ``a`` at position ``q`` (no event at
    position ``bq``, the crossing that caused it; -1 for a decision)."""
    cb = slot[t, CBASE]
    c = cb + q * A + a
    if cnt[c] == 0:
        return OK
    n = slot[t, LEN]
    key = (n * maxlen + q) * A + a
    lo, hi = pl_start[key], pl_start[key + 1]
    db = slot[t, DBASE]
    pb = slot[t, PBASE]
    if hi - lo < size[t]:
        # fewer words carry the letter there than the slot has alive: walk the letter's list
        for j in range(lo, hi):
            k = pl[j]
            i = pos[pb + k]
            if i >= 0 and i < size[t]:
                if remove(t, i, bq, wl, slot, cross, dom, pos, size, cnt, trail, evq, sq, ctl,
                          A, maxlen) != OK:
                    return FAIL
                if cnt[c] == 0:
                    break
        ctl[OPS] += hi - lo
    else:
        # walk the alive words from the end: a removal swaps in a word already seen
        row0 = slot[t, GROW]
        i = size[t] - 1
        while i >= 0:
            if wl[row0 + dom[db + i], q] == a:
                if remove(t, i, bq, wl, slot, cross, dom, pos, size, cnt, trail, evq, sq, ctl,
                          A, maxlen) != OK:
                    return FAIL
                if cnt[c] == 0:
                    break
            i -= 1
        ctl[OPS] += size[t]
    return OK


@njit(cache=True)
def _settle(s, wl, slot, cross, dom, pos, size, cnt, trail, evq, sq, ctl, A, maxlen, used,
            single, same, same_start):
    """Slot ``s`` is down to one word: mark the word used, drop it from its length group."""
    k = dom[slot[s, DBASE]]
    row = slot[s, GROW] + k
    if used[row] >= 0:
        ctl[WIPED] = s
        return FAIL
    used[row] = s
    single[s] = k
    ctl[NSINGLE] += 1
    t = ctl[TRAIL]
    trail[t, 0] = s
    trail[t, 1] = row
    ctl[TRAIL] = t + 1
    n = slot[s, LEN]
    lo, hi = same_start[n], same_start[n + 1]
    if hi - lo - 1 > EAGER_DUPES:
        return OK
    for j in range(lo, hi):
        u = same[j]
        if u == s or size[u] == 0:
            continue
        i = pos[slot[u, PBASE] + k]
        if i >= 0 and i < size[u]:
            if remove(u, i, -1, wl, slot, cross, dom, pos, size, cnt, trail, evq, sq, ctl,
                      A, maxlen) != OK:
                return FAIL
    return OK


@njit(cache=True)
def propagate(wl, slot, cross, dom, pos, size, cnt, trail, evq, sq, ctl, A, maxlen, pl, pl_start,
              used, single, same, same_start, weight, sweight, params):
    """Run the queues to a fixpoint: letter events, then singletons.  OK, FAIL (``ctl[WIPED]``
    names the slot, the crossing that emptied it gains weight) or OUT_OF_TIME."""
    while ctl[EVN] > 0 or ctl[SQN] > 0:
        if past_deadline(ctl, params):
            return OUT_OF_TIME
        if ctl[EVN] > 0:
            e = ctl[EVN] - 1
            ctl[EVN] = e
            s, p, a = evq[e, 0], evq[e, 1], evq[e, 2]
            x = s * maxlen + p
            t = cross[x, 0]
            if drop_letter(t, cross[x, 1], a, cross[x, 1], wl, slot, cross, dom, pos, size, cnt, trail, evq,
                            sq, ctl, A, maxlen, pl, pl_start) != OK:
                if ctl[WIPED] == t:
                    weight[cross[x, 2]] += 1.0
                else:
                    sweight[ctl[WIPED]] += 1.0
                return FAIL
        else:
            q = ctl[SQN] - 1
            ctl[SQN] = q
            s = sq[q]
            if size[s] == 1 and single[s] < 0:
                if _settle(s, wl, slot, cross, dom, pos, size, cnt, trail, evq, sq, ctl, A,
                           maxlen, used, single, same, same_start) != OK:
                    sweight[ctl[WIPED]] += 1.0
                    return FAIL
    return OK


@njit(cache=True)
def undo(mark, wl, slot, dom, size, cnt, trail, ctl, A, used, single):
    """Restore the state the trail had at length ``mark``."""
    t = ctl[TRAIL]
    while t > mark:
        t -= 1
        s = trail[t, 0]
        row = trail[t, 1]
        if row >= 0:
            used[row] = -1
            single[s] = -1
            ctl[NSINGLE] -= 1
            continue
        k = dom[slot[s, DBASE] + size[s]]
        size[s] += 1
        r = slot[s, GROW] + k
        cb = slot[s, CBASE]
        for p in range(slot[s, LEN]):
            cnt[cb + p * A + wl[r, p]] += 1
    ctl[TRAIL] = t
    ctl[EVN] = 0
    ctl[SQN] = 0


@njit(cache=True)
def assign(s, k, wl, slot, cross, dom, pos, size, cnt, trail, evq, sq, ctl, A, maxlen):
    """Remove every word of slot ``s`` but ``k`` (queues the events; call propagate)."""
    db = slot[s, DBASE]
    i = size[s] - 1
    while i >= 0:
        if dom[db + i] != k:
            if remove(s, i, -1, wl, slot, cross, dom, pos, size, cnt, trail, evq, sq, ctl,
                      A, maxlen) != OK:
                return FAIL
        i -= 1
    return OK


@njit(cache=True)
def refute(s, k, wl, slot, cross, dom, pos, size, cnt, trail, evq, sq, ctl, A, maxlen):
    """Remove word ``k`` from slot ``s`` (queues the events; call propagate)."""
    i = pos[slot[s, PBASE] + k]
    if i < 0 or i >= size[s]:
        return OK
    return remove(s, i, -1, wl, slot, cross, dom, pos, size, cnt, trail, evq, sq, ctl, A, maxlen)


@njit(cache=True)
def keep_letter(s, p, a, wl, slot, cross, dom, pos, size, cnt, trail, evq, sq, ctl, A, maxlen, pl,
                pl_start):
    """Remove every word of slot ``s`` without letter ``a`` at position ``p``."""
    cb = slot[s, CBASE] + p * A
    for b in range(A):
        if b != a and cnt[cb + b] > 0:
            if drop_letter(s, p, b, -1, wl, slot, cross, dom, pos, size, cnt, trail, evq, sq, ctl,
                           A, maxlen, pl, pl_start) != OK:
                return FAIL
    return OK
