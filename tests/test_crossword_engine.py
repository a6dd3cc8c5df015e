"""The compiled CSP engine against plain oracles; budgets every engine honours; crafted ipuz."""

from __future__ import annotations

import itertools
import random
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest
from grid_cases import backtrack_fills, parity_case, random_case

from cryptocomp.cli import main
from cryptocomp.crossword import BUDGET, FILLED, NO_FILL, Grid, GridError, Lexicon, fill
from cryptocomp.crossword.check import fill_problems
from cryptocomp.crossword.csp import Problem, RootWipeout, root_domains, solve_csp
from cryptocomp.crossword.ipuz import parse_ipuz
from cryptocomp.index.index import Index


def _index(words: list[str]) -> Index:
    idx = Index.from_counts({w: 10_000 - i for i, w in enumerate(words)}, name="t")
    idx._check()
    return idx


def _needing_search(rng: random.Random, *, cells: bool):
    """A random grid whose root propagation leaves a search to do, and its state at the
    root (cell branching with ``cells``, else word branching).  Draws until one is found:
    two in three have no candidates or are decided at the root, and returning there would
    leave most cases checking nothing."""
    from cryptocomp.crossword.layout import LETTER_BRANCH
    from cryptocomp.crossword.propagation import OK
    from cryptocomp.crossword.search import root
    from cryptocomp.crossword.tables import State

    for _ in range(100):
        grid, words = random_case(rng, "abc")
        try:
            prob = Problem(grid, Lexicon(_index(words)))
        except GridError:
            continue
        state = State(prob.tables)
        state.params[LETTER_BRANCH] = -1 if cells else 0
        if root(state.T, state.D) == OK:
            return prob, state
    pytest.fail("no random grid needed a search")


def _oracle_domains(grid: Grid, words: list[str]) -> list[set[str]] | None:
    """Arc consistency by plain fixpoint over sets: a word stays in a slot while every crossing
    slot has a word with the same letter there; a slot with one word takes it from the other
    slots.  None when a slot runs out (the propagation oracle)."""
    doms = []
    for slot in grid.slots:
        doms.append({w for w in words if len(w) == slot.length and all(
            grid.given.get(cell, ch) == ch for cell, ch in zip(slot.cells, w))})
    crossings = grid.crossings()
    changed = True
    while changed:
        changed = False
        for a, pa, b, pb in crossings:
            for s, p, t, q in ((a, pa, b, pb), (b, pb, a, pa)):
                letters = {w[q] for w in doms[t]}
                keep = {w for w in doms[s] if w[p] in letters}
                if keep != doms[s]:
                    doms[s], changed = keep, True
        for s, d in enumerate(doms):
            if len(d) == 1:
                (w,) = d
                for t in range(len(doms)):
                    if t != s and w in doms[t]:
                        doms[t].discard(w)
                        changed = True
        if any(not d for d in doms):
            return None
    return doms


STRATEGIES = [dict(strategy="restarts", restart_base=2, seed=3), dict(strategy="words"),
              dict(strategy="cells"), dict(strategy="auto"),
              dict(strategy="words", letter_branch=1),
              dict(strategy="words", lookahead=False), dict(strategy="words", seed=5),
              dict(strategy="auto", seed=2), dict(strategy="auto", seed=2, parallel=False)]


@pytest.mark.parametrize("seed", range(40))
def test_every_strategy_finds_exactly_the_backtracking_fills(seed):
    rng = random.Random(seed)
    grid, words = random_case(rng, "abc" if seed % 3 else "абв")
    want = backtrack_fills(grid, words)
    for options in STRATEGIES:
        try:
            result = solve_csp(Problem(grid, Lexicon(_index(words))), count=10**6, **options)
        except GridError:
            return  # a slot length without words: refused up front, for every strategy
        got = [tuple(f) for f in result.fills]
        assert len(set(got)) == len(got), options
        assert set(got) == want, options
        assert result.complete and result.status == (FILLED if want else NO_FILL)
        for f in got:
            assert fill_problems(grid, set(words), list(f)) == []


@pytest.mark.parametrize("seed", range(60))
def test_root_propagation_matches_the_fixpoint_oracle(seed):
    rng = random.Random(1000 + seed)
    grid, words = random_case(rng, "ab" if seed % 2 else "abcd")
    try:
        prob = Problem(grid, Lexicon(_index(words)))
    except GridError:
        return
    prob.tables._check()
    want = _oracle_domains(grid, words)
    try:
        got = root_domains(prob)
    except RootWipeout:
        assert want is None
        return
    assert want is not None
    assert [{words_of for words_of in (prob.words[i] for i in d)} for d in got] == want
    # most frequent first, as the engines rely on
    assert all(list(d) == sorted(d) for d in got)


