"""The rows search of word rectangles and its tries, against plain enumeration."""

from __future__ import annotations

import itertools
import math
import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cryptocomp.crossword import BUDGET, FILLED, NO_FILL, Grid, GridError, Lexicon, fill
from cryptocomp.crossword.check import fill_problems
from cryptocomp.crossword.csp import Problem, solve_csp, strategy_for
from cryptocomp.crossword.rectangle import (
    RowSearch,
    _fits,
    _popcount,
    is_rectangle,
    rows_can_fill,
)
from cryptocomp.crossword.search import EXHAUSTED, FOUND, PAUSED
from cryptocomp.crossword.square import square_grid
from cryptocomp.crossword.trie import build_trie
from cryptocomp.index.index import Index


def _index(words: list[str]) -> Index:
    idx = Index.from_counts({w: 10_000 - i for i, w in enumerate(words)}, name="t")
    idx._check()
    return idx


def _rectangles(grid: Grid, words: list[str]) -> set[tuple[str, ...]]:
    """Every fill by enumeration: each choice of row words whose columns are words, all
    words different and given letters kept (the obviously correct oracle), choosing the
    rows top down."""
    W, H = grid.width, grid.height
    rows_ok = [[w for w in words if len(w) == W and all(
        grid.given.get((i, j), ch) == ch for j, ch in enumerate(w))] for i in range(H)]
    vocab = set(words)
    # a column that is no word's beginning ends the choice early (the enumeration took
    # 7 s on a 4x4 square with 39 words)
    starts = {w[:k] for w in words if len(w) == H for k in range(H + 1)}
    out = set()

    def choose(rows: list[str]) -> None:
        cols = ["".join(r[j] for r in rows) for j in range(W)]
        if not all(c in starts for c in cols):
            return
        if len(rows) < H:
            for word in rows_ok[len(rows)]:
                choose(rows + [word])
            return
        placed = rows + cols
        if all(c in vocab for c in cols) and len(set(placed)) == len(placed):
            by_cells = {(s.direction, s.cells[0]): s for s in grid.slots}
            fill_ = []
            for s in grid.slots:
                if s.direction == "across":
                    fill_.append(rows[s.cells[0][0]])
                else:
                    fill_.append(cols[s.cells[0][1]])
            assert len(by_cells) == len(grid.slots)
            out.add(tuple(fill_))

    choose([])
    return out


def _case(rng: random.Random, alphabet: str) -> tuple[Grid, list[str]]:
    """A small random rectangle (given letters sometimes) and a word list for its lengths."""
    h, w = rng.randint(2, 4), rng.randint(2, 4)
    if rng.random() < 0.5:
        h = w  # squares without given letters: the transposes are pruned
    cells = "......" + (alphabet[0] if h != w or rng.random() < 0.3 else "")
    rows = ["".join(rng.choice(cells) for _ in range(w)) for _ in range(h)]
    grid = Grid.from_rows(rows)
    words = sorted({"".join(rng.choice(alphabet) for _ in range(rng.choice((w, h))))
                    for _ in range(rng.randint(3, 60))})
    rng.shuffle(words)  # frequency order is not alphabetical order
    return grid, words


@pytest.mark.parametrize("seed", range(60))
@pytest.mark.slow
def test_rows_finds_exactly_the_enumerated_fills(seed):
    rng = random.Random(seed)
    grid, words = _case(rng, "ab" if seed % 4 == 0 else "abc" if seed % 2 else "абв")
    try:
        prob = Problem(grid, Lexicon(_index(words)))
    except GridError:
        return  # a length without words: refused up front
    assert is_rectangle(prob) and rows_can_fill(prob)
    want = _rectangles(grid, words)
    result = solve_csp(prob, count=10**6, strategy="rows")
    got = [tuple(f) for f in result.fills]
    assert len(set(got)) == len(got)
    assert set(got) == want
    assert result.complete and result.status == (FILLED if want else NO_FILL)
    for f in got:
        assert fill_problems(grid, set(words), list(f)) == []
    # one fill (the transposes pruned on squares without given letters) decides the same
    one = solve_csp(Problem(grid, Lexicon(_index(words))), strategy="rows")
    assert one.status == result.status
    assert not one.fills or tuple(one.fills[0]) in want
    if one.status == NO_FILL:
        assert one.culprit in {s.name for s in grid.slots}
        assert "proved by the rows search" in one.message


def test_the_first_fill_uses_the_most_frequent_words_it_can():
    # two 2x2 squares (and their transposes): the one with the commoner words comes first
    first, second = ["ef", "gh", "eg", "fh"], ["ab", "cd", "ac", "bd"]
    for words in (first + second, second + first):
        result = solve_csp(Problem(square_grid(2), Lexicon(_index(words))), strategy="rows")
        assert result.status == FILLED
        assert set(result.fills[0]) == set(words[:4])


def test_transposes_are_told_apart_past_a_shared_prefix():
    # the only fills: rows abc/bef/dgh (first column abd) and its transpose; the first row and
    # column share "ab", so only the third letter decides which of the pair is searched
    words = ["abc", "bef", "dgh", "abd", "beg", "cfh"]
    result = solve_csp(Problem(square_grid(3), Lexicon(_index(words))), strategy="rows")
    assert result.status == FILLED and result.fills[0][0] == "abc"
    every = solve_csp(Problem(square_grid(3), Lexicon(_index(words))), strategy="rows", count=9)
    assert len(every.fills) == 2 and every.complete


