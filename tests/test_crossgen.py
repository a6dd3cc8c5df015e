"""Crossword systems from a word list (cryptarithm.crossgen) against a brute-force oracle:
every arrangement of the words in the grid, kept in Cryptator's one-of-each-symmetry form,
tried under every assignment of digits; and the generator's rules and errors."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from cross_cases import oracle_grids, planted
from hypothesis import given, settings
from hypothesis import strategies as st

from cryptocomp.cryptarithm.crossgen import cross_generation, cross_system, crosswords
from cryptocomp.cryptarithm.engine import solve_system
from cryptocomp.cryptarithm.grammar import parse_system
from cryptocomp.cryptarithm.lineform import count_forms, count_lines, word_table
from cryptocomp.cryptarithm.system import brute_solutions, holds_system
from cryptocomp.errors import QueryError

N = 3


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(4))
def test_the_generator_finds_exactly_the_oracles_grids(seed):
    words, base = planted(seed)
    found = list(crosswords(words, N, base=base))
    assert {c.grid for c in found} == oracle_grids(words, base)
    for c in found:
        system = cross_system(c.grid, base)
        assert list(brute_solutions(system)) == [c.solution]
        assert holds_system(system, c.solution)


@pytest.mark.slow
def test_cryptators_crossword_is_found_from_its_words():
    words = ["cc", "a", "cl", "on", "d", "go", "ni", "e", "ne"]
    found = {c.text for c in crosswords(words, 3)}
    # the list order puts 'on' after 'a': the grid is the transpose of Cryptator's sample
    assert "cc + on = ni && a + d = e && cl + go = ne && cc + a = cl && on + d = go && " \
           "ni + e = ne" in found
    assert all(t.count("&&") == 5 for t in found)


@pytest.mark.slow
def test_one_grid_of_each_symmetry_and_distinct_words():
    words = ["cc", "a", "cl", "on", "d", "go", "ni", "e", "ne"]
    for c in crosswords(words, 3):
        cells = [w for row in c.grid for w in row]
        assert len(set(cells)) == 9
        at = {w: i for i, w in enumerate(words)}
        assert at[c.grid[0][0]] < at[c.grid[1][0]] < at[c.grid[0][1]]


def test_too_few_words_give_nothing_and_bad_input_is_one_line():
    assert list(crosswords(["a", "b", "c"], 3)) == []
    with pytest.raises(QueryError, match="at least 3"):
        list(crosswords(["a", "b", "c", "d"], 2))
    with pytest.raises(QueryError, match="no spaces or signs"):
        list(crosswords(["a b", "c"], 3))


def test_step_budget_stops_after_its_placements():
    words = ["cc", "a", "cl", "on", "d", "go", "ni", "e", "ne", "ab", "x"]
    whole = cross_generation(words, 3)
    expected = [c.text for c in whole]
    for steps in (1, 7, 40, whole.candidates - 1, whole.candidates, whole.candidates + 5):
        gen = cross_generation(words, 3, steps=steps)
        got = [c.text for c in gen]
        assert got == expected[:len(got)]
        assert gen.complete == (steps >= whole.candidates)
        assert gen.candidates == min(steps, whole.candidates)


def _brute_forms(coef: list[list[int]], lead: list[int], base: int) -> int:
    """Solutions of every form at once, by trying every injective assignment."""
    n = len(lead)
    return sum(1 for digits in itertools.permutations(range(base), n)
               if not any(d == 0 and lead[i] for i, d in enumerate(digits))
               and all(sum(c * d for c, d in zip(form, digits)) == 0 for form in coef))


@settings(max_examples=80, deadline=None)
@given(st.integers(1, 5).flatmap(lambda n: st.tuples(
    st.lists(st.lists(st.integers(-40, 40), min_size=n, max_size=n), min_size=1, max_size=3),
    st.lists(st.integers(0, 1), min_size=n, max_size=n))), st.integers(2, 8),
    st.integers(1, 4))
def test_forms_counter_matches_brute_force(forms: tuple, base: int, cap: int) -> None:
    """The compiled counter of several linear forms at once (what the crossword search
    counts its rows and columns with) against every assignment."""
    coef, lead = forms
    first = np.full(len(lead), -1, np.int64)
    count = count_forms(np.array(coef, np.int64), np.array(lead, np.int64), base, cap, first)
    assert count == min(cap, _brute_forms(coef, lead, base))
    if count:
        digits = [int(d) for d in first]
        assert len(set(digits)) == len(digits) and all(0 <= d < base for d in digits)
        assert all(sum(c * d for c, d in zip(form, digits)) == 0 for form in coef)
        assert not any(d == 0 and lead[i] for i, d in enumerate(digits))


@settings(max_examples=40, deadline=None)
@given(st.lists(st.text("abcdef", min_size=1, max_size=3), min_size=3, max_size=6,
                unique=True), st.integers(1, 3), st.sampled_from([6, 8, 10]))
def test_word_lines_count_as_the_engine_counts(words: list[str], lines: int,
                                               base: int) -> None:
    """Rows of list words (the last the sum) counted as forms give the exact engine's
    count of the same system."""
    table = word_table(words, base)
    rows = [[(i + j) % len(words) for j in range(3)] for i in range(lines)]
    first = np.empty(len(table.symbols), np.int64)
    count = count_lines(np.array(rows, np.int64), table.coef, table.present, table.lead, 3,
                        base, first)
    text = " && ".join(f"{words[a]} + {words[b]} = {words[c]}" for a, b, c in rows)
    assert count == min(3, solve_system(parse_system(text, base=base), cap=3).count)



def test_the_engine_path_finds_what_the_forms_find(monkeypatch: pytest.MonkeyPatch) -> None:
    """Words whose place values pass int64 go to the exact engine: the same crosswords."""
    words = ["cc", "a", "cl", "on", "d", "go", "ni", "e", "ne", "ab"]
    fast = [(c.text, c.solution) for c in cross_generation(words, N)]
    monkeypatch.setattr("cryptocomp.cryptarithm.crossgen.fits_int64", lambda *_: False)
    assert [(c.text, c.solution) for c in cross_generation(words, N)] == fast and fast
