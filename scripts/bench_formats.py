#!/usr/bin/env python
"""Time to write each output format for one filled puzzle (issue 28's figure).

The 15x15 American grid (``american15``) is filled once from the English index (built first
if needed) and clued from the shipped WordNet clues; then each format is made and written
to a temporary file (:func:`cryptocomp.files.write_atomic`, as the CLI writes it) ``--runs``
times.  Prints a table of (format, median seconds) rows, one a format, with the runs'
spread; the machine may be shared, so medians, not means.

Each row is one small function in :data:`FORMATS` taking the filled puzzle and a path:
another format is one more function and one more entry.

    python scripts/bench_formats.py [--runs 9]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import NamedTuple

from benchkit import grid_of

from cryptocomp import load_index
from cryptocomp.crossword import Grid, fill
from cryptocomp.files import write_atomic


class Filled(NamedTuple):
    """The puzzle every format writes: grid, fill and each answer's clue."""

    grid: Grid
    words: list[str]
    clues: dict[str, str]
    title: str


def write_ipuz(p: Filled, path: Path) -> None:
    """ipuz JSON, as ``fill --ipuz`` writes it."""
    from cryptocomp.crossword.ipuz import to_ipuz

    doc = to_ipuz(p.grid, p.words, clues=p.clues, title=p.title)
    write_atomic(path, (json.dumps(doc, ensure_ascii=False, indent=1) + "\n").encode())


def write_svg(p: Filled, path: Path) -> None:
    """The SVG drawing with the solution, as ``fill --svg --svg-solution`` writes it."""
    from cryptocomp.crossword.svg import to_svg

    write_atomic(path, to_svg(p.grid, p.grid.letters_of(p.words)).encode())


def write_puz(p: Filled, path: Path) -> None:
    """Across Lite .puz, as ``fill --puz`` writes it."""
    from cryptocomp.crossword.puz import to_puz
    from cryptocomp.crossword.puzzle import puzzle_of

    write_atomic(path, to_puz(puzzle_of(p.grid, p.words, clues=p.clues, title=p.title)))


def write_jpz(p: Filled, path: Path) -> None:
    """Crossword Compiler .jpz, as ``fill --jpz`` writes it."""
    from cryptocomp.crossword.jpz import to_jpz
    from cryptocomp.crossword.puzzle import puzzle_of

    write_atomic(path, to_jpz(puzzle_of(p.grid, p.words, clues=p.clues, title=p.title)))


FORMATS: list[tuple[str, str, Callable[[Filled, Path], None]]] = [
    ("ipuz", ".ipuz", write_ipuz),
    ("svg", ".svg", write_svg),
    ("puz", ".puz", write_puz),
    ("jpz", ".jpz", write_jpz),
]


def filled_american() -> Filled:
    """The American 15x15 grid filled from the English index and clued from WordNet."""
    from cryptocomp.arrow.clues import load_clues

    grid = grid_of("american15")
    result = fill(grid, load_index("en"), seed=0)
    if not result.fills:
        sys.exit(f"american15 did not fill ({result.status})")
    book = load_clues("wordnet")
    clues = {w: book.pick(w) for w in result.fills[0] if w in book and book.printable(w)}
    return Filled(result.grid, result.fills[0], clues, "american15")


def timed(write: Callable[[Filled, Path], None], p: Filled, path: Path,
          runs: int) -> list[float]:
    """Seconds of each of ``runs`` writes (the first, warming imports, not counted)."""
    write(p, path)
    out = []
    for _ in range(runs):
        start = time.perf_counter()
        write(p, path)
        out.append(time.perf_counter() - start)
    return out


class Row(NamedTuple):
    """One format's figure: the median seconds of a write, the spread, the file's size."""

    format: str
    seconds: float
    fastest: float
    slowest: float
    size: int


def table(p: Filled, runs: int) -> list[Row]:
    """One row a format."""
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for name, suffix, write in FORMATS:
            path = Path(tmp) / f"out{suffix}"
            times = timed(write, p, path, runs)
            rows.append(Row(name, statistics.median(times), min(times), max(times),
                            path.stat().st_size))
    return rows


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=9)
    args = ap.parse_args()
    p = filled_american()
    print(f"american15: {len(p.words)} answers, {len(p.clues)} clued from WordNet; "
          f"median of {args.runs} writes each")
    print(f"{'format':8} {'seconds':>10} {'fastest':>10} {'slowest':>10} {'bytes':>8}")
    for row in table(p, args.runs):
        print(f"{row.format:8} {row.seconds:10.5f} {row.fastest:10.5f} {row.slowest:10.5f} "
              f"{row.size:8,}")


if __name__ == "__main__":
    main()
