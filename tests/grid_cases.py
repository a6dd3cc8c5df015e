"""Grids the crossword tests share (imported by name, as compose_oracle is)."""

from __future__ import annotations

import itertools
import random
from pathlib import Path

from cryptocomp.crossword import Grid, GridError

__all__ = ["parity_case", "random_case", "backtrack_fills"]


def parity_case(tmp_path: Path, rows: int = 6, cols: int = 7) -> tuple[Path, Path]:
    """A deliberately hard grid and its word file: a rows x cols rectangle whose rows must
    have an even number of b's and whose columns an odd number.  With an odd number of
    columns the parities contradict, but neither propagation nor clause learning sees it
    quickly."""
    words = {}
    for bits in itertools.product("ab", repeat=cols):
        if bits.count("b") % 2 == 0:
            words["".join(bits)] = 5
    for bits in itertools.product("ab", repeat=rows):
        if bits.count("b") % 2 == 1:
            words["".join(bits)] = 3
    wf = tmp_path / "parity.txt"
    wf.write_text("".join(f"{w} {c}\n" for w, c in words.items()), encoding="utf-8")
    grid = tmp_path / "rect.txt"
    grid.write_text(("." * cols + "\n") * rows, encoding="utf-8")
    return grid, wf


def random_case(rng: random.Random, alphabet: str) -> tuple[Grid, list[str]]:
    """A small random grid (blocks, given letters, unchecked cells) and a word list that
    fits its slot lengths, over ``alphabet``."""
    while True:
        h, w = rng.randint(2, 5), rng.randint(2, 5)
        rows = ["".join(rng.choice("....#" + alphabet[0]) for _ in range(w)) for _ in range(h)]
        try:
            grid = Grid.from_rows(rows)
        except GridError:
            continue
        lengths = sorted({s.length for s in grid.slots})
        words = sorted({"".join(rng.choice(alphabet) for _ in range(rng.choice(lengths)))
                        for _ in range(rng.randint(len(grid.slots), 40))})
        return grid, words


def backtrack_fills(grid: Grid, words: list[str], keep: list[int] | None = None) -> set:
    """Every fill by plain backtracking: slots in order, each word that agrees with the
    letters already placed and is not used yet (the obviously correct oracle); of the
    slots ``keep`` alone, their crossings with the others ignored, when it is given."""
    slots = grid.slots if keep is None else [grid.slots[s] for s in keep]
    out: set[tuple[str, ...]] = set()
    letters: dict = dict(grid.given)
    chosen: list[str] = []

    def go(i: int) -> None:
        if i == len(slots):
            out.add(tuple(chosen))
            return
        slot = slots[i]
        for word in words:
            if len(word) != slot.length or word in chosen:
                continue
            if any(letters.get(cell, ch) != ch for cell, ch in zip(slot.cells, word)):
                continue
            placed = [cell for cell in slot.cells if cell not in letters]
            for cell, ch in zip(slot.cells, word):
                letters.setdefault(cell, ch)
            chosen.append(word)
            go(i + 1)
            chosen.pop()
            for cell in placed:
                del letters[cell]

    go(0)
    return out
