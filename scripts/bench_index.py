#!/usr/bin/env python3
"""Figures for the dictionary index (issues 2, 12 and 13): build, file, load, memory, queries.

    nice python scripts/bench_index.py [--lang ru] [--runs 5] [--first-use] [--sets]

Every build and load runs in a fresh subprocess (memory and caches are honest); medians
of ``--runs`` runs, wall and CPU seconds (the machine is shared: CPU is the steadier).

* build: ``build_index`` from the exported dictionary: CPU, wall, peak RSS;
  ``--first-use`` adds the first use of a language in an empty CRYPTOCOMP_HOME (wordfreq
  export + build, issue 12 item 11: peak RSS < 500 MB);
* file: the size of the format-2 file, and of the same index in format 1 (reconstructed:
  one pickle of FrozenBitMap families, as cryptocomp 0.1 wrote it; target <= 2x);
* load: ``load_index`` (header and meta; the other sections are read on first use), and
  reading and checking every section, with RSS;
* queries (median of 200 after a warm-up, all matching words materialised): a template
  (<= 2 ms), a prefix and a suffix (<= 5 ms), an infix ``*ёж*`` (<= 50 ms), and the one-off
  cost of the sorted word lists behind prefixes and suffixes.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import textwrap

_CHILD = textwrap.dedent("""
    import json, os, pickle, resource, statistics, sys, time
    mode, spec = sys.argv[1], sys.argv[2]
    queries = json.loads(sys.argv[3])
    out = {}
    def peak_mb():
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    def rss_mb():
        with open("/proc/self/status") as fh:
            return next(int(l.split()[1]) for l in fh if l.startswith("VmRSS:")) / 1024
    from cryptocomp.index.store import build_index, load_index, resolve_source
    if mode in ("build", "first-use"):
        t, c = time.perf_counter(), time.process_time()
        index, path = build_index(spec)
        out.update(wall=time.perf_counter() - t, cpu=time.process_time() - c,
                   peak_mb=peak_mb(), size=path.stat().st_size, words=len(index))
    elif mode == "format1":
        from pyroaring import FrozenBitMap
        index = load_index(spec)
        state = {"state_version": 1, "name": index.name, "params": index.params,
                 "alphabet": index.alphabet, "words": "\\n".join(index.words),
                 "counts": index.counts.tobytes()}
        for key in ("by_length", "by_pattern", "at", "having", "at_least"):
            family = index._stored.family(key)
            state[key] = {k: FrozenBitMap(family[k]) for k in family}
        out["size"] = len(pickle.dumps(state, protocol=5)) + 17 + 4 + 400 + 32
    elif mode == "load":
        t, c = time.perf_counter(), time.process_time()
        index = load_index(spec)
        out.update(load_wall=time.perf_counter() - t, load_cpu=time.process_time() - c,
                   load_rss=rss_mb())
        t, c = time.perf_counter(), time.process_time()
        index.load_all()
        out.update(all_wall=time.perf_counter() - t, all_cpu=time.process_time() - c,
                   all_rss=rss_mb())
        for reverse in (False, True):
            t = time.perf_counter()
            index.word_order(reverse=reverse)
            out[f"order_{int(reverse)}_s"] = time.perf_counter() - t
        for name, query in queries.items():
            index.match(query).words()
            times = []
            for _ in range(200):
                t = time.perf_counter()
                words = index.match(query).words()
                times.append(time.perf_counter() - t)
            out[name] = (statistics.median(times) * 1e3, len(words))
        out["words"] = len(index)
    elif mode == "sets":
        from collections import defaultdict
        from cryptocomp.index.freqdict import load_freqdict
        fd = load_freqdict(resolve_source(spec).path)
        t = time.perf_counter()
        pat, pos, let = defaultdict(set), defaultdict(set), defaultdict(set)
        for w in fd.counts:
            seen = {}
            pat[tuple(seen.setdefault(c, len(seen)) for c in w)].add(w)
            for i, c in enumerate(w):
                pos[(i, c)].add(w)
                let[c].add(w)
        out.update(sets_build_s=time.perf_counter() - t, sets_peak_mb=peak_mb())
    print(json.dumps(out))
