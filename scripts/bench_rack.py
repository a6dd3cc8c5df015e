"""Figures for issue 6: rack queries and the whole-bag optimum on ENABLE.

    python scripts/bench_rack.py [--racks N] [--repeat R] [--no-bag] [--bag-limit SECONDS]
                                 [--bag-runs N] [--no-racks]

Rack: random racks drawn from the English bag (fixed seed), the index loaded beforehand;
for each shape the median over racks of the median of R runs, in CPU milliseconds (targets:
<= 5 ms for 7 tiles, <= 50 ms for 15 tiles with 2 blanks): the solve (ranked ids and
scores), then what `cryptocomp rack --json` adds: every Play built, and the JSON text of
every play (issue 12, item 13: the solve and the plays <= 20 ms for 15 tiles).  The first
query of a solver also builds its letter-count matrix; that one-off cost is printed apart.
Bag: best_bag('en', ENABLE) with its setup, and whether the optimum was proved (target
<= 60 s); each of N runs with its wall and CPU seconds and node count, then the medians (the
machine is shared: CPU time and nodes are the steadier figures).
"""

from __future__ import annotations

import argparse
import contextlib
import io
import random
import statistics
import time

from cryptocomp import load_index
from cryptocomp.cli.options import print_json
from cryptocomp.cli.rack import enable_path
from cryptocomp.tiles.bag import best_bag
from cryptocomp.tiles.rack import RackSolver
from cryptocomp.tiles.tiles import tileset

SHAPES = [(7, 0), (7, 1), (7, 2), (15, 0), (15, 2)]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--racks", type=int, default=30)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--no-bag", action="store_true")
    ap.add_argument("--bag-limit", type=float, default=600.0)
    ap.add_argument("--bag-runs", type=int, default=3)
    ap.add_argument("--no-racks", action="store_true")
    args = ap.parse_args()

    t = time.perf_counter()
    index = load_index(enable_path())
    print(f"ENABLE index: {len(index)} words, loaded in {time.perf_counter() - t:.2f} s")
    en = tileset("en")
    solver = RackSolver(en, index)
    t = time.perf_counter()
    solver.solve("retinas")
    print(f"first query (builds the letter-count matrix once): "
          f"{(time.perf_counter() - t) * 1000:.1f} ms")
    bag = [f for f, n in en.counts.items() for _ in range(n)]
    rng = random.Random(6)
    print(f"{'rack':>14} {'solve ms':>9} {'p90':>7} {'max':>7} {'+plays ms':>10} "
          f"{'+json ms':>9} {'words':>7}   (medians; CPU time)")
    for tiles, blanks in [] if args.no_racks else SHAPES:
        per_rack, built, encoded, sizes = [], [], [], []
        for _ in range(args.racks):
            rack = "".join(rng.sample(bag, tiles - blanks)) + "?" * blanks
            runs, builds, jsons = [], [], []
            for _ in range(args.repeat):
                t = time.process_time()
                plays = solver.solve(rack)
                t1 = time.process_time()
                every = list(plays)
                t2 = time.process_time()
                _json_text(every)
                t3 = time.process_time()
                runs.append(t1 - t)
                builds.append(t2 - t1)
                jsons.append(t3 - t2)
            per_rack.append(statistics.median(runs) * 1000)
            built.append(statistics.median(builds) * 1000)
            encoded.append(statistics.median(jsons) * 1000)
            sizes.append(len(plays))
        per_rack.sort()
        print(f"{f'{tiles} tiles, {blanks} ?':>14} {statistics.median(per_rack):>9.2f} "
              f"{per_rack[int(0.9 * (len(per_rack) - 1))]:>7.2f} {per_rack[-1]:>7.2f} "
              f"{statistics.median(built):>10.2f} {statistics.median(encoded):>9.2f} "
              f"{statistics.median(sizes):>7.0f}")
    if args.no_bag:
        return 0
    walls, cpus = [], []
    for run in range(args.bag_runs):
        t, c = time.perf_counter(), time.process_time()
        result = best_bag(en, index, time_limit=args.bag_limit)
        walls.append(time.perf_counter() - t)
        cpus.append(time.process_time() - c)
        print(f"bag run {run + 1}: total {result.total}, "
              f"{'proved optimal' if result.proved else 'NOT proved'} in {walls[-1]:.1f} s wall, "
              f"{cpus[-1]:.1f} s CPU ({result.seconds:.1f} s search, {result.nodes} nodes, "
              f"{result.stats['candidates']} candidates)", flush=True)
    print(f"bag: median {statistics.median(walls):.1f} s wall, {statistics.median(cpus):.1f} s "
          f"CPU over {len(walls)} runs (target <= 60 s)")
    for w in result.words:
        print(f"  {w.display():<16} {w.score}")
    return 0


def _json_text(plays) -> str:
    """The text `cryptocomp rack --json` prints for these plays."""
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        print_json([p.to_json() for p in plays])
    return buf.getvalue()


if __name__ == "__main__":
    raise SystemExit(main())