def test_rows_resumes_across_slices_with_the_same_nodes():
    words = [a + b + c for a in "abcd" for b in "abcd" for c in "abcd" if (a, b, c) != ("a",) * 3]
    prob = Problem(square_grid(3), Lexicon(_index(words)))
    whole = RowSearch(prob, count=2, slice_units=1 << 61)
    assert whole.advance(1 << 62, math.inf) == FOUND
    sliced = RowSearch(prob, count=2, slice_units=3)
    r = PAUSED
    while r == PAUSED:
        r = sliced.advance(1 << 62, math.inf)
    assert r == FOUND and sliced.words() == whole.words() and sliced.nodes == whole.nodes


def test_rows_exhausts_a_tiny_square_without_fill():
    prob = Problem(square_grid(2), Lexicon(_index(["ab", "cd"])))
    search = RowSearch(prob, slice_units=1 << 61)
    assert search.advance(1 << 62, math.inf) == EXHAUSTED
    assert search.partial()[0] in ("ab", "cd", "..")


def test_auto_runs_rows_on_word_rectangles_only():
    words = ["ab", "ba", "abc", "bca"]
    assert strategy_for(Problem(Grid.from_rows(["..", ".."]), Lexicon(_index(words))))[0][0] \
        == "rows"
    blocked = Problem(Grid.from_rows(["..#", "...", "#.."]), Lexicon(_index(words)))
    assert "rows" not in dict(strategy_for(blocked))
    with pytest.raises(GridError, match="word rectangles only"):
        solve_csp(blocked, strategy="rows")


def test_rectangles_over_more_than_64_letters_get_the_propagating_lanes():
    letters = [chr(0x4E00 + i) for i in range(70)]  # 70 different letters
    words = [a + b for a in letters[:9] for b in letters[:9]] + [ch * 2 for ch in letters[9:]]
    prob = Problem(square_grid(2), Lexicon(_index(words)))
    assert is_rectangle(prob) and not rows_can_fill(prob)
    assert dict(strategy_for(prob)) == {"cells": 2, "words": 1}
    assert solve_csp(prob).status == FILLED
    with pytest.raises(GridError, match="at most 64 letters"):
        solve_csp(prob, strategy="rows")


def test_rows_refuses_symmetric_squares():
    prob = Problem(square_grid(2, symmetric=True), Lexicon(_index(["ab", "ba"])))
    assert not is_rectangle(prob)


def test_rows_step_and_time_budgets(tmp_path):
    # the parity rectangle: rows with an even number of b's, columns with an odd number,
    # 7 columns: no fill, and the rows search needs millions of letters to see it
    words = {}
    for bits in itertools.product("ab", repeat=7):
        if bits.count("b") % 2 == 0:
            words["".join(bits)] = 5
    for bits in itertools.product("ab", repeat=6):
        if bits.count("b") % 2 == 1:
            words["".join(bits)] = 3
    idx = Index.from_counts(words, name="parity")
    grid = Grid.from_rows(["......."] * 6)
    result = fill(grid, idx, engine="csp", strategy="rows", steps=10_000)
    assert result.status == BUDGET and result.steps == 10_000
    assert result.partial and len(result.partial) == 13 and result.culprit
    result = fill(grid, idx, engine="csp", strategy="rows", seconds=1.0)
    assert result.status == BUDGET and result.seconds < 1.1 + 1


@settings(max_examples=60, deadline=None)
@given(st.lists(st.text("abcd", min_size=3, max_size=3), min_size=1, max_size=40, unique=True))
def test_trie_invariants(words):
    codes = np.array([["abcd".index(ch) for ch in w] for w in words], dtype=np.int64)
    trie = build_trie(codes, 4)
    trie._check(codes)
    # the first letter tried leads to the most frequent word (row 0)
    assert trie.order[0, 0] == codes[0, 0]


@settings(max_examples=80, deadline=None)
@given(st.data())
def test_fits_agrees_with_a_scan_of_the_words(data):
    # letters up to code 63 (the letter sets' top bit), the rows-below check's word test
    n = data.draw(st.integers(1, 4))
    letters = st.sampled_from([0, 1, 2, 31, 32, 62, 63])
    words = data.draw(st.lists(st.lists(letters, min_size=n, max_size=n), min_size=1,
                               max_size=30, unique_by=tuple))
    codes = np.array(words, dtype=np.int64)
    trie = build_trie(codes, 64)
    # each position's set holds, more often than not, the letter one of the words has there
    near = data.draw(st.sampled_from(words))
    sets = [sum(1 << x for x in data.draw(st.sets(letters, max_size=3))
                | ({near[p]} if data.draw(st.integers(0, 3)) else set())) for p in range(n)]
    ok, lookups = _fits(trie.child, trie.mask, trie.ahead, np.array(sets, dtype=np.uint64), n,
                        np.zeros(n + 1, dtype=np.int64), np.zeros(n + 1, dtype=np.uint64))
    assert ok == any(all(sets[p] >> w[p] & 1 for p in range(n)) for w in words)
    assert lookups >= 1


@given(st.integers(0, (1 << 64) - 1))
def test_popcount_counts_the_bits(m):
    assert _popcount(np.uint64(m)) == bin(m).count("1")
