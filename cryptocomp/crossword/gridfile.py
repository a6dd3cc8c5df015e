"""Grid files: which of the three formats a file holds, and reading it.

The formats themselves are defined where they are parsed: text grids and slot lists in
:mod:`.grid`, ipuz crosswords in :mod:`.ipuz`.
"""

from __future__ import annotations

from pathlib import Path

from ..files import read_text, shown
from .grid import Grid, GridError, is_slot_list, parse_slots, parse_text
from .ipuz import parse_ipuz

__all__ = ["read_grid", "MAX_GRID_BYTES"]

# a 1000x1000 grid (the largest, grid.MAX_SIDE) is 1 MB as text, 12 MB as the longest slot
# list and some 30 MB as ipuz with a cell object for every cell: past this, a file is no grid
MAX_GRID_BYTES = 64 << 20


def read_grid(path: str | Path) -> Grid:
    """Read a grid file: ``.ipuz`` (JSON), a slot list (first line ``W H``), else a text grid."""
    path = Path(path)
    stripped = read_text(path, "grid file", GridError, limit=MAX_GRID_BYTES).lstrip()
    if path.suffix.lower() == ".ipuz" or stripped.startswith("{"):
        return parse_ipuz(stripped, source=shown(path))
    if is_slot_list(stripped):
        return parse_slots(stripped)
    return parse_text(stripped)
