"""How closely ``compose --from LIST --time T`` and ``--steps N`` keep their budgets: the
search's wall seconds over T (median of several runs) and its candidates counted over N,
for Cryptagen's Greek and colour lists (sums, products, free right sides) and 3×3 crossword
systems of the Greek list, and the load average.

    nice python scripts/bench_generation_budget.py [--runs 3] [--budgets 0.5,1,3]
        [--steps 100,1000,10000]
"""

from __future__ import annotations

import argparse
import os
import statistics

from benchkit import ROOT

from cryptocomp.cryptarithm.generation import GenerationSpec
from cryptocomp.cryptarithm.harvest import cross_harvest, harvest, word_list

DATA = ROOT / "tests" / "data" / "cryptagen"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--budgets", default="0.5,1,3")
    parser.add_argument("--steps", default="100,1000,10000")
    args = parser.parse_args()
    budgets = [float(b) for b in args.budgets.split(",")]
    harvest(GenerationSpec(("red", "green", "indigo", "violet")))   # the counter compiled
    print(f"load average {os.getloadavg()[0]:.1f} at the start")
    for name in ("alpha", "colors"):
        words, _ = word_list((DATA / f"{name}.txt").read_text(encoding="utf-8"))
        spec = GenerationSpec(tuple(words), max_words=10)
        for budget in budgets:
            runs = [harvest(spec, seconds=budget) for _ in range(args.runs)]
            ratio = statistics.median(h.seconds / budget for h in runs)
            worst = max(h.seconds / budget for h in runs)
            print(f"{name}.txt --time {budget:g}: median {ratio:.3f} x the budget, worst "
                  f"{worst:.3f} x; {statistics.median(len(h.puzzles) for h in runs):.0f} "
                  f"puzzles, stopped by {runs[0].stop}")
    _steps([int(n) for n in args.steps.split(",")])
    print(f"load average {os.getloadavg()[0]:.1f} at the end")


def _steps(budgets: list[int]) -> None:
    """Candidates counted over each step budget (deterministic: one run each)."""
    for name, op, right in (("alpha", "+", "unique"), ("colors", "+", "unique"),
                            ("colors", "*", "unique"), ("alpha", "+", "free")):
        words, _ = word_list((DATA / f"{name}.txt").read_text(encoding="utf-8"))
        spec = GenerationSpec(tuple(words), op=op, right=right, max_words=10)
        for n in budgets:
            h = harvest(spec, steps=n)
            print(f"{name}.txt --ops {op} --right {right} --steps {n}: {h.candidates} "
                  f"counted ({h.candidates / n:.3f} x), {len(h.puzzles)} puzzles, stopped "
                  f"by {h.stop}, {h.seconds:.2f} s")
    words, _ = word_list((DATA / "alpha.txt").read_text(encoding="utf-8"))
    for n in budgets:
        c = cross_harvest(words, 3, steps=n)
        print(f"alpha.txt --cross 3 --steps {n}: {c.candidates} placed "
              f"({c.candidates / n:.3f} x), stopped by {c.stop}, {c.seconds:.2f} s")


if __name__ == "__main__":
    main()
