#!/usr/bin/env python3
"""Build the shipped English clue file from WordNet 3.0 (Debian's ``wordnet-base``).

Reads the ``index.*`` and ``data.*`` files of a WordNet 3.0 database (format
``wndb(5WN)``; default ``/usr/share/wordnet``) and writes
``cryptocomp/data/clues/wordnet-en.tsv.gz`` in the compact clue format of
:mod:`cryptocomp.arrow.clues` (version 2)::

    cryptocomp-clues<TAB>2<TAB>wordnet-3.0
    word<TAB>senses<TAB>K:clue<TAB>K:clue...

``K`` says what kind of clue it is (the puzzle's clue chooser weighs it with the clue's
ambiguity): ``s`` a synonym that is itself a common word, ``p`` another synonym (a phrase or
a rare word), ``g`` a gloss fragment, ``h`` a hypernym; upper case when the clue comes from
a sense in which the word is an abbreviation (printed marked "(abbr.)").

Which words: lemmas of one word, letters a-z only, 2 to 15 letters, with at
least one sense written in lower case (senses spelt with capitals are proper
names and abbreviations: "Paris", "AB").  ``senses`` counts those lower-case
senses over all parts of speech.

Which clues, best first (arrow-word clues are short; several candidates a word, so the
chooser can take the one fewest other answers share):

1. up to :data:`MAX_SYNONYMS` synonyms sharing no stem with the answer (see ``shares_stem``
   in ``cryptocomp.arrow.clues``): the other lower-case lemmas of the word's synsets
   and the lemmas of the hypernyms of its two commonest senses ("canine" for dog),
   ranked by the synonym's own frequency (wordfreq's Zipf value) less 3 a sense
   rank, less 0.3 for a hypernym and 0.5 for a phrase; a single word of Zipf
   :data:`COMMON_ZIPF` or more is a common synonym (kind ``s``);
2. up to :data:`MAX_GLOSSES` gloss fragments, shortest first: the first definition of each
   of the first :data:`GLOSS_SENSES` senses (a gloss split at ``;``, examples in quotes
   dropped, parenthesised asides removed when that leaves something; the later parts of a
   gloss tell facts about the thing, "occurs in many breeds", and are used only for a word
   with no other clue).

A sense is an abbreviation sense when the word (4 letters at most) has no vowel (``kt``,
``tv``), or when a longer single-word lemma listed before it in the same synset (WordNet
lists the full form first: *karat, carat, kt*) begins with the word's first letter and has
the word's letters in order, and the word is a unit's (WordNet's ``noun.quantity``: ``in``
of *inch*) or has no vowel but ``y`` (``yd`` of *yard*; ``het`` of *heated* is a word).

Usage: python scripts/build_wordnet_clues.py [--wordnet DIR] [--out FILE]
"""

from __future__ import annotations

import argparse
import gzip
import io
import os
import re
import sys
from pathlib import Path

from benchkit import ROOT

from cryptocomp.arrow.clues import CLUE_MAGIC, CLUE_VERSION, clue_contains
from cryptocomp.index.classdata import read_offensive

POS = ("noun", "verb", "adj", "adv")
_WORD = re.compile(r"^[a-z]{2,15}$")
_MARKER = re.compile(r"\((a|p|ip)\)$")
_PAREN = re.compile(r"\s*\([^()]*\)")
_ARTICLE = re.compile(r"^(a|an|the) ", re.I)
_CUT = re.compile(r",| that | which | who | whose | where | used | especially ")
_DANGLING = frozenset(["a", "an", "the", "to", "of", "and", "or", "in", "for", "with", "by",
                       "at", "from", "on", "as", "into", "than"])
_POS_OF = {"n": "noun", "v": "verb", "a": "adj", "s": "adj", "r": "adv"}
# usage-domain synsets (data.noun offsets) whose members are not printed: disparagement,
# ethnic slur, obscenity/vulgarism, profanity
_UNFIT_DOMAINS = frozenset({"06717170", "06718862", "07124340", "07128527"})
MAX_SYNONYMS = 5
MAX_GLOSSES = 3
GLOSS_SENSES = 4
COMMON_ZIPF = 3.0
_VOWELS = frozenset("aeiouy")
_QUANTITY = "23"  # the lexicographer file noun.quantity: units of measurement
_UNFIT_GLOSS = re.compile(r"\b(obscene|vulgar|offensive|derogatory|disparaging|contemptuous)"
                          r"( and \w+)? (term|terms|word|words|name|slang)\b|\bethnic slur\b",
                          re.I)


def read_index(wn: Path) -> dict[str, list[tuple[int, str, list[str]]]]:
    """lemma -> [(tagged sense count, pos, synset offsets in sense order)] over the index files."""
    out: dict[str, list[tuple[int, str, list[str]]]] = {}
    for pos in POS:
        with open(wn / f"index.{pos}", encoding="latin-1") as f:
            for line in f:
                if line.startswith(" "):
                    continue  # licence header
                parts = line.split()
                lemma = parts[0]
                if not _WORD.match(lemma):
                    continue
                synset_cnt, p_cnt = int(parts[2]), int(parts[3])
                tagged = int(parts[5 + p_cnt])
                offsets = parts[6 + p_cnt:6 + p_cnt + synset_cnt]
                out.setdefault(lemma, []).append((tagged, pos, offsets))
    return out