@pytest.mark.parametrize("seed", range(40))
def test_a_relaxation_has_exactly_the_fills_of_its_slots_alone(seed):
    """Tables.restricted keeps some slots and their crossings among themselves: its fills
    are the backtracking fills of those slots alone, and every fill of the grid cut down
    to them is one of them (so a relaxation without a fill proves the grid has none)."""
    import numpy as np

    from cryptocomp.crossword.layout import LETTER_BRANCH
    from cryptocomp.crossword.search import EXHAUSTED, FOUND, root, run
    from cryptocomp.crossword.tables import State

    rng = random.Random(5000 + seed)
    grid, words = random_case(rng, "abc")
    try:
        prob = Problem(grid, Lexicon(_index(words)))
    except GridError:
        return
    keep = sorted(rng.sample(range(prob.n), rng.randint(1, prob.n)))
    t = prob.tables
    full = State(t)
    cands = [np.sort(full.domain(s)) for s in keep]  # the initial words: given letters applied
    t._check()
    relaxed = t.restricted(keep, cands)
    relaxed._check()
    sub = State(relaxed)
    sub.params[LETTER_BRANCH] = -1 if seed % 2 else 0
    got = set()
    if root(sub.T, sub.D) == 0:
        while (r := run(sub.T, sub.D, 1 << 40)) != EXHAUSTED:
            if r == FOUND:
                got.add(tuple(sub.words()))
    want = backtrack_fills(grid, words, keep)
    assert got == want
    assert {tuple(f[s] for s in keep) for f in backtrack_fills(grid, words)} <= want


@pytest.mark.parametrize("seed", range(20))
def test_the_root_words_stay_the_first_of_each_sparse_set(seed):
    """Relaxation reads a slot's words at the root as the first root-size places of its
    sparse set, however far the search has gone since (removals swap within the alive
    part, undo grows it back): checked node by node against a copy taken at the root."""
    from cryptocomp.crossword.layout import DBASE
    from cryptocomp.crossword.search import EXHAUSTED, run

    prob, state = _needing_search(random.Random(9000 + seed), cells=seed % 2 == 1)
    slot, size = prob.tables.slot, state.size.copy()
    at_root = [set(state.domain(s).tolist()) for s in range(prob.n)]
    r = 0
    while r != EXHAUSTED:
        r = run(state.T, state.D, 1)
        for s in range(prob.n):
            db = slot[s, DBASE]
            assert set(state.dom[db:db + size[s]].tolist()) == at_root[s]


@pytest.mark.slow
def test_auto_proofs_through_relaxations_agree_with_backtracking(monkeypatch):
    """With relaxations from the first turn of the proof lane, auto still finds exactly the
    backtracking fills, and some of its proofs of "no fill" come from a relaxation."""
    from cryptocomp.crossword import csp, lane

    monkeypatch.setattr(lane, "RELAX_AFTER", 0)
    monkeypatch.setattr(lane, "RELAX_MIN_SLOTS", 1)
    monkeypatch.setattr(lane, "SLICE", 50)  # turns of a few nodes: the lanes interleave
    # the proof lane first (its first turn goes to a relaxation), then one restart lane
    monkeypatch.setattr(csp, "strategy_for", lambda prob: (("cells", 8), ("restarts", 1)))
    relaxed = 0
    for seed in range(400):
        rng = random.Random(7000 + seed)
        monkeypatch.setattr(lane, "RELAX_FIRST", rng.uniform(0.3, 0.99))
        grid, words = random_case(rng, "ab")
        try:
            prob = Problem(grid, Lexicon(_index(words)))
        except GridError:
            continue
        want = backtrack_fills(grid, words)
        # the lanes side by side, and (every other case) taking turns in one thread
        result = solve_csp(prob, count=10**6, strategy="auto", seed=seed,
                           parallel=seed % 2 == 0)
        assert {tuple(f) for f in result.fills} == want, seed
        assert result.complete and result.status == (FILLED if want else NO_FILL)
        relaxed += "cut down to" in result.message
    assert relaxed >= 5  # 7 of the 59 proofs that need a search


