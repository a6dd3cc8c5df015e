"""The CSP's lanes side by side (crossword/csp.py, ``_rounds``): threads change nothing of
the outcome but its time."""

from __future__ import annotations

import random
from concurrent.futures import Future

import pytest
from grid_cases import backtrack_fills, random_case

from cryptocomp.crossword import FILLED, NO_FILL, GridError, Lexicon, csp, lane
from cryptocomp.crossword.csp import Budget, Problem, solve_csp
from cryptocomp.crossword.search import STOPPED
from cryptocomp.index.index import Index


def _index(words: list[str]) -> Index:
    return Index.from_counts({w: 10_000 - i for i, w in enumerate(words)}, name="t")


class _InTurn:
    """A stand-in for the rounds' thread pool: each round's turns run in this thread, one
    after another in lane order (``backwards``: last lane first), when the first outcome is
    asked for."""

    backwards = False

    def __init__(self, **_: object):
        self.queue: list[tuple[Future, tuple]] = []

    def __enter__(self) -> _InTurn:
        return self

    def __exit__(self, *exc: object) -> None:
        pass

    def submit(self, fn, *args) -> Future:
        pool = self

        class Late(Future):
            def result(self, timeout=None):
                pool.flush()
                return super().result(timeout)

        future = Late()
        self.queue.append((future, (fn, *args)))
        return future

    def flush(self) -> None:
        queue, self.queue = self.queue, []
        for future, (fn, *args) in (reversed(queue) if self.backwards else queue):
            future.set_result(fn(*args))


def _cases(count: int):
    for seed in range(count):
        rng = random.Random(9100 + seed)
        grid, words = random_case(rng, "ab" if seed % 3 else "абв")
        try:
            yield seed, grid, words, Problem(grid, Lexicon(_index(words)))
        except GridError:
            continue


def _outcome(result) -> tuple:
    return (result.status, result.steps, [tuple(f) for f in result.fills], result.message)


class _Backwards(_InTurn):
    backwards = True


def test_rounds_give_the_same_outcome_whatever_order_the_turns_run_in(monkeypatch):
    """Turns of a few nodes, relaxations from the start: the lanes in threads, and each
    round's turns run one after another, in lane order and backwards, give the same fills
    in the same order, the same steps and message, and exactly the backtracking fills."""
    monkeypatch.setattr(lane, "RELAX_AFTER", 0)
    monkeypatch.setattr(lane, "RELAX_MIN_SLOTS", 1)
    monkeypatch.setattr(lane, "SLICE", 50)
    checked = 0
    for seed, grid, words, prob in _cases(120):
        want = backtrack_fills(grid, words)
        threaded = solve_csp(prob, count=10**6, seed=seed, restart_base=2)
        for pool in (_InTurn, _Backwards):
            with monkeypatch.context() as m:
                m.setattr(csp, "ThreadPoolExecutor", pool)
                in_turn = solve_csp(prob, count=10**6, seed=seed, restart_base=2)
            assert _outcome(in_turn) == _outcome(threaded), (seed, pool)
        assert {tuple(f) for f in threaded.fills} == want, seed
        assert threaded.complete and threaded.status == (FILLED if want else NO_FILL)
        checked += threaded.steps > 0
    assert checked >= 40


@pytest.mark.parametrize("steps", [1, 7, 40, 300])
def test_a_step_budget_holds_with_the_lanes_side_by_side(steps, monkeypatch):
    """The rounds split the steps left between the counted lanes: a budget is overrun by
    at most two steps a lane (its share's rounding up, and a backtrack that ends a turn)."""
    monkeypatch.setattr(lane, "SLICE", 50)
    for seed, _, _, prob in _cases(40):
        result = solve_csp(prob, count=10**6, seed=seed, budget=Budget(steps=steps),
                           restart_base=2)
        assert result.steps <= steps + 6, (seed, result.steps)


def test_a_halted_lane_stops_at_once():
    """Ctrl-C while the lanes run: each is halted, and its turns return STOPPED."""
    for seed, _, _, prob in _cases(30):
        made = csp._lanes(prob, csp.strategy_for(prob), Budget(), 1, seed, lookahead=True,
                          freq_weight=0.25, letter_branch=0, restart_base=2)
        if isinstance(made, list):
            for each in made:
                each.halt()
                if isinstance(each, lane.Lane):
                    assert each.advance(10**9, float("inf")) == STOPPED