def read_synsets(wn: Path) -> tuple[dict[tuple[str, str],
                                          tuple[list[str], list[tuple[str, str]], str]],
                                     set[tuple[str, str]], set[tuple[str, str]]]:
    """(pos, offset) -> (lemmas as written, hypernyms as (pos, offset), gloss), every synset;
    the (pos, offset) of the synsets not fit to print (see the module docstring), and of
    the units of measurement (lexicographer file ``noun.quantity``)."""
    out = {}
    unfit = set()
    units = set()
    for pos in POS:
        with open(wn / f"data.{pos}", encoding="latin-1") as f:
            for line in f:
                if line.startswith(" "):
                    continue
                head, _, gloss = line.partition(" | ")
                parts = head.split()
                n = int(parts[3], 16)
                lemmas = [_MARKER.sub("", parts[4 + 2 * i]) for i in range(n)]
                k = 4 + 2 * n
                hypernyms = []
                bad = bool(_UNFIT_GLOSS.search(gloss))
                for i in range(int(parts[k])):
                    sym, off, ptr_pos = parts[k + 1 + 4 * i:k + 4 + 4 * i]
                    if sym == "@":
                        hypernyms.append((_POS_OF[ptr_pos], off))
                    bad |= sym == ";u" and off in _UNFIT_DOMAINS
                out[(pos, parts[0])] = (lemmas, hypernyms, gloss.strip())
                if bad:
                    unfit.add((pos, parts[0]))
                if pos == "noun" and parts[1] == _QUANTITY:
                    units.add((pos, parts[0]))
    return out, unfit, units


def gloss_fragments(gloss: str, max_clue: int) -> list[str]:
    """The definitions of a gloss: examples (quoted) dropped, split at ';', a leading article
    dropped; one too long is cut before its first relative clause when that leaves enough."""
    definition = gloss.split('"', 1)[0]
    out = []
    for frag in definition.split(";"):
        frag = frag.strip().rstrip(",:").strip()
        bare = _PAREN.sub("", frag).strip()
        frag = bare if len(bare) >= 3 else frag
        frag = _ARTICLE.sub("", frag)
        if len(frag) > max_clue:
            head = _CUT.split(frag, 1)[0].strip()
            if len(head.split()) >= 2 and head.split()[-1].lower() not in _DANGLING:
                frag = head
        if len(frag) >= 3 and any(ch.isalpha() for ch in frag):
            out.append(frag)
    return out


def _synonyms(word: str, lemmas: list[str], max_clue: int) -> list[str]:
    out = []
    for lemma in lemmas:
        if lemma != lemma.lower():
            continue  # proper names and abbreviations make poor clues
        text = lemma.replace("_", " ")
        if len(text) <= max_clue and any(ch.isalpha() for ch in text) \
                and not clue_contains(text, word):
            out.append(text)
    # single words read best in a small clue cell
    return sorted(out, key=lambda t: " " in t or "-" in t)


def _in_order(short: str, long_: str) -> bool:
    it = iter(long_)
    return all(ch in it for ch in short)


def abbreviation_sense(word: str, lemmas: list[str], unit: bool = False) -> bool:
    """Whether ``word`` is an abbreviation in the synset of ``lemmas`` (module docstring);
    ``unit``: the synset is a unit of measurement."""
    if len(word) > 4:
        return False
    if _VOWELS.isdisjoint(word):
        return True
    if not unit and not _VOWELS.isdisjoint(word.replace("y", "")):
        return False
    return any(lemma == lemma.lower() and lemma.isalpha() and len(lemma) > len(word)
               and lemma[0] == word[0] and _in_order(word, lemma)
               for lemma in (lemmas[:lemmas.index(word)] if word in lemmas else ()))


Sense = tuple[list[str], list[tuple[str, str]], str]


