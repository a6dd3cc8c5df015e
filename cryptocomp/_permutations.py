"""Tables of every injective assignment of digits to k letters, built once with numpy.

``table(k)[j, i]`` is the digit of letter ``j`` in assignment ``i``; assignments are in
lexicographic order (the order of ``itertools.permutations(range(10), k)``).
``inverse(k)[i * 11 + d]`` is the letter holding digit ``d`` in assignment ``i``, or
:data:`UNSET` when no letter holds it; column 10 holds :data:`PAD_CODE` (a padding digit).
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

__all__ = ["table", "inverse", "count", "UNSET", "PAD_CODE", "WIDTH"]

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
