"""Shared crossword cases: a brute-force oracle of the 3×3 crossword systems of nine words,
and nine words planted to fill a grid true in a small base."""

from __future__ import annotations

import itertools
import random

import numpy as np

from cryptocomp.cryptarithm.system import DIGITS

N = 3


def oracle_grids(words: list[str], base: int) -> set[tuple[tuple[str, ...], ...]]:
    """The 3×3 grids of the nine words, first row's and column's addends in list order and
    the second of the column before the second of the row, whose system holds under exactly
    one assignment of digits (every assignment tried on every grid at once)."""
    grids = np.array([p for p in itertools.permutations(range(len(words)), N * N)
                      if p[0] < p[1] and p[0] < p[3] < p[1]])
    symbols = sorted({ch for w in words for ch in w})
    lines = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8)]
    hits = np.zeros(len(grids), dtype=np.int64)
    for digits in itertools.permutations(range(base), len(symbols)):
        fill = dict(zip(symbols, digits))
        if any(len(w) > 1 and fill[w[0]] == 0 for w in words):
            continue        # every grid holds every word: a leading zero spoils them all
        values = np.array([int("".join(DIGITS[fill[ch]] for ch in w), base) for w in words])
        v = values[grids]
        ok = np.ones(len(grids), dtype=bool)
        for a, b, c in lines:
            ok &= v[:, a] + v[:, b] == v[:, c]
        hits += ok
    return {tuple(tuple(words[x] for x in g[i * N:(i + 1) * N]) for i in range(N))
            for g in grids[hits == 1]}


def planted(seed: int) -> tuple[list[str], int]:
    """Nine words that fill a grid true under a random assignment (small base)."""
    r = random.Random(seed)
    while True:
        base = r.choice([4, 5, 6])
        top = [[r.randrange(1, base * 2) for _ in range(2)] for _ in range(2)]
        grid = [row + [sum(row)] for row in top]
        grid.append([grid[0][j] + grid[1][j] for j in range(3)])
        letters = dict(zip(range(base), r.sample("abcdef", base)))
        words = []
        for row in grid:
            for x in row:
                s = ""
                while True:
                    x, d = divmod(x, base)
                    s = letters[d] + s
                    if not x:
                        break
                words.append(s)
        symbols = {ch for w in words for ch in w}
        if len(set(words)) == 9 and len(symbols) <= 5 and \
                all(len(w) == 1 or w[0] != letters[0] for w in words):
            r.shuffle(words)
            return words, base
