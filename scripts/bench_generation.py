"""Time the list generator (cryptarithm.generation) on Cryptagen's lists, beside the paper.

    python scripts/bench_generation.py [--runs N] [--only NAME ...] [--fresh-cache]

For each case (Greek letters, planets, European countries, rainbow colours, a fixed right
word, doubly-true English/French/Italian [0, 100], the 143 colour names up to 6 addends)
prints the puzzles found, how many Cryptagen found (and whether ours are a superset or
exactly them), the candidates counted, the median wall and CPU seconds of ``--runs`` warm
runs, Cryptator's published time (ICTAI 2025) and the ratio.  The first call (numba loading
its cache, or compiling with ``--fresh-cache``, which points numba at an empty cache) is
timed separately.  Prints the load average with the figures: the machine is shared.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

DATA = Path(__file__).resolve().parent.parent / "tests" / "data" / "cryptagen"


@dataclass(frozen=True)
class Case:
    """One benchmark: how to build its spec, Cryptagen's file, the paper's seconds."""

    name: str
    spec: Callable[[], object]
    theirs: str | None            # Cryptagen's output in tests/data/cryptagen
    paper: str                    # the paper's figure, as printed
    paper_s: float | None         # ... in seconds, for the ratio
    exact: bool = False           # ours must be exactly theirs (else a superset)


def _words(name: str) -> tuple[str, ...]:
    return tuple(w.strip() for w in (DATA / name).read_text().splitlines() if w.strip())


def cases() -> list[Case]:
    from cryptocomp.cryptarithm.generation import GenerationSpec
    from cryptocomp.cryptarithm.numberwords import doubly_true_spec

    return [
        Case("greek", lambda: GenerationSpec(_words("alpha.txt")), "alpha.db.txt",
             "Cryptator 2,100 s; Crypt 114 s; both 100 s", 100.0, exact=True),
        Case("planets", lambda: GenerationSpec(_words("planets.txt")), "planets.db.txt",
             "-", None),
        Case("europeans", lambda: GenerationSpec(_words("europeans.txt")),
             "europeans.db.txt", "-", None),
        Case("rainbow", lambda: GenerationSpec(_words("rainbow.txt")), "rainbow.db.txt",
             "-", None),
        Case("fixed-planets", lambda: GenerationSpec(_words("planets.txt"), right="fixed",
                                                     fixed="planets"), None, "-", None),
        Case("fixed-greeks", lambda: GenerationSpec(_words("alpha.txt"), right="fixed",
                                                    fixed="greeks"), None, "-", None),
        Case("doubly-en", lambda: doubly_true_spec(0, 100, "en"), "en-1-500.db.txt", "-",
             None),
        Case("doubly-fr", lambda: doubly_true_spec(0, 100, "fr"), "fr-1-500.db.txt", "-",
             None),
        Case("doubly-it", lambda: doubly_true_spec(0, 100, "it"), "it-1-500.db.txt", "-",
             None),
        Case("colors-6", lambda: GenerationSpec(_words("colors.txt"), max_words=7),
             "colors.db.txt", "both > 970 s", 970.0),
    ]


def run(spec: object) -> tuple[list[str], int, float, float]:
    """One generation: puzzles, candidates, wall and CPU seconds."""
    from cryptocomp.cryptarithm.generation import generate

    wall, cpu = time.perf_counter(), time.process_time()
    gen = generate(spec)  # type: ignore[arg-type]
    puzzles = [g.puzzle for g in gen]
    return puzzles, gen.candidates, time.perf_counter() - wall, time.process_time() - cpu


def compare(case: Case, spec: object, puzzles: list[str]) -> str:
    """How our puzzles stand to Cryptagen's (its words outside the list left out)."""
    from cryptocomp.cryptarithm.generation import normalised

    if case.theirs is None:
        return "-"
    from cryptocomp.cryptarithm.wordsum import count_word_sum

    words = set(spec.words)  # type: ignore[attr-defined]
    most = spec.max_words or len(words)  # type: ignore[attr-defined]
    theirs = {normalised(p) for p in (DATA / case.theirs).read_text().splitlines() if p.strip()}
    # their file may range wider (numbers to 500, up to 9 addends): keep what the spec asks
    theirs = {(a, b) for a, b in theirs if (a | b) <= words and len(a) + len(b) <= most}
    ours = {normalised(p) for p in puzzles}
    if ours == theirs:
        return f"{len(theirs)} exactly"
    if theirs <= ours:
        # ours beyond theirs, checked by the other (column-by-column) counter
        extra = sum(count_word_sum(sorted(a), next(iter(b))) == 1 for a, b in ours - theirs)
        note = "" if extra == len(ours - theirs) else f" ({len(ours - theirs) - extra} WRONG)"
        return (f"{len(theirs)}, ours a superset{note}"
                + (" (NOT EXACT)" if case.exact else ""))
    return f"{len(theirs)}, MISSING {len(theirs - ours)}"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--only", nargs="*", help="case names (default: all)")
    ap.add_argument("--fresh-cache", action="store_true",
                    help="compile numba's kernels afresh (an empty cache)")
    args = ap.parse_args()
    if args.fresh_cache:
        os.environ["NUMBA_CACHE_DIR"] = tempfile.mkdtemp(prefix="bench-generation-")
    from cryptocomp.cryptarithm.generation import GenerationSpec

    print(f"load average at start: {os.getloadavg()[0]:.1f} (2 cores)")
    wall, cpu = time.perf_counter(), time.process_time()
    run(GenerationSpec(("send", "more", "money", "a", "b")))   # first call: cache or compile
    print(f"first call ({'compiling' if args.fresh_cache else 'numba cache load'}): "
          f"{time.perf_counter() - wall:.2f} s wall, {time.process_time() - cpu:.2f} s CPU")
    head = (f"{'case':14} {'puzzles':>7} {'Cryptagen':>26} {'cands':>8} {'wall s':>7} "
            f"{'cpu s':>7}  paper (ratio to cpu)")
    print(head)
    bad = False
    for case in cases():
        if args.only and case.name not in args.only:
            continue
        spec = case.spec()
        results = [run(spec) for _ in range(max(1, args.runs))]
        puzzles, cands = results[0][0], results[0][1]
        w = statistics.median(r[2] for r in results)
        c = statistics.median(r[3] for r in results)
        versus = compare(case, spec, puzzles)
        bad = bad or any(flag in versus for flag in ("MISSING", "NOT EXACT", "WRONG"))
        ratio = f" ({case.paper_s / c:,.0f}x)" if case.paper_s and c > 0 else ""
        print(f"{case.name:14} {len(puzzles):7} {versus:>26} {cands:8} {w:7.2f} {c:7.2f}  "
              f"{case.paper}{ratio}", flush=True)
    print(f"load average at end: {os.getloadavg()[0]:.1f}; medians of {args.runs} runs")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
