#!/usr/bin/env python3
"""Build the shipped English word-class data from WordNet 3.0 and SCOWL (Debian packages).

Reads a WordNet 3.0 database (``wndb(5WN)``, Debian's ``wordnet-base``; default
``/usr/share/wordnet``) and SCOWL's American list (Debian's ``wamerican``; default
``/usr/share/dict/american-english``) and writes two files beside the licences in
``cryptocomp/data/classes/``:

``en-classes.txt.gz``
    a class file (:mod:`cryptocomp.index.classfile`, version 1) of the words the two
    sources class, lower-cased, letters a-z only: ``word<TAB>class[,class...]``.  The
    rules are :mod:`cryptocomp.index.english`'s docstring (``dictionary``, ``name``,
    ``abbreviation``, ``offensive``); ENABLE (shipped whole as ``data/enable1.txt``) is
    read for the ``dictionary`` rule, which needs two of the three lists.
``en-morphy.txt.gz``
    WordNet's morphology for :func:`cryptocomp.index.english.morphy` (format in that
    module): every single-word lemma with its parts of speech, and the exception lists.

Usage: python scripts/build_english_classes.py [--wordnet DIR] [--scowl FILE] [--out DIR]
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import re
import sys
from pathlib import Path

from benchkit import ROOT

from cryptocomp.files import write_atomic
from cryptocomp.index.classfile import CLASSFILE_HEADER
from cryptocomp.index.english import MORPHY_HEADER, POS_LETTERS, is_abbreviation_form, morphy

POS = ("noun", "verb", "adj", "adv")
_LETTERS = re.compile(r"^[A-Za-z]+$")
_MARKER = re.compile(r"\((a|p|ip)\)$")
# usage-domain synsets (data.noun offsets) whose members are not printed: disparagement,
# ethnic slur, obscenity/vulgarism, profanity (as scripts/build_wordnet_clues.py)
_UNFIT_DOMAINS = frozenset({"06717170", "06718862", "07124340", "07128527"})
_UNFIT_GLOSS = re.compile(r"\b(obscene|vulgar|offensive|derogatory|disparaging|contemptuous)"
                          r"( and \w+)? (term|terms|word|words|name|slang)\b|\bethnic slur\b",
                          re.I)


def read_wordnet(wn: Path) -> tuple[dict[str, set[str]], dict[tuple[str, str], bool],
                                    dict[str, list[tuple[str, str]]], dict[str, str]]:
    """(written forms by lower-case lemma, unfit flag by (pos, offset), senses by lemma in
    sense order, parts of speech by lemma) over single-word lemmas of letters only."""
    written: dict[str, set[str]] = {}
    unfit: dict[tuple[str, str], bool] = {}
    for pos in POS:
        with open(wn / f"data.{pos}", encoding="latin-1") as f:
            for line in f:
                if line.startswith(" "):
                    continue  # licence header
                head, _, gloss = line.partition(" | ")
                parts = head.split()
                n = int(parts[3], 16)
                for i in range(n):
                    lemma = _MARKER.sub("", parts[4 + 2 * i])
                    if _LETTERS.match(lemma):
                        written.setdefault(lemma.lower(), set()).add(lemma)
                k = 4 + 2 * n
                bad = bool(_UNFIT_GLOSS.search(gloss))
                for i in range(int(parts[k])):
                    sym, off = parts[k + 1 + 4 * i:k + 3 + 4 * i]
                    bad |= sym == ";u" and off in _UNFIT_DOMAINS
                unfit[(pos, parts[0])] = bad
    senses: dict[str, list[tuple[int, str, list[str]]]] = {}
    poses: dict[str, str] = {}
    for pos in POS:
        with open(wn / f"index.{pos}", encoding="latin-1") as f:
            for line in f:
                if line.startswith(" "):
                    continue
                parts = line.split()
                lemma = parts[0]
                if not _LETTERS.match(lemma):
                    continue
                synset_cnt, p_cnt = int(parts[2]), int(parts[3])
                tagged = int(parts[5 + p_cnt])
                offsets = parts[6 + p_cnt:6 + p_cnt + synset_cnt]
                senses.setdefault(lemma, []).append((tagged, pos, offsets))
                poses[lemma] = poses.get(lemma, "") + POS_LETTERS[pos]
    ordered = {w: [(pos, off) for _, pos, offs in sorted(e, key=lambda e: (-e[0], POS.index(e[1])))
                   for off in offs] for w, e in senses.items()}
    return written, unfit, ordered, poses


def read_exceptions(wn: Path) -> list[tuple[str, str, list[str]]]:
    """(pos letter, inflected form, base forms) of WordNet's exception lists, letters only."""
    out = []
    for pos in POS:
        with open(wn / f"{pos}.exc", encoding="latin-1") as f:
            for line in f:
                form, *bases = line.split()
                bases = [b for b in bases if _LETTERS.match(b)]
                if _LETTERS.match(form) and bases:
                    out.append((POS_LETTERS[pos], form.lower(), [b.lower() for b in bases]))
    return out


