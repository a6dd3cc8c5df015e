"""The whole-bag search's lower bounds, compiled: a node's own and its children's at once.

The bound is the one described in :mod:`.bag` (value caps of the further ``l``-words, the
cheapest tiles in shorter words, the cut refinement).  These are loop versions of what the
search computed with numpy array expressions: at 26,000 nodes on ENABLE the arrays were small
and every expression paid numpy's call overhead, and the children's fit test built a
children x rows x faces temporary; here a row's fit is summed face by face without one.

Every quantity is an exact integer; :data:`NONE` (far above any loss) stands for "no
completion" and the caller turns it into infinity.
"""

from __future__ import annotations

import numpy as np

from ..jitcache import compiled

__all__ = ["NONE", "node_bound", "child_bounds", "children_check"]

NONE = 1 << 60  # no completion: above every real loss (at most 31 x 62 faces x 99 tiles x 10)


@compiled()
def _ones(x: int) -> int:
    """The number of bits set in ``x`` (>= 0, below 2**62)."""
    x = x - ((x >> 1) & 0x5555555555555555)
    x = (x & 0x3333333333333333) + ((x >> 2) & 0x3333333333333333)
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0F
    return (x * 0x0101010101010101 & 0x7FFFFFFFFFFFFFFF) >> 56


@compiled()
def _cut_charge(cuts: np.ndarray, short: np.ndarray) -> int:
    """The least loss of any cut (a row of ``cuts``: coefficients high to low) charged to
    the sorted tile values ``short``; :data:`NONE` when there is no cut."""
    best = NONE
    for c in range(cuts.shape[0]):
        total = 0
        for p in range(short.shape[0]):
            total += cuts[c, p] * short[p]
        best = min(best, total)
    return best


@compiled()
def _sorted_tops(first: np.ndarray, value: np.ndarray, fit: np.ndarray) -> np.ndarray:
    """Per run of equal ``first`` (rows sorted by first face), the best ``value`` of a row
    with ``fit`` set (-1 when none fits), sorted high to low."""
    n = first.shape[0]
    tops = np.empty(n, dtype=np.int64)
    groups = 0
    i = 0
    while i < n:
        best = -1
        j = i
        while j < n and first[j] == first[i]:
            if fit[j] and value[j] > best:
                best = value[j]
            j += 1
        tops[groups] = best
        groups += 1
        i = j
    return -np.sort(-tops[:groups])


