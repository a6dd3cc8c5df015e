#!/usr/bin/env python3
"""Arrow-word generator figures (issue 10), side by side with seed 001's.

For each size (8x8 ... 18x18), English with WordNet clues and the shipped
phrases: ``--attempts`` attempts (one attempt = a mask and its fill, with the
mask repairs the mode allows), repeated ``--repeats`` times with other seeds,
all in this process on one core.  Printed per size and mode:

* success: finished puzzles / attempts (median over the repeats);
* CPU/puzzle: CPU seconds of all attempts / finished puzzles (median over the
  repeats), and the ratio to the seed's (~10 s at 8x8, 4 s at 12x12, 18 s at 18x18;
  10x10 and 15x15 derived from its table: (mask + fill) / success);
* words, 2-letter words, dead clue cells, islands: means over finished puzzles;
* phrases: mean phrases of the file that fit a grid, and the share of puzzles
  that got a hidden phrase (each phrase at most once a size);
* hard: hard-rule violations found by the independent checker (target 0).

Modes: ``plain`` (a new mask for every attempt) and ``steered`` (the filler may
ask for ``--steer`` repairs of the region around the slot where it failed).
Then one Russian batch with ``--clues none``.

Usage: nice python scripts/bench_swedish.py [--sizes 8,10,12,15,18] [--attempts 20]
       [--repeats 3] [--modes plain,steered] [--steer 2] [--steps 1000] [--ru-size 12]
       [--two 60]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from dataclasses import replace

from cryptocomp.arrow.check import puzzle_problems
from cryptocomp.arrow.generator import ArrowParams, attempt, attempt_seed, finish, workshop

# seed 001, Slovak dictionary, Node.js, one thread, 60 attempts a size
SEED = {8: (0.05, 0.006 + 0.50, 21, 0), 10: (0.20, 0.16 + 0.86, 33, 26),
        12: (0.43, 0.25 + 1.45, 52, 86), 15: (0.13, 0.32 + 1.82, 80, 424),
        18: (0.13, 0.52 + 1.82, 118, 725)}
SEED_PER_PUZZLE = {8: 10.0, 12: 4.0, 18: 18.0}  # the seed's own round figures


def seed_cpu(size: int) -> float:
    """The seed's CPU seconds per finished grid."""
    if size in SEED_PER_PUZZLE:
        return SEED_PER_PUZZLE[size]
    success, per_attempt, _, _ = SEED[size]
    return per_attempt / success


def batch(params: ArrowParams, attempts: int, seed: int) -> dict:
    """``attempts`` attempts of one size in this process; their figures."""
    shop = workshop(params)
    used: set[int] = set()
    cpu, finished, hard = 0.0, [], 0
    for k in range(attempts):
        att = attempt(params, attempt_seed(seed, 0, k))
        cpu += att.cpu
        if not att.ok:
            continue
        puzzle = finish(params, shop, att, seed=k, attempts=1, cpu=att.cpu, used=used)
        hard += len(puzzle_problems(puzzle.to_json(), words=shop.index.__contains__,
                                    clued=shop.clues is not None, fold_yo=shop.fold_yo))
        finished.append(puzzle)
    return {"attempts": attempts, "finished": len(finished), "cpu": cpu, "hard": hard,
            "puzzles": finished}


def mean(xs) -> float:
    xs = list(xs)
    return sum(xs) / len(xs) if xs else float("nan")


def report(label: str, size: int, runs: list[dict], seed_row: bool) -> None:
    puzzles = [p for r in runs for p in r["puzzles"]]
    success = statistics.median(r["finished"] / r["attempts"] for r in runs)
    per = statistics.median(r["cpu"] / r["finished"] if r["finished"] else float("inf")
                            for r in runs)
    q = [p.stats["penalties"] for p in puzzles]
    fit = [p.stats["phrases_fit"] for p in puzzles if p.stats["phrases_fit"] is not None]
    hidden = sum(p.hidden is not None for p in puzzles)
    ref = seed_cpu(size) if seed_row else None
    print(f"{size:>2}x{size:<2} {label:<8} {success:6.0%} {per:8.2f}"
          + (f" {per / ref:6.2f}" if ref else "       ")
          + f" {mean(p.stats['words'] for p in puzzles):6.1f}"
          f" {mean(x['two_letter'] for x in q):5.1f} {mean(x['dead_clue_cells'] for x in q):5.1f}"
          f" {mean(x['islands'] for x in q):4.1f}"
          f" {mean(fit) if fit else float('nan'):7.1f}"
          f" {hidden / len(puzzles) if puzzles else 0:7.0%} {sum(r['hard'] for r in runs):5d}",
          flush=True)


def main() -> int:
    ap = argparse.ArgumentParser(description="arrow-word generator figures")
    ap.add_argument("--sizes", default="8,10,12,15,18")
    ap.add_argument("--attempts", type=int, default=20)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--modes", default="plain,steered")
    ap.add_argument("--steer", type=int, default=2, help="repairs an attempt in steered mode")
    ap.add_argument("--steps", type=int, default=1000, help="fill step budget a fill")
    ap.add_argument("--ru-size", type=int, default=12, help="size of the Russian batch (0: none)")
    ap.add_argument("--two", type=int, default=None,
                    help="penalty of a 2-letter word in the mask (default: the generator's, "
                         "60); higher makes harder masks, where steering can be compared")
    args = ap.parse_args()
    sizes = [int(s) for s in args.sizes.split(",") if s]
    modes = [m for m in args.modes.split(",") if m]
    t = time.process_time()
    shop = workshop(ArrowParams(12, 12, steps=args.steps))
    print(f"English: {len(shop.index):,} clued words (wordfreq en x WordNet 3.0), "
          f"{len(shop.phrases)} phrases; loaded in {time.process_time() - t:.1f} s CPU")
    print(f"{args.attempts} attempts x {args.repeats} repeats a size and mode; fill budget "
          f"{args.steps} steps; CPU seconds, one core\n")
    print("size  mode    success CPU/puz  ×seed  words   2-l  dead isl  phrases hidden  hard")
    for size in sizes:
        for mode in modes:
            params = ArrowParams(size, size, steps=args.steps,
                                 repairs=args.steer if mode == "steered" else 0)
            if args.two is not None:
                params = replace(params, rules=replace(params.mask_rules(), two=args.two))
            runs = [batch(params, args.attempts, seed) for seed in range(args.repeats)]
            report(mode, size, runs, True)
        s, _per_attempt, words, jokes = SEED[size]
        print(f"{size:>2}x{size:<2} {'seed 001':<8} {s:6.0%} {seed_cpu(size):8.2f}"
              f"        {words:6.1f}                  {jokes:7d}  (5,960 jokes)")
    if args.ru_size:
        params = ArrowParams(args.ru_size, args.ru_size, source="ru", clues="none",
                             steps=args.steps, repairs=args.steer)
        t = time.process_time()
        shop = workshop(params)
        print(f"\nRussian, --clues none: {len(shop.index):,} words (wordfreq ru, most "
              f"frequent), {len(shop.phrases)} phrases; loaded in "
              f"{time.process_time() - t:.1f} s CPU")
        runs = [batch(params, args.attempts, seed) for seed in range(args.repeats)]
        report("steered", args.ru_size, runs, False)
    return 0


if __name__ == "__main__":
    sys.exit(main())
