"""SVG drawings of grids: blocks, clue numbers and (optionally) the solution letters."""

from __future__ import annotations

from collections.abc import Mapping
from xml.sax.saxutils import escape

from .grid import Cell, Grid, Letter

__all__ = ["to_svg"]

_CELL = 36  # pixels a cell


def to_svg(grid: Grid, letters: Mapping[Cell, Letter] | None = None, *,
           cell: int = _CELL) -> str:
    """The grid as an SVG document; ``letters`` are drawn when given."""
    numbers = grid.numbers()
    open_cells = grid.drawn_open()
    w, h = grid.width * cell, grid.height * cell
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w + 2}" height="{h + 2}" '
           f'viewBox="-1 -1 {w + 2} {h + 2}" font-family="sans-serif">',
           f'<rect x="0" y="0" width="{w}" height="{h}" fill="white" stroke="black" '
           f'stroke-width="2"/>']
    for r in range(grid.height):
        for c in range(grid.width):
            x, y = c * cell, r * cell
            if (r, c) not in open_cells:
                out.append(f'<rect x="{x}" y="{y}" width="{cell}" height="{cell}" fill="black"/>')
                continue
            out.append(f'<rect x="{x}" y="{y}" width="{cell}" height="{cell}" fill="none" '
                       f'stroke="black" stroke-width="1"/>')
            n = numbers.get((r, c))
            if n is not None:
                out.append(f'<text x="{x + 2}" y="{y + cell * 0.3:.1f}" '
                           f'font-size="{cell * 0.28:.1f}">{n}</text>')
            if letters and (r, c) in letters:
                out.append(f'<text x="{x + cell / 2:.1f}" y="{y + cell * 0.82:.1f}" '
                           f'font-size="{cell * 0.6:.1f}" text-anchor="middle">'
                           f'{escape(letters[(r, c)].upper())}</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"
