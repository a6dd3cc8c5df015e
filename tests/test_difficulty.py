"""The difficulty model (cryptarithm.deduction, cryptarithm.difficulty) against the
brute-force oracle: no deduction ever removes a solution, a guess only drops digits no
solution uses, the path reaches a true solution exactly when there is one, and its steps
replayed reach it; and the ordering of examples a person would agree with."""

from __future__ import annotations

import itertools
import math
import time

import pytest
import system_cases
from hypothesis import given
from hypothesis import strategies as st
from system_cases import systems

from cryptocomp.cryptarithm import constraint
from cryptocomp.cryptarithm.constraint import Bounds, Column, Columns
from cryptocomp.cryptarithm.deduction import (
    Carry,
    deduce,
    model_of,
    system_of_puzzle,
)
from cryptocomp.cryptarithm.difficulty import (
    CUTS,
    Difficulty,
    level_of,
    rate,
    solution_path,
    system_of,
)
from cryptocomp.cryptarithm.expr import fold, parse
from cryptocomp.cryptarithm.forms import span
from cryptocomp.cryptarithm.propagation import fixpoint
from cryptocomp.cryptarithm.solve import solve
from cryptocomp.cryptarithm.system import Constant, System, brute_solutions, holds_system
from cryptocomp.errors import ExpressionError

MAX_BRUTE = system_cases.MAX_BRUTE


def _fits(domains, fill) -> bool:
    """Whether a solution is still allowed by the symbols' domains."""
    return all(fill[s] in domains[s] for s in fill)


def _replay(model, steps):
    """The domains after applying each step's narrowing in turn from the start."""
    domains = dict(model.initial)
    for step in steps:
        for n in step.narrowed:
            if n.var in domains and step.kind != "leading":
                assert domains[n.var] == n.before
            domains[n.var] = n.after
    return domains


@given(systems())
def test_no_deduction_removes_a_solution_and_guesses_drop_only_failures(system):
    """Every deduction keeps every solution the earlier guesses allow; each digit a guess
    says failed is used by no such solution; the path ends at a solution iff there is one."""
    solutions = list(brute_solutions(system))
    path = solution_path(system, seconds=30, nodes=10**6)
    assert path.complete
    model = path.model
    domains = {s: frozenset(range(system.base)) for s in system.symbols}
    alive = solutions
    for step in path.steps:
        before = dict(domains)
        for n in step.narrowed:
            if not isinstance(n.var, Carry):
                domains[n.var] = n.after
        if step.kind == "guess":
            assert all(f[step.symbol] != d for f in alive if _fits(before, f)
                       for d in step.refuted)
            alive = [f for f in alive if _fits(domains, f)]
        else:
            assert all(_fits(domains, f) for f in alive if _fits(before, f)), step
    if solutions:
        assert path.solution is not None and holds_system(system, path.solution)
        assert path.solution in solutions
        final = _replay(model, path.steps)
        assert {s: set(final[s]) for s in system.symbols} == \
            {s: {d} for s, d in path.solution.items()}
    else:
        assert path.solution is None
        assert rate(system, seconds=30, nodes=10**6).reason == "no solution"


@given(systems(), st.data())
def test_deduce_from_any_domains_keeps_the_solution(system, data):
    """From any domains that still hold a solution, the fixpoint keeps it (and so reaches
    no contradiction): each deduction is sound wherever a search meets it."""
    solutions = list(brute_solutions(system))
    if not solutions:
        return
    fill = data.draw(st.sampled_from(solutions))
    model = model_of(system)
    domains = dict(model.initial)
    for s in system.symbols:
        extra = data.draw(st.sets(st.integers(0, system.base - 1)))
        domains[s] = (domains[s] & frozenset(extra)) | {fill[s]}
    out = deduce(model, domains)
    assert not out.contradiction
    assert _fits(out.domains, fill)


def _random_domains(system, model, data):
    """The model's start with each symbol's digits cut down at random."""
    domains = dict(model.initial)
    for s in system.symbols:
        keep = data.draw(st.sets(st.integers(0, system.base - 1), min_size=1))
        domains[s] = domains[s] & frozenset(keep) or domains[s]
    return domains


@given(systems(), st.data())
def test_the_work_list_fixpoint_is_the_fixpoint_of_the_deductions(system, data):
    """propagation.fixpoint (any order, no steps) ends where deduce (cheapest first) does."""
    model = model_of(system)
    domains = _random_domains(system, model, data)
    slow = deduce(model, domains)
    fast = fixpoint(model_of(system), domains)
    assert fast.contradiction == slow.contradiction
    if not slow.contradiction:
        assert fast.domains == slow.domains