""")

QUERIES = {
    "ru": {"template": "?р??а", "prefix": "пере*", "suffix": "*ость", "infix": "*ёж*",
           "mixed": "п?р*ть"},
    "en": {"template": "s??d", "prefix": "con*", "suffix": "*tion", "infix": "*oo*",
           "mixed": "c?n*s"},
}
TARGETS = {"template": 2, "prefix": 5, "suffix": 5, "infix": 50, "mixed": None}


def _child(mode: str, spec: str, queries: dict, env: dict | None = None) -> dict:
    done = subprocess.run([sys.executable, "-c", _CHILD, mode, spec, json.dumps(queries)],
                          capture_output=True, text=True, env=env)
    if done.returncode:
        sys.exit(f"benchmark child failed:\n{done.stderr}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--lang", default="ru")
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--first-use", action="store_true",
                    help="also time one first use (export + build) in an empty home")
    ap.add_argument("--sets", action="store_true", help="also time the plain-sets baseline once")
    args = ap.parse_args()
    queries = QUERIES.get(args.lang, QUERIES["en"])
    med = statistics.median
    loads = [_child("load", args.lang, queries) for _ in range(args.runs)]  # builds if needed
    builds = [_child("build", args.lang, queries) for _ in range(args.runs)]
    old = _child("format1", args.lang, queries)
    size = builds[-1]["size"]
    print(f"dictionary {args.lang}: {loads[0]['words']:,} words; medians of {args.runs} runs "
          f"(load average {os.getloadavg()[0]:.1f})")
    print(f"  build          {med(b['cpu'] for b in builds):6.2f} s CPU  "
          f"{med(b['wall'] for b in builds):6.2f} s wall  peak RSS "
          f"{med(b['peak_mb'] for b in builds):5.0f} MB  (target <= 500 MB)")
    if args.first_use:
        with tempfile.TemporaryDirectory() as home:
            first = _child("first-use", args.lang, queries, dict(os.environ, CRYPTOCOMP_HOME=home))
        print(f"  first use      {first['cpu']:6.2f} s CPU  {first['wall']:6.2f} s wall  peak RSS "
              f"{first['peak_mb']:5.0f} MB  (wordfreq export + build; target < 500 MB)")
    print(f"  file           {size / 1e6:6.1f} MB format 2; format 1 of the same index "
          f"{old['size'] / 1e6:.1f} MB; ratio {size / old['size']:.2f} (target <= 2)")
    print(f"  load           {med(r['load_cpu'] for r in loads) * 1e3:6.1f} ms CPU  "
          f"{med(r['load_wall'] for r in loads) * 1e3:6.1f} ms wall  RSS "
          f"{med(r['load_rss'] for r in loads):4.0f} MB  (header and meta; sections on use)")
    print(f"  all sections   {med(r['all_cpu'] for r in loads) * 1e3:6.1f} ms CPU  "
          f"{med(r['all_wall'] for r in loads) * 1e3:6.1f} ms wall  RSS "
          f"{med(r['all_rss'] for r in loads):4.0f} MB  (read, checksummed, checked)")
    print(f"  sorted lists   {med(r['order_0_s'] for r in loads):6.2f} s forward, "
          f"{med(r['order_1_s'] for r in loads):.2f} s reversed (once a process, on first use)")
    for name, query in queries.items():
        ms = med(r[name][0] for r in loads)
        target = TARGETS[name]
        print(f"  {name:<8} {query!r:<10} {ms:8.3f} ms  {loads[0][name][1]:>6,} words"
              + (f"  (target <= {target} ms)" if target else ""))
    if args.sets:
        s = _child("sets", args.lang, queries)
        print(f"  plain-sets baseline (3 indexes): build {s['sets_build_s']:.2f} s, "
              f"peak RSS {s['sets_peak_mb']:.0f} MB")


if __name__ == "__main__":
    main()
