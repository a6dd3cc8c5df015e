"""The state and driver of the compiled depth-first search over left sides of a word-list
sum, each closed with every right word it may equal (the generator's inner loop, for sums
of words whose forms fit int64, one right word); the compiled slice itself is
:func:`.lineform.search_slice`, beside the counter it calls.

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
from dataclasses import dataclass, replace

import numpy as np

from .lineform import WordTable, search_slice

__all__ = ["Frontier", "Found", "frontier", "restart", "explore", "counted", "finished"]

_STEPS_A_CANDIDATE = 11   # a candidate costs a slice 1 step to try and 10 to count

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
    #                         largest right value, largest right number, least right number,
    #                         the branch's first and second left word (-1: every one)
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
             least_sum: int, branch: tuple[int, int] | None = None) -> Frontier:
    """The search's start: left words from ``0`` to ``last - 1``, ``rights`` the right
    words (their numbers ``values`` for a doubly-true list, sums from ``least_sum``);
    ``branch``: only the left sides whose first two words are these."""
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
                    np.array([base, min_words, max_words or 0, last, most, top, least_sum,
                              *(branch if branch is not None else (-1, -1))], np.int64),
                    np.zeros(5, np.int64), np.zeros(depth, np.int64),
                    np.zeros(depth, np.int64), np.zeros((depth, 5), np.int64),
                    np.zeros(alphabet, np.int64), np.zeros(alphabet, np.int64),
                    np.zeros(alphabet, np.int64))


def restart(fr: Frontier, branch: tuple[int, int] | None) -> Frontier:
    """A new search of ``fr``'s words and limits from the start (of ``branch`` only), its
    tables shared with ``fr``."""
    limits = fr.limits.copy()
    limits[7:9] = branch if branch is not None else (-1, -1)
    return replace(fr, limits=limits, head=np.zeros_like(fr.head),
                   chosen=np.zeros_like(fr.chosen), after=np.zeros_like(fr.after),
                   level=np.zeros_like(fr.level), acc=np.zeros_like(fr.acc),
                   mult=np.zeros_like(fr.mult), leads=np.zeros_like(fr.leads))


def explore(fr: Frontier, budget: int = 20_000, room: int = 256,
            most: int | None = None) -> Iterator[list[Found]]:
    """Runs the search in slices of ``budget`` steps (a word tried: 1, a candidate counted:
    10 more, so that a slice lasts milliseconds), yielding each slice's puzzles (about
    ``room`` a slice); ends when the search is done, or once ``most`` candidates are
    counted: a slice then gets no more steps than the candidates left can cost, and it
    may pass ``most`` only by the right words of the one left side it was closing (a
    left side is closed whole)."""
    table = fr.table
    taken = np.zeros(table.present.shape[0], np.int64)
    for d in range(int(fr.head[_DEPTH])):
        taken[fr.chosen[d]] = 1
    width = fr.chosen.shape[0]
    # a slice stops before a new left side once ``room`` puzzles are found, and one left
    # side may still add one puzzle a right word
    size = room + fr.by_value.shape[0]
    out_left = np.full((size, width), -1, np.int64)   # each found row is written whole
    out_right = np.full(size, -1, np.int64)
    out_digits = np.full((size, len(table.symbols)), -1, np.int64)
    while not fr.head[_DONE]:
        steps = budget
        if most is not None:
            left = most - int(fr.head[_COUNTED])
            if left <= 0:
                return
            steps = min(budget, left * _STEPS_A_CANDIDATE)
        fr.head[_FOUND] = 0
        search_slice(fr.head, fr.chosen, fr.after, fr.level, fr.acc, fr.mult, fr.leads,
                     fr.limits, table.coef, table.present, table.lead, table.low, table.high,
                     table.length, fr.symbols, fr.values, fr.by_value_start, fr.by_value, taken,
                     steps, room, out_left, out_right, out_digits)
        yield [Found(tuple(int(w) for w in out_left[j] if w >= 0), int(out_right[j]),
                     out_digits[j]) for j in range(int(fr.head[_FOUND]))]


def counted(fr: Frontier) -> int:
    """How many candidates the search has counted so far."""
    return int(fr.head[_COUNTED])


def finished(fr: Frontier) -> bool:
    """True once the search has gone through every left side."""
    return bool(fr.head[_DONE])
