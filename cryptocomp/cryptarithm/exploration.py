"""The compiled depth-first search over left sides of a word-list sum, each closed with
every right word it may equal (the generator's inner loop, for sums of words whose forms
fit int64, one right word).

The search is the generator's (see :mod:`.generation`): left words in list order, a branch
cut by its distinct symbols (counted incrementally, any alphabet), its least value against
the largest right word and, for doubly-true lists, its sum of values; each left side of at
least two words is closed with each right word whose length, bounds and symbols allow it,
and counted by :mod:`.lineform` up to 2.  It runs inside numba in slices of ``budget``
steps (:func:`explore` resumes where the last slice stopped), so the caller looks at its
clock between slices and gets each slice's puzzles at once.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass

import numpy as np

from .lineform import WordTable, compiled, count_sorted

__all__ = ["Frontier", "Found", "frontier", "explore", "counted"]

_DEPTH, _PHASE, _COUNTED, _FOUND, _DONE = range(5)


@dataclass(frozen=True)
class Frontier:
    """Where the search stands (arrays updated in place by each slice) and what it reads."""

    table: WordTable
    symbols: np.ndarray     # (words, most distinct) each word's distinct symbols, -1 padded
    values: np.ndarray      # (words,) doubly true: each word's number (else 0)
    by_value_start: np.ndarray   # right words of value v: by_value[start[v]:start[v+1]]
    by_value: np.ndarray
    limits: np.ndarray      # base, min_words, max_words (0: none), last left word + 1,
    #                         largest right value, largest right number, least right number
    head: np.ndarray        # depth, phase, candidates counted, puzzles found, done
    chosen: np.ndarray      # (depth) the left words
    after: np.ndarray       # (depth) the next word to try at each depth
    level: np.ndarray       # (depth, 5): distinct symbols, low, high, longest, total
    acc: np.ndarray         # (alphabet) the left side's form
    mult: np.ndarray        # (alphabet) how many left words hold each symbol
    leads: np.ndarray       # (alphabet) how many left words start with each symbol


@dataclass(frozen=True)
class Found:
    """One unique puzzle: left word indices, the right word index, digits over the table's
    alphabet (-1: not in the puzzle)."""

    left: tuple[int, ...]
    right: int
    digits: np.ndarray


def frontier(table: WordTable, rights: Sequence[int], *, base: int, min_words: int,
             max_words: int | None, last: int, values: Sequence[int] | None,
             least_sum: int) -> Frontier:
    """The search's start: left words from ``0`` to ``last - 1``, ``rights`` the right
    words (their numbers ``values`` for a doubly-true list, sums from ``least_sum``)."""
    words = table.present.shape[0]
    syms = [np.flatnonzero(table.present[w]) for w in range(words)]
    width = max([len(s) for s in syms] + [1])
    symbols = np.full((words, width), -1, np.int64)
    for w, s in enumerate(syms):
        symbols[w, : len(s)] = s
    rights = [r for r in rights if len(syms[r]) <= base]   # the others are in no puzzle
    vals = np.array(values if values is not None else [0] * words, np.int64)
    top = int(max((vals[r] for r in rights), default=0))
    buckets: list[list[int]] = [[] for _ in range(top + 1)]
    for r in rights:
        buckets[int(vals[r])].append(r)
    start = np.cumsum([0] + [len(b) for b in buckets]).astype(np.int64)
    most = int(max((table.high[r] for r in rights), default=0))
    depth = words + 2
    alphabet = len(table.symbols)
    return Frontier(table, symbols, vals, start,
                    np.array([r for b in buckets for r in b], np.int64),
                    np.array([base, min_words, max_words or 0, last, most, top, least_sum],
                             np.int64),
                    np.zeros(5, np.int64), np.zeros(depth, np.int64),
                    np.zeros(depth, np.int64), np.zeros((depth, 5), np.int64),
                    np.zeros(alphabet, np.int64), np.zeros(alphabet, np.int64),
                    np.zeros(alphabet, np.int64))


@compiled
def _new_symbols(w, symbols, mult):
    """How many of word ``w``'s symbols no left word holds yet."""
    n = 0
    for j in range(symbols.shape[1]):
        s = symbols[w, j]
        if s < 0:
            break
        if mult[s] == 0:
            n += 1
    return n


@compiled
def _close(r, depth, fr_level, acc, mult, leads, coef, present, lead, low, high, length,
           symbols, base, out_digits, slot):
    """Counts left side = right word ``r`` when the lengths, bounds and symbols allow it:
    -1 when not counted, else the count up to 2 (the first solution in ``out_digits``)."""
    lv = fr_level[depth]
    if lv[3] > length[r] or lv[1] > high[r] or lv[2] < low[r]:
        return -1
    if lv[0] + _new_symbols(r, symbols, mult) > base:
        return -1
    nsym = acc.shape[0]
    idx = np.empty(nsym, np.int64)
    k = 0
    for s in range(nsym):
        if mult[s] > 0 or present[r, s] == 1:
            idx[k] = s
            k += 1
    c = np.empty(k, np.int64)
    ld = np.empty(k, np.int64)
    for j in range(k):
        s = idx[j]
        c[j] = acc[s] - coef[r, s]
        ld[j] = 1 if leads[s] > 0 or lead[r, s] == 1 else 0
    first = np.full(k, -1, np.int64)
    count = count_sorted(c, ld, base, 2, first)
    if count == 1:
        out_digits[slot, :] = -1
        for j in range(k):
            out_digits[slot, idx[j]] = first[j]
    return count


