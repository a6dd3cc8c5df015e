"""The whole-bag search's fitting rows, compiled: which words of a phase a node may still take.

A node of :mod:`.bagsearch` keeps, of its phase's candidates (``counts``: rows x faces), the
rows whose first face is unused, that hold no banned face and whose shortfall the blanks can
cover, with the blanks each needs (``deficit``), the value of the real tiles it takes
(``value``; a word takes real tiles where it can, blanks for the rest) and how many of the
rows hold each face (``holding``).  numpy did this in a dozen array expressions a node, each
paying its call overhead on a few thousand rows, and copied the rows' counts each time; these
loops read the phase's counts in place.
"""

from __future__ import annotations

import numpy as np

from ..jitcache import compiled

__all__ = ["fitting_rows", "rows_without", "rows_holding"]


@compiled()
def fitting_rows(counts: np.ndarray, first_bit: np.ndarray, present: np.ndarray,
                 rows: np.ndarray, used: int, bans: int, remaining: np.ndarray, blanks: int,
                 vals: np.ndarray) -> tuple:
    """Of ``rows``, those that fit the node (first face unused, no banned face, shortfall
    within ``blanks``): (rows, deficit, value, holding)."""
    n_faces = remaining.shape[0]
    out_rows = np.empty(rows.shape[0], dtype=np.int64)
    deficit = np.empty(rows.shape[0], dtype=np.int64)
    value = np.empty(rows.shape[0], dtype=np.int64)
    holding = np.zeros(n_faces, dtype=np.int64)
    n = 0
    for q in range(rows.shape[0]):
        r = rows[q]
        if first_bit[r] & used or present[r] & bans:
            continue
        short = 0
        worth = 0
        for f in range(n_faces):
            c = counts[r, f]
            if c > remaining[f]:
                short += c - remaining[f]
                worth += remaining[f] * vals[f]
            else:
                worth += c * vals[f]
        if short <= blanks:
            out_rows[n] = r
            deficit[n] = short
            value[n] = worth
            n += 1
            for f in range(n_faces):
                if counts[r, f] > 0:
                    holding[f] += 1
    return out_rows[:n].copy(), deficit[:n].copy(), value[:n].copy(), holding


@compiled()
def rows_without(counts: np.ndarray, x: int, rows: np.ndarray, deficit: np.ndarray,
                 value: np.ndarray, holding: np.ndarray) -> tuple:
    """The rows (with their deficit and value) that do not hold face ``x``, and how many of
    them hold each face (``holding`` less the rows dropped)."""
    n_faces = counts.shape[1]
    keep = np.empty(rows.shape[0], dtype=np.bool_)
    n = 0
    held = holding.copy()
    for i in range(rows.shape[0]):
        r = rows[i]
        keep[i] = counts[r, x] == 0
        if keep[i]:
            n += 1
        else:
            for f in range(n_faces):
                if counts[r, f] > 0:
                    held[f] -= 1
    out_rows = np.empty(n, dtype=np.int64)
    out_deficit = np.empty(n, dtype=np.int64)
    out_value = np.empty(n, dtype=np.int64)
    k = 0
    for i in range(rows.shape[0]):
        if keep[i]:
            out_rows[k] = rows[i]
            out_deficit[k] = deficit[i]
            out_value[k] = value[i]
            k += 1
    return out_rows, out_deficit, out_value, held


@compiled()
def rows_holding(counts: np.ndarray, x: int, rows: np.ndarray, value: np.ndarray) -> np.ndarray:
    """The positions in ``rows`` of the rows holding face ``x``, highest value first (ties
    in row order)."""
    n = 0
    at = np.empty(rows.shape[0], dtype=np.int64)
    for i in range(rows.shape[0]):
        if counts[rows[i], x] > 0:
            at[n] = i
            n += 1
    at = at[:n]
    order = np.argsort(-value[at], kind="mergesort")  # stable
    return at[order]
