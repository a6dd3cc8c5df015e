#!/usr/bin/env python3
"""Figures for the dictionary index (issue 2): build, load, memory, template query.

    python scripts/bench_index.py [--lang ru] [--runs 5]

Build and load each run in a fresh subprocess (so memory and caches are honest);
prints medians.  The baseline for scale is a plain Python-sets version of three
of the indexes (the seed's), measured in the same run with --sets.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import textwrap

_CHILD = textwrap.dedent("""
    import json, resource, sys, time, gc
    from cryptocomp.index.store import build_index, load_index, resolve_source, _ensure_freqdict
    from cryptocomp.index.freqdict import load_freqdict
    mode, spec, query = sys.argv[1], sys.argv[2], sys.argv[3]
    out = {}
    if mode == "build":
        src = resolve_source(spec)
        _ensure_freqdict(src, None)
        t = time.perf_counter()
        index, path = build_index(spec)
        out["build_s"] = time.perf_counter() - t
    elif mode == "load":
        t = time.perf_counter()
        index = load_index(spec)
        out["load_s"] = time.perf_counter() - t
        gc.collect()
        with open("/proc/self/status") as fh:
            for line in fh:
                if line.startswith("VmRSS:"):
                    out["rss_mb"] = int(line.split()[1]) / 1024
        times = []
        for _ in range(200):
            t = time.perf_counter()
            m = index.match(query)
            words = m.words()
            times.append(time.perf_counter() - t)
        times.sort()
        out["query_ms"] = times[len(times) // 2] * 1e3
        out["query_results"] = len(words)
        out["words"] = len(index)
    elif mode == "sets":
        from collections import defaultdict
        fd = load_freqdict(resolve_source(spec).path)
        t = time.perf_counter()
        pat, pos, let = defaultdict(set), defaultdict(set), defaultdict(set)
        for w in fd.counts:
            seen = {}
            pat[tuple(seen.setdefault(c, len(seen)) for c in w)].add(w)
            for i, c in enumerate(w):
                pos[(i, c)].add(w)
                let[c].add(w)
        out["sets_build_s"] = time.perf_counter() - t
        out["sets_maxrss_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(json.dumps(out))
""")


def _child(mode: str, spec: str, query: str) -> dict:
    done = subprocess.run([sys.executable, "-c", _CHILD, mode, spec, query],
                          capture_output=True, text=True, check=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--lang", default="ru")
    ap.add_argument("--query", default="?р??а")
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--sets", action="store_true", help="also time the plain-sets baseline once")
    args = ap.parse_args()
    builds = [_child("build", args.lang, args.query)["build_s"] for _ in range(args.runs)]
    loads = [_child("load", args.lang, args.query) for _ in range(args.runs)]
    med = statistics.median
    print(f"dictionary {args.lang}: {loads[0]['words']} words, query {args.query!r} "
          f"-> {loads[0]['query_results']} words; medians of {args.runs} runs")
    print(f"  build            {med(builds):7.2f} s   (target <= 20 s)   runs: "
          + " ".join(f"{b:.2f}" for b in builds))
    print(f"  load             {med([r['load_s'] for r in loads]):7.2f} s   (target <= 1 s)")
    print(f"  resident memory  {med([r['rss_mb'] for r in loads]):7.0f} MB  (target <= 300 MB)")
    print(f"  template query   {med([r['query_ms'] for r in loads]):7.3f} ms  (target <= 2 ms; "
          "median of 200 queries, all matching words materialised)")
    if args.sets:
        s = _child("sets", args.lang, args.query)
        print(f"  plain-sets baseline (3 indexes): build {s['sets_build_s']:.2f} s, "
              f"max RSS {s['sets_maxrss_mb']:.0f} MB; ratio build {s['sets_build_s'] / med(builds):.2f}x")


if __name__ == "__main__":
    main()