@compiled()
def node_bound(L: int, ell: int, remaining: np.ndarray, blanks: int, bans: int,
               values_fit: np.ndarray, first_fit: np.ndarray, vals: np.ndarray,
               shortest: int, cuts: np.ndarray) -> int:
    """A lower bound on the loss of any completion in phase ``ell`` whose ``ell``-tile words
    are among the fitting candidates given by their real values and first faces (sorted by
    first face); ``cuts`` are the cuts of ``n mod ell + ell`` tiles into shorter words."""
    n_faces = remaining.shape[0]
    base = L - ell
    total_value = 0
    banned_n = 0
    banned_value = 0
    free_n = 0
    for f in range(n_faces):
        total_value += remaining[f] * vals[f]
        if remaining[f] > 0:
            if (bans >> f) & 1:
                banned_n += remaining[f]
                banned_value += remaining[f] * vals[f]
            else:
                free_n += remaining[f]
    # the free tiles cheapest first, blanks (worth 0) before them all
    cheap = np.zeros(blanks + free_n, dtype=np.int64)
    k = blanks
    for f in range(n_faces):
        if remaining[f] > 0 and not (bans >> f) & 1:
            for _ in range(remaining[f]):
                cheap[k] = vals[f]
                k += 1
    cheap[blanks:] = np.sort(cheap[blanks:])
    cheapest = np.zeros(blanks + free_n + 1, dtype=np.int64)  # [k]: the k cheapest
    for i in range(blanks + free_n):
        cheapest[i + 1] = cheapest[i] + cheap[i]
    n_tiles = blanks + free_n + banned_n
    tops = _sorted_tops(first_fit, values_fit, np.ones(first_fit.shape[0], dtype=np.bool_))
    caps = np.zeros(tops.shape[0] + 1, dtype=np.int64)
    for i in range(tops.shape[0]):
        caps[i + 1] = caps[i] + tops[i]
    rem = n_tiles % ell
    best_extra = NONE
    for m in range(min(n_tiles // ell, tops.shape[0]), -1, -1):
        s = n_tiles - m * ell  # tiles in words shorter than ell
        if s == 0:
            if banned_n == 0 and total_value <= caps[m]:
                best_extra = 0
            continue
        if s < banned_n or s < shortest:
            continue
        short_value = max(total_value - caps[m], banned_value + cheapest[s - banned_n])
        if s < ell:  # those words have at most s tiles
            extra = (ell - s) * short_value
        elif s == rem + ell:
            short = np.empty(s, dtype=np.int64)
            short[:s - banned_n] = cheap[:s - banned_n]
            k = s - banned_n
            for f in range(n_faces):
                if remaining[f] > 0 and (bans >> f) & 1:
                    for _ in range(remaining[f]):
                        short[k] = vals[f]
                        k += 1
            short = np.sort(short)
            held = short.sum()
            # every short tile costs one point more than in an ell-word (and the short
            # tiles hold at least short_value), plus what the cut adds on top
            cut = _cut_charge(cuts, short)
            extra = NONE if cut >= NONE else cut - (base + 1) * held + max(short_value, held)
        else:
            extra = short_value
        best_extra = min(best_extra, extra)
        if best_extra == 0:
            break
    if best_extra >= NONE:
        return NONE
    return base * total_value + best_extra


@compiled()
def child_bounds(L: int, ell: int, remaining: np.ndarray, blanks: int, bans: int, loss: int,
                 rows: np.ndarray, first: np.ndarray, full_value: np.ndarray,
                 present: np.ndarray, counts: np.ndarray, value: np.ndarray,
                 deficit: np.ndarray,
                 choices: np.ndarray, picked: np.ndarray, cols: np.ndarray, pad: int,
                 vals: np.ndarray, levels: np.ndarray, level: np.ndarray, shortest: int,
                 cuts: np.ndarray, fits: np.ndarray) -> np.ndarray:
    """For the children ``choices[picked]`` of a node (its fitting ``rows`` of a phase whose
    rows have ``first`` faces, ``full_value``, ``present`` face masks and ``counts``; per
    node row the ``value`` of the real
    tiles it takes and the blanks it needs, ``deficit``): a lower bound on each child's loss,
    and in ``fits[picked]`` (children x rows) which rows fit it.  ``pad`` < 0: every row is
    paired and ``cols`` ignored; else the screen: only the rows at ``cols`` (ascending), every
    other row a word worth ``pad``, only the node's bans counting (see
    ``BagSearch._children_hopeful``).  ``level[f]`` is face f's index in ``levels`` (value
    levels, 0 first); ``cuts`` are the cuts of ``n mod ell + ell`` tiles (n: the tiles a
    child has left)."""
    n_faces = remaining.shape[0]
    screen = pad >= 0
    n_rows = cols.shape[0] if screen else rows.shape[0]
    n_levels = levels.shape[0]
    base = L - ell
    rem_value = 0
    n_tiles = blanks - ell
    for f in range(n_faces):
        rem_value += remaining[f] * vals[f]
        n_tiles += remaining[f]
    most = n_tiles // ell
    position = np.full(rows.shape[0], rows.shape[0], dtype=np.int64)  # row -> its choice
    for b in range(choices.shape[0]):
        position[choices[b]] = b
    out = np.empty(picked.shape[0], dtype=np.int64)
    child_rem = np.empty(n_faces, dtype=np.int64)
    row_first = np.empty(n_rows, dtype=np.int64)
    row_value = np.empty(n_rows, dtype=np.int64)
    row_fit = np.zeros(n_rows, dtype=np.bool_)
    per_level = np.empty(n_levels, dtype=np.int64)
    before = np.empty(n_levels, dtype=np.int64)
    for j in range(picked.shape[0]):
        a = picked[j]
        r = choices[a]
        child_value = rem_value - value[r]
        child_blanks = blanks - deficit[r]
        own = rows[r]
        gone = 0  # faces the child has none of
        for f in range(n_faces):
            child_rem[f] = remaining[f] - min(counts[own, f], remaining[f])
            if child_rem[f] == 0:
                gone |= np.int64(1) << f
        holding = 0
        for q in range(n_rows):
            i = cols[q] if screen else q
            pr = rows[i]
            row_first[q] = first[pr]
            ok = first[pr] != first[own] and (screen or position[i] > a)
            need = 0
            lost = 0
            # each face a row holds that the child has none of needs a blank: most rows
            # fail this before the face loop
            if ok and _ones(present[pr] & gone) > child_blanks:
                ok = False
            if ok:
                for f in range(n_faces):  # branch-free: numba vectorises it
                    over = max(counts[pr, f] - child_rem[f], 0)
                    need += over
                    lost += over * vals[f]
                ok = need <= child_blanks
            row_fit[q] = ok
            row_value[q] = full_value[pr] - lost
            if ok:
                holding |= present[pr]
            if not screen:
                fits[a, q] = ok
        tops = _sorted_tops(row_first, row_value, row_fit)
        if screen:
            padded = np.full(max(most, tops.shape[0]), pad, dtype=np.int64)
            for i in range(tops.shape[0]):
                padded[i] = max(tops[i], pad)
            tops = padded
            available = most
        else:
            available = 0
            for i in range(tops.shape[0]):
                if tops[i] >= 0:
                    available += 1
        caps = np.zeros(tops.shape[0] + 1, dtype=np.int64)
        for i in range(tops.shape[0]):
            caps[i + 1] = caps[i] + max(tops[i], 0)
        banned_n = 0
        banned_value = 0
        per_level[:] = 0
        banned_level = np.zeros(n_levels, dtype=np.int64)
        for f in range(n_faces):
            if child_rem[f] > 0:
                banned = (bans >> f) & 1 or (not screen and not (holding >> f) & 1)
                if banned:
                    banned_n += child_rem[f]
                    banned_value += child_rem[f] * vals[f]
                    banned_level[level[f]] += child_rem[f]
                else:
                    per_level[level[f]] += child_rem[f]
        per_level[0] += child_blanks
        running = 0
        for v in range(n_levels):
            before[v] = running
            running += per_level[v]
        extra = NONE
        for m in range(n_tiles // ell, -1, -1):
            s = n_tiles - m * ell
            cap = caps[min(m, caps.shape[0] - 1)]
            if s == 0:
                if available >= m and banned_n == 0 and child_value <= cap:
                    extra = 0
                continue
            if s < shortest:
                continue
            if available < m or banned_n > s:
                continue
            k = max(s - banned_n, 0)
            cheapest = 0
            for v in range(n_levels):
                cheapest += min(max(k - before[v], 0), per_level[v]) * levels[v]
            short_value = max(child_value - cap, banned_value + cheapest)
            if s < ell:
                per = (ell - s) * short_value
            elif s == n_tiles % ell + ell and cuts.shape[0] > 0:
                short = np.empty(s, dtype=np.int64)
                p = 0
                for v in range(n_levels):
                    for _ in range(banned_level[v] + min(max(k - before[v], 0), per_level[v])):
                        if p < s:
                            short[p] = levels[v]
                            p += 1
                while p < s:  # fewer tiles than s: the rest at the top level
                    short[p] = levels[n_levels - 1]
                    p += 1
                held = short.sum()
                per = _cut_charge(cuts, short) - (base + 1) * held + max(short_value, held)
            else:
                per = short_value
            extra = min(extra, per)
        out[j] = NONE if extra >= NONE else loss + base * value[r] + base * child_value + extra
    return out


@compiled()
def children_check(L: int, ell: int, remaining: np.ndarray, blanks: int, bans: int, loss: int,
                   best: int, rows: np.ndarray, first: np.ndarray, full_value: np.ndarray,
                   present: np.ndarray, counts: np.ndarray, value: np.ndarray,
                   deficit: np.ndarray, choices: np.ndarray, screen: int, vals: np.ndarray,
                   levels: np.ndarray, level: np.ndarray, shortest: int,
                   cuts: np.ndarray) -> tuple:
    """The children check of ``BagSearch._children_hopeful`` in one call: the screen with the
    ``screen`` most valuable rows (when there are more than twice as many rows), then the
    exact pairing of the survivors; (hopeful, fits) with ``hopeful[a]`` True when child
    ``a``'s bound is below ``best``."""
    n_children = choices.shape[0]
    n_rows = rows.shape[0]
    hopeful = np.ones(n_children, dtype=np.bool_)
    if n_rows > 2 * screen:
        row_values = np.empty(n_rows, dtype=np.int64)
        for i in range(n_rows):
            row_values[i] = full_value[rows[i]]
        # the screen-th best value: rows above it are in, ties fill the rest in row order
        threshold = np.partition(row_values, n_rows - screen)[n_rows - screen]
        chosen = np.zeros(n_rows, dtype=np.bool_)
        taken = 0
        for i in range(n_rows):
            if row_values[i] > threshold:
                chosen[i] = True
                taken += 1
        for i in range(n_rows):
            if taken < screen and not chosen[i] and row_values[i] == threshold:
                chosen[i] = True
                taken += 1
        top = np.flatnonzero(chosen)
        pad = -1
        for i in range(n_rows):
            if not chosen[i] and row_values[i] > pad:
                pad = row_values[i]
        picked = np.arange(n_children)
        screened = child_bounds(L, ell, remaining, blanks, bans, loss, rows, first, full_value,
                                present, counts, value, deficit, choices, picked, top, pad,
                                vals, levels, level, shortest, cuts,
                                np.zeros((0, 0), dtype=np.bool_))
        for a in range(n_children):
            hopeful[a] = screened[a] < best
    fits = np.zeros((n_children, n_rows), dtype=np.bool_)
    alive = np.flatnonzero(hopeful)
    if alive.shape[0]:
        exact = child_bounds(L, ell, remaining, blanks, bans, loss, rows, first, full_value,
                             present, counts, value, deficit, choices, alive,
                             np.zeros(0, dtype=np.int64), -1, vals, levels, level, shortest,
                             cuts, fits)
        for j in range(alive.shape[0]):
            hopeful[alive[j]] = exact[j] < best
    return hopeful, fits
