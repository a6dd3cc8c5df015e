"""The restart lanes' nogoods (crossword/nogood.py) against plain backtracking."""

from __future__ import annotations

import random

import pytest
from grid_cases import backtrack_fills, parity_case, random_case

from cryptocomp.crossword import BUDGET, NO_FILL, GridError, Lexicon, parse_text
from cryptocomp.crossword.csp import Budget, Problem, _lanes, solve_csp
from cryptocomp.crossword.lane import Lane
from cryptocomp.crossword.search import EXHAUSTED, FOUND, RESTART
from cryptocomp.index.index import Index


def _index(words: list[str]) -> Index:
    return Index.from_counts({w: 10_000 - i for i, w in enumerate(words)}, name="t")


def _restart_lanes(prob: Problem, seed: int, n: int = 1) -> list[Lane]:
    """``n`` lanes restarting after every failure, each at its root ([]: the root decides)."""
    made = _lanes(prob, (("restarts", 1),) * n, Budget(), 10**6, seed, lookahead=True,
                  freq_weight=0.25, letter_branch=0, restart_base=1)
    return [lane for lane in made if isinstance(lane, Lane)] if isinstance(made, list) else []


@pytest.mark.parametrize("seed", range(80))
def test_every_nogood_excludes_only_fills_already_found(seed):
    """At each restart every nogood a lane holds is one: no fill that no lane has reported
    yet makes all its literals; and the lanes (one, or two taking turns), restarting after
    each failure, still end with exactly the backtracking fills."""
    rng = random.Random(7000 + seed)
    grid, words = random_case(rng, "abc" if seed % 4 else "абв")
    try:
        prob = Problem(grid, Lexicon(_index(words)))
    except GridError:
        return
    lanes = _restart_lanes(prob, seed, 1 + seed % 2)
    if not lanes:
        return
    want = backtrack_fills(grid, words)
    found: set[tuple[str, ...]] = set()
    for turn in range(100_000):
        lane = lanes[turn % len(lanes)]
        r = lane.advance(10**9, float("inf"))
        if r == FOUND:
            found.add(tuple(lane.words()))
        elif r == RESTART:
            lane.restart()
            lane.publish()  # for the mate's next restart, as the portfolio does
            for each in lanes:
                each.state._check()
                for literals in each.state.nogoods():
                    for fill in want - found:
                        assert not all(fill[s] == each.state.t.word(s, k)
                                       for s, k in literals), (literals, fill)
        else:
            assert r == EXHAUSTED
            break
    assert found == want


def test_a_restart_lane_proves_alone_that_no_fill_exists(tmp_path):
    """With nogoods the restarts are a complete search: the parity rectangle (no fill, and
    no propagation sees it) is proved impossible by the restarts strategy alone, as by the
    search without restarts."""
    grid_file, words_file = parity_case(tmp_path, rows=4, cols=5)
    words = [line.split()[0] for line in words_file.read_text().splitlines()]
    prob = Problem(parse_text(grid_file.read_text()), Lexicon(_index(words)))
    for strategy in ("restarts", "words"):
        result = solve_csp(prob, strategy=strategy, restart_base=2, seed=1)
        assert result.status == NO_FILL and result.complete, strategy
    (lane,) = _restart_lanes(prob, 1)
    while (r := lane.advance(10**9, float("inf"))) == RESTART:
        lane.restart()
    assert r == EXHAUSTED and lane.runs > 1 and lane.state.nogoods()
    lane.state._check()



def test_a_restart_whose_nogoods_are_not_compiled_by_its_deadline_stops(tmp_path,
                                                                       monkeypatch):
    """A first use whose budget runs out while the helper still compiles the nogoods: the
    restart stops its lane (STOPPED, the budget's answer), learning nothing, rather than
    compile them past the deadline."""
    from cryptocomp.crossword import warmup
    from cryptocomp.crossword.search import STOPPED

    grid_file, words_file = parity_case(tmp_path, rows=4, cols=5)
    words = [line.split()[0] for line in words_file.read_text().splitlines()]
    prob = Problem(parse_text(grid_file.read_text()), Lexicon(_index(words)))
    (lane,) = _restart_lanes(prob, 1)
    assert lane.advance(10**9, float("inf")) == RESTART
    deadlines: list[float] = []
    monkeypatch.setattr(warmup, "await_nogoods", lambda d: deadlines.append(d) or False)
    lane.restart()
    assert lane.over == STOPPED and lane.runs == 1 and not lane.state.nogoods()
    assert lane.advance(10**9, float("inf")) == STOPPED and deadlines == [float("inf")]
    result = solve_csp(prob, strategy="restarts", restart_base=2, seed=1)
    assert result.status == BUDGET and not result.complete


def test_twin_restart_lanes_take_each_others_nogoods(tmp_path):
    """Each of two restart lanes holds, after a restart, every nogood its mate recorded
    before it (the parity rectangle: no fill, many restarts), and the pair still proves
    that no fill exists."""
    grid_file, words_file = parity_case(tmp_path, rows=4, cols=5)
    words = [line.split()[0] for line in words_file.read_text().splitlines()]
    prob = Problem(parse_text(grid_file.read_text()), Lexicon(_index(words)))
    lanes = _restart_lanes(prob, 3, 2)
    assert [lane.mates for lane in lanes] == [[lanes[1]], [lanes[0]]]
    taken = 0
    for turn in range(100_000):
        lane = lanes[turn % 2]
        r = lane.advance(10**9, float("inf"))
        if r != RESTART:
            break
        lane.restart()
        lane.publish()
        if lane.over is not None:
            r = lane.over
            break
        lane.state._check()
        mate = lane.mates[0]
        mine = {frozenset(literals) for literals in lane.state.nogoods()}
        for first, end in mate.own:
            for literals in mate.state.nogoods()[first:end]:
                assert frozenset(literals) in mine
                taken += 1
    assert r == EXHAUSTED and taken > 0
