#!/usr/bin/env python3
"""Benchmark the PDF pages (issue 28): the time to write one 15x15 crossword's PDF and one
PDF of a 100-puzzle arrow-word batch (targets: 0.2 s and 10 s).

* 15x15: the shipped ``american15`` grid filled from the ``en`` index, its clues from the
  shipped WordNet clue file (loaded once, timed apart), written in both layouts;
* arrow words: ``--count`` puzzles of ``--size`` (English, WordNet clues) made once on
  ``--jobs`` processes, then written as one PDF (a page each, then the solutions).

Each figure is the median wall time of ``--runs`` writes in this process, after a first
write that registers the fonts (timed apart: a one-shot command pays it once).

    nice python scripts/bench_pdf.py                 # both figures, 5 runs each
    nice python scripts/bench_pdf.py --only crossword --runs 9
    nice python scripts/bench_pdf.py --only arrow --count 100 --size 10x10 --jobs 2
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable

from benchkit import GRID


def _timed(write: Callable[[], bytes], runs: int) -> tuple[float, float, bytes]:
    """(first write's seconds, median of the next ``runs``, the bytes written)."""
    start = time.perf_counter()
    data = write()
    first = time.perf_counter() - start
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        data = write()
        times.append(time.perf_counter() - start)
    return first, statistics.median(times), data


def _pages(data: bytes) -> int:
    """The page count of a PDF (pypdf, the test extra)."""
    import io

    from pypdf import PdfReader

    return len(PdfReader(io.BytesIO(data)).pages)


def bench_crossword(runs: int) -> None:
    from cryptocomp.crossword import fill, read_grid
    from cryptocomp.index.store import load_index
    from cryptocomp.pages import crossword_pdf, shipped_clues

    grid = read_grid(GRID)
    result = fill(grid, load_index("en"), seconds=60)
    if not result.fills:
        raise SystemExit(f"american15: no fill ({result.status})")
    words = result.fills[0]
    start = time.perf_counter()
    clues = shipped_clues(words)
    loading = time.perf_counter() - start
    print(f"american15: {len(words)} answers, {len(clues)} with a WordNet clue "
          f"(clue file loaded in {loading:.2f} s)")
    for layout in ("puzzle", "submission"):
        first, median, data = _timed(lambda layout=layout: crossword_pdf(
            grid, words, clues=clues, title="american15", layout=layout), runs)
        print(f"  15x15 {layout:<10} PDF: median {median:.3f} s over {runs} runs (first "
              f"{first:.3f} s, fonts registered), {len(data) / 1024:.0f} KB, "
              f"{_pages(data)} pages (target <= 0.2 s)")


def bench_arrow(runs: int, count: int, size: str, jobs: int) -> None:
    from cryptocomp import arrowword
    from cryptocomp.pages import arrow_pdf

    start = time.perf_counter()
    made = arrowword(size, count=count, seed=0, workers=jobs)
    print(f"arrow words: {len(made.puzzles)} puzzles of {size} made in "
          f"{time.perf_counter() - start:.1f} s on {jobs} process(es)")
    first, median, data = _timed(lambda: arrow_pdf(made.puzzles), runs)
    print(f"  {len(made.puzzles)}-puzzle batch PDF: median {median:.2f} s over {runs} runs "
          f"(first {first:.2f} s), {len(data) / 1024:.0f} KB, {_pages(data)} pages "
          f"(target <= 10 s)")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[1])
    ap.add_argument("--only", choices=("crossword", "arrow"))
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--count", type=int, default=100)
    ap.add_argument("--size", default="10x10")
    ap.add_argument("--jobs", type=int, default=2)
    args = ap.parse_args()
    if args.only in (None, "crossword"):
        bench_crossword(args.runs)
    if args.only in (None, "arrow"):
        bench_arrow(args.runs, args.count, args.size, args.jobs)


if __name__ == "__main__":
    main()
