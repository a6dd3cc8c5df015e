#!/usr/bin/env python3
"""Words worth printing (issue 26): how many of the words cryptocomp prints are real words.

Sections (``--sections``, default all):

* ``compose``: the top 20 composed words of fixed everyday queries (12 English, 10
  Russian), with the default word classes and with every class admitted (what cryptocomp
  printed before it knew word classes).  Each word is judged by an independent spelling
  dictionary, Hunspell's (Debian ``hunspell-en-us``, ``hunspell-ru``: not a source of the
  index's classes), which must accept it in lower case; offensive words are counted by
  the index's own classes and, with ``--offensive FILE``, by an independent list.  Target:
  at least 98 % accepted, no offensive word.
* ``fills``: first fills on the default dictionary, as ``cryptocomp`` prints them (the
  shipped American 15x15, word squares 5x5 and 6x6, an arrow-word batch): the share of
  answers that are ``dictionary`` or ``name`` words by the index's classes (target 100 %),
  the share Hunspell accepts in any capitalisation, and the times (median of
  ``--repeats`` runs).

Prints the words it rejects, so that a reader can look at them.

Usage: python scripts/bench_quality.py [--sections compose,fills] [--langs en,ru]
       [--repeats 3] [--offensive FILE] [--queries FILE]

``--queries FILE`` (lines ``lang<TAB>expression``) replaces the fixed queries: a held-out
set is judged the same way.
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

from benchkit import ROOT

from cryptocomp import WordFilter, compose, load_index
from cryptocomp.index.classes import WordClasses

QUERIES = {
    "en": ["send+more", "give+take", "buy+sell", "word+play", "home+work", "rain+snow",
           "cat+dog", "sun+moon", "read+write", "love+hate", "fire+water", "north+south"],
    "ru": ["отправь+срочно", "снег+дождь", "вышли+еще", "мама+папа", "кот+пес", "день+ночь",
           "дом+сад", "лето+зима", "вода+огонь", "хабр*хабр"],
}
HUNSPELL = {"en": "en_US", "ru": "ru_RU"}
TOP = 20
EVERY = WordClasses.parse("all,offensive")  # every class: what was printed before classes


def hunspell_rejects(words: list[str], lang: str) -> set[str]:
    """The words Hunspell's dictionary for ``lang`` does not accept as written."""
    if not words:
        return set()
    out = subprocess.run(["hunspell", "-d", HUNSPELL[lang], "-l"], input="\n".join(words),
                         capture_output=True, text=True, check=True).stdout
    return set(out.split())


def accepted_any_case(words: list[str], lang: str) -> set[str]:
    """The words Hunspell accepts in lower case, capitalised or in capitals."""
    forms = [f(w) for w in words for f in (str.lower, str.capitalize, str.upper)]
    bad = hunspell_rejects(forms, lang)
    return {w for w in words if any(f(w) not in bad for f in (str.lower, str.capitalize,
                                                                 str.upper))}


def read_list(path: str | None) -> set[str]:
    """The words of a plain list file (none without a path)."""
    if not path:
        return set()
    return {line.strip().lower() for line in Path(path).read_text(encoding="utf-8").splitlines()
            if line.strip() and not line.startswith("#")}


def bench_compose(langs: list[str], queries: dict[str, list[str]], offensive: set[str]) -> None:
    """The compose section: share of Hunspell words in the top 20, default vs every class."""
    print("## compose: top 20 words of everyday queries, judged by Hunspell (lower case)")
    for lang in langs:
        index = load_index(lang)
        print(f"\n{lang}: index classes from {index.class_source or '(unclassified)'}")
        for label, words in (("every class (before)", WordFilter(classes=EVERY)),
                             ("default", WordFilter())):
            shown: list[str] = []
            rejected: list[str] = []
            bad_words: list[str] = []
            t0 = time.perf_counter()
            for expr in queries.get(lang, []):
                got = [c.word for c in compose(expr, index, words, max_results=TOP)][:TOP]
                shown += got
                bad = hunspell_rejects([w.lower() for w in got], lang)
                rejected += [f"{expr}:{w}" for w in got if w.lower() in bad]
                ids = [index.id_of(w) for w in got]
                bad_words += [w for w, i in zip(got, ids)
                              if w in offensive or (i is not None
                                                    and "offensive" in index.classes_of(i))]
            seconds = time.perf_counter() - t0
            share = 100 * (1 - len(rejected) / len(shown)) if shown else 100.0
            print(f"  {label:22} {len(shown):4} words, {share:5.1f} % accepted, "
                  f"{len(bad_words)} offensive, {seconds:.1f} s")
            if rejected:
                print("    not accepted: " + ", ".join(rejected[:60])
                      + (" ..." if len(rejected) > 60 else ""))
            if bad_words:
                print("    offensive: " + ", ".join(bad_words))