def test_failure_weights_age_in_restart_lanes_only():
    """A failure ages the weights (their excess over 1) by params[AGE]: recent failures
    steer dom/wdeg more than old ones in the lanes that restart; the others keep them."""
    import numpy as np

    from cryptocomp.crossword import csp, lane
    from cryptocomp.crossword.layout import AGE, FAILS
    from cryptocomp.crossword.search import _failed

    ctl, params = np.zeros(20, dtype=np.int64), np.zeros(8)
    weight, sweight = np.array([1.0, 3.0, 1.5]), np.array([2.0, 0.0])
    params[AGE] = 0.5
    _failed(ctl, params, weight, sweight)
    assert ctl[FAILS] == 1 and weight.tolist() == [1.0, 2.0, 1.25] and sweight.tolist() == [1, 0]
    params[AGE] = 1.0
    _failed(ctl, params, weight, sweight)
    assert ctl[FAILS] == 2 and weight.tolist() == [1.0, 2.0, 1.25] and sweight.tolist() == [1, 0]
    prob = Problem(Grid.from_rows(["...", ".#.", "..."]), Lexicon(_index(["abc", "bca", "cab"])))
    lanes = csp._lanes(prob, csp.strategy_for(prob), csp.Budget(), 1, None, lookahead=True,
                       freq_weight=0.25, letter_branch=0, restart_base=400)
    assert [(each.kind, each.state.params[AGE]) for each in lanes] == [
        ("restarts", lane.WEIGHT_AGE), ("restarts", lane.WEIGHT_AGE), ("cells", 1.0)]


def test_the_twin_restart_lane_weighs_frequency_less():
    """The second restart lane scores words with TWIN_FREQ times the frequency weight (the
    lanes differ in what they try first); the others, and every lane ordering words by
    frequency alone, keep the weight they are given."""
    from cryptocomp.crossword import csp, lane
    from cryptocomp.crossword.layout import FREQ_WEIGHT

    prob = Problem(Grid.from_rows(["...", ".#.", "..."]), Lexicon(_index(["abc", "bca", "cab"])))
    for lookahead, want in ((True, [0.3, 0.3 * lane.TWIN_FREQ, 0.3]), (False, [1.0] * 3)):
        lanes = csp._lanes(prob, csp.strategy_for(prob), csp.Budget(), 1, None,
                           lookahead=lookahead, freq_weight=0.3, letter_branch=0,
                           restart_base=400)
        assert [each.state.params[FREQ_WEIGHT] for each in lanes] == pytest.approx(want)


def test_learned_weights_carry_to_the_next_search_of_the_same_grid():
    """The restart lanes of a new search of the grid start from the weights of the lane that
    failed most (the cells lane, and lanes of another grid, keep their own)."""
    from cryptocomp.crossword import csp
    from cryptocomp.crossword.lane import Learned
    from cryptocomp.crossword.layout import FAILS

    def lanes_of(prob):
        return csp._lanes(prob, csp.strategy_for(prob), csp.Budget(), 1, None,
                          lookahead=True, freq_weight=0.25, letter_branch=0, restart_base=400)

    grid = Grid.from_rows(["...", ".#.", "..."])
    first = lanes_of(Problem(grid, Lexicon(_index(["abc", "bca", "cab"]))))
    for k, lane_ in enumerate(first[:2]):
        lane_.state.weight[:] = 3.0 + k
        lane_.state.sweight[:] = 1.0 + k
        lane_.state.ctl[FAILS] = 5 + k
    learned = Learned()
    learned.give(first)  # nothing kept yet: nothing changes
    assert first[0].state.weight.tolist()[0] == 3.0
    learned.take(first)
    again = lanes_of(Problem(grid, Lexicon(_index(["abc", "bca", "cab", "aaa"]))))
    learned.give(again)
    assert [each.kind for each in again] == ["restarts", "restarts", "cells"]
    for each in again[:2]:
        assert set(each.state.weight.tolist()) == {4.0}
        assert set(each.state.sweight.tolist()) == {2.0}
    assert set(again[2].state.weight.tolist()) == {1.0}
    other = lanes_of(Problem(Grid.from_rows(["...", ".#.", "..."]),
                             Lexicon(_index(["abc", "bca", "cab"]))))
    learned.give(other)  # an equal grid, but not this one
    assert set(other[0].state.weight.tolist()) == {1.0}


