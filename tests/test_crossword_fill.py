"""Both engines against exhaustive search on tiny grids; outcomes; squares; the checker."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cryptocomp.crossword import BUDGET, FILLED, NO_FILL, Grid, GridError, Lexicon, fill, parse_text
from cryptocomp.crossword.check import fill_problems
from cryptocomp.crossword.csp import Problem, solve_csp
from cryptocomp.crossword.square import square_grid
from cryptocomp.index import Index, WordFilter


def _brute(grid: Grid, words: list[str]) -> set[tuple[str, ...]]:
    """Every fill, by trying every word in every slot and keeping what the checker accepts
    (a partial choice whose letters already clash in a cell is not extended: the checker
    would refuse every completion of it)."""
    options = [[w for w in words if len(w) == s.length] for s in grid.slots]
    out: set[tuple[str, ...]] = set()

    def extend(combo: list[str], letters: dict) -> None:
        k = len(combo)
        if k == len(options):
            if not fill_problems(grid, set(words), list(combo)):
                out.add(tuple(combo))
            return
        for w in options[k]:
            cells = grid.slots[k].cells
            if all(letters.get(cell, ch) == ch for cell, ch in zip(cells, w)):
                extend(combo + [w], {**letters, **dict(zip(cells, w))})

    extend([], {})
    return out


def _index(words: list[str]) -> Index:
    idx = Index.from_counts({w: 1000 - i for i, w in enumerate(words)}, name="t")
    idx._check()
    return idx


def _grid_and_words(draw, *, width: int, cells: str, letters: str, longest: int,
                    words: tuple[int, int]) -> tuple[list[str], list[str]]:
    """A grid of 2-3 rows and 2-``width`` columns of ``cells``, and distinct words of 2 to
    ``longest`` ``letters``, ``words[0]`` to ``words[1]`` of them."""
    h, w = draw(st.integers(2, 3)), draw(st.integers(2, width))
    rows = ["".join(draw(st.sampled_from(cells)) for _ in range(w)) for _ in range(h)]
    return rows, draw(st.lists(st.text(letters, min_size=2, max_size=longest),
                               min_size=words[0], max_size=words[1], unique=True))


@st.composite
def _case(draw):
    return _grid_and_words(draw, width=4, cells="...#a", letters="abc", longest=4,
                           words=(3, 14))


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_case(), st.sampled_from(["csp", "csp-frequency", "csp-letters", "csp-restarts", "sat"]))
def test_engines_find_exactly_the_fills_brute_force_finds(case, engine):
    rows, words = case
    try:
        grid = parse_text("\n".join(rows))
        if engine in ("csp-letters", "csp-restarts"):
            # letter branching on every slot with 2+ candidates; restarts every few steps
            prob = Problem(grid, Lexicon(_index(words)))
            result = solve_csp(prob, count=10_000, seed=7,
                               letter_branch=1 if engine == "csp-letters" else 0,
                               restart_base=2 if engine == "csp-restarts" else 0)
        else:
            result = fill(grid, _index(words), engine=engine.split("-")[0], count=10_000,
                          lookahead=not engine.endswith("frequency"))
    except GridError:
        return  # no slot, or a slot length without words: refused up front
    want = _brute(grid, words)
    got = {tuple(f) for f in result.fills}
    assert len(got) == len(result.fills), "a fill was reported twice"
    assert result.complete
    assert got == want
    assert result.status == (FILLED if want else NO_FILL)
    for f in result.fills:
        assert fill_problems(grid, set(words), f) == []


@settings(max_examples=25, deadline=None)
@given(st.lists(st.text("ab", min_size=3, max_size=3), min_size=3, max_size=8, unique=True),
       st.booleans(), st.sampled_from(["csp", "csp-letters", "sat"]))
def test_squares_match_brute_force(words, symmetric, engine):
    grid = square_grid(3, symmetric=symmetric)
    if engine == "csp-letters":
        result = solve_csp(Problem(grid, Lexicon(_index(words))), count=10_000, letter_branch=1)
    else:
        result = fill(grid, _index(words), engine=engine, count=10_000)
    want = _brute(grid, words)
    assert {tuple(f) for f in result.fills} == want
    if symmetric:
        for f in result.fills:
            letters = grid.letters_of(f)
            assert all(letters[(i, j)] == letters[(j, i)] for i in range(3) for j in range(3))


def test_given_letters_are_kept_and_frequency_decides():
    words = ["car", "cat", "cob", "ten", "bun", "arc", "tar"]
    grid = parse_text("c..\n.#.\n...")
    result = fill(grid, _index(words), engine="csp")
    assert result.filled and result.words[0][0] == "c"
    assert fill_problems(grid, set(words), result.words) == []
    # the most frequent word that can lead goes first
    assert result.words == ["cat", "bun", "cob", "ten"]


def test_no_fill_names_the_slot():
    words = ["cat", "dog", "cow"]
    result = fill(parse_text("x..\n.#.\n..."), _index(words + ["xyz"]), engine="csp")
    assert result.status == NO_FILL and result.culprit is not None
    assert result.culprit in result.message


def test_sat_core_names_a_region():
    # a 2x2 corner fillable only by repeating a word (ab/ba rows force ab/ba columns), and
    # an independent 3-letter slot: the proof must come from search, the core is the corner
    words = ["ab", "ba", "cat"]
    grid = parse_text("..#...\n..####")
    csp = fill(grid, _index(words), engine="csp")
    sat = fill(grid, _index(words), engine="sat")
    assert csp.status == sat.status == NO_FILL
    assert csp.steps > 0  # not refuted by propagation alone
    corner = {s.name for s in grid.slots if s.length == 2}
    assert sat.region and set(sat.region) <= corner
    assert "cannot all be filled together" in sat.message


def test_budget_exhausted_gives_partial_and_culprit():
    import random

    rng = random.Random(1)
    words = sorted({"".join(rng.choice("abcdef") for _ in range(5)) for _ in range(400)})
    grid = parse_text("\n".join(["....."] * 5))
    result = fill(grid, _index(words), engine="csp", steps=64)
    assert result.status in (BUDGET, NO_FILL, FILLED)
    if result.status == BUDGET:
        assert result.partial is not None and len(result.partial) == len(grid.slots)
        assert result.culprit is not None and result.culprit_candidates is not None
        assert "budget exhausted" in result.message


def test_several_fills_differ_and_seeds_reproduce():
    words = ["cat", "car", "art", "tar", "act", "arc", "rat", "tea", "eat", "ate", "ace", "are"]
    grid = parse_text("...\n.#.\n...")
    a = fill(grid, _index(words), engine="csp", count=5, seed=3)
    b = fill(grid, _index(words), engine="csp", count=5, seed=3)
    assert a.fills == b.fills
    assert len({tuple(f) for f in a.fills}) == len(a.fills) == 5
    s = fill(grid, _index(words), engine="sat", count=5)
    assert len({tuple(f) for f in s.fills}) == 5


def test_auto_engine_and_json():
    words = ["car", "cat", "cob", "ten", "bun", "arc", "tar"]
    result = fill(parse_text("...\n.#.\n..."), _index(words), engine="auto")
    assert result.filled
    doc = result.to_json()
    assert doc["format"] == 1 and doc["status"] == "filled"
    assert doc["fills"][0]["grid"][1][1] == "#"


def test_options_restrict_words():
    words = ["cat", "car", "arc", "cob", "ten", "bun", "tar"]
    idx = _index(words)
    grid = parse_text("...\n.#.\n...")
    assert fill(grid, idx, engine="csp").filled
    # with the top 3 words only (cat car arc) nothing fits
    assert fill(grid, idx, WordFilter(top=3), engine="csp").status == NO_FILL
    with pytest.raises(GridError, match="word list is empty: no word of t has at most 2 letters"):
        fill(grid, idx, WordFilter(max_length=2))
    with pytest.raises(GridError):
        fill(grid, idx, engine="bogus")


@pytest.mark.slow
def test_english_15x15_fills_and_checks():
    from pathlib import Path

    from cryptocomp import load_index
    from cryptocomp.crossword import Lexicon, read_grid

    idx = load_index("en")
    grid = read_grid(Path(__file__).parent.parent / "cryptocomp/data/grids/american15.txt")
    result = fill(grid, idx, WordFilter(top=100_000), engine="csp", seconds=60)
    assert result.filled
    lex = Lexicon(idx, WordFilter(top=100_000))
    assert fill_problems(grid, lex, result.words) == []


@st.composite
def _many_fills(draw):
    """Small open grids over a two-letter alphabet: many fills, and counts with ties."""
    rows, words = _grid_and_words(draw, width=3, cells="......#a", letters="ab", longest=3,
                                  words=(4, 12))
    counts = draw(st.lists(st.integers(1, 6), min_size=len(words), max_size=len(words)))
    return rows, words, counts


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_many_fills(), st.sampled_from(["csp", "sat", "auto"]))
def test_improving_finds_the_fill_whose_rarest_word_is_commonest(case, engine):
    """The oracle: of every fill brute force finds, the best rarest-word count (counts with
    ties, which never count as an improvement)."""
    rows, words, counts = case
    idx = Index.from_counts(dict(zip(words, counts)), name="t")
    try:
        grid = parse_text("\n".join(rows))
        result = fill(grid, idx, engine=engine, improve=30)
    except GridError:
        return
    want = _brute(grid, words)
    if not want:
        assert result.status == NO_FILL and result.improvement is None
        return
    best = max(min(idx.count(w) for w in f) for f in want)
    assert tuple(result.words) in want and len(result.fills) == 1
    assert min(idx.count(w) for w in result.words) == best
    imp = result.improvement
    assert imp is not None and imp.optimal and not imp.interrupted
    assert imp.after[1] == best and imp.after[0] in result.words
    assert imp.before[1] <= best
    assert ("improved" in result.message) == (imp.before[1] < best)


def test_improving_keeps_to_the_time_budget():
    """Tries that never decide (each spends all the time it is given) end the improvement
    within its seconds, or within the fill's budget when that is sooner."""
    import time

    from cryptocomp.crossword.improvement import improve
    from cryptocomp.crossword.problem import Budget
    from cryptocomp.crossword.result import FillResult

    words = {"car": 50, "arc": 40, "cob": 30, "ten": 20, "bun": 10, "tar": 5, "cat": 1}
    idx = Index.from_counts(words, name="t")
    grid = parse_text("...\n.#.\n...")
    given = []

    def stalled(sub, budget):
        given.append(budget.seconds)
        time.sleep(budget.seconds)
        return FillResult(grid, BUDGET)

    for seconds, cap in ((0.6, None), (30.0, 0.8)):
        given.clear()
        first = fill(grid, idx, engine="csp")
        before = list(first.words)
        t0 = time.monotonic()
        result = improve(first, Lexicon(idx), stalled, seconds=seconds,
                         budget=Budget(seconds=cap))
        took = time.monotonic() - t0
        limit = min(seconds, cap or seconds)
        assert took <= limit * 1.1 + 0.1, (seconds, took)
        assert len(given) >= 2 and sum(given) <= limit + 0.01  # halves of the time left
        imp = result.improvement
        assert imp is not None and not imp.optimal and imp.before == imp.after
        assert result.words == before and "no fill found" in result.message