def _support(c, domains):
    """A column's (or two columns') supports by brute force: every value of every variable
    (symbols and carries) that some assignment satisfying the columns uses."""
    columns = [c.lower, c.upper] if isinstance(c, Columns) else [c]
    names = list(dict.fromkeys(v for col in columns for v in
                               (*col.symbols, col.carry_in, col.carry_out) if v is not None))
    seen = {v: set() for v in names}
    for values in itertools.product(*(sorted(domains[v]) for v in names)):
        fill = dict(zip(names, values))
        digits = [fill[v] for v in names if not isinstance(v, Carry)]
        if len(set(digits)) < len(digits):
            continue
        if all(sum(k * fill[s] for s, k in col.terms) + col.const +
               (fill[col.carry_in] if col.carry_in else 0) ==
               col.base * (fill[col.carry_out] if col.carry_out else 0) for col in columns):
            for v in names:
                seen[v].add(fill[v])
    return {v: frozenset(got) for v, got in seen.items()}


@given(systems(), st.data(), st.sampled_from([0, 10**9]))
def test_column_deductions_keep_exactly_the_supported_values(system, data, vector):
    """Each column (and pair of columns), pruned one assignment at a time or as one numpy
    block, keeps exactly the values some assignment of its columns uses."""
    model = model_of(system)
    domains = _random_domains(system, model, data)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(constraint, "VECTOR", vector)
        for c in model.constraints:
            if isinstance(c, (Column, Columns)) and \
                    math.prod(len(domains[s]) for s in c.symbols) <= constraint.LIMIT:
                got = c.prune(domains)
                want = _support(c, domains)
                assert {v: got.get(v, domains[v]) for v in want} == want, c


def _span_of(node, domains, base):
    """A tree's least and greatest value, each digit over its domain (interval arithmetic
    by a plain fold: the reference of the bounds deduction)."""
    def leaf(n):
        if isinstance(n, Constant):
            return n.value, n.value
        lo = hi = 0
        for ch in n.word:
            lo, hi = lo * base + min(domains[ch]), hi * base + max(domains[ch])
        return lo, hi
    return fold(node, leaf, lambda n, a, b: span(n.op, a, b))


@given(systems(), st.data())
def test_the_bounds_of_products_keep_the_digits_interval_arithmetic_allows(system, data):
    """A product's bounds deduction keeps digit d of s exactly when the spans of both sides
    with s = d (every other digit over its domain) allow the comparator."""
    model = model_of(system)
    domains = _random_domains(system, model, data)
    for c in model.constraints:
        if isinstance(c, Bounds) and c.linear is None:
            got = c.prune(domains)
            for s in c.symbols:
                keep = set()
                for d in domains[s]:
                    trial = {**domains, s: frozenset([d])}
                    a, b = (_span_of(side, trial, system.base) for side in (c.left, c.right))
                    if {"=": a[0] <= b[1] and b[0] <= a[1], "!=": not a[0] == a[1] == b[0] == b[1],
                        "<": a[0] < b[1], "<=": a[0] <= b[1], ">": a[1] > b[0],
                        ">=": a[1] >= b[0]}[c.op]:
                        keep.add(d)
                assert got[s] == keep, (c, s)


@given(systems())
def test_unique_puzzles_are_rated_and_explained_to_their_solution(system):
    """A puzzle with exactly one solution gets a level, and its steps replayed give
    exactly that solution."""
    solutions = list(brute_solutions(system))
    if len(solutions) != 1:
        return
    d = rate(system, seconds=30, nodes=10**6)
    assert d.rated and 1 <= d.level <= 5 and d.level == level_of(d.score)
    path = solution_path(system, seconds=30, nodes=10**6)
    final = _replay(path.model, path.steps)
    assert {s: min(final[s]) for s in system.symbols} == solutions[0]
    assert all(len(final[s]) == 1 for s in system.symbols)


@given(systems())
def test_a_text_rates_as_its_system(system):
    """The text of a system, read in its base by the cryptarithm language, rates exactly as
    the system itself (the model reads the parsed system, whatever its syntax)."""
    text = system.render()
    assert rate(text, base=system.base, seconds=60, nodes=10**5) == \
        rate(system, seconds=60, nodes=10**5)


# -- examples ----------------------------------------------------------------------------

# puzzles in the order a person finds them harder: a few columns settle the first; many
# columns, without a guess, the next; then puzzles that need guesses, some taken back
LADDER = ["a+a+a+a+a+a+a+a+a+a+a+b=bcc", "i+bb=ill", "no+no+too=late", "send+more=money",
          "games+letter+value=values", "azure+gray+grey=yellow", "azure+green+purple=orange"]


