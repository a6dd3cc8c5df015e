"""Figures of the crossword filler (issue 9), side by side with Qxw (``qxw -b``).

Each fill runs in a fresh child process (``--child``), which loads the index,
fills, checks the fill with the independent checker and prints one JSON line:
outcome, CPU seconds (the process and its SAT child; index loading excluded),
wall seconds, steps, peak resident memory, and the mean and largest frequency
rank of the fill's words (rank 1 = the most frequent word of the list; words of equal
count share the mean of their ranks, :func:`ranks`).  Qxw
runs on the same grid and the same list (its deck lists the slots' cells, its
dictionary the list's words; ``.UNIQUE 1``: no word twice), under the same time
limit; its fills are checked the same way, and each line ends with the ratio of our
median CPU to Qxw's (measured in the same run; Qxw's includes its start-up and reading
the list, ours excludes loading the index).  ingrid_core is not run: building it
needs crates.io, which these machines do not reach (the issue quotes its figures).

The word lists come from ``scripts/wordlists.py`` (default directory
``freqdicts/bench/``); the seed-000 layouts from ``scripts/seed000_layouts.py``.
Usage::

    python scripts/wordlists.py                       # once
    nice python scripts/bench_crossword.py            # the main figures
    nice python scripts/bench_crossword.py --only wn15 sq6-wn --runs 5
    nice python scripts/bench_crossword.py --layouts  # English top 100k on every seed-000 layout
    nice python scripts/bench_crossword.py --no-peers # ours only

Medians are over ``--runs`` runs: the default search and seeds 1, 2, ... (a seed
changes tie-breaks and the restarts' randomness, so the median shows how much a
figure owes to luck; the slowest run is printed too).  A run that ends on its
budget counts as slower than any other.  Figures with a time limit over 120 s run
once, unseeded.
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

from benchkit import LISTS, cpu_seconds, decided_seconds, grid_of, layouts, peak_mb, ranks

QXW = Path("/usr/games/qxw")
QXW_LIMIT = 120  # seconds Qxw gets at most (the figures' own limits where lower)

# name: (grid, word list, time limit, target seconds or None for "fill or proof")
# grid: "american15", "sqN", or "seed000-NN"; list: a file of LISTS, or "en" / "ru" (the
# shipped wordfreq dictionaries, top 100,000)
FIGURES = {
    "wn15": ("american15", "wordnet.txt", 60, 10),
    "en50k15": ("american15", "en50k.txt", 120, 60),
    "ru100k15": ("american15", "ru100k.txt", 240, 120),
    "en15": ("american15", "en", 60, 2),
    "ru15": ("american15", "ru", 120, 10),
    "sq6-wn": ("sq6", "wordnet.txt", 30, 2),
    "sq6-en50k": ("sq6", "en50k.txt", 30, 2),
    "sq6-ru": ("sq6", "ru100k.txt", 30, 2),
    "sq6-ru-yo": ("sq6", "ru100k-yo.txt", 30, 2),
    "sq7-en": ("sq7", "en-all.txt", 120, 35),
    "sq7-wn": ("sq7", "wordnet.txt", 600, None),
    "sq7-ru": ("sq7", "ru100k.txt", 600, None),
}
MAIN = ["wn15", "en50k15", "ru100k15", "en15", "ru15", "sq6-wn", "sq6-en50k", "sq6-ru",
        "sq6-ru-yo", "sq7-en", "sq7-wn", "sq7-ru"]


def _lexicon(spec: str):
    from cryptocomp import WordFilter, load_index
    from cryptocomp.crossword import Lexicon

    if spec in ("en", "ru"):
        return Lexicon(load_index(spec), WordFilter(top=100_000))
    return Lexicon(load_index(str(LISTS / spec)))


def child(grid_spec: str, list_spec: str, limit: float, engine: str, seed: int | None) -> None:
    """Fill one figure in this process and print its JSON line."""
    from cryptocomp.crossword import fill
    from cryptocomp.crossword.check import fill_problems

    grid = grid_of(grid_spec)
    lex = _lexicon(list_spec)
    cpu0, t0 = cpu_seconds(), time.perf_counter()
    result = fill(grid, lex, engine=engine, seconds=limit, seed=seed)
    wall, cpu = time.perf_counter() - t0, cpu_seconds() - cpu0
    out = {"status": result.status, "cpu": round(cpu, 2), "wall": round(wall, 2),
           "steps": result.steps, "engine": result.engine, "message": result.message,
           "peak_mb": peak_mb()}
    if result.filled:
        problems = fill_problems(grid, lex, result.words)
        out["checked"] = not problems
        out["rank_mean"], out["rank_max"] = ranks(lex, result.words)
        out["fill"] = result.words
    print(json.dumps(out))


def _ours(name: str, runs: int, engine: str) -> dict:
    grid_spec, list_spec, limit, _ = FIGURES[name]
    outs = []
    for k in range(1 if limit > 120 else runs):
        cmd = [sys.executable, __file__, "--child", grid_spec, list_spec, str(limit), engine,
               str(k) if k else "none"]
        proc = subprocess.run(cmd, capture_output=True, text=True)
        if proc.returncode != 0:
            raise SystemExit(f"{name}: child failed:\n{proc.stderr[-2000:]}")
        outs.append(json.loads(proc.stdout.strip().splitlines()[-1]))
    for o in outs:
        if o["status"] == "filled" and not o.get("checked"):
            raise SystemExit(f"{name}: the checker refused our fill: {o}")
    best = dict(outs[0])
    best["cpu"] = statistics.median(decided_seconds(o, "cpu") for o in outs)
    best["wall"] = statistics.median(decided_seconds(o, "wall") for o in outs)
    best["slowest"] = max(decided_seconds(o, "cpu") for o in outs)
    best["runs"] = len(outs)
    best["statuses"] = sorted({o["status"] for o in outs})
    return best


def _qxw(name: str, cap: float = QXW_LIMIT) -> dict | None:
    """Run Qxw in batch mode on the figure (None when Qxw is not installed)."""
    if not QXW.exists():
        return None
    from cryptocomp.crossword.check import fill_problems

    grid_spec, list_spec, limit, _ = FIGURES[name]
    grid = grid_of(grid_spec)
    lex = _lexicon(list_spec)
    cell_id = {}
    for slot in grid.slots:
        for cell in slot.cells:
            cell_id.setdefault(cell, len(cell_id))
    deck = [".UNIQUE 1"] + [" ".join(f"{cell_id[c]:03d}" for c in slot.cells)
                            for slot in grid.slots]
    words = [w for w in lex.index.words[:lex.kept]
             if lex.min_length <= len(w) <= lex.max_length]
    cyrillic = any("а" <= ch <= "я" for ch in words[0])
    with tempfile.TemporaryDirectory() as tmp:
        (Path(tmp) / "deck.qxd").write_text("\n".join(deck) + "\n", encoding="utf-8")
        (Path(tmp) / "words.txt").write_text("\n".join(words) + "\n", encoding="utf-8")
        cmd = [str(QXW), "-b"] + (["-a", "RU"] if cyrillic else []) + [
            "-d", str(Path(tmp) / "words.txt"), str(Path(tmp) / "deck.qxd")]
        cpu0, t0 = cpu_seconds(), time.perf_counter()
        try:
            proc = subprocess.run(cmd, capture_output=True, text=True, timeout=min(limit, cap))
            out = proc.stdout
            status = "filled" if "W0 " in out else "no_fill"
        except subprocess.TimeoutExpired:
            out, status = "", "budget"
        wall, cpu = time.perf_counter() - t0, cpu_seconds() - cpu0
    res = {"status": status, "cpu": round(cpu, 2), "wall": round(wall, 2)}
    if status == "filled":
        fill = [line.split()[1].lower() for line in out.splitlines() if line.startswith("W")]
        res["checked"] = not fill_problems(grid, lex, fill)
        res["rank_mean"], res["rank_max"] = ranks(lex, fill)
    return res


def _fmt(o: dict | None) -> str:
    if o is None:
        return "-"
    s = f"{o['status']:7s} cpu {o['cpu']:7.2f} s wall {o['wall']:7.2f} s"
    if "rank_mean" in o:
        s += f"  rank mean {o['rank_mean']:>8.0f} max {o['rank_max']:>6d}"
        if not o.get("checked", True):
            s += " (checker: INVALID)"
    return s


def _ratio(ours: dict, peer: dict | None) -> str:
    """Our median CPU over Qxw's, measured in the same run, when both decided."""
    if peer is None:
        return ""
    if peer["status"] not in ("filled", "no_fill"):
        return "  ratio: Qxw undecided"
    if ours["cpu"] == float("inf"):
        return "  ratio: ours undecided"
    return f"  ratio ours/qxw {ours['cpu'] / max(peer['cpu'], 0.01):.2f}"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--only", nargs="*", default=None, help="figure names (default: the main ones)")
    ap.add_argument("--runs", type=int, default=3,
                    help="runs per figure, the default search then seeds 1, 2, ... (default 3)")
    ap.add_argument("--engine", default="auto", choices=("auto", "csp", "sat"))
    ap.add_argument("--layouts", action="store_true",
                    help="English top 100k on every layout that fits seed 000's numbering")
    ap.add_argument("--no-peers", action="store_true", help="skip Qxw")
    ap.add_argument("--qxw-limit", type=float, default=QXW_LIMIT,
                    help=f"seconds Qxw gets at most (default {QXW_LIMIT})")
    ap.add_argument("--child", nargs=5, metavar=("GRID", "LIST", "LIMIT", "ENGINE", "SEED"),
                    help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        grid_spec, list_spec, limit, engine, seed = args.child
        child(grid_spec, list_spec, float(limit), engine, None if seed == "none" else int(seed))
        return
    names = args.only or MAIN
    if args.layouts:
        for k in range(1, len(layouts()) + 1):
            # target: a fill, or the proof that none exists, in 60 s
            FIGURES[f"seed000-{k:02d}"] = (f"seed000-{k:02d}", "en", 120, -60)
        names = [n for n in FIGURES if n.startswith("seed000-")]
    # the first fill after an edit of the engine compiles it (about 30 s): not in a figure.
    # A square runs the rows search (a 3x3 one fills in its first turn, before the word
    # lane's search ever runs), a blocked grid the propagating searches: both compile
    for warm in ("sq3", "american15"):
        subprocess.run([sys.executable, __file__, "--child", warm, "en", "600", "csp", "none"],
                       capture_output=True, check=True)
    runs = (f"median of {args.runs} runs, the default search and seeds 1..{args.runs - 1}, "
            f"where the limit is 120 s or less; a run out of budget counts as infinite"
            if args.runs > 1 else "one run, the default search")
    print(f"# {time.strftime('%Y-%m-%d %H:%M')}, {os.cpu_count()} cores; CPU and wall seconds "
          f"({runs})")
    for name in names:
        grid_spec, list_spec, limit, target = FIGURES[name]
        ours = _ours(name, args.runs, args.engine)
        peer = None if args.no_peers else _qxw(name, args.qxw_limit)
        if target is None:
            goal, met = "fill or proof", ours["status"] in ("filled", "no_fill")
        elif target < 0:
            goal = f"decided <= {-target} s"
            met = ours["cpu"] <= -target  # the median run decided (budget runs are infinite)
        else:
            goal = f"<= {target} s"
            met = ours["cpu"] <= target and "no_fill" not in ours["statuses"]
        print(f"{name:11s} {list_spec:13s} target {goal:13s} {'MET ' if met else 'MISS'} "
              f"ours: {_fmt(ours)} slowest {ours['slowest']:.2f} s steps {ours['steps']} "
              f"peak {ours['peak_mb']} MB "
              f"[{ours['engine']}; {'/'.join(ours['statuses'])}]  qxw: {_fmt(peer)}"
              f"{_ratio(ours, peer)}")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
