"""Time ``--cross 3`` (crossword systems from a list) on growing lists of Cryptator's words.

    python scripts/bench_crossgen.py [--sizes 9 10 11 12 13 14] [--runs N]

The list of size K is the first K distinct words of the crossword systems in the sample of
Cryptator's collection (tests/data/cryptator, BSD-3), in order of appearance.  For each K
prints the crosswords found, the words placed, the median CPU seconds of ``--runs`` runs
(the kernels loaded first), and how many of the collection's crosswords whose nine words
are all in the list the search found (it must find every one of them: each is unique).
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import time

from benchkit import ROOT

SAMPLES = [ROOT / "tests" / "data" / "cryptator" / name for name in ("sample.txt", "larger.txt")]


def systems() -> list[str]:
    """The crossword systems of the samples, in file order."""
    out = []
    for path in SAMPLES:
        for line in path.read_text(encoding="utf-8").splitlines():
            text = line.split("\t")[-1]
            if "&&" in text and "'" not in text and text.count("&&") == 5:
                out.append(text)
    return out


def words_of(found: list[str], k: int) -> list[str]:
    """The first ``k`` distinct words of the systems."""
    words: list[str] = []
    for text in found:
        for w in re.findall(r"\w+", text):
            if w not in words:
                words.append(w)
    return words[:k]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[9, 10, 11, 12, 13, 14])
    parser.add_argument("--runs", type=int, default=3)
    opts = parser.parse_args()
    from cryptocomp.cryptarithm.crossgen import cross_generation

    texts = systems()
    list(cross_generation(words_of(texts, 9), 3))   # the kernels loaded or compiled
    print(f"load average {os.getloadavg()[0]:.2f}; median CPU seconds of {opts.runs} runs")
    for k in opts.sizes:
        words = words_of(texts, k)
        seconds = []
        for _ in range(opts.runs):
            start = time.process_time()
            generation = cross_generation(words, 3)
            found = [c.text for c in generation]
            seconds.append(time.process_time() - start)
        theirs = [t for t in texts if set(re.findall(r"\w+", t)) <= set(words)]
        ours = {frozenset(t.split(" && ")) for t in found}
        hit = sum(frozenset(t.split(" && ")) in ours for t in theirs)
        print(f"{k} words: {len(found)} crosswords, {generation.candidates:,} words placed, "
              f"{statistics.median(seconds):.2f} s; the collection's {len(theirs)} of these "
              f"words: {hit} found", flush=True)


if __name__ == "__main__":
    main()