def test_a_word_is_never_used_twice_even_in_large_length_groups():
    # 600 slots of one length: past EAGER_DUPES a placed word is only checked when it would be
    # placed again (the word list has 676 words, so a fill exists)
    grid = Grid.from_rows(["..#" * 300, "###" * 300, "..#" * 300])
    words = [a + b for a in "abcdefghijklmnopqrstuvwxyz" for b in "abcdefghijklmnopqrstuvwxyz"]
    result = fill(grid, _index(words), engine="csp", seconds=60)
    assert result.filled
    assert fill_problems(grid, set(words), result.words) == []


@pytest.mark.parametrize("seed", range(30))
def test_search_progress_never_falls_and_stays_below_one(seed):
    """auto widens a complete lane's share by the odds of its progress: the estimate must
    grow with the search, node by node, for word and cell branching alike."""
    from cryptocomp.crossword.layout import DEPTH
    from cryptocomp.crossword.search import EXHAUSTED, progress, run

    _prob, state = _needing_search(random.Random(3000 + seed), cells=seed % 2 == 1)
    seen, r = [0.0], 0
    while r != EXHAUSTED:
        r = run(state.T, state.D, 1)
        if r != EXHAUSTED:
            seen.append(progress(state.dec, int(state.ctl[DEPTH])))
    assert all(a <= b for a, b in itertools.pairwise(seen)), seen
    assert seen[-1] < 1.0


def test_a_complete_search_near_its_end_gets_the_odds_of_its_progress():
    from cryptocomp.crossword.lane import PROOF_BOOST, boosted_share

    for done, share in ((0.0, 2), (0.5, 2), (0.8, 8), (0.9, 18), (0.9999, 2 * PROOF_BOOST),
                        (1.0, 2 * PROOF_BOOST)):
        assert boosted_share(2, done) == share, done


# -- budgets ------------------------------------------------------------------------------

def test_load_engine_compiles_the_very_code_every_search_calls():
    """fill() loads the engine before its budget starts (the first fill after installing
    compiled inside the budget: ``--time 5`` ended after 17.8 s with 0 steps); that only
    helps if the warm-up's signatures are the ones the searches call: no second compile."""
    from cryptocomp.crossword.csp import load_engine
    from cryptocomp.crossword.propagation import undo
    from cryptocomp.crossword.rectangle import _search
    from cryptocomp.crossword.search import root, run

    load_engine()
    compiled = (root, run, undo, _search)
    assert [len(f.signatures) for f in compiled] == [1, 1, 1, 1]
    square = Grid.from_rows(["...", "...", "..."])
    lex = Lexicon(_index(["cat", "are", "tea", "cab", "ate", "tee", "ace", "rat", "eat", "at",
                          "ta", "ea", "ae", "re", "er", "te", "et"]))
    for strategy in ("auto", "rows", "words", "cells"):
        solve_csp(Problem(square, lex), strategy=strategy, count=3)
    blocked = Grid.from_rows(["..#", "...", "#.."])
    solve_csp(Problem(blocked, lex), strategy="restarts", restart_base=1, count=50)
    assert [len(f.signatures) for f in compiled] == [1, 1, 1, 1]


def test_fill_still_runs_with_numba_jit_disabled():
    """NUMBA_DISABLE_JIT=1 (debugging the searches as plain Python) has no machine code to
    load: the engine's warm-up raised AttributeError there."""
    import os

    code = ("from cryptocomp.crossword import Grid, fill\n"
            "from cryptocomp.index.index import Index\n"
            "idx = Index.from_counts({'at': 4, 'to': 3, 'an': 2, 'no': 1}, name='t')\n"
            "print(fill(Grid.from_rows(['..', '..']), idx).status)\n")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env={**os.environ, "NUMBA_DISABLE_JIT": "1"}, timeout=120)
    assert proc.returncode == 0 and proc.stdout.strip() == "filled", proc.stderr[-2000:]


def test_the_compiled_clock_reads_the_clock_of_the_deadlines():
    """The searches compare their clock with deadlines made from time.monotonic(): the
    two must be one clock (on Linux the compiled one calls clock_gettime itself)."""
    import time

    from cryptocomp.crossword.clock import clock

    for _ in range(100):
        before = time.monotonic()
        now = clock()
        assert before <= now <= time.monotonic()


