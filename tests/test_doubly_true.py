"""Doubly-true puzzles (``compose --doubly-true``): every one true in words and unique by
the solving engine (and by brute force when small), every one of a small range found
(an oracle over all subsets), and Cryptagen's English, French and Italian [0, 100]
puzzles (tests/data/cryptagen, BSD-3) among them."""

from __future__ import annotations

import itertools
import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cryptocomp.cli import main
from cryptocomp.cryptarithm.generation import normalised
from cryptocomp.cryptarithm.grammar import parse_system
from cryptocomp.cryptarithm.harvest import harvest
from cryptocomp.cryptarithm.numberwords import doubly_true_spec, number_word
from cryptocomp.cryptarithm.solve import solve
from cryptocomp.cryptarithm.system import brute_solutions

DATA = Path(__file__).parent / "data" / "cryptagen"
_BRUTE_SYMBOLS = 6   # brute force tries 10!/(10-k)! assignments: small puzzles only


def _values(low: int, high: int, lang: str) -> dict[str, int]:
    """Each number word of [low, high] and the (first) number it spells."""
    out: dict[str, int] = {}
    for v in range(low, high + 1):
        out.setdefault(number_word(v, lang), v)
    return out


def _check(puzzle: str, values: dict[str, int]) -> None:
    """True in words, and exactly one solution as a cryptarithm."""
    left, right = puzzle.replace(" ", "").split("=")
    addends = left.split("+")
    assert len(set(addends)) == len(addends) and right not in addends
    assert sum(values[w] for w in addends) == values[right], puzzle
    assert solve(puzzle, cap=2).count == 1, puzzle
    system = parse_system(puzzle)
    if len(system.symbols) <= _BRUTE_SYMBOLS:
        assert len(list(itertools.islice(brute_solutions(system), 2))) == 1, puzzle


def _generated(low: int, high: int, lang: str) -> list[str]:
    """The puzzles ``compose --doubly-true`` prints (through main: the JSON output)."""
    import contextlib
    import io

    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        rc = main(["compose", "--doubly-true", f"{low}-{high}", "--lang", lang, "--json"])
    doc = json.loads(out.getvalue())
    assert rc in (0, 1) and doc["complete"] and doc["count"] == len(doc["results"])
    return [r["puzzle"] for r in doc["results"]]


@pytest.mark.parametrize("lang, high", [("fr", 100), ("it", 40), ("es", 40), ("en", 60)])
def test_every_puzzle_true_and_unique(lang: str, high: int) -> None:
    values = _values(0, high, lang)
    puzzles = _generated(0, high, lang)
    assert puzzles
    for p in puzzles:
        _check(p, values)


def _cryptagen(lang: str, values: dict[str, int]) -> set:
    """Cryptagen's puzzles of ``lang`` whose words are all number words of ``values``."""
    lines = (DATA / f"{lang}-1-500.db.txt").read_text().splitlines()
    puzzles = [p.strip() for p in lines if p.strip()]
    return {normalised(p) for p in puzzles
            if all(w in values for w in p.replace("=", "+").replace(" ", "").split("+"))}


def test_cryptagen_french() -> None:
    values = _values(0, 100, "fr")
    theirs = _cryptagen("fr", values)
    assert theirs and theirs <= {normalised(p) for p in _generated(0, 100, "fr")}


@pytest.mark.slow
@pytest.mark.parametrize("lang", ["en", "it"])
def test_cryptagen_english_italian(lang: str) -> None:
    values = _values(0, 100, lang)
    theirs = _cryptagen(lang, values)
    ours = _generated(0, 100, lang)
    assert theirs and theirs <= {normalised(p) for p in ours}
    for p in ours:
        _check(p, values)


def _oracle(low: int, high: int, lang: str, max_words: int | None) -> set:
    """Every doubly-true puzzle of [low, high] by trying each subset of the words whose
    sum is a word of the range (counted by the engine)."""
    values = _values(low, high, lang)
    by_value = {v: w for w, v in values.items()}
    words = list(values)
    out = set()
    top = len(words) if max_words is None else max_words - 1
    for k in range(2, top + 1):
        for left in itertools.combinations(words, k):
            right = by_value.get(sum(values[w] for w in left))
            if right is None or right in left or sum(values[w] for w in left) < low:
                continue
            if len(set("".join([*left, right]))) > 10:
                continue
            puzzle = " + ".join(left) + " = " + right
            if solve(puzzle, cap=2).count == 1:
                out.add(normalised(puzzle))
    return out


@pytest.mark.slow
@settings(max_examples=6, deadline=None)
@given(st.sampled_from(["en", "fr", "it", "es", "de"]), st.integers(0, 20),
       st.integers(4, 9), st.sampled_from([None, 4]))
def test_small_ranges_match_the_subset_oracle(lang: str, low: int, width: int,
                                              max_words: int | None) -> None:
    high = low + width
    got = harvest(doubly_true_spec(low, high, lang, max_words=max_words))
    assert got.complete
    assert {normalised(g.puzzle) for g in got.puzzles} == _oracle(low, high, lang, max_words)
