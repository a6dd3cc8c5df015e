"""Rate a sample of Cryptator's collection with the difficulty model (cryptarithm.difficulty).

    nice python scripts/bench_difficulty.py [--sample N] [--seed S] [--repo DIR]
                                            [--seconds S] [--kind KIND] [--slowest K]
    python scripts/bench_difficulty.py --examples

Draws ``--sample`` puzzles (default 400) at random (``--seed``) from every ``*.db.txt`` of
``src/main/cryptarithms`` in Cryptator's repository (a bare mirror or a checkout), rates each
within ``--seconds`` (the default budget of a rating), and prints per kind (addition,
multiplication, long multiplication, crossword, doubly-true) the puzzles, the unrated ones,
the median, mean, p90 and largest rating time (wall clock, which the budget reads, and the
process's CPU time, which the other processes on a loaded machine do not inflate); then the
levels histogram, the share of puzzles solved by deductions alone, the search nodes, and the
load average.  ``--examples`` prints instead the README's examples, easiest first: each one's
level, score, deduction steps, guesses and dead ends.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path

from bench_cryptarithm import MIRROR, collection, kind_of

from cryptocomp.cryptarithm.difficulty import LEVELS, SECONDS, rate, solution_path, system_of
from cryptocomp.cryptarithm.grammar import parse_system


def sample(repo: Path, n: int, seed: int, kind: str | None) -> list[tuple[str, str]]:
    """``n`` (kind, puzzle) pairs drawn at random from the collection."""
    every = [(kind_of(name, line), line.strip()) for name, lines in collection(repo).items()
             for line in lines if line.strip() and not line.startswith("#")]
    if kind:
        every = [p for p in every if p[0] == kind]
    return random.Random(seed).sample(every, min(n, len(every)))


# README's examples (section "Difficulty"): base 10 unless a base follows
EXAMPLES = [("a+a+a+a+a+a+a+a+a+a+a+b=bcc", 10), ("ab+ab=bcc", 10), ("i+bb=ill", 10),
            ("to+go=out", 16), ("no+no+too=late", 10), ("send+more=money", 10),
            ("he+sees+the=light", 10), ("games+letter+value=values", 10),
            ("cc+a=cl && on+d=go && ni+e=ne && cc+on=ni && a+d=e && cl+go=ne", 10),
            ("azure+gray+grey=yellow", 10), ("donald+gerald=robert", 10),
            ("azure+green+purple=orange", 10), ("cyan*navy=black*gray", 10)]


def examples() -> None:
    """The README's examples rated, in the order of their scores."""
    rows = []
    for text, base in EXAMPLES:
        d = rate(text, base=base, seconds=30, nodes=10**6)
        path = solution_path(system_of(text, base), seconds=30, nodes=10**6)
        rows.append((d.score, text + ("" if base == 10 else f" (base {base})"), d,
                     path.dead_ends))
    print(f"{'puzzle':66s} {'level':>5s} {'score':>5s} {'steps':>5s} {'guesses':>7s} "
          f"{'dead ends':>9s}")
    for _, text, d, dead in sorted(rows, key=lambda r: r[0]):
        print(f"{text:66s} {d.level!s:>5s} {d.score:5d} {d.steps:5d} {d.guesses:7d} {dead:9d}")


def _figures(ts: list[float]) -> str:
    """Median, mean, p90 and largest of ``ts`` seconds, in milliseconds."""
    ts = sorted(ts)
    return (f"{statistics.median(ts) * 1e3:8.1f} {statistics.fmean(ts) * 1e3:8.1f} "
            f"{ts[int(0.9 * (len(ts) - 1))] * 1e3:8.1f} {ts[-1] * 1e3:8.1f}")


def main(argv: list[str] | None = None) -> int:
    """Rate the sample and print the figures."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--sample", type=int, default=400)
    ap.add_argument("--seed", type=int, default=27)
    ap.add_argument("--repo", type=Path, default=MIRROR)
    ap.add_argument("--seconds", type=float, default=SECONDS, help="budget of one rating")
    ap.add_argument("--kind", default=None, help="only this kind (e.g. addition)")
    ap.add_argument("--slowest", type=int, default=5)
    ap.add_argument("--examples", action="store_true", help="rate README's examples only")
    args = ap.parse_args(argv)
    if args.examples:
        examples()
        return 0
    puzzles = sample(args.repo, args.sample, args.seed, args.kind)
    times: dict[str, list[float]] = defaultdict(list)
    cpus: dict[str, list[float]] = defaultdict(list)
    nodes: list[int] = []
    unrated: Counter[str] = Counter()
    levels: Counter[int | None] = Counter()
    no_guess = 0
    slow: list[tuple[float, str]] = []
    for kind, text in puzzles:
        system = parse_system(text)
        start, cpu = time.perf_counter(), time.process_time()
        d = rate(system, seconds=args.seconds)
        took = time.perf_counter() - start
        times[kind].append(took)
        cpus[kind].append(time.process_time() - cpu)
        nodes.append(d.nodes)
        slow.append((took, f"{kind}: {text[:70]} -> {d}"))
        levels[d.level] += 1
        if not d.rated:
            unrated[kind] += 1
        elif d.guesses == 0:
            no_guess += 1
    every = [t for ts in times.values() for t in ts]
    print(f"{len(every)} puzzles of Cryptator's collection (seed {args.seed}), budget "
          f"{args.seconds} s a rating")
    print(f"{'kind':20s} {'n':>5s} {'unrated':>8s} {'median':>8s} {'mean':>8s} {'p90':>8s} "
          f"{'max':>8s}  (ms, wall | CPU)")
    for kind in [*sorted(times), "all"]:
        bad = sum(unrated.values()) if kind == "all" else unrated[kind]
        wall = every if kind == "all" else times[kind]
        cpu = [t for ts in cpus.values() for t in ts] if kind == "all" else cpus[kind]
        print(f"{kind:20s} {len(wall):5d} {bad:8d} {_figures(wall)} | {_figures(cpu)}")
    rated = sum(v for k, v in levels.items() if k is not None)
    print("levels: " + "  ".join(f"{lv}: {levels[lv]}" for lv in range(1, LEVELS + 1))
          + f"  unrated: {levels[None]}")
    print(f"solved by deductions alone (no guess): {no_guess} of {rated} rated")
    print(f"search nodes: median {statistics.median(nodes)}, p90 "
          f"{sorted(nodes)[int(0.9 * (len(nodes) - 1))]}, max {max(nodes)}")
    for took, what in sorted(slow, reverse=True)[:args.slowest]:
        print(f"  slow: {took * 1e3:8.1f} ms  {what}")
    print("load average: " + " ".join(f"{x:.2f}" for x in os.getloadavg()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
