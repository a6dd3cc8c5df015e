"""Figures of fill improvement (``fill(..., improve=S)``, ``--improve S``): the rarest word of
the first fill and of the improved one.

Each run is a fresh child process (``--child``) that loads the list, fills the grid with
``improve`` S seconds (none for S = 0: the first fill alone), checks the fill with the
independent checker and prints one JSON line: outcome, CPU seconds (index loading
excluded), peak memory, the rarest word before and after with its count and rank, the fill's mean
rank (words of equal count share the mean of their ranks, as in
``bench_crossword.py``), the tries and whether the result is proved the best there is.
Lists: ``en`` and ``ru`` are the shipped dictionaries whole (the CLI's default), the
others files of ``freqdicts/bench/`` (``scripts/wordlists.py``).  Usage::

    nice python scripts/bench_improve.py                   # S = 0, 1, 3, 10
    nice python scripts/bench_improve.py --seconds 0 2 --only sq6-en
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time

from benchkit import LISTS, cpu_seconds, grid_of, peak_mb, ranks

# name: (grid: "american15" or "sqN", list)
FIGURES = {
    "sq5-en": ("sq5", "en"),
    "sq6-en": ("sq6", "en"),
    "sq6-ru": ("sq6", "ru"),
    "sq6-en50k": ("sq6", "en50k.txt"),
    "sq6-ru100k": ("sq6", "ru100k.txt"),
    "american15-en": ("american15", "en"),
    "american15-ru": ("american15", "ru"),
    "american15-en50k": ("american15", "en50k.txt"),
}


def child(grid_spec: str, list_spec: str, seconds: float) -> None:
    """Fill one figure in this process and print its JSON line."""
    from cryptocomp import load_index
    from cryptocomp.crossword import Lexicon, fill
    from cryptocomp.crossword.check import fill_problems
    from cryptocomp.crossword.improvement import rarest

    grid = grid_of(grid_spec)
    index = load_index(list_spec if list_spec in ("en", "ru") else str(LISTS / list_spec))
    lex = Lexicon(index)
    cpu0 = cpu_seconds()
    result = fill(grid, lex, improve=seconds or None)
    out: dict = {"status": result.status, "cpu": round(cpu_seconds() - cpu0, 2),
                 "peak_mb": peak_mb()}
    if result.filled:
        out["checked"] = not fill_problems(grid, lex, result.words)
        word, count = rarest(lex, result.words)
        out["rarest"] = [word, count, index.id_of(word) + 1]
        out["rank_mean"], out["rank_max"] = ranks(lex, result.words)
        imp = result.improvement
        if imp is not None:
            first = imp.before[0]
            out["first"] = [first, imp.before[1], index.id_of(first) + 1]
            out["tries"], out["optimal"] = imp.tries, imp.optimal
        out["fill"] = result.words
    print(json.dumps(out, ensure_ascii=False))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--only", nargs="*", default=None, help="figure names (default: all)")
    ap.add_argument("--seconds", nargs="*", type=float, default=[0, 1, 3, 10],
                    help="improvement seconds, 0 for the first fill alone (default 0 1 3 10)")
    ap.add_argument("--child", nargs=3, metavar=("GRID", "LIST", "SECONDS"),
                    help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        child(args.child[0], args.child[1], float(args.child[2]))
        return
    print(f"# {time.strftime('%Y-%m-%d %H:%M')}, CPU seconds of one fill (index loading "
          f"excluded); rarest word: count, rank; ranks of equal counts averaged")
    for name in args.only or list(FIGURES):
        grid_spec, list_spec = FIGURES[name]
        for seconds in args.seconds:
            cmd = [sys.executable, __file__, "--child", grid_spec, list_spec, str(seconds)]
            proc = subprocess.run(cmd, capture_output=True, text=True)
            if proc.returncode != 0:
                raise SystemExit(f"{name}: child failed:\n{proc.stderr[-2000:]}")
            o = json.loads(proc.stdout.strip().splitlines()[-1])
            line = (f"{name:17s} improve {seconds:4g} s: {o['status']:7s} cpu {o['cpu']:6.2f} s "
                    f"peak {o['peak_mb']} MB")
            if o["status"] == "filled":
                if not o["checked"]:
                    raise SystemExit(f"{name}: the checker refused the fill: {o}")
                w, c, r = o["rarest"]
                line += (f"  rarest {w!r} count {c:,} rank {r:,}  rank mean "
                         f"{o['rank_mean']:,.0f}")
                if "first" in o:
                    w0, c0, r0 = o["first"]
                    line += (f"  (first fill: {w0!r} count {c0:,} rank {r0:,}; {o['tries']} "
                             f"tries{', proved best' if o['optimal'] else ''})")
            print(line, flush=True)


if __name__ == "__main__":
    main()