def test_improving_interrupted_keeps_the_best_fill():
    from cryptocomp.crossword.improvement import improve
    from cryptocomp.crossword.problem import Budget

    words = {"cat": 1, "car": 50, "arc": 40, "cob": 30, "ten": 20, "bun": 10, "tar": 5,
             "ton": 60, "tub": 45}
    idx = Index.from_counts(words, name="t")
    grid = parse_text("...\n.#.\n...")
    lex = Lexicon(idx)
    first = fill(grid, idx, engine="csp")
    calls = []

    def solve(sub, budget):
        calls.append(sub.kept)
        if len(calls) > 1:
            raise KeyboardInterrupt
        return solve_csp(Problem(grid, sub), budget=budget)

    before = list(first.words)
    result = improve(first, lex, solve, seconds=30, budget=Budget())
    assert len(calls) == 2 and result.improvement is not None
    assert result.improvement.interrupted and "interrupted" in result.message
    assert result.filled and fill_problems(grid, set(words), result.words) == []
    rarest = min(idx.count(w) for w in result.words)
    assert rarest >= min(idx.count(w) for w in before)


def test_improving_refuses_bad_options():
    idx = _index(["cat", "car", "arc", "cob", "ten", "bun", "tar"])
    grid = parse_text("...\n.#.\n...")
    for improve in (0, -1, float("nan"), float("inf")):
        with pytest.raises(GridError, match="improvement time"):
            fill(grid, idx, improve=improve)
    with pytest.raises(GridError, match="one fill"):
        fill(grid, idx, count=2, improve=1)
