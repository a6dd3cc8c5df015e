#!/usr/bin/env python3
"""Benchmark the composer's word-class default (issue 26): today's tree beside another.

Composing with the default (dictionary words only) must stay within 5 % of composing
without classes.  Until the class sources land, the shipped en index is unclassified, so
each tree composes on a *classified copy* of it: every word ``dictionary`` but a random
tenth ``unknown`` (:func:`cryptocomp.index.classes.given_classes`), so that the class
intersection is really paid.  A tree without the defaults composes with no class
restriction (every word); a tree with them intersects the admitted words.

    python scripts/bench_word_classes.py --tree BEFORE=/tmp/old-tree --tree AFTER=.

Each tree runs in its own process (``PYTHONPATH``), rounds alternating between trees; a
figure is the median over rounds of each round's median of ``--runs`` timed calls (CPU
seconds of the query: the machine is shared).  In each process the default also alternates,
call by call, with every class admitted (no intersection: today's path); on a shared
machine their ratio ("in-proc", of the last tree) is the steadier figure.  The trees must
read the same index format: the index of ``--lang`` is built once, in the CRYPTOCOMP_HOME
of the run.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

QUERIES = ["send+more", "?-more=money", "send+more=m????", "give+take", "wait+more"]


def _child(lang: str, runs: int, share: float, seed: int) -> None:
    """In the tree on PYTHONPATH: time each query on the classified copy; print JSON."""
    import random

    from cryptocomp import load_index
    from cryptocomp.cryptarithm.compose import compose
    from cryptocomp.index.classes import WordClasses, given_classes
    from cryptocomp.index.index import Index
    from cryptocomp.index.wordfilter import ALL_WORDS, WordFilter

    plain = load_index(lang)
    rng = random.Random(seed)
    facts = {w: [] if rng.random() < share else ["dictionary"] for w in plain.words}
    idx = Index(plain.words, plain.counts, name=f"{lang}-classified", params=plain.params,
                classify=given_classes(facts))
    every = WordFilter(classes=WordClasses.parse("all,offensive"))  # no class restriction
    out = {}
    for query in QUERIES:
        results = compose(query, idx)  # the first runs build the word tables
        compose(query, idx, every)
        cpu: dict[str, list[float]] = {"cpu": [], "every": []}
        for _ in range(runs):  # the two alternate, so that the machine's load hits both
            for key, words in (("cpu", ALL_WORDS), ("every", every)):
                c = time.process_time()
                compose(query, idx, words)
                cpu[key].append(time.process_time() - c)
        out[query] = {"cpu": statistics.median(cpu["cpu"]),
                      "every": statistics.median(cpu["every"]), "results": len(results)}
    print(json.dumps(out))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--tree", action="append", default=[], metavar="NAME=PATH",
                    help="a source tree to time (repeatable)")
    ap.add_argument("--lang", default="en")
    ap.add_argument("--runs", type=int, default=7, help="timed calls a query and round")
    ap.add_argument("--rounds", type=int, default=3, help="rounds, alternating the trees")
    ap.add_argument("--share", type=float, default=0.1, help="share of words made unknown")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        _child(args.lang, args.runs, args.share, args.seed)
        return 0
    if not args.tree:
        ap.error("give the trees to time: --tree NAME=PATH (repeatable)")
    trees = [tuple(t.split("=", 1)) for t in args.tree]
    print(f"compose on a classified copy of {args.lang} ({args.share:.0%} unknown): "
          f"{os.cpu_count()} cores, load {os.getloadavg()[0]:.2f}, {args.rounds} rounds x "
          f"median of {args.runs} runs, CPU s", flush=True)
    got: dict[str, list[dict]] = {name: [] for name, _ in trees}
    for _ in range(args.rounds):
        for name, path in trees:
            env = {**os.environ, "PYTHONPATH": str(Path(path).resolve())}
            done = subprocess.run([sys.executable, __file__, "--child", "--lang", args.lang,
                                   "--runs", str(args.runs), "--share", str(args.share),
                                   "--seed", str(args.seed)],
                                  env=env, check=True, capture_output=True, text=True)
            got[name].append(json.loads(done.stdout.splitlines()[-1]))
    names = [name for name, _ in trees]
    print("default: compose with no WordFilter (a tree with the defaults admits dictionary "
          "words only); every: the same with every class admitted, no intersection, "
          "alternating with it in the same process")
    print(f"{'query':<18}" + "".join(f" {n + ' default':>15} {'every':>7} {'words':>6}"
                                     for n in names)
          + (f" {'ratio':>6} {'in-proc':>7}" if len(names) == 2 else ""))
    for query in QUERIES:
        line, medians, inproc = f"{query:<18}", [], 0.0
        for name in names:
            cpu = statistics.median(r[query]["cpu"] for r in got[name])
            every = statistics.median(r[query]["every"] for r in got[name])
            medians.append(cpu)
            inproc = cpu / every
            line += f" {cpu:>14.3f}s {every:>6.3f}s {got[name][-1][query]['results']:>6}"
        if len(names) == 2:  # ratio: the second tree's default over the first's
            line += f" {medians[1] / medians[0]:>6.3f} {inproc:>7.3f}"
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
