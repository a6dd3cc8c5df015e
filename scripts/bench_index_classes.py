#!/usr/bin/env python3
"""What word classes cost an index build, and what they say of the words the issue names.

For each language (default en and ru: the exported wordfreq lists under
``$CRYPTOCOMP_HOME/freqdicts``), builds the index twice from the same counts, without
classes (as before issue 26) and with its class source (:mod:`cryptocomp.index.wordsources`),
saves both to a temporary folder and prints the CPU seconds of each build (CPU time, not
wall time: the machine is shared), the file sizes, their ratios, the word count of each
class, and the classes of the spot-check words.

Usage: python scripts/bench_index_classes.py [--lang en --lang ru] [--repeat N]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

from cryptocomp.index import Index
from cryptocomp.index.classes import CLASS_NAMES
from cryptocomp.index.freqdict import load_freqdict
from cryptocomp.index.store import resolve_source, save_index
from cryptocomp.index.wordsources import classifier

SPOT = {
    "en": ["monet", "morey", "edson", "ansys", "takei", "mlas", "iiie", "atl", "sts", "pcms",
           "contai", "paris", "rose", "kt"],
    "ru": ["саратов", "ростова", "тарасов", "сантоса", "гандон", "шлюха", "роза", "ёлка", "сша"],
}


def build(counts: dict, lang: str, classified: bool, out: Path) -> tuple[float, int, Index]:
    """(CPU seconds of one build, its file size, the index)."""
    classify = classifier(lang, None) if classified else None
    start = time.process_time()
    index = Index.from_counts(counts, name=lang, params={"lang": lang, "fold_yo": False},
                              classify=classify)
    seconds = time.process_time() - start
    path = out / f"{lang}-{'classes' if classified else 'plain'}.ccidx"
    save_index(index, path)
    return seconds, path.stat().st_size, index


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--lang", action="append", choices=sorted(SPOT))
    ap.add_argument("--repeat", type=int, default=1, help="builds of each kind (best kept)")
    args = ap.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        for lang in args.lang or ["en", "ru"]:
            counts = load_freqdict(resolve_source(lang).path).counts
            rows = {}
            for classified in (False, True):
                best = min((build(counts, lang, classified, Path(tmp))
                            for _ in range(args.repeat)), key=lambda r: r[0])
                rows[classified] = best
            (s0, z0, _), (s1, z1, idx) = rows[False], rows[True]
            idx._check()
            print(f"{lang}: {len(idx):,} words; build {s0:.1f} -> {s1:.1f} CPU s "
                  f"({s1 / s0:.2f}x); file {z0 / 1e6:.1f} -> {z1 / 1e6:.1f} MB ({z1 / z0:.2f}x)")
            print(f"  source: {idx.class_source}")
            print("  classes: " + ", ".join(f"{n} {len(idx.in_class(n)):,}" for n in CLASS_NAMES))
            for word in SPOT[lang]:
                i = idx.id_of(word)
                said = "not in the list" if i is None else ", ".join(idx.classes_of(i))
                print(f"  {word}: {said}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
