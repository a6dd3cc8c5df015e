"""Nogoods recorded at restarts (Lecoutre et al.'s reduced nld-nogoods), watched by two
literals.

A search that restarts forgets the subtrees it refuted, and the next run may refute them
again.  At a restart the decision stack says what was refuted: each "remove word k from
slot s" decision was taken because placing k there, with the "place" decisions above it,
failed (or gave fills already reported).  So the set of those places and ``s = k`` is a
nogood: no later run may make all of them at once.  A search whose runs keep every such
nogood is complete again: a run that exhausts its tree proves that no (further) fill
exists, as the search without restarts does.

A literal ``(s, k)`` is true when slot ``s`` is down to word ``k`` alone, false when ``k``
has left the slot.  Each nogood of two literals or more watches two that are not true
(its first two); when a watched literal becomes true (a singleton entry on the trail,
:mod:`.propagation`) the nogood watches another one, or, when all the others are true,
its other watched literal is removed from its slot (or, true too, the node fails).
Watches need no undoing: backtracking only makes literals untrue.  A nogood of one
literal, or one all but one of whose literals are true at the root, is applied at the
root once, which restarts never undo again.

A nogood holds for any search of the same grid and list, so the two restart lanes of a
portfolio also take each other's at their restarts (:func:`adopt`): neither searches again
what the other refuted.

Layout (:class:`.layout.Dynamic`): ``ng_s`` and ``ng_k`` hold the literals nogood after
nogood, ``ng_start[c]`` where nogood ``c``'s start (``ctl[NGN]`` nogoods, ``ctl[NGL]``
literals); ``w_head[PBASE[s] + k]`` is the first watching node of literal ``(s, k)``,
a node ``2 * c + j`` being nogood ``c``'s watch of its literal ``j`` (0 or 1), chained by
``w_next``.  A state without room for nogoods (arrays of one element) records none.
"""

from __future__ import annotations

import numpy as np

from ..jitcache import compiled
from .layout import (
    D_KIND,
    D_SLOT,
    D_VALUE,
    DBASE,
    DEPTH,
    GROW,
    NGL,
    NGN,
    OPS,
    PBASE,
    RQN,
    SQN,
    T_SLOT,
    T_TAG,
    TRAIL,
    WIPED,
)
from .propagation import FAIL, OK, propagate, refute, undo

__all__ = ["watch", "learn", "adopt", "PLACE_WORD", "REMOVE_WORD", "PLACE_LETTER", "REMOVE_LETTER"]

# decision kinds (the search's decision stack, column D_KIND)
PLACE_WORD, REMOVE_WORD, PLACE_LETTER, REMOVE_LETTER = 0, 1, 2, 3


@compiled(entry=False, allocates=False)
def _true(T, D, s, k):
    """Whether slot ``s`` is down to word ``k`` alone."""
    return D.size[s] == 1 and D.dom[T.slot[s, DBASE]] == k


@compiled(entry=False, allocates=False)
def _false(T, D, s, k):
    """Whether word ``k`` has left slot ``s`` (or never was one of its candidates)."""
    i = D.pos[T.slot[s, PBASE] + k]
    return i < 0 or i >= D.size[s]


@compiled(entry=False, allocates=False)
def _link(T, D, node):
    """Chain watching ``node`` to the literal it watches."""
    c, j = node >> 1, node & 1
    at = D.ng_start[c] + j
    h = T.slot[D.ng_s[at], PBASE] + D.ng_k[at]
    D.w_next[node] = D.w_head[h]
    D.w_head[h] = node


@compiled(entry=False, allocates=False)
def _visit(T, D, s, k):
    """Literal ``(s, k)`` just became true: move each nogood watching it to another
    literal, or remove the other watched one (OK), or fail when it is true too."""
    ng_s, ng_k, ng_start, w_head, w_next, ctl = (D.ng_s, D.ng_k, D.ng_start, D.w_head,
                                                  D.w_next, D.ctl)
    h = T.slot[s, PBASE] + k
    prev, node = -1, w_head[h]
    while node >= 0:
        nxt = w_next[node]
        c, j = node >> 1, node & 1
        b, e = ng_start[c], ng_start[c + 1]
        o = b + 1 - j
        so, ko = ng_s[o], ng_k[o]
        ctl[OPS] += e - b
        if _false(T, D, so, ko):  # the nogood holds already
            prev, node = node, nxt
            continue
        moved = False
        for i in range(b + 2, e):
            if not _true(T, D, ng_s[i], ng_k[i]):
                at = b + j
                ng_s[at], ng_s[i] = ng_s[i], ng_s[at]
                ng_k[at], ng_k[i] = ng_k[i], ng_k[at]
                if prev < 0:
                    w_head[h] = nxt
                else:
                    w_next[prev] = nxt
                _link(T, D, np.int64(node))
                moved = True
                break
        if not moved:
            if _true(T, D, so, ko):
                ctl[WIPED] = so
                return FAIL
            if refute(T, D, np.int64(so), np.int64(ko)) != OK:
                return FAIL
            prev = node
        node = nxt
    return OK


