"""The fill's whole distribution over many grids (issue 30): every seed-000 layout and
the shipped American grid, with WordNet lemmas, the English top 50,000 and the Russian
top 100,000 (ё folded), over 8 seeds each.

Each run is one child of ``bench_crossword.py --child`` (a fresh process: index loaded,
fill, checked by the independent checker), the default search and seeds 1..7.  Target
per grid and list: the median run decided (filled, or proved impossible) in 5 s and the
slowest in 30 s; a run out of its ``--limit`` (the fill's time budget, wall clock) counts
as undecided (infinite).  ``--clock cpu`` (the default) reads a run's CPU seconds, all its
threads; ``--clock wall`` what its user waits, the index's loading aside.

The runs go into a JSON-lines file (``--out``), one line a run; a run already in the
file is not run again, so a long measurement can be stopped and taken up later, and
``--report`` prints the table of a file without running anything.  A fill runs its lanes
side by side on the cores (:func:`cryptocomp.crossword.csp.solve_csp`), so wall-clock
figures take ``--jobs 1`` (each child has the machine); ``--jobs 2`` runs two children at
once, which halves the bench's own time and leaves the CPU seconds comparable.  Usage::

    python scripts/wordlists.py                                   # once
    python scripts/bench_fill_tails.py --out tails.jsonl --jobs 2
    python scripts/bench_fill_tails.py --out tails.jsonl --lists en50k --grids 1 11 26
    python scripts/bench_fill_tails.py --out tails.jsonl --report --clock wall
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from benchkit import decided_seconds, layouts

HERE = Path(__file__).resolve().parent
LISTS = {"wordnet": "wordnet.txt", "en50k": "en50k.txt", "ru100k": "ru100k.txt"}
MEDIAN_TARGET, SLOWEST_TARGET = 5.0, 30.0


def _grids(chosen: list[str] | None) -> list[str]:
    """The grid specs: american15 and seed000-01 .. seed000-NN (or the chosen ones)."""
    every = ["american15"] + [f"seed000-{k:02d}" for k in range(1, len(layouts()) + 1)]
    if not chosen:
        return every
    picked = []
    for c in chosen:
        picked.append(c if c in every else f"seed000-{int(c):02d}")
    return picked


def _key(grid: str, lst: str, seed: int) -> str:
    return f"{grid}|{lst}|{seed}"


def _done(path: Path) -> dict[str, dict]:
    """The runs already in the file, by key (a cut last line is dropped)."""
    runs: dict[str, dict] = {}
    if path.exists():
        for line in path.read_text(encoding="utf-8").splitlines():
            try:
                run = json.loads(line)
            except json.JSONDecodeError:
                continue
            runs[_key(run["grid"], run["list"], run["seed"])] = run
    return runs


def _run(grid: str, lst: str, seed: int, limit: float) -> dict:
    """One child's outcome, with its grid, list and seed."""
    cmd = [sys.executable, str(HERE / "bench_crossword.py"), "--child", grid, LISTS[lst],
           str(limit), "auto", str(seed) if seed else "none"]
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        raise SystemExit(f"{grid} {lst} seed {seed}: child failed:\n{proc.stderr[-2000:]}")
    out = json.loads(proc.stdout.strip().splitlines()[-1])
    if out["status"] == "filled" and not out.get("checked"):
        raise SystemExit(f"{grid} {lst} seed {seed}: the checker refused the fill: {out}")
    out.pop("fill", None)
    return {"grid": grid, "list": lst, "seed": seed, "limit": limit,
            "at": time.strftime("%Y-%m-%d %H:%M"), **out}


def _fmt(x: float) -> str:
    return "  >lim" if x == float("inf") else f"{x:6.2f}"


