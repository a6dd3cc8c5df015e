#!/usr/bin/env python3
"""Arrow-word clue ambiguity (issue 26): how many answers each printed clue could mean.

Makes a batch of English arrow-word puzzles with the shipped WordNet clues through the
public API (:func:`cryptocomp.arrowword`, the same call on every tree since issue 10) and
measures each printed clue's *ambiguity*: the number of other words of the clue table, of
the same length as the answer, that carry the same clue (case and an "(abbr.)" mark
ignored), counted here by a plain scan of the table, independently of the library.

Tables: ``own`` is the tree's shipped clue file; ``--reference FILE`` adds a second count
against another compact clue file (version 1 or 2; e.g. the newer, fuller table, so two
trees are measured against the same words and clues).  *Breadth* is the number of words of
any length carrying the clue (``Bush``: a couple of hundred shrubs); a clue is counted
vague here when its ambiguity is over 3 or its breadth over 20.

Printed: median, 90th percentile (nearest rank), mean and the vague share of the
ambiguity over every clue of the batch; 20 placed words drawn at random (seeded) with
their clues; with ``--show WORDS`` the clue the tree's chooser gives each of those words
(its best clue, nothing printed before; ``--no-batch``: only that); and what Russian has (its
clue source).

Usage: nice python scripts/bench_clues.py [--count 20] [--size 10x10] [--seed 1]
       [--reference FILE] [--show kt,in,beta,ti] [--no-batch]
"""

from __future__ import annotations

import argparse
import gzip
import math
import random
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

from cryptocomp import arrowword
from cryptocomp.arrow.clues import WORDNET_PATH, load_clues

_MARK = " (abbr.)"


def key(clue: str) -> str:
    """A printed clue as a solver compares it: the abbreviation mark and case ignored."""
    text = clue[:-len(_MARK)] if clue.endswith(_MARK) else clue
    return " ".join(text.split()).casefold()


def read_table(path: Path) -> dict[str, set[str]]:
    """word -> its clue keys, from a compact clue file (version 1 or 2), read plainly."""
    data = path.read_bytes()
    if data[:2] == b"\x1f\x8b":
        data = gzip.decompress(data)
    lines = data.decode("utf-8").splitlines()
    head = lines[0].split("\t")
    assert head[0] == "cryptocomp-clues" and head[1] in ("1", "2"), head[:2]
    out = {}
    for line in lines[1:]:
        parts = line.split("\t")
        if len(parts) < 3:
            continue
        clues = parts[2:] if head[1] == "1" else [c[2:] for c in parts[2:]]
        out[parts[0]] = {key(c) for c in clues}
    return out


def ambiguity(table: dict[str, set[str]], word: str, clue: str) -> int:
    """Other words of ``table`` as long as ``word`` carrying ``clue``: a plain scan."""
    k = key(clue)
    return sum(1 for w, keys in table.items() if w != word and len(w) == len(word)
               and k in keys)


def counts(table: dict[str, set[str]]) -> tuple[Counter, Counter]:
    """(length, clue key) -> words carrying it, and clue key -> words of any length."""
    by_length: Counter = Counter()
    anywhere: Counter = Counter()
    for w, keys in table.items():
        for k in keys:
            by_length[(len(w), k)] += 1
            anywhere[k] += 1
    return by_length, anywhere


def summary(values: list[int]) -> str:
    got = sorted(values)
    p90 = got[math.ceil(0.9 * len(got)) - 1]
    return (f"median {statistics.median(got):g}, p90 {p90}, mean {statistics.fmean(got):.2f}, "
            f"ambiguity 0: {sum(v == 0 for v in got) / len(got):.0%}")


def show(words: str, table: dict[str, set[str]]) -> int:
    """Print the tree's best clue of each of the comma-separated ``words``."""
    book = load_clues("wordnet")
    print("best clue of given words:")
    for word in (w for w in words.split(",") if w):
        clue = book.pick(word) if word in book else None
        amb = ambiguity(table, word, clue) if clue else "-"
        print(f"  {word.upper():<9} {clue}  [{amb}]")
    return 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--count", type=int, default=20)
    ap.add_argument("--size", default="10x10")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--reference", type=Path, help="a second clue table to count against")
    ap.add_argument("--show", default="kt,in,beta,ti", help="words whose best clue to print")
    ap.add_argument("--no-batch", action="store_true", help="only the best clues of --show")
    args = ap.parse_args()
    if args.no_batch:
        return show(args.show, read_table(WORDNET_PATH))
    start = time.process_time()
    result = arrowword(args.size, source="en", count=args.count, seed=args.seed,
                       phrases="none", workers=1)
    cpu = time.process_time() - start
    placed = [(w.word, w.clue) for p in result.puzzles for w in p.words if w.clue is not None]
    print(f"{len(result.puzzles)} puzzles {args.size} (seed {args.seed}), {len(placed)} clues, "
          f"{cpu:.1f} s CPU")
    tables = {"own": read_table(WORDNET_PATH)}
    if args.reference:
        tables["reference"] = read_table(args.reference)
    for name, table in tables.items():
        by_length, anywhere = counts(table)
        ambs, vague = [], 0
        for word, clue in placed:
            amb = by_length[(len(word), key(clue))] - (key(clue) in table.get(word, set()))
            ambs.append(amb)
            vague += amb > 3 or anywhere[key(clue)] > 20
        print(f"ambiguity ({name} table, {len(table):,} words): {summary(ambs)}, "
              f"vague {vague / len(placed):.0%}")
    # the library's own figure, where the tree reports one
    reported = [w.ambiguity for p in result.puzzles for w in p.words
                if getattr(w, "ambiguity", None) is not None]
    if reported:
        print(f"ambiguity reported by the library: {summary(reported)}")
    rng = random.Random(f"bench-clues:{args.seed}")
    print("20 placed words at random:")
    for word, clue in rng.sample(placed, min(20, len(placed))):
        print(f"  {word.upper():<9} {clue}  [{ambiguity(tables['own'], word, clue)}]")
    show(args.show, tables["own"])
    from cryptocomp.arrow.generator import ArrowParams, workshop

    ru = workshop(ArrowParams(10, 10, source="ru", phrases="none"))
    print(f"Russian: {len(ru.index):,} usable words, clues: "
          f"{ru.clues.source if ru.clues else 'none (no shipped Russian clue source)'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
