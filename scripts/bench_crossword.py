"""Figures of the crossword filler (issue 5): fill times on the shipped grid and word squares.

Prints, for each figure, the time of every run (index loading excluded), the
median, steps, and the target.  The default runs repeat the default search (seed
None) to median out machine noise; ``--seeds`` adds runs with seeds 1, 2, ...
whose perturbed value order shows how heavy the tail of the search is.  Every fill is verified by the independent
checker before it counts.  Usage::

    /work/venv/bin/python scripts/bench_crossword.py            # all figures
    /work/venv/bin/python scripts/bench_crossword.py --only en15 sq6-en --runs 5
    /work/venv/bin/python scripts/bench_crossword.py --sat      # also the plain SAT engine

Figures: en15 (15x15 American grid, English top 100k, target <= 2 s), sq6-en and
sq6-ru (6x6 double squares, top 100k, <= 2 s), sq7-en (7x7 double square, all
English words of 2-15 letters, <= 60 s), ru15 (the 15x15 with Russian top 100k:
filled or proved impossible).
``lb`` is the CSP's ``letter_branch`` (sq7-en runs with 0, word branching).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

from cryptocomp import load_index
from cryptocomp.crossword import Lexicon, fill, read_grid
from cryptocomp.crossword.check import fill_problems
from cryptocomp.crossword.grid import format_text
from cryptocomp.crossword.square import square_grid

GRID = Path(__file__).resolve().parent.parent / "cryptocomp" / "data" / "grids" / "american15.txt"

# name: (grid maker, language, top, min length, max length, time limit, target seconds,
#        letter_branch)
FIGURES = {
    "en15": (lambda: read_grid(GRID), "en", 100_000, 1, None, 60.0, 2.0, 50),
    "sq6-en": (lambda: square_grid(6), "en", 100_000, 2, 15, 60.0, 2.0, 50),
    "sq6-ru": (lambda: square_grid(6), "ru", 100_000, 2, 15, 60.0, 2.0, 50),
    "sq7-en": (lambda: square_grid(7), "en", None, 2, 15, 120.0, 60.0, 0),
    "ru15": (lambda: read_grid(GRID), "ru", 100_000, 1, None, 300.0, None, 50),
}


def _run(name: str, runs: int, engine: str, show: bool, seeds: list) -> None:
    make, lang, top, lo, hi, limit, target, letter_branch = FIGURES[name]
    index = load_index(lang)
    grid = make()
    lex = Lexicon(index, top=top, min_length=lo, max_length=hi)
    times, outcomes = [], []
    for k, seed in enumerate(seeds[:runs]):
        t0 = time.perf_counter()
        result = fill(grid, lex, engine=engine, seconds=limit, seed=seed,
                      letter_branch=letter_branch)
        dt = time.perf_counter() - t0
        if result.filled:
            problems = fill_problems(grid, lex, result.words)
            assert not problems, problems
        times.append(dt if result.filled else float("inf"))
        outcomes.append(f"{result.status}:{dt:.2f}s/{result.steps}st")
        if show and k == 0 and result.filled:
            print(format_text(grid, result.letters()), end="")
    med = statistics.median(times)
    goal = f"target <= {target:g} s" if target else "target: filled or proved impossible"
    words = f"{lang} top {top}" if top else f"{lang} all {lo}-{hi} letters"
    label = "default" if seeds[0] is None else "seeds"
    print(f"{name:7s} {engine:4s} lb={letter_branch:<3d} {label:7s} {words:22s} median {med:7.2f} s  ({goal}); runs: "
          + ", ".join(outcomes))
    sys.stdout.flush()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--only", nargs="*", choices=list(FIGURES), default=list(FIGURES))
    ap.add_argument("--runs", type=int, default=3, help="runs per figure (default 3)")
    ap.add_argument("--sat", action="store_true", help="also time the SAT engine on en15")
    ap.add_argument("--show", action="store_true", help="print the first fill of each figure")
    ap.add_argument("--seeds", action="store_true",
                    help="also run seeds 1..runs (other tie-breaks: robustness of the search)")
    args = ap.parse_args()
    for name in args.only:
        runs = 1 if name in ("ru15", "sq7-en") and args.runs > 1 else args.runs
        _run(name, runs, "csp", args.show, [None] * runs)
        if args.seeds:
            _run(name, runs, "csp", False, list(range(1, runs + 1)))
    if args.sat:
        _run("en15", 1, "sat", args.show, [None])


if __name__ == "__main__":
    main()