def clues_for(word: str, senses: list[Sense], synsets: dict, max_clue: int,
              zipf, abbr_of: list[bool] | None = None) -> list[tuple[str, str]]:
    """The candidate clues of ``word`` as (kind, text), best first: synonyms and hypernyms
    (a dog is a canine) scored by how common they are and how common their sense is, then
    the shortest gloss fragments (kinds in the module docstring)."""
    scored: dict[str, float] = {}
    kinds: dict[str, str] = {}
    fragments: list[tuple[str, str]] = []
    later: list[tuple[str, str]] = []  # the later parts of glosses
    if abbr_of is None:
        abbr_of = [abbreviation_sense(word, lemmas) for lemmas, _, _ in senses]

    def offer(text: str, score: float, kind: str, abbr: bool) -> None:
        if score > scored.get(text, -99.0):
            scored[text] = score
            kinds[text] = kind.upper() if abbr else kind

    for rank, (lemmas, hypernyms, gloss) in enumerate(senses):
        abbr = abbr_of[rank]
        for text in _synonyms(word, lemmas, max_clue):
            common = " " not in text and "-" not in text and zipf(text) >= COMMON_ZIPF
            offer(text, zipf(text) - 3.0 * rank - 0.5 * (" " in text), "s" if common else "p",
                  abbr)
        if rank < 2:
            for h in hypernyms:
                for text in _synonyms(word, synsets[h][0], max_clue)[:2]:
                    offer(text, zipf(text) - 3.0 * rank - 0.3 - 0.5 * (" " in text), "h", abbr)
        if rank < GLOSS_SENSES:
            for n, frag in enumerate(gloss_fragments(gloss, max_clue)):
                if len(frag) <= max_clue and not clue_contains(frag, word) \
                        and all(frag != f for _, f in fragments + later):
                    (later if n else fragments).append(("G" if abbr else "g", frag))
    if not scored and not fragments:
        fragments = later  # a poor clue is better than none
    fragments.sort(key=lambda kf: len(kf[1]))
    best = sorted(scored, key=lambda t: (-scored[t], t))[:MAX_SYNONYMS]
    return [(kinds[t], t) for t in best] + [kf for kf in fragments
                                             if kf[1] not in best][:MAX_GLOSSES]


def build(wn: Path, max_clue: int) -> tuple[list[tuple[str, int, list[tuple[str, str]]]], int]:
    """(word, senses, clues) rows sorted by word, and the number of candidate lemmas."""
    from functools import lru_cache

    from wordfreq import zipf_frequency

    zipf = lru_cache(maxsize=None)(lambda text: zipf_frequency(text, "en"))
    index = read_index(wn)
    synsets, unfit, units = read_synsets(wn)
    dropped: set[str] = set()
    rows: list[tuple[str, int, list[tuple[str, str]]]] = []
    for word in sorted(index):
        entries = sorted(index[word], key=lambda e: (-e[0], POS.index(e[1])))
        senses = [(pos, off) for _, pos, offsets in entries for off in offsets]
        bad = [s in unfit for s in senses]
        if bad[0] or 2 * sum(bad) >= len(bad):
            dropped.add(word)
            continue
        kept = []
        abbr_of = []
        for pos, off in senses:
            if (pos, off) not in unfit:
                lemmas, hypernyms, gloss = synsets[(pos, off)]
                # the word as this synset spells it: lower case, or a proper name / abbreviation
                forms = [lm for lm in lemmas if lm.lower() == word]
                if forms and all(f != word for f in forms):
                    continue
                kept.append((lemmas, hypernyms, gloss))
                abbr_of.append(abbreviation_sense(word, lemmas, (pos, off) in units))
        if not kept:
            continue
        clues = clues_for(word, kept, synsets, max_clue, zipf, abbr_of)
        if clues:
            rows.append((word, len(kept), clues))
    # no clue names a word left out (its synonyms may be clues of other words), nor a word
    # of the shipped offensive list (WordNet's synonyms of "urine" or "fool" are unprintable)
    unprintable = dropped | read_offensive("offensive-en.txt")[0]
    fit = []
    for word, n, clues in rows:
        clues = [(k, c) for k, c in clues
                 if unprintable.isdisjoint(re.findall(r"[a-z]+", c.lower()))]
        if clues:
            fit.append((word, n, clues))
    return fit, len(index)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--wordnet", default="/usr/share/wordnet", help="WordNet 3.0 dict directory")
    ap.add_argument("--out", default=str(ROOT / "cryptocomp" / "data" / "clues"
                                         / "wordnet-en.tsv.gz"))
    ap.add_argument("--max-clue", type=int, default=40, help="longest clue kept (characters)")
    args = ap.parse_args()
    rows, candidates = build(Path(args.wordnet), args.max_clue)
    buf = io.StringIO()
    buf.write(f"{CLUE_MAGIC}\t{CLUE_VERSION}\twordnet-3.0\n")
    for word, senses, clues in rows:
        for _, clue in clues:
            assert "\t" not in clue and "\n" not in clue
        buf.write(f"{word}\t{senses}\t" + "\t".join(f"{k}:{c}" for k, c in clues) + "\n")
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    # mtime 0: the same WordNet gives byte-identical files
    data = gzip.compress(buf.getvalue().encode("utf-8"), compresslevel=9, mtime=0)
    tmp = out.with_suffix(".tmp")
    tmp.write_bytes(data)
    os.replace(tmp, out)
    short = sum(1 for _, _, c in rows if len(c[0][1]) <= 16)
    print(f"{len(rows)} words with clues (of {candidates} single-word a-z lemmas), "
          f"{sum(len(c) for _, _, c in rows)} clues, {short} led by a clue of <= 16 characters; "
          f"{len(data):,} bytes -> {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
