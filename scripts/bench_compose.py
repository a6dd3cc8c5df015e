#!/usr/bin/env python3
"""Benchmark the composer and solver; optionally side by side with the seed baseline.

Figures (issue 3): with the index loaded, ``send+more`` on en <= 0.3 s; a 10-distinct-
letter query on the full ru dictionary (``отправь+срочно``) <= 1 s median; results
identical to the baseline's (same words, same solutions); the 199-addend exercism
puzzle solved with an exact count in <= 0.3 s.  Issue 13: templates for the composed
word (``send+more=m????``) narrow the work (compare with the same query without); the
same queries as whole
processes, ``cryptocomp compose EXPR --lang LANG`` with the index built (``отправь+срочно``
<= 0.5 s wall), next to the in-process figures ("cli" columns: median wall and CPU
seconds of the child process, output to /dev/null).

    python scripts/bench_compose.py                 # ours only: medians of --runs runs
    python scripts/bench_compose.py --baseline      # also the baseline (minutes a query);
                                                    # its outputs are cached in --cache
    python scripts/bench_compose.py --baseline --rerun   # ignore the cache

The baseline (``../shared/baselines/seed_cryptarithm.py``) runs on the very freqdict file
our index was built from (``freqdicts/<lang>.txt``); its unique lines
``query=word,digits=value`` are compared with ours line by line, in order.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

from benchkit import ROOT

from cryptocomp import load_index
from cryptocomp.cryptarithm.compose import compose
from cryptocomp.cryptarithm.solve import solve

BASELINE = ROOT.parent / "shared" / "baselines" / "seed_cryptarithm.py"
QUERIES = [("en", "send+more"), ("ru", "отправь+срочно"), ("ru", "вышли-еще"),
           ("ru", "хабр*хабр"), ("ru", "пошли*много"), ("en", "?-more=money"),
           # issue 13: a template for the word narrows the candidates before the join
           ("en", "send+more=m????"), ("ru", "отправь+срочно=с??????"),
           ("ru", "хабр*хабр=[п*]")]
EXERCISM = ROOT / "tests" / "data" / "alphametics_exercism.json"


def _median_time(fn, runs: int) -> tuple[float, float, float, object]:
    """(median wall, min wall, median CPU seconds, last result) over ``runs`` calls."""
    times, cpu, result = [], [], None
    for _ in range(runs):
        t, c = time.perf_counter(), time.process_time()
        result = fn()
        times.append(time.perf_counter() - t)
        cpu.append(time.process_time() - c)
    return statistics.median(times), min(times), statistics.median(cpu), result


def _command() -> list[str]:
    """The installed ``cryptocomp`` command beside this Python, else ``python -m``."""
    script = Path(sys.executable).parent / "cryptocomp"
    return [str(script)] if script.exists() else [sys.executable, "-m", "cryptocomp"]


def _cli_times(lang: str, query: str, runs: int) -> tuple[float, float]:
    """(median wall, median CPU seconds) of ``cryptocomp compose QUERY --lang LANG`` as a
    whole process (start-up, imports, index loading, query, output)."""
    import resource

    walls, cpus = [], []
    for _ in range(runs):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        t = time.perf_counter()
        done = subprocess.run(_command() + ["compose", query, "--lang", lang],
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        if done.returncode not in (0, 1):  # 1: ran to the end, no puzzle (README's table)
            raise SystemExit(f"compose {query} --lang {lang}: exit status "
                             f"{done.returncode}: {done.stderr.strip()}")
        walls.append(time.perf_counter() - t)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpus.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    return statistics.median(walls), statistics.median(cpus)


def _baseline(lang: str, query: str, cache: Path, rerun: bool) -> dict:
    """The baseline's stats JSON for a query, from the cache when its inputs are unchanged."""
    dict_path = ROOT / "freqdicts" / f"{lang}.txt"
    stamp = hashlib.sha256(f"{dict_path.stat().st_size}:{dict_path.stat().st_mtime_ns}:"
                           f"{BASELINE.stat().st_mtime_ns}".encode()).hexdigest()[:12]
    out = cache / f"{lang}_{hashlib.sha256(query.encode()).hexdigest()[:10]}_{stamp}.json"
    if rerun or not out.exists():
        cache.mkdir(parents=True, exist_ok=True)
        print(f"  running the baseline on {query} ({lang}); this takes minutes ...", flush=True)
        subprocess.run([sys.executable, str(BASELINE), str(dict_path), query, "--quiet",
                        "--stats", str(out)], check=True, stderr=subprocess.DEVNULL)
    return json.loads(out.read_text(encoding="utf-8"))