def _run_json(args: list[str]) -> tuple[list, float]:
    """The JSON objects a cryptocomp command prints (an array or JSON Lines), and its wall
    time."""
    t0 = time.perf_counter()
    proc = subprocess.run([sys.executable, "-m", "cryptocomp", *args, "--json"],
                          capture_output=True, text=True, cwd=ROOT)
    seconds = time.perf_counter() - t0
    if proc.returncode not in (0, 1):
        raise SystemExit(f"cryptocomp {' '.join(args)} failed: {proc.stderr.strip()}")
    text = proc.stdout.strip()
    try:
        data = json.loads(text)
        items = data if isinstance(data, list) else [data]
    except json.JSONDecodeError:
        items = [json.loads(line) for line in text.splitlines() if line.strip()]
    return items, seconds


def _answers(item: dict) -> list[str]:
    """The answers of one fill or puzzle in a command's JSON."""
    for key in ("words", "answers"):
        if isinstance(item.get(key), list):
            return [w if isinstance(w, str) else w.get("word", "") for w in item[key]]
    fills = item.get("fills")
    if isinstance(fills, list) and fills and isinstance(fills[0].get("words"), dict):
        return list(fills[0]["words"].values())
    return []


def bench_fills(langs: list[str], repeats: int) -> None:
    """The fills section: share of dictionary-or-name answers, and times."""
    print("\n## fills: first fills on the default dictionary, as the CLI prints them")
    jobs = [("american 15x15", ["fill", "american15"]), ("square 5x5", ["square", "5"]),
            ("square 6x6", ["square", "6"]),
            ("arrow-words 5 x 12x12", ["swedish", "--size", "12x12", "--count", "5"])]
    for lang in langs:
        index = load_index(lang)
        keep = WordClasses.of("dictionary", "name")
        for label, args in jobs:
            if lang != "en" and args[0] == "fill":
                continue  # the shipped grid is an English one; squares and arrows run both
            times: list[float] = []
            answers: list[str] = []
            for _ in range(repeats):
                items, seconds = _run_json([*args, "--lang", lang])
                if args[0] != "swedish":
                    seconds = sum(item.get("seconds", 0.0) for item in items) or seconds
                times.append(seconds)
                answers = [w for item in items for w in _answers(item)]
            ids = [index.id_of(w) for w in answers]
            ok = [w for w, i in zip(answers, ids)
                  if i is not None and i in index.admitted(keep)]
            off = [w for w in answers if w not in ok]
            real = accepted_any_case(answers, lang) if shutil.which("hunspell") else set()
            share = 100 * len(ok) / len(answers) if answers else 0.0
            print(f"  {lang} {label:22} {len(answers):4} answers, {share:5.1f} % dictionary "
                  f"or name, {100 * len(real) / max(1, len(answers)):5.1f} % Hunspell, "
                  f"median {statistics.median(times):.2f} s (of {repeats}; fills: the "
                  f"fill's own time, arrows: the whole command)")
            if off:
                print("    other: " + ", ".join(off[:40]))
            print("    words: " + ", ".join(answers[:40]))


def main() -> None:
    """Run the sections asked for."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sections", default="compose,fills")
    ap.add_argument("--langs", default="en,ru")
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--offensive", help="an independent list of offensive words")
    ap.add_argument("--queries", help="lines 'lang<TAB>expression' replacing the fixed set")
    args = ap.parse_args()
    if not shutil.which("hunspell"):
        raise SystemExit("needs Hunspell: apt-get install hunspell hunspell-en-us hunspell-ru")
    langs = args.langs.split(",")
    queries = QUERIES
    if args.queries:
        queries = {}
        for line in Path(args.queries).read_text(encoding="utf-8").splitlines():
            if line.strip() and not line.startswith("#"):
                lang, expr = line.split("\t", 1)
                queries.setdefault(lang, []).append(expr.strip())
    sections = args.sections.split(",")
    if "compose" in sections:
        bench_compose(langs, queries, read_list(args.offensive))
    if "fills" in sections:
        bench_fills(langs, args.repeats)


if __name__ == "__main__":
    main()
