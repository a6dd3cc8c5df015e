"""Grid files: which of the three formats a file holds, and reading it.

The formats themselves are defined where they are parsed: text grids and slot lists in
:mod:`.grid`, ipuz crosswords in :mod:`.ipuz`.
"""

from __future__ import annotations

from pathlib import Path

from ..files import read_text, shown
from .grid import Grid, GridError, is_slot_list, parse_slots, parse_text
from .ipuz import parse_ipuz

__all__ = ["read_grid"]


def read_grid(path: str | Path) -> Grid:
    """Read a grid file: ``.ipuz`` (JSON), a slot list (first line ``W H``), else a text grid."""
    path = Path(path)
    stripped = read_text(path, "grid file", GridError).lstrip()
    if path.suffix.lower() == ".ipuz" or stripped.startswith("{"):
        return parse_ipuz(stripped, source=shown(path))
    if is_slot_list(stripped):
        return parse_slots(stripped)
    return parse_text(stripped)