def _crosscheck(n: int, seed: int, cache: Path) -> int:
    """Random small queries, ours vs the baseline on the same 20,000-word file: mismatches."""
    import random

    from cryptocomp import Index

    rng = random.Random(seed)
    bad = total = 0
    for lang in ("en", "ru"):
        small = cache / f"{lang}-top20000.txt"
        cache.mkdir(parents=True, exist_ok=True)
        with open(ROOT / "freqdicts" / f"{lang}.txt", encoding="utf-8") as src:
            lines = [next(src) for _ in range(20000)]
        small.write_text("".join(lines), encoding="utf-8")
        counts: dict[str, int] = {}
        for line in lines:
            word, count = line.split()
            counts.setdefault(word.lower(), int(count))
        index = Index.from_counts(counts)
        short = [w for w in counts if 2 <= len(w) <= 4][:300]
        done = 0
        while done < n:
            a, b = rng.sample(short, 2)
            if len(set(a + b)) > 6:  # keeps the baseline to seconds a query
                continue
            query = f"{a}{rng.choice('+-*')}{b}"
            done += 1
            ours = [f"{r.puzzle},{r.solution}" for r in compose(query, index)]
            out = cache / "crosscheck.json"
            subprocess.run([sys.executable, str(BASELINE), str(small), query, "--quiet",
                            "--stats", str(out)], check=True, stderr=subprocess.DEVNULL)
            same = ours == json.loads(out.read_text(encoding="utf-8"))["unique_lines"]
            bad += not same
            total += 1
            if not same:
                print(f"  crosscheck {lang} {query}: DIFFERENT from the baseline")
    print(f"crosscheck: {total - bad}/{total} random queries identical to the baseline "
          f"(top 20,000 words of en and ru, seed {seed})")
    return bad


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--runs", type=int, default=7, help="timed runs per query (median)")
    ap.add_argument("--baseline", action="store_true", help="also run/compare the baseline")
    ap.add_argument("--rerun", action="store_true", help="rerun the baseline, ignore the cache")
    ap.add_argument("--cache", type=Path, default=Path(os.environ.get("TMPDIR", "/tmp"))
                    / "cryptocomp-baseline", help="where baseline outputs are cached")
    ap.add_argument("--crosscheck", type=int, default=0, metavar="N",
                    help="also compare N random small queries (a+b, a-b, a*b over short "
                         "words) per language with the baseline on the top 20,000 words")
    ap.add_argument("--seed", type=int, default=1, help="random seed for --crosscheck")
    ap.add_argument("--no-cli", action="store_true", help="skip the whole-process timings")
    ap.add_argument("--query", action="append", metavar="LANG:EXPR",
                    help="benchmark this query instead (repeatable), e.g. ru:вышли-еще")
    args = ap.parse_args()
    queries = [tuple(q.split(":", 1)) for q in args.query] if args.query else QUERIES

    print(f"cryptocomp compose/solve benchmark: {os.cpu_count()} cores, load "
          f"{os.getloadavg()[0]:.2f}, median of {args.runs} runs (wall; cpu = process time, "
          f"which other processes on a busy machine do not inflate)")
    indexes = {}
    for lang in sorted({lang for lang, _ in queries}):
        t = time.perf_counter()
        indexes[lang] = load_index(lang)
        print(f"index {lang}: {len(indexes[lang])} words, loaded in "
              f"{time.perf_counter() - t:.2f} s")
    header = (f"{'query':<24} {'lang':<4} {'first':>7} {'median':>7} {'min':>7} {'cpu':>7} "
              f"{'words':>6}" + ("" if args.no_cli else f" {'cli wall':>8} {'cli cpu':>8}")
              + (f" {'base wall':>9} {'base cpu':>9} {'ratio cpu':>9}  identical"
                 if args.baseline else ""))
    print(header)
    failures = 0
    for lang, query in queries:
        index = indexes[lang]
        t = time.perf_counter()
        compose(query, index)  # first run: builds the per-index word tables, permutation tables
        first = time.perf_counter() - t
        median, best, cpu, results = _median_time(lambda q=query, i=index: compose(q, i),
                                                  args.runs)
        line = (f"{query:<24} {lang:<4} {first:>6.3f}s {median:>6.3f}s {best:>6.3f}s "
                f"{cpu:>6.3f}s {len(results):>6}")
        if not args.no_cli:
            cli_wall, cli_cpu = _cli_times(lang, query, args.runs)
            line += f" {cli_wall:>7.3f}s {cli_cpu:>7.3f}s"
        if args.baseline and "?" not in query and "[" not in query:  # LEFT=? only
            stats = _baseline(lang, query, args.cache, args.rerun)
            ours = [f"{r.puzzle},{r.solution}" for r in results]
            same = ours == stats["unique_lines"]
            failures += not same
            wall, base_cpu = stats["query_seconds"], stats["query_cpu_seconds"]
            line += (f" {wall:>8.1f}s {base_cpu:>8.1f}s {base_cpu / cpu:>8.0f}x  "
                     f"{'yes' if same else 'NO'}")
        print(line, flush=True)

    if args.crosscheck:
        failures += _crosscheck(args.crosscheck, args.seed, args.cache)

    cases = json.loads(EXERCISM.read_text(encoding="utf-8"))["cases"]
    big = cases[-1]["puzzle"]
    t = time.perf_counter()
    solved = solve(big)
    first = time.perf_counter() - t
    median, best, cpu, solved = _median_time(lambda: solve(big), args.runs)
    print(f"solve 199-addend exercism puzzle: first {first:.3f} s, median {median:.3f} s, "
          f"min {best:.3f} s, cpu {cpu:.3f} s, count {solved.count}")
    wrong = 0
    for case in cases:
        s = solve(case["puzzle"])
        want = case["expected"]
        ok = (s.count == 0) if want is None else \
            (s.count == 1 and s.solutions[0] == {k.lower(): v for k, v in want.items()})
        wrong += not ok
    print(f"exercism alphametics: {len(cases) - wrong}/{len(cases)} cases right")
    return 1 if failures or wrong else 0


if __name__ == "__main__":
    sys.exit(main())
