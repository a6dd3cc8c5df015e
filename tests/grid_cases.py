"""Grids the crossword tests share (imported by name, as compose_oracle is)."""

from __future__ import annotations

import itertools
from pathlib import Path

__all__ = ["parity_case"]


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