@compiled
def _push(w, head, chosen, after, level, acc, mult, leads, coef, lead, symbols, low, high,
          length, values):
    """Word ``w`` joins the left side."""
    d = head[0]
    nxt = level[d + 1]
    nxt[0] = level[d, 0] + _new_symbols(w, symbols, mult)
    nxt[1] = level[d, 1] + low[w]
    nxt[2] = level[d, 2] + high[w]
    nxt[3] = max(level[d, 3], length[w])
    nxt[4] = level[d, 4] + values[w]
    for j in range(symbols.shape[1]):
        s = symbols[w, j]
        if s < 0:
            break
        mult[s] += 1
    acc += coef[w]
    leads += lead[w]
    chosen[d] = w
    after[d] = w + 1
    head[0] = d + 1
    after[d + 1] = w + 1
    head[1] = 0


@compiled
def _pop(head, chosen, acc, mult, leads, coef, lead, symbols):
    """The last left word leaves."""
    d = head[0] - 1
    w = chosen[d]
    for j in range(symbols.shape[1]):
        s = symbols[w, j]
        if s < 0:
            break
        mult[s] -= 1
    acc -= coef[w]
    leads -= lead[w]
    head[0] = d
    head[1] = 1


@compiled
def _slice(head, chosen, after, level, acc, mult, leads, limits, coef, present, lead, low,
           high, length, symbols, values, vstart, vlist, taken, budget, room, out_left,
           out_right, out_digits):
    """Runs the search for about ``budget`` steps or until ``room`` puzzles are found."""
    base, min_words, max_words, last = limits[0], limits[1], limits[2], limits[3]
    most, top, least = limits[4], limits[5], limits[6]
    steps = 0
    while steps < budget and head[3] < room:
        d = head[0]
        if head[1] == 0:   # a new left side: close it with each right word
            head[1] = 1
            total = level[d, 4]
            if d >= 2 and d + 1 >= min_words and least <= total <= top:
                for t in range(vstart[total], vstart[total + 1]):
                    r = vlist[t]
                    steps += 1
                    if taken[r] == 1:
                        continue
                    n = _close(r, d, level, acc, mult, leads, coef, present, lead, low, high,
                               length, symbols, base, out_digits, head[3])
                    if n >= 0:
                        head[2] += 1
                    if n == 1:
                        out_left[head[3], :] = -1
                        out_left[head[3], :d] = chosen[:d]
                        out_right[head[3]] = r
                        head[3] += 1
            if max_words > 0 and d + 1 >= max_words:
                after[d] = last
            continue
        i = after[d]
        good = False
        while i < last and steps < budget and not good:
            steps += 1
            good = (level[d, 0] + _new_symbols(i, symbols, mult) <= base
                    and level[d, 1] + low[i] <= most and level[d, 4] + values[i] <= top)
            i += 0 if good else 1
        after[d] = i
        if good:
            taken[i] = 1
            _push(i, head, chosen, after, level, acc, mult, leads, coef, lead, symbols, low,
                  high, length, values)
        elif i >= last:
            if d == 0:
                head[4] = 1
                return
            taken[chosen[d - 1]] = 0
            _pop(head, chosen, acc, mult, leads, coef, lead, symbols)


def explore(fr: Frontier, budget: int = 100_000, room: int = 256) -> Iterator[list[Found]]:
    """Runs the search in slices of ``budget`` steps, yielding each slice's puzzles (at
    most ``room`` a slice); ends when the search is done."""
    table = fr.table
    taken = np.zeros(table.present.shape[0], np.int64)
    for d in range(int(fr.head[_DEPTH])):
        taken[fr.chosen[d]] = 1
    width = fr.chosen.shape[0]
    # a slice stops before a new left side once ``room`` puzzles are found, and one left
    # side may still add one puzzle a right word
    size = room + fr.by_value.shape[0]
    while not fr.head[_DONE]:
        out_left = np.full((size, width), -1, np.int64)
        out_right = np.full(size, -1, np.int64)
        out_digits = np.full((size, len(table.symbols)), -1, np.int64)
        fr.head[_FOUND] = 0
        _slice(fr.head, fr.chosen, fr.after, fr.level, fr.acc, fr.mult, fr.leads, fr.limits,
               table.coef, table.present, table.lead, table.low, table.high, table.length,
               fr.symbols, fr.values, fr.by_value_start, fr.by_value, taken, budget, room,
               out_left, out_right, out_digits)
        yield [Found(tuple(int(w) for w in out_left[j] if w >= 0), int(out_right[j]),
                     out_digits[j]) for j in range(int(fr.head[_FOUND]))]


def counted(fr: Frontier) -> int:
    """How many candidates the search has counted so far."""
    return int(fr.head[_COUNTED])