def classes_of_written(forms: set[str], enable: set[str]) -> set[str]:
    """The name and abbreviation classes of one lower-cased lemma from its written forms
    (see english's docstring; ``dictionary`` is decided by :func:`corroborated`)."""
    out: set[str] = set()
    for form in forms:
        low = form.lower()
        if form == low:
            if is_abbreviation_form(low, enable):
                out.add("abbreviation")
        elif len(form) >= 2 and (form.isupper() or (form[:-1].isupper() and form[-1] == "s")):
            out.add("abbreviation")  # ATM, and SCOWL's plurals: UFOs, PCs
        else:
            out.add("name")
    return out


def corroborated(enable: set[str], scowl: set[str], wordnet: set[str], poses: dict[str, str],
                 exceptions: list[tuple[str, str, list[str]]]) -> set[str]:
    """The dictionary words: written in lower case in at least two of ENABLE, SCOWL and
    WordNet (a WordNet lemma, or a form whose base :func:`morphy` finds among them), and
    not read as an abbreviation.  One dictionary alone lists too many rarities (ENABLE's
    redes, WordNet's hovea) to print them by default."""
    bases: dict[str, list[str]] = {}
    for _, form, forms in exceptions:
        bases.setdefault(form, []).extend(forms)
    out = set()
    for word in enable | scowl | wordnet:
        base = morphy(word, poses, bases)
        votes = (word in enable) + (word in scowl) + (base is not None and base in wordnet)
        if votes >= 2 and not is_abbreviation_form(word, enable):
            out.add(word)
    return out


def build(wn: Path, scowl: Path) -> tuple[list[str], list[str], dict[str, int]]:
    """(class file lines, morphy file lines, counts by class)."""
    enable = set((ROOT / "cryptocomp" / "data" / "enable1.txt").read_text().split())
    written, unfit, senses, poses = read_wordnet(wn)
    wordnet_lower = {w for w, forms in written.items() if w in forms}
    scowl_lower = set()
    for line in scowl.read_text(encoding="utf-8").splitlines():
        if _LETTERS.match(line):
            written.setdefault(line.lower(), set()).add(line)
            if line.islower():
                scowl_lower.add(line)
    exceptions = read_exceptions(wn)
    classes: dict[str, set[str]] = {w: classes_of_written(f, enable) for w, f in written.items()}
    for word in corroborated(enable, scowl_lower, wordnet_lower, poses, exceptions):
        classes.setdefault(word, set()).add("dictionary")
    for word, order in senses.items():
        bad = [unfit[s] for s in order]
        # a word is offensive when its commonest sense is, or all its senses are ("boy"
        # has a disparaging sense and stays a plain word)
        if bad and (bad[0] or all(bad)):
            classes.setdefault(word, set()).add("offensive")
    counts: dict[str, int] = {}
    lines = []
    for word in sorted(classes):
        names = sorted(classes[word])
        if not names:
            continue  # a word one list alone has, and no name: unknown
        for n in names:
            counts[n] = counts.get(n, 0) + 1
        lines.append(f"{word}\t{','.join(names)}")
    morphy = [f"{w}\t{p}" for w, p in sorted(poses.items())]
    morphy += [f"{w}\t{p}\t{' '.join(b)}" for p, w, b in exceptions]
    return lines, morphy, counts


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--wordnet", type=Path, default=Path("/usr/share/wordnet"))
    ap.add_argument("--scowl", type=Path, default=Path("/usr/share/dict/american-english"))
    ap.add_argument("--out", type=Path, default=ROOT / "cryptocomp" / "data" / "classes")
    args = ap.parse_args(argv)
    for need in (args.wordnet / "data.noun", args.scowl):
        if not need.is_file():
            print(f"{need}: not found (apt-get install wordnet-base wamerican)", file=sys.stderr)
            return 1
    lines, morphy, counts = build(args.wordnet, args.scowl)
    body = "\n".join(lines) + "\n"
    tag = hashlib.sha256(body.encode()).hexdigest()[:8]
    header = f"{CLASSFILE_HEADER}\n# en: WordNet 3.0, SCOWL (wamerican) data {tag}\n"
    # mtime=0: the same sources give the same bytes
    write_atomic(args.out / "en-classes.txt.gz",
                 gzip.compress((header + body).encode(), 9, mtime=0), create_dirs=True)
    write_atomic(args.out / "en-morphy.txt.gz",
                 gzip.compress((MORPHY_HEADER + "\n" + "\n".join(morphy) + "\n").encode(), 9,
                               mtime=0))
    for name in sorted(counts):
        print(f"{name}: {counts[name]:,}")
    print(f"wrote {len(lines):,} classed words and {len(morphy):,} morphy lines to {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
