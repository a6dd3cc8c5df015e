"""Grid files: which of the three formats a file holds, and reading it.

The formats themselves are defined where they are parsed: text grids and slot lists in
:mod:`.grid`, ipuz crosswords in :mod:`.ipuz`, Across Lite files (``.puz``) in :mod:`.puz`
and Crossword Compiler files (``.jpz``) in :mod:`.jpz`, told by their suffix.
"""

from __future__ import annotations

from pathlib import Path

from ..files import read_bytes, read_text, shown
from .grid import Grid, GridError, is_slot_list, parse_slots, parse_text
from .ipuz import parse_ipuz
from .jpz import parse_jpz
from .puz import parse_puz
from .puzzle import Puzzle

__all__ = ["read_grid", "read_puzzle", "is_puzzle_file", "MAX_GRID_BYTES"]

_PUZZLE_READERS = {".puz": parse_puz, ".jpz": parse_jpz}

# a 1000x1000 grid (the largest, grid.MAX_SIDE) is 1 MB as text, 12 MB as the longest slot
# list and some 30 MB as ipuz with a cell object for every cell: past this, a file is no grid
MAX_GRID_BYTES = 64 << 20


def is_puzzle_file(path: str | Path) -> bool:
    """Whether ``path`` names a .puz or .jpz file (by its suffix)."""
    return Path(path).suffix.lower() in _PUZZLE_READERS


def read_puzzle(path: str | Path) -> Puzzle:
    """Read a .puz or .jpz file: the grid with its solution, clues and circles."""
    path = Path(path)
    data = read_bytes(path, "puzzle file", GridError, limit=MAX_GRID_BYTES)
    return _PUZZLE_READERS[path.suffix.lower()](data, source=shown(path))


def read_grid(path: str | Path) -> Grid:
    """Read a grid file: ``.puz``, ``.jpz``, ``.ipuz`` (JSON), a slot list (first line
    ``W H``), else a text grid."""
    path = Path(path)
    if is_puzzle_file(path):
        return read_puzzle(path).grid
    stripped = read_text(path, "grid file", GridError, limit=MAX_GRID_BYTES).lstrip()
    if path.suffix.lower() == ".ipuz" or stripped.startswith("{"):
        return parse_ipuz(stripped, source=shown(path))
    if is_slot_list(stripped):
        return parse_slots(stripped)
    return parse_text(stripped)