@compiled(entry=False, allocates=False)
def watch(T, D, mark):
    """After a propagation to a fixpoint: the nogoods' consequences of the slots settled
    since trail length ``mark``, propagated in turn, to a fixpoint.  OK, FAIL or
    OUT_OF_TIME."""
    ctl, trail, slot = D.ctl, D.trail, T.slot
    t = mark
    while True:
        while t < ctl[TRAIL]:
            row = trail[t, T_TAG]
            if row >= 0:
                s = trail[t, T_SLOT]
                if _visit(T, D, s, row - slot[s, GROW]) != OK:
                    return FAIL
            t += 1
        if ctl[RQN] == 0 and ctl[SQN] == 0:
            return OK
        r = propagate(T, D)
        if r != OK:
            return r


@compiled(entry=False, allocates=False)
def _record(D):
    """Record the nogoods of the decision stack (before its undoing), as many as there
    is room for; the first of them."""
    dec, ctl, ng_s, ng_k, ng_start = D.dec, D.ctl, D.ng_s, D.ng_k, D.ng_start
    first = ctl[NGN]
    places = 0
    for i in range(ctl[DEPTH]):
        kind = dec[i, D_KIND]
        if kind == PLACE_LETTER:
            break  # a letter is not a literal here: the nogoods below it are not kept
        if kind == PLACE_WORD:
            places += 1
            continue
        if kind != REMOVE_WORD:
            continue
        c, at = ctl[NGN], ctl[NGL]
        if c + 1 >= ng_start.shape[0] or at + places + 1 > ng_s.shape[0]:
            break
        # the refuted word first, the deepest place second: the watched pair
        ng_s[at], ng_k[at] = dec[i, D_SLOT], dec[i, D_VALUE]
        n = 1
        for j in range(i - 1, -1, -1):
            if dec[j, D_KIND] == PLACE_WORD:
                ng_s[at + n], ng_k[at + n] = dec[j, D_SLOT], dec[j, D_VALUE]
                n += 1
        ng_start[c] = at
        ng_start[c + 1] = at + n
        ctl[NGN], ctl[NGL] = c + 1, at + n
    ctl[OPS] += ctl[DEPTH] * (places + 1)
    return first


@compiled(entry=False, allocates=False)
def _install(T, D, c):
    """Watch nogood ``c`` at the root, or apply it there when at most one of its literals
    is not true: OK or FAIL."""
    ng_s, ng_k, b, e = D.ng_s, D.ng_k, D.ng_start[c], D.ng_start[c + 1]
    free = 0
    for i in range(b, e):
        if not _true(T, D, ng_s[i], ng_k[i]):
            at = b + free
            ng_s[at], ng_s[i] = ng_s[i], ng_s[at]
            ng_k[at], ng_k[i] = ng_k[i], ng_k[at]
            free += 1
            if free == 2:
                _link(T, D, 2 * c)
                _link(T, D, 2 * c + 1)
                return OK
    if free == 0:
        D.ctl[WIPED] = ng_s[b]
        return FAIL
    return refute(T, D, np.int64(ng_s[b]), np.int64(ng_k[b]))


@compiled(entry=False, allocates=False)
def _apply(T, D, first, root_mark):
    """At the root (trail length ``root_mark``): install nogoods ``first`` onwards and
    propagate their consequences to a fixpoint.  OK, FAIL or OUT_OF_TIME."""
    for c in range(first, D.ctl[NGN]):
        if _install(T, D, c) != OK:
            return FAIL
    r = propagate(T, D)
    if r != OK:
        return r
    return watch(T, D, root_mark)


@compiled(allocates=False, nogil=True)
def learn(T, D, root_mark):
    """At a restart: record the nogoods of the decision stack, go back to the root (trail
    length ``root_mark``) and apply them there.  OK (the root is the trail's new length),
    FAIL (no fill is left: the search is over) or OUT_OF_TIME."""
    first = _record(D)
    undo(T, D, root_mark)
    D.ctl[DEPTH] = 0
    return _apply(T, D, first, root_mark)


@compiled(allocates=False, nogil=True)
def adopt(T, D, src_s, src_k, src_start, first, end, root_mark):
    """At a restart, after :func:`learn` (the root is trail length ``root_mark``): copy
    nogoods ``first`` to ``end`` of another search of the same tables (its arrays
    ``ng_s``, ``ng_k``, ``ng_start``), as many as there is room for, and apply them at the
    root.  OK, FAIL (no fill is left) or OUT_OF_TIME."""
    ctl, ng_s, ng_k, ng_start = D.ctl, D.ng_s, D.ng_k, D.ng_start
    mine = ctl[NGN]
    for c in range(first, end):
        b, e = src_start[c], src_start[c + 1]
        n, at = ctl[NGN], ctl[NGL]
        if n + 1 >= ng_start.shape[0] or at + e - b > ng_s.shape[0]:
            break
        for i in range(b, e):
            ng_s[at + i - b], ng_k[at + i - b] = src_s[i], src_k[i]
        ng_start[n] = at
        ng_start[n + 1] = at + e - b
        ctl[NGN], ctl[NGL] = n + 1, at + e - b
        ctl[OPS] += e - b
    return _apply(T, D, mine, root_mark)