def report(runs: dict[str, dict], grids: list[str], lists: list[str], seeds: int,
           clock: str = "cpu") -> bool:
    """Print a line per grid and list and the whole distribution (``clock``: ``cpu`` or
    ``wall`` seconds); True when every complete grid and list meets the targets."""
    print(f"# per grid and list: {clock} seconds of {seeds} runs (default search, seeds "
          f"1..{seeds - 1}); target median <= {MEDIAN_TARGET:g} s, slowest <= "
          f"{SLOWEST_TARGET:g} s, or proved impossible")
    all_met = True
    every: dict[str, list[float]] = {lst: [] for lst in lists}
    missed = []
    for lst in lists:
        for grid in grids:
            got = [runs[k] for s in range(seeds) if (k := _key(grid, lst, s)) in runs]
            if not got:
                continue
            costs = sorted(decided_seconds(r, clock) for r in got)
            every[lst] += costs
            statuses = "/".join(sorted({r["status"] for r in got}))
            proved = all(r["status"] == "no_fill" for r in got
                         if decided_seconds(r, clock) < float("inf"))
            med, slowest = statistics.median(costs), costs[-1]
            met = med <= MEDIAN_TARGET and slowest <= SLOWEST_TARGET
            complete = len(got) == seeds
            if complete and not met:
                all_met = False
                missed.append(f"{grid}/{lst}")
            flag = ("MET " if met else "MISS") if complete else f"{len(got)}/{seeds}"
            print(f"{grid:12s} {lst:8s} {flag} median {_fmt(med)} slowest {_fmt(slowest)}  "
                  f"[{statuses}{'; none exists' if proved and 'no_fill' in statuses else ''}]"
                  f"  {' '.join(_fmt(c).strip() for c in costs)}")
    print("# the whole distribution per list (every run of every grid)")
    for lst, costs in every.items():
        if not costs:
            continue
        costs.sort()
        n = len(costs)

        def q(p: float, costs: list[float] = costs, n: int = n) -> str:
            return _fmt(costs[min(n - 1, int(p * n))]).strip()

        undecided = sum(c == float("inf") for c in costs)
        print(f"{lst:8s} runs {n:4d}  p50 {q(0.5)}  p75 {q(0.75)}  p90 {q(0.9)}  "
              f"p95 {q(0.95)}  max {_fmt(costs[-1]).strip()}  over 30 s "
              f"{sum(c > SLOWEST_TARGET for c in costs)}  undecided {undecided}")
    if missed:
        print("# missed: " + ", ".join(missed))
    return all_met


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, required=True, help="JSON-lines file of the runs")
    ap.add_argument("--lists", nargs="*", default=list(LISTS), choices=list(LISTS))
    ap.add_argument("--grids", nargs="*", default=None,
                    help="american15 and/or layout numbers (default: all)")
    ap.add_argument("--seeds", type=int, default=8, help="runs per grid and list (default 8)")
    ap.add_argument("--limit", type=float, default=60.0,
                    help="time budget of a fill, wall seconds (default 60)")
    ap.add_argument("--jobs", type=int, default=1, help="children at once (default 1)")
    ap.add_argument("--report", action="store_true", help="only print the file's table")
    ap.add_argument("--clock", choices=("cpu", "wall"), default="cpu",
                    help="the seconds the table reads (default cpu)")
    ap.add_argument("--rerun", action="store_true", help="run again the runs in the file")
    args = ap.parse_args()
    grids = _grids(args.grids)
    runs = _done(args.out)
    if not args.report:
        todo = [(g, lst, s) for lst in args.lists for g in grids for s in range(args.seeds)
                if args.rerun or _key(g, lst, s) not in runs]
        print(f"# {time.strftime('%Y-%m-%d %H:%M')}, {os.cpu_count()} cores, load "
              f"{os.getloadavg()[0]:.1f}: {len(todo)} runs to do, limit {args.limit:g} s, "
              f"{args.jobs} at once", flush=True)
        # the first fill after an edit compiles the engine: not in a figure
        subprocess.run([sys.executable, str(HERE / "bench_crossword.py"), "--child", "sq3",
                        "en", "600", "csp", "none"], capture_output=True, check=True)
        lock = threading.Lock()

        def one(job: tuple[str, str, int]) -> None:
            run = _run(*job, limit=args.limit)
            with lock, args.out.open("a", encoding="utf-8") as f:
                f.write(json.dumps(run) + "\n")
                runs[_key(*job)] = run
            print(f"{job[0]:12s} {job[1]:8s} seed {job[2]}: {run['status']:8s} "
                  f"cpu {run['cpu']:6.2f} wall {run['wall']:6.2f}", flush=True)

        with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
            list(pool.map(one, todo))
    report(runs, grids, args.lists, args.seeds, args.clock)


if __name__ == "__main__":
    main()
