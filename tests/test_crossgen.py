"""Crossword systems from a word list (cryptarithm.crossgen) against a brute-force oracle:
every arrangement of the words in the grid, kept in Cryptator's one-of-each-symmetry form,
tried under every assignment of digits; and the generator's rules and errors."""

from __future__ import annotations

import pytest
from cross_cases import oracle_grids, planted

from cryptocomp.cryptarithm.crossgen import cross_generation, cross_system, crosswords
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
