"""Word squares: N x N grids without blocks where every row and every column is a word.

* double square: the N rows and N columns are 2N different words (seed 000's
  6x6 and 7x7 challenge);
* symmetric square: row i equals column i, so N different words fill it
  (cell (i, j) and cell (j, i) hold the same letter).
"""

from __future__ import annotations

from .grid import Grid, GridError, Slot

__all__ = ["square_grid", "MIN_SQUARE", "MAX_SQUARE"]

MIN_SQUARE, MAX_SQUARE = 2, 64  # sides: a 1x1 square has no word; no dictionary fills 64


def square_grid(n: int, *, symmetric: bool = False) -> Grid:
    """The empty N x N square, double (rows and columns distinct) or symmetric."""
    if not MIN_SQUARE <= n <= MAX_SQUARE:
        raise GridError(f"square size {n} is out of range ({MIN_SQUARE} to {MAX_SQUARE})")
    if not symmetric:
        return Grid.from_rows(["." * n] * n)
    # row i's j-th cell is stored once, as the upper-triangle cell (min, max)
    slots = tuple(Slot(f"{i + 1}-row", "across",
                       tuple((min(i, j), max(i, j)) for j in range(n))) for i in range(n))
    grid = Grid(n, n, slots, {}, symmetric=True)
    grid._check()
    return grid