@pytest.mark.parametrize("engine", ["csp", "auto"])
@pytest.mark.slow
def test_ctrl_c_during_the_compiled_search_is_one_line(tmp_path, engine):
    """Found by pressing Ctrl-C in tmux: the interrupt struck inside the compiled search's
    clock callback and came out as a SystemError traceback with exit 1."""
    import signal

    grid, wf = parity_case(tmp_path)
    # compiled (and cached) here first, so that the child's four seconds go to the search
    assert fill(Grid.from_rows(["..", ".."]), _index(["at", "no", "an", "to"])).filled
    # SIGINT as a terminal's Ctrl-C leaves it (a suite started in the background ignores it,
    # and the child would inherit that: the search then ran on to its step budget)
    proc = subprocess.Popen([sys.executable, "-m", "cryptocomp", "fill", str(grid), "--dict",
                             str(wf), "--engine", engine], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True,
                            cwd=Path(__file__).resolve().parent.parent,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        time.sleep(4)  # past start-up, into the search (the parity grid has no fill)
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=60)
    finally:
        proc.kill()
        proc.communicate()
    assert proc.returncode == 130, err
    assert "Traceback" not in err and err.strip().splitlines()[-1] == "cryptocomp: interrupted"


@pytest.mark.parametrize("engine", ["csp", "sat", "auto"])
@pytest.mark.slow
def test_time_budget_stops_every_engine_with_exit_3(tmp_path, capsys, engine):
    grid, wf = parity_case(tmp_path)
    main(["fill", str(grid), "--dict", str(wf), "--steps", "1"])  # index built, code loaded
    capsys.readouterr()
    budget = 2.0
    t0 = time.monotonic()
    code = main(["fill", str(grid), "--dict", str(wf), "--engine", engine,
                 "--time", str(budget), "--json"])
    elapsed = time.monotonic() - t0
    out, err = capsys.readouterr()
    assert code == 3, out
    assert elapsed <= budget * 1.1 + 1.0
    assert "Traceback" not in out + err
    import json

    doc = json.loads(out)
    assert doc["status"] == "budget" and "budget exhausted" in doc["message"]
    if engine != "sat":
        assert doc["partial"] and doc["culprit"]


@pytest.mark.parametrize("engine", ["csp", "sat"])
def test_step_budget_stops_every_engine(tmp_path, capsys, engine):
    grid, wf = parity_case(tmp_path)
    assert main(["fill", str(grid), "--dict", str(wf), "--engine", engine,
                 "--steps", "500", "--json"]) == 3
    out = capsys.readouterr().out
    assert '"status": "budget"' in out


def test_sat_child_memory_cap_is_a_budget_outcome_not_a_crash(tmp_path):
    grid, wf = parity_case(tmp_path, 10, 11)  # an encoding of some ten megabytes
    # in a fresh process: a forked child reuses the parent's free heap before its address
    # space grows, and after other tests the suite's process has plenty
    code = textwrap.dedent(f"""
        from cryptocomp import load_index
        from cryptocomp.crossword import Lexicon, read_grid
        from cryptocomp.crossword.problem import Problem
        from cryptocomp.crossword.sat import solve_sat
        prob = Problem(read_grid({str(grid)!r}), Lexicon(load_index({str(wf)!r})))
        result = solve_sat(prob, memory_limit=1 << 20)  # 1 MiB more than the child has
        print(result.status, result.message)
    """)
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120, cwd=Path(__file__).resolve().parent.parent)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith(BUDGET) and "out of memory" in proc.stdout
    assert "Traceback" not in proc.stderr and "Fatal" not in proc.stderr


def test_auto_says_which_engine_proved_no_fill():
    words = ["ab", "ba", "cat"]
    grid = Grid.from_rows(["..#...", "..####"])
    for engine, needle in (("csp", "proved by the CSP"), ("sat", "proved by SAT")):
        result = fill(grid, _index(words), engine=engine)
        assert result.status == NO_FILL and needle in result.message


# -- crafted ipuz (issue 12, item 7) ------------------------------------------------------

@pytest.mark.parametrize("text, needle", [
    ("[" * 100_000, "nested more than"),
    ('{"kind": ["http://ipuz.org/crossword#1"], "dimensions": {"width": ' + "9" * 5000
     + ', "height": 3}}', "unreadable JSON"),
    ('{"kind": ["crossword"], "dimensions": {"width": 1e999, "height": 2}}', "dimensions"),
])
def test_crafted_ipuz_is_one_clear_error(text, needle):
    with pytest.raises(GridError, match=needle):
        parse_ipuz(text)


def test_crafted_ipuz_through_the_cli(tmp_path, capsys):
    path = tmp_path / "deep.ipuz"
    path.write_text("[" * 100_000, encoding="utf-8")
    assert main(["fill", str(path)]) == 2
    captured = capsys.readouterr()
    assert "Traceback" not in captured.out + captured.err
    assert "nested more than" in captured.err
