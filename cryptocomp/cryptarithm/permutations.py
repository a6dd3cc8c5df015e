"""Every injective assignment of digits to k letters, as numpy blocks.

:func:`blocks` yields the assignments in lexicographic order (the order of
``itertools.permutations(range(10), k)``) as blocks of at most 65,536 rows that share
the digits of the first few letters; each block is a cheap remapping of one small
cached table, so nothing of size 10!/(10-k)! is ever built.  :func:`table` and
:func:`inverse` build the whole thing at once (the tests check blocks against them).

``table(k)[j, i]`` is the digit of letter ``j`` in assignment ``i``; assignments are in
lexicographic order (the order of ``itertools.permutations(range(10), k)``).
``inverse(k)[i * 11 + d]`` is the letter holding digit ``d`` in assignment ``i``, or
:data:`UNSET` when no letter holds it; column 10 holds :data:`PAD_CODE` (a padding digit).
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from functools import lru_cache

import numpy as np

__all__ = ["blocks", "row", "Block", "table", "inverse", "count", "UNSET", "PAD_CODE", "WIDTH"]

UNSET = 255     # digit held by no letter of the assignment
PAD_CODE = 254  # the padding "digit" 10 left of a short number
WIDTH = 11      # columns of the inverse table: digits 0-9 and the padding digit


def count(k: int) -> int:
    """Number of injective assignments of 10 digits to k letters: 10!/(10-k)!."""
    n = 1
    for i in range(k):
        n *= 10 - i
    return n


@lru_cache(maxsize=3)
def table(k: int) -> np.ndarray:
    """All k-permutations of the digits, shape (k, 10!/(10-k)!), dtype uint8, read-only."""
    if not 0 <= k <= 10:
        raise ValueError(f"k must be in 0..10, not {k}")
    out = _arrangements(10, k)
    out.flags.writeable = False
    return out


def _arrangements(n: int, k: int) -> np.ndarray:
    """k-permutations of the symbols 0..n-1 in lexicographic order, shape (k, n!/(n-k)!).

    For each first symbol f, the rest are the k-1-permutations of n-1 symbols with the
    symbols >= f shifted up by one: whole blocks at a time, no per-row work.
    """
    if k == 0:
        return np.zeros((0, 1), dtype=np.uint8)
    sub = _arrangements(n - 1, k - 1)
    m = sub.shape[1]
    first = np.repeat(np.arange(n, dtype=np.uint8), m)
    out = np.empty((k, n * m), dtype=np.uint8)
    out[0] = first
    if k > 1:
        rest = np.tile(sub, (1, n))
        out[1:] = rest + (rest >= first)
    return out


@lru_cache(maxsize=2)
def inverse(k: int) -> np.ndarray:
    """Flat (n * 11,) uint8: the letter holding each digit (UNSET if none), PAD_CODE at 10."""
    perms = table(k)
    n = perms.shape[1]
    inv = np.full((n, WIDTH), UNSET, dtype=np.uint8)
    inv[:, 10] = PAD_CODE
    rows = np.arange(n)
    for j in range(k):
        inv[rows, perms[j]] = j
    flat = inv.reshape(-1)
    flat.flags.writeable = False
    return flat


class Block:
    """A run of consecutive assignments (rows ``start`` to ``start + len``) sharing the
    digits of the first ``s`` letters: ``cols[j]`` is letter j's digit in each row."""

    __slots__ = ("start", "cols", "_prefix", "_remaining", "_plan")

    def __init__(self, start: int, cols: list[np.ndarray], prefix: tuple[int, ...],
                 remaining: np.ndarray, plan: _Plan):
        self.start = start
        self.cols = cols
        self._prefix = prefix
        self._remaining = remaining
        self._plan = plan

    def __len__(self) -> int:
        return self._plan.rows

    def inverse(self) -> np.ndarray:
        """Flat (len * 11,) uint8: the letter holding each digit (UNSET if none), PAD_CODE at 10."""
        plan = self._plan
        inv = np.empty((plan.rows, WIDTH), dtype=np.uint8)
        inv[:, self._remaining] = plan.sub_inverse
        for j, d in enumerate(self._prefix):
            inv[:, d] = j
        inv[:, 10] = PAD_CODE
        return inv.reshape(-1)


class _Plan:
    """The k-permutations as (prefix of s letters) x (arrangements of the rest)."""

    def __init__(self, k: int):
        s = 0
        while count(k) // count(s) > 65536:  # blocks small enough to stay in cache
            s += 1
        self.k, self.s = k, s
        self.sub = _arrangements(10 - s, k - s)        # symbols 0..9-s, remapped per block
        self.rows = self.sub.shape[1]
        # sub_inverse[i, sym]: letter (s + j) holding symbol sym in sub-row i, else UNSET
        inv = np.full((self.rows, 10 - s), UNSET, dtype=np.uint8)
        rows = np.arange(self.rows)
        for j in range(k - s):
            inv[rows, self.sub[j]] = s + j
        self.sub_inverse = inv


@lru_cache(maxsize=11)
def _plan(k: int) -> _Plan:
    return _Plan(k)


def blocks(k: int) -> Iterator[Block]:
    """Every assignment of digits to k letters, lexicographic, as :class:`Block` s."""
    if not 0 <= k <= 10:
        raise ValueError(f"k must be in 0..10, not {k}")
    plan = _plan(k)
    start = 0
    for prefix in itertools.permutations(range(10), plan.s):
        remaining = np.array([d for d in range(10) if d not in prefix], dtype=np.uint8)
        cols = [np.full(plan.rows, d, dtype=np.uint8) for d in prefix]
        cols += [np.take(remaining, plan.sub[j]) for j in range(k - plan.s)]
        yield Block(start, cols, prefix, remaining, plan)
        start += plan.rows


@lru_cache(maxsize=4)
def _prefixes(s: int) -> list[tuple[int, ...]]:
    """The blocks' prefixes: every s-permutation of the digits, in order (at most 151,200)."""
    return list(itertools.permutations(range(10), s))


def row(k: int, i: int) -> list[int]:
    """The digits of the k letters in assignment number ``i`` (lexicographic order)."""
    plan = _plan(k)
    block, r = divmod(i, plan.rows)
    prefix = _prefixes(plan.s)[block]
    remaining = [d for d in range(10) if d not in prefix]
    return list(prefix) + [remaining[int(sym)] for sym in plan.sub[:, r].tolist()]
