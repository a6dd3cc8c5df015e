"""Compiled search of the CSP engine: binary branching with restarts, dom/wdeg, look-ahead.

A node picks the open slot with the fewest words per unit of failure weight
(dom/wdeg: a crossing gains weight each time it empties a domain, so the search
learns where the grid is tight; weights survive restarts, and where the lane
restarts each failure ages them, ``params[AGE]``, so that recent failures steer
more than old ones), then its best word:
the most frequent, or with look-ahead the one whose letters leave the crossing
slots the most words (the sum of the logs of those counts, plus the log of its
frequency weighted by ``freq_weight``).  Binary branching: place the word, else
remove it from the slot; both branches are propagated (:mod:`.propagation`), and so
are the nogoods a lane that restarts has recorded (:mod:`.nogood`).

The search is resumable: all its state is in arrays (the decision stack, the
trail, the control scalars), and :func:`run` returns after ``node_limit`` nodes,
at a solution, at a restart (``fail_limit`` failures) or when the space is
exhausted.  Randomness (a seeded xorshift in ``ctl``) perturbs slot ties and
word scores after a restart.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..jitcache import compiled
from .clock import clock
from .layout import (
    AGE,
    AT,
    BEST,
    BEST_CULPRIT,
    BEST_OPEN,
    CBASE,
    D_KIND,
    D_MARK,
    D_SLOT,
    D_VALUE,
    DBASE,
    DEADLINE,
    DEPTH,
    FAIL_LIMIT,
    FAILS,
    FREQ_WEIGHT,
    GROW,
    LAST_SLOT,
    LEN,
    LETTER_BRANCH,
    LOOKAHEAD,
    NGN,
    NODES,
    NOISE,
    NSINGLE,
    OPS,
    OTHER,
    PAUSE_AT,
    RNG,
    SLOT_NOISE,
    SQN,
    TRAIL,
    WIPED,
    XID,
)
from .nogood import PLACE_LETTER, PLACE_WORD, REMOVE_LETTER, REMOVE_WORD, watch
from .propagation import (
    FAIL,
    OK,
    OUT_OF_TIME,
    assign,
    drop_letter,
    keep_letter,
    propagate,
    queue_slot,
    refute,
    undo,
)

__all__ = ["run", "root", "progress", "choices", "FOUND", "EXHAUSTED", "PAUSED", "RESTART",
           "STOPPED"]

_PAUSE_CHECK = 1 << 12  # work units between two looks at the clock for the deadline
# run() results
FOUND, EXHAUSTED, PAUSED, RESTART, STOPPED = 1, 2, 3, 4, 5


@compiled(entry=False, allocates=False)
def _rand(ctl):
    """A uniform float in [0, 1) from the xorshift64 state in ctl[RNG]."""
    x = np.uint64(ctl[RNG])
    x ^= x << np.uint64(13)
    x ^= x >> np.uint64(7)
    x ^= x << np.uint64(17)
    ctl[RNG] = np.int64(x & np.uint64(0x7FFFFFFFFFFFFFFF)) or 1
    return (x >> np.uint64(11)) * (1.0 / 9007199254740992.0)


@compiled(entry=False, allocates=False)
def _choose_slot(T, D):
    """The open slot with the least dom/wdeg (-1: every slot is settled)."""
    slot, cross, maxlen = T.slot, T.cross, T.maxlen
    size, ctl, params, weight, sweight = D.size, D.ctl, D.params, D.weight, D.sweight
    best, best_key = -1, np.inf
    noise = params[SLOT_NOISE]
    for s in range(size.shape[0]):
        if size[s] <= 1:
            continue
        w = sweight[s]
        for p in range(slot[s, LEN]):
            x = s * maxlen + p
            o = cross[x, OTHER]
            if o >= 0 and size[o] > 1:
                w += weight[cross[x, XID]]
        key = size[s] / w if w > 0 else size[s] * 1e9
        if noise > 0:
            key *= 1.0 + noise * _rand(ctl)
        if key < best_key:
            best, best_key = s, key
    return best


@compiled(entry=False, allocates=False)
def _choose_word(T, D, s):
    """The word to place first in slot ``s`` (its index ``k`` in the length group)."""
    wl, wscore, slot, cross, A, maxlen = T.wl, T.wscore, T.slot, T.cross, T.A, T.maxlen
    wbonus = T.wbonus
    dom, size, cnt, ctl, params, used = D.dom, D.size, D.cnt, D.ctl, D.params, D.used
    db, m = slot[s, DBASE], size[s]
    row0 = slot[s, GROW]
    n = slot[s, LEN]
    fw = params[FREQ_WEIGHT]
    noise = params[NOISE]
    look = params[LOOKAHEAD] > 0
    best_k, best_score = -1, -np.inf
    for i in range(m):
        k = dom[db + i]
        r = row0 + k
        if used[r] >= 0:
            continue
        score = fw * wscore[r] + wbonus[r]
        if look:
            for p in range(n):
                x = s * maxlen + p
                o = cross[x, OTHER]
                if o >= 0 and size[o] > 1:
                    c = cnt[slot[o, CBASE] + cross[x, AT] * A + wl[r, p]]
                    score += np.log(c) if c > 0 else -1e9
        if noise > 0:
            score += noise * _rand(ctl)
        if score > best_score or (score == best_score and k < best_k):
            best_k, best_score = k, score
    if best_k < 0:
        best_k = dom[db]  # every word used elsewhere: placing one fails at once
    ctl[OPS] += m * n if look else m
    return best_k


@compiled(entry=False, allocates=False)
def _choose_letter(T, D, s):
    """For slot ``s``: ``p * A + a`` for its crossed cell with the fewest letters left (more
    than one) and the letter there best supported by both slots; -1 when there is none."""
    slot, cross, A, maxlen = T.slot, T.cross, T.A, T.maxlen
    size, cnt = D.size, D.cnt
    cb = slot[s, CBASE]
    best_p, best_n = -1, 1 << 30
    for p in range(slot[s, LEN]):
        x = s * maxlen + p
        o = cross[x, OTHER]
        if o < 0 or size[o] <= 1:
            continue
        k = 0
        for a in range(A):
            if cnt[cb + p * A + a] > 0:
                k += 1
        if 1 < k < best_n:
            best_p, best_n = p, k
    if best_p < 0:
        return -1
    x = s * maxlen + best_p
    ob = slot[cross[x, OTHER], CBASE] + cross[x, AT] * A
    best_a, best_score = -1, -np.inf
    for a in range(A):
        cs, ct = cnt[cb + best_p * A + a], cnt[ob + a]
        if cs > 0 and ct > 0:
            score = np.log(cs) + np.log(ct)
            if score > best_score:
                best_a, best_score = a, score
    if best_a < 0:
        return -1
    return best_p * A + best_a


@compiled(entry=False, allocates=False)
def _choose_cell(T, D):
    """(slot, p * A + a) over every crossed cell with two letters or more: the cell whose best
    letter has the least support (the product of the two slots' counts of words with that
    letter there: the weakest cell first), and that letter.  (s, -1) when an open slot has
    no such cell; (-1, -1) when every slot is settled."""
    slot, cross, A, maxlen = T.slot, T.cross, T.A, T.maxlen
    size, cnt, ctl = D.size, D.cnt, D.ctl
    best_s, best_code, best_key, open_s = -1, -1, np.inf, -1
    seen = 0
    for s in range(size.shape[0]):
        if size[s] <= 1:
            continue
        open_s = s
        cb = slot[s, CBASE]
        for p in range(slot[s, LEN]):
            x = s * maxlen + p
            o = cross[x, OTHER]
            if o < 0 or size[o] <= 1 or o < s:
                continue  # unchecked, settled, or seen from the other slot
            seen += 1
            ob = slot[o, CBASE] + cross[x, AT] * A
            top, top_a, k = 0.0, -1, 0
            for a in range(A):
                cs = cnt[cb + p * A + a]
                if cs > 0:
                    ct = cnt[ob + a]
                    if ct > 0:
                        k += 1
                        v = float(cs) * float(ct)
                        if v > top:
                            top, top_a = v, a
            if k > 1 and top < best_key:
                best_s, best_code, best_key = s, p * A + top_a, top
    ctl[OPS] += seen * A
    if best_s < 0:
        return open_s, -1
    return best_s, best_code


@compiled(allocates=False)
def _failed(ctl, params, weight, sweight):
    """Count a failure; with ageing, older failures weigh less than new ones (the
    weights' excess over 1, and the slots' own weights, times params[AGE])."""
    ctl[FAILS] += 1
    f = params[AGE]
    if f < 1.0:
        for c in range(weight.shape[0]):
            weight[c] = 1.0 + (weight[c] - 1.0) * f
        for s in range(sweight.shape[0]):
            sweight[s] *= f
        ctl[OPS] += weight.shape[0] + sweight.shape[0]


@compiled(entry=False, allocates=False)
def _note(size, ctl, single, best):
    """Keep the partial fill with the most settled slots, and its tightest open slot."""
    if ctl[NSINGLE] <= ctl[BEST]:
        return
    ctl[BEST] = ctl[NSINGLE]
    culprit, low = -1, 1 << 62
    for s in range(size.shape[0]):
        best[s] = single[s]
        if size[s] > 1 and size[s] < low:
            culprit, low = s, size[s]
    ctl[BEST_CULPRIT] = culprit
    ctl[BEST_OPEN] = low if culprit >= 0 else 0


@compiled(allocates=False, nogil=True)
def root(T, D):
    """Make the initial domains arc consistent: OK, FAIL or OUT_OF_TIME."""
    size, sq, ctl = D.size, D.sq, D.ctl
    nslots = size.shape[0]
    for s in range(nslots):
        if size[s] == 0:
            ctl[WIPED] = s
            return FAIL
    for s in range(nslots):
        if size[s] == 1:
            q = ctl[SQN]
            sq[q] = s
            ctl[SQN] = q + 1
        queue_slot(D, s)
    return propagate(T, D)


def choices() -> tuple[tuple[Any, int], ...]:
    """The compiled choices of a node, each with the number of int arguments it takes
    after ``(T, D)``: what :mod:`.warmup` compiles beside the searches."""
    return ((_choose_slot, 0), (_choose_cell, 0), (_choose_word, 1), (_choose_letter, 1))


def progress(dec: np.ndarray, depth: int) -> float:
    """The part of a search without restarts already done, from its ``depth`` active
    decisions ``dec``: each branch counts half its parent, and a decision in its second
    branch ("remove") has finished its first.  Never falls as the search goes on (a
    Knuth-style estimate: uneven subtrees make it a guide, not a clock)."""
    kinds = dec[:depth, D_KIND]
    second = np.flatnonzero((kinds == REMOVE_WORD) | (kinds == REMOVE_LETTER))
    return float(np.ldexp(1.0, -1 - second).sum())


@compiled(allocates=False, nogil=True)
def run(T, D, node_limit):
    """Search on from the current state for at most ``node_limit`` nodes.

    ``dec`` rows are decisions ``(slot, word or p * A + letter, trail mark, kind)`` (see
    the decision kinds); ``ctl[DEPTH]`` of them are active.  A solution leaves the state
    settled (every slot one word) and returns FOUND; the next call backtracks from it.
    """
    A = T.A
    size, ctl, params, single = D.size, D.ctl, D.params, D.single
    weight, sweight, dec, best = D.weight, D.sweight, D.dec, D.best
    nodes = 0
    next_look = ctl[OPS]
    if ctl[LAST_SLOT] == -2 and ctl[DEPTH] == 0:
        return EXHAUSTED  # the root itself was the only solution
    failed = ctl[LAST_SLOT] == -2  # re-entered at a solution: backtrack from it
    ctl[LAST_SLOT] = -1
    while True:
        if not failed:
            if nodes >= node_limit:
                return PAUSED
            if ctl[OPS] >= params[PAUSE_AT]:
                return PAUSED
            if ctl[OPS] >= next_look:
                next_look = ctl[OPS] + _PAUSE_CHECK
                if clock() > params[DEADLINE]:
                    return STOPPED
            if ctl[FAIL_LIMIT] > 0 and ctl[FAILS] >= ctl[FAIL_LIMIT]:
                return RESTART
            _note(size, ctl, single, best)
            code = -1
            if params[LETTER_BRANCH] < 0:
                s, code = _choose_cell(T, D)
            else:
                s = _choose_slot(T, D)
                if s >= 0 and params[LETTER_BRANCH] > 0 and size[s] > params[LETTER_BRANCH]:
                    code = _choose_letter(T, D, s)
            if s < 0:
                ctl[LAST_SLOT] = -2
                return FOUND
            d = ctl[DEPTH]
            dec[d, D_SLOT] = s
            dec[d, D_MARK] = ctl[TRAIL]
            ctl[DEPTH] = d + 1
            nodes += 1
            ctl[NODES] += 1
            if code >= 0:
                dec[d, D_VALUE] = code
                dec[d, D_KIND] = PLACE_LETTER
                r = keep_letter(T, D, s, code // A, code % A)
            else:
                k = _choose_word(T, D, s)
                dec[d, D_VALUE] = k
                dec[d, D_KIND] = PLACE_WORD
                r = assign(T, D, s, k)
            if r == OK:
                r = propagate(T, D)
            if r == OK and ctl[NGN] > 0:
                r = watch(T, D, dec[d, D_MARK])
            if r == OUT_OF_TIME:
                return STOPPED
            if r == OK:
                continue
            _failed(ctl, params, weight, sweight)
        # backtrack: undo decisions until a "place" one can be turned into "remove"
        failed = False
        while True:
            d = ctl[DEPTH] - 1
            if d < 0:
                return EXHAUSTED
            s, k, mark, kind = dec[d, D_SLOT], dec[d, D_VALUE], dec[d, D_MARK], dec[d, D_KIND]
            undo(T, D, mark)
            if kind in (REMOVE_WORD, REMOVE_LETTER):
                ctl[DEPTH] = d
                continue
            nodes += 1
            ctl[NODES] += 1
            if kind == PLACE_LETTER:
                dec[d, D_KIND] = REMOVE_LETTER
                r = drop_letter(T, D, s, k // A, k % A)
            else:
                dec[d, D_KIND] = REMOVE_WORD
                r = refute(T, D, s, k)
            if r == OK:
                r = propagate(T, D)
            if r == OK and ctl[NGN] > 0:
                r = watch(T, D, mark)
            if r == OUT_OF_TIME:
                return STOPPED
            if r == OK:
                break
            _failed(ctl, params, weight, sweight)
            undo(T, D, mark)
            ctl[DEPTH] = d
