"""How closely ``compose --from LIST --time T`` keeps its budget: the search's wall seconds
over T (median of several runs) for Cryptagen's Greek and colour lists, and the load average.

    nice python scripts/bench_generation_budget.py [--runs 3] [--budgets 0.5,1,3]
"""

from __future__ import annotations

import argparse
import os
import statistics

from benchkit import ROOT

from cryptocomp.cryptarithm.generation import GenerationSpec
from cryptocomp.cryptarithm.harvest import harvest, word_list

DATA = ROOT / "tests" / "data" / "cryptagen"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--budgets", default="0.5,1,3")
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
    print(f"load average {os.getloadavg()[0]:.1f} at the end")


if __name__ == "__main__":
    main()
