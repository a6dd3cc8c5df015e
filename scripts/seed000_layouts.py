"""Reconstruct the 15x15 layouts that fit seed 000's clue numbering.

Seed 000 ("the most complex crossword compiled by computer") prints its clues but
not its grid: across 1, 6, 10, 14-20, 23-25, 27, 32, 35, 37, 38, 41-44, 46, 48,
50, 54, 59-67 and down 1-13, 21, 22, 26, 28-34, 36, 39, 40, 45, 47, 49, 51-58.
This script lists every American-style 15x15 layout whose numbering gives exactly
those clues: 180-degree rotational symmetry, every word of 3 letters or more,
every open cell in an across and a down word (no unchecked cells), all open
cells connected.  The search goes row by row (rows 0-7; the rest mirror them),
checking each row's clue numbers as it is chosen.

Usage::

    python scripts/seed000_layouts.py            # print the layouts, one blank line apart
    python scripts/seed000_layouts.py --out DIR  # also write DIR/seed000-NN.txt (text grids)
"""

from __future__ import annotations

import argparse
from pathlib import Path

N = 15
ACROSS = {1, 6, 10, 14, 15, 16, 17, 18, 19, 20, 23, 24, 25, 27, 32, 35, 37, 38, 41, 42, 43, 44,
          46, 48, 50, 54, 59, 60, 61, 62, 63, 64, 65, 66, 67}
DOWN = set(range(1, 14)) | {21, 22, 26, 28, 29, 30, 31, 32, 33, 34, 36, 39, 40, 45, 47, 49, 51,
                            52, 53, 54, 55, 56, 57, 58}
LAST = 67


def _connected(rows: list[str]) -> bool:
    cells = {(r, c) for r in range(N) for c in range(N) if rows[r][c] == "."}
    todo = [next(iter(cells))]
    seen = set(todo)
    while todo:
        r, c = todo.pop()
        for nb in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
            if nb in cells and nb not in seen:
                seen.add(nb)
                todo.append(nb)
    return len(seen) == len(cells)


FULL = (1 << N) - 1


def _row_masks() -> list[int]:
    """Every row (bit c set = cell c open) whose runs of open cells have 3 cells or more."""
    out = []
    for m in range(1 << N):
        run, ok = 0, True
        for c in range(N + 1):
            if c < N and m >> c & 1:
                run += 1
            else:
                if 0 < run < 3:
                    ok = False
                    break
                run = 0
        if ok:
            out.append(m)
    return out


def _starts(row: int, above: int) -> list[tuple[bool, bool]]:
    """(across, down) of each start cell of ``row`` in column order.  With every word of 3
    or more letters, an open cell under a block starts a down word: the row above decides."""
    out = []
    for c in range(N):
        if not row >> c & 1:
            continue
        across = (c == 0 or not row >> (c - 1) & 1) and c + 1 < N and bool(row >> (c + 1) & 1)
        down = not above >> c & 1
        if across or down:
            out.append((across, down))
    return out


def _fits(row: int, above: int, number: int) -> int | None:
    """The next clue number after ``row`` if its starts match the seed's clues, else None."""
    for kind in _starts(row, above):
        if kind != (number in ACROSS, number in DOWN):
            return None
        number += 1
    return number


def _fits_from_end(row: int, above: int, last: int) -> int | None:
    """Like :func:`_fits` for a row of the bottom half, numbered backwards from ``last``
    (its last start's number); the last number of the row before, or None."""
    kinds = _starts(row, above)
    first = last - len(kinds) + 1
    for i, kind in enumerate(kinds):
        if kind != (first + i in ACROSS, first + i in DOWN):
            return None
    return first - 1


def _columns(row: int, runs: tuple[int, int, int]) -> tuple[int, int, int] | None:
    """Vertical runs (columns with a run of exactly 1, exactly 2, 3+ open cells so far) after
    ``row``; None when a run of 1 or 2 would end."""
    one, two, more = runs
    if (one | two) & ~row:
        return None
    return row & ~(one | two | more), row & one, row & (two | more)


def layouts() -> list[list[str]]:
    """Every layout that fits, as text rows (``#`` block, ``.`` open).

    Rows 0-7 are chosen in turn (row 7 its own mirror image; rows 8-14 mirror
    rows 6-0).  A row's clue numbers depend on the row above only (an open cell
    under a block starts a down word), so each row is checked as it is chosen."""
    masks = _row_masks()
    mirror = {m: int(f"{m:0{N}b}"[::-1], 2) for m in masks}
    found: list[list[str]] = []

    def extend(rows: list[int], runs: tuple[int, int, int], number: int, last: int) -> None:
        r = len(rows)
        if r >= 2 and r <= 8:
            # bottom row 16 - r (the mirror of row r - 2, under the mirror of row r - 1) is
            # numbered backwards from the last clue: it must fit too
            last = _fits_from_end(mirror[rows[r - 2]], mirror[rows[r - 1]], last)
            if last is None or last < number - 1:
                return
        if r == 8:
            full = rows + [mirror[rows[k]] for k in range(6, -1, -1)]
            n, cols = number, runs
            for k in range(8, N):
                n = _fits(full[k], full[k - 1], n)
                cols = _columns(full[k], cols) if n is not None else None
                if cols is None:
                    return
            if n != LAST + 1 or cols[0] | cols[1]:
                return
            text = ["".join("." if m >> c & 1 else "#" for c in range(N)) for m in full]
            if _connected(text):
                found.append(text)
            return
        above = rows[-1] if rows else 0
        for row in masks:
            if r == 7 and mirror[row] != row:
                continue
            n = _fits(row, above, number)
            if n is None:
                continue
            cols = _columns(row, runs)
            if cols is None:
                continue
            extend(rows + [row], cols, n, last)

    extend([], (0, 0, 0), 1, LAST)
    return found


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, help="write each layout as DIR/seed000-NN.txt")
    args = ap.parse_args()
    found = layouts()
    for i, rows in enumerate(found, 1):
        words = sum(1 for n in range(1, LAST + 1) for s in (ACROSS, DOWN) if n in s)
        longest = sum(row.count("." * 15) for row in rows) + sum(
            all(row[c] == "." for row in rows) for c in range(N))
        print(f"; seed000-{i:02d}: {words} words, {longest} slots of 15 letters")
        print("\n".join(rows))
        print()
        if args.out:
            args.out.mkdir(parents=True, exist_ok=True)
            (args.out / f"seed000-{i:02d}.txt").write_text(
                f"; seed 000 layout {i} of {len(found)}: {words} words, {longest} of 15 letters\n"
                + "\n".join(rows) + "\n", encoding="utf-8")
    print(f"; {len(found)} layouts fit seed 000's numbering")


if __name__ == "__main__":
    main()