def test_the_ladder_is_in_order():
    rated = [rate(p, seconds=30, nodes=10**6) for p in LADDER]
    scores = [d.score for d in rated]
    assert scores == sorted(scores), list(zip(LADDER, scores))
    levels = [d.level for d in rated]
    assert levels == sorted(levels) and levels[0] == 1 and levels[-1] == 5


def test_propagation_only_puzzles_are_easiest():
    """Every puzzle the deductions solve alone scores below every one that needs a guess
    (among the examples)."""
    examples = ["i+bb=ill", "as+a=mom", "no+no+too=late", "he+sees+the=light",
                "send+more=money", "digits+games=reverse", "game+games+np=sphinx",
                "digit+value=digits", "game+puzzle=values", "games+letter=verbal",
                "azure+gray=green", "letter+letters+number=reverse"]
    rated = {p: rate(p, seconds=30, nodes=10**6) for p in examples}
    easy = [d.score for d in rated.values() if d.guesses == 0]
    hard = [d.score for d in rated.values() if d.guesses > 0]
    assert len(easy) >= 4 and len(hard) >= 4
    assert max(easy) < min(hard), rated


def test_send_more_money_needs_no_guess():
    d = rate("SEND + MORE = MONEY")
    assert d.guesses == 0 and d.rated and d.steps > 10
    assert str(d).startswith(f"level {d.level} (score {d.score}: ")


def test_a_puzzle_without_solution_is_unrated():
    d = rate("send+more=monkey")
    assert not d.rated and d.reason == "no solution" and str(d) == "unrated (no solution)"
    assert d.to_json()["level"] is None


def test_the_budget_stops_rating_and_says_unrated():
    start = time.monotonic()
    d = rate("azure+green+peru+purple=orange", seconds=0.05)
    assert time.monotonic() - start < 0.5
    assert not d.rated and d.reason == "out of time"
    d = rate("azure+green+peru+purple=orange", nodes=2)
    assert not d.rated and d.nodes <= 3


def test_levels_follow_the_cuts():
    assert [level_of(c) for c in CUTS] == [1, 2, 3, 4]
    assert [level_of(c + 1) for c in CUTS] == [2, 3, 4, 5]
    assert level_of(0) == 1


def test_products_and_other_bases_are_rated():
    assert rate("ab*c=dab").rated or rate("ab*c=dab").reason == "no solution"
    s = system_of_puzzle(parse("send+more=money"))
    d = rate(System.of(s.relations, base=12), seconds=5)
    assert d.rated or d.reason in ("no solution", "out of time")
    assert rate("a*b=ca").rated


CROSS = "cc + a = cl && on + d = go && ni + e = ne && cc + on = ni && a + d = e && cl + go = ne"


LONG = ("in * gag = vain && in * '1' + kan * '10' + in * '100' = vain && in * g = in && "
        "in * a = kan && in * g = in")


def test_systems_constants_and_bases_are_rated_from_their_text():
    """Cryptator's grammar as written (a crossword system, a long multiplication with quoted
    constants, comparators, digits in words) and bases other than 10: each unique puzzle is
    rated, and the model's path ends at the engine's solution."""
    for text, base in [(CROSS, 10), (LONG, 10), ("fallout + outrun + portal = portal2", 10),
                       ("to+go=out", 16), ("ab + ba = cc ; a < b ; b - a = '7' ; c < '10'", 16),
                       ("ab+ab=bcc", 36)]:
        found = solve(text, base=base)
        assert found.count == 1 and found.complete, (text, base)
        d = rate(text, base=base, seconds=30)
        assert d.rated, (text, base, d)
        assert solution_path(system_of(text, base), seconds=30).solution == found.solutions[0]


def test_json_and_text_of_a_difficulty():
    d = Difficulty(3, 77, 20, 1, 4)
    assert d.to_json() == {"level": 3, "score": 77, "steps": 20, "guesses": 1, "nodes": 4}
    assert str(d) == "level 3 (score 77: 20 steps, 1 guess)"


def test_an_incomplete_puzzle_is_refused():
    with pytest.raises(ExpressionError, match="complete puzzle"):
        system_of("send+more")
    with pytest.raises(ExpressionError):
        rate("send+")


@pytest.mark.slow
def test_rating_is_fast_on_classic_puzzles():
    """The median rating time of classic puzzles stays well under the budget."""
    puzzles = ["send+more=money", "two+two=four", "base+ball=games", "eat+that=apple",
               "coca+cola=oasis", "cross+roads=danger", "donald+gerald=robert"]
    times = []
    for p in puzzles:
        start = time.perf_counter()
        rate(p)
        times.append(time.perf_counter() - start)
    assert sorted(times)[len(times) // 2] < 0.25
