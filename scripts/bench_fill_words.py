"""First-fill times with the fillers' word options (issue 26): default rules, the lemma
rule on an index that knows lemmas, and ``--max-shared-substring 4``.

Each fill runs in a fresh child process (``--child``) that loads the index, fills once
(seeded), checks the fill with the independent checker under the same rules, and prints
one JSON line; the parent prints the median wall seconds over ``--runs`` seeds (a run
that ends on its budget counts as slower than any other).  Figures:

* ``en15``: the shipped American 15x15 grid on the English dictionary (all its words, as
  ``cryptocomp fill american15``); ``sq5``, ``sq6``: double word squares likewise;
* mode ``default``: the default rules (the lemma rule is on, but an unclassified index
  has no lemma groups); ``lemmas``: the English top 100,000 indexed with lemma groups
  from a plain suffix rule (a word ending in s, es, ed, ing, er, ly whose stem is a word
  is a form of that stem), default rules; ``lemmas-off``: the same index with
  ``same_lemma`` allowed (the rule's cost is the difference); ``shared4``: default rules
  and ``max_shared=4``.

``--before DIR`` runs each figure on another checkout too (``git archive 4d9437d
cryptocomp | tar -x -C DIR``), one run of each after the other, so that the load of a
shared machine weighs on both alike; a checkout without :mod:`cryptocomp.crossword.rules`
fills every mode plainly (no lemma rule, no shared-run rule).  Usage::

    nice python scripts/bench_fill_words.py --runs 5 --before /tmp/before
    nice python scripts/bench_fill_words.py --only en15 --modes default shared4
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time

from benchkit import decided_seconds, grid_of

FIGURES = {"en15": "american15", "sq5": "sq5", "sq6": "sq6"}
MODES = ("default", "lemmas", "lemmas-off", "shared4")
LIMIT = 60.0  # seconds a fill gets
LEMMA_TOP = 100_000
_SUFFIXES = ("s", "es", "ed", "ing", "er", "ly")


def _has_rules() -> bool:
    try:
        import cryptocomp.crossword.rules  # noqa: F401
    except ImportError:
        return False
    return True


def _lemma_index():
    """The English top LEMMA_TOP words, indexed with lemma groups of the suffix rule."""
    from cryptocomp import load_index
    from cryptocomp.index.index import Index

    try:
        from cryptocomp.index.classes import given_classes
    except ImportError:  # pragma: no cover - an old checkout
        raise SystemExit("this checkout's index has no lemma groups") from None
    en = load_index("en")
    words = en.words[:LEMMA_TOP]
    counts = {w: int(en.counts[i]) for i, w in enumerate(words)}
    lemmas = {}
    for w in words:
        for suffix in _SUFFIXES:
            stem = w[:-len(suffix)]
            if w.endswith(suffix) and len(stem) >= 3 and stem in counts:
                lemmas[w] = stem
                break
    classes = {w: ["dictionary"] for w in words}
    return Index.from_counts(counts, name="en-lemmas",
                             classify=given_classes(classes, lemmas=lemmas)), len(lemmas)


def child(figure: str, mode: str, seed: int) -> None:
    """Fill one figure in this process and print its JSON line."""
    from cryptocomp import load_index
    from cryptocomp.crossword import Lexicon, fill
    from cryptocomp.crossword.check import fill_problems
    from cryptocomp.crossword.csp import load_engine

    load_engine()  # compiled code loaded (or compiled) before the clock starts
    grid = grid_of(FIGURES[figure])
    forms = 0
    if mode.startswith("lemmas"):
        index, forms = _lemma_index()
    else:
        index = load_index("en")
    lex = Lexicon(index)
    options: dict = {}
    check: dict = {}
    if _has_rules():
        from cryptocomp.crossword.rules import FillRules

        rules = FillRules(max_shared=4 if mode == "shared4" else None,
                          same_lemma=mode == "lemmas-off")
        options["rules"] = rules
        groups = None if rules.same_lemma else index.lemma_groups()
        if groups is not None:
            check["lemma_of"] = {w: int(groups[i]) for i, w in enumerate(index.words)}
        check["max_shared"] = rules.max_shared
    t0 = time.perf_counter()
    result = fill(grid, lex, seconds=LIMIT, seed=seed, **options)
    wall = time.perf_counter() - t0
    out = {"status": result.status, "wall": round(wall, 3), "steps": result.steps,
           "engine": result.engine, "forms": forms}
    if result.filled:
        out["problems"] = fill_problems(grid, lex, result.words, **check)
    print(json.dumps(out))


def _figure(figure: str, mode: str, runs: int, trees: list[str | None]) -> list[dict]:
    """The figure's runs on each checkout of ``trees`` (None: the one this script imports),
    interleaved run by run so that the machine's load weighs on all alike."""
    outs: list[list[dict]] = [[] for _ in trees]
    for k in range(runs):
        for t, tree in enumerate(trees):
            env = dict(os.environ)
            if tree is not None:
                env["PYTHONPATH"] = tree
            proc = subprocess.run([sys.executable, __file__, "--child", figure, mode, str(k)],
                                  capture_output=True, text=True, env=env)
            if proc.returncode != 0:
                raise SystemExit(f"{figure}/{mode}: child failed:\n{proc.stderr[-2000:]}")
            outs[t].append(json.loads(proc.stdout.strip().splitlines()[-1]))
    figures = []
    for runs_of in outs:
        for o in runs_of:
            if o.get("problems"):
                raise SystemExit(f"{figure}/{mode}: the checker refused the fill: {o}")
        walls = [decided_seconds(o, "wall") for o in runs_of]
        figures.append({"median": statistics.median(walls), "slowest": max(walls),
                        "statuses": sorted({o["status"] for o in runs_of}),
                        "forms": runs_of[0]["forms"]})
    return figures


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--only", nargs="*", default=list(FIGURES), choices=list(FIGURES))
    ap.add_argument("--modes", nargs="*", default=None, choices=MODES)
    ap.add_argument("--runs", type=int, default=5, help="runs (seeds 0, 1, ...) per figure")
    ap.add_argument("--before", nargs="*", default=[], metavar="DIR",
                    help="other checkouts to run each figure on too, run by run (their "
                         "directory as PYTHONPATH: a checkout without the word rules runs "
                         "every mode with its plain fill)")
    ap.add_argument("--child", nargs=3, metavar=("FIGURE", "MODE", "SEED"))
    args = ap.parse_args()
    if args.child:
        figure, mode, seed = args.child
        child(figure, mode, int(seed))
        return
    modes = args.modes or (list(MODES) if _has_rules() else ["default"])
    trees: list[str | None] = [None, *args.before]
    for figure in args.only:
        for mode in modes:
            for tree, o in zip(trees, _figure(figure, mode, args.runs, trees)):
                extra = f", {o['forms']:,} forms with a lemma" if o["forms"] else ""
                print(f"{figure:5s} {mode:10s} {tree or 'this checkout':24s} median "
                      f"{o['median']:7.3f} s  slowest {o['slowest']:7.3f} s  ({args.runs} "
                      f"runs: {', '.join(o['statuses'])}{extra})", flush=True)


if __name__ == "__main__":
    main()
