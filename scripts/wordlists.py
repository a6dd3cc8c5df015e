"""Build the word lists of the crossword figures (issue 9) as ``word count`` files.

Lists (each a freqdict, format 1, most frequent first; ties alphabetical):

* ``wordnet.txt``  WordNet 3.0 single-word lemmas of a-z only, 2-15 letters, from
  the Debian package ``wordnet-base`` (``/usr/share/wordnet/index.{noun,verb,adj,adv}``,
  format wndb(5WN)); a lemma's count is its number of senses (``synset_cnt``
  summed over the parts of speech).
* ``en50k.txt``    wordfreq English ("large"): words of a-z only, 2-15 letters,
  the 50,000 most frequent; counts per billion words.
* ``ru100k.txt``   wordfreq Russian: ё folded into е (counts merged), words of
  а-я only, 2-15 letters, the 100,000 most frequent.
* ``ru100k-yo.txt`` the same without folding (words of а-я and ё), for the squares.
* ``en-all.txt``   every wordfreq English word of a-z only, 2-15 letters (the 7x7 square).

These are benchmark inputs, not shipped data.  Usage::

    python scripts/wordlists.py [--out DIR]      # default: freqdicts/bench/
"""

from __future__ import annotations

import argparse
import re
from pathlib import Path

WORDNET = Path("/usr/share/wordnet")
OUT = Path(__file__).resolve().parent.parent / "freqdicts" / "bench"
_SCALE = 1e9


def wordnet_counts(root: Path = WORDNET) -> dict[str, int]:
    """Single-word a-z lemmas (2-15 letters) -> number of senses over all parts of speech."""
    counts: dict[str, int] = {}
    ok = re.compile(r"^[a-z]{2,15}$")
    for pos in ("noun", "verb", "adj", "adv"):
        with open(root / f"index.{pos}", encoding="utf-8") as fh:
            for line in fh:
                if line.startswith("  "):
                    continue  # the licence header
                fields = line.split()
                lemma, synset_cnt = fields[0], int(fields[2])
                if ok.match(lemma):
                    counts[lemma] = counts.get(lemma, 0) + synset_cnt
    return counts


def wordfreq_counts(lang: str, pattern: str, fold_yo: bool = False) -> dict[str, int]:
    """wordfreq's list for ``lang`` as integer counts per billion, words matching ``pattern``."""
    import unicodedata

    import wordfreq

    wordlist = "large" if lang in wordfreq.available_languages("large") else "best"
    ok = re.compile(pattern)
    counts: dict[str, int] = {}
    for word, freq in wordfreq.get_frequency_dict(lang, wordlist).items():
        word = unicodedata.normalize("NFC", word).lower()
        if fold_yo:
            word = word.replace("ё", "е")
        if ok.match(word):
            counts[word] = counts.get(word, 0) + max(1, round(freq * _SCALE))
    return counts


def write(path: Path, counts: dict[str, int], top: int | None = None) -> int:
    """Write ``counts`` most frequent first (the first ``top``); return how many were written."""
    ordered = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))[:top]
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp")
    tmp.write_text("".join(f"{w} {c}\n" for w, c in ordered), encoding="utf-8")
    tmp.replace(path)
    return len(ordered)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, default=OUT, help=f"output directory (default {OUT})")
    args = ap.parse_args()
    en = wordfreq_counts("en", r"^[a-z]{2,15}$")
    lists = {
        "wordnet.txt": (wordnet_counts(), None),
        "en50k.txt": (en, 50_000),
        "en-all.txt": (en, None),
        "ru100k.txt": (wordfreq_counts("ru", r"^[а-я]{2,15}$", fold_yo=True), 100_000),
        "ru100k-yo.txt": (wordfreq_counts("ru", r"^[а-яё]{2,15}$"), 100_000),
    }
    for name, (counts, top) in lists.items():
        n = write(args.out / name, counts, top)
        print(f"{args.out / name}: {n} words")


if __name__ == "__main__":
    main()
