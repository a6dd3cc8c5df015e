"""The exact engine (cryptarithm.engine) against the brute-force oracle
(cryptarithm.system.brute_solutions) on small random systems in bases 2 to 16: sums,
differences, products, every operator, comparators, constants, several relations sharing
symbols, words of one symbol and repeated words; its budgets; the solutions it lists."""

from __future__ import annotations

import math
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cryptocomp.cryptarithm.engine import solve_system
from cryptocomp.cryptarithm.expr import BinOp, Operand
from cryptocomp.cryptarithm.system import (
    COMPARATORS,
    OPERATIONS,
    Constant,
    Relation,
    System,
    brute_solutions,
    holds_system,
)

ALPHABET = "abcdefghijklmnop"
MAX_ASSIGNMENTS = 6000     # keeps the oracle quick


def _word(s: str) -> Operand:
    return Operand(s, 0)


def _add(*xs) -> BinOp | Operand | Constant:
    out = xs[0]
    for x in xs[1:]:
        out = BinOp("+", out, x, 0)
    return out


def _sys(*relations: Relation, base: int = 10) -> System:
    return System.of(list(relations), base)


def _eq(left, right, op: str = "=") -> Relation:
    return Relation(op, left, right, 0)


@st.composite
def _systems(draw, ops: tuple[str, ...] = OPERATIONS, comparators: tuple[str, ...] = COMPARATORS):
    """A small system whose brute force stays under MAX_ASSIGNMENTS assignments."""
    base = draw(st.integers(2, 16))
    k = 1
    while k < len(ALPHABET) and math.perm(base, k + 1) <= MAX_ASSIGNMENTS:
        k += 1
    nsym = draw(st.integers(1, min(k, 6)))
    letters = ALPHABET[:nsym]
    words = st.text(st.sampled_from(letters), min_size=1, max_size=4)

    def leaf():
        return st.one_of(words.map(_word), words.map(_word),
                         st.integers(0, 3 * base).map(lambda v: Constant(v, 0)))

    def node(depth: int):
        if depth == 0:
            return leaf()
        sub = node(depth - 1)
        return st.one_of(leaf(), st.builds(lambda op, a, b: _safe(op, a, b),
                                           st.sampled_from(ops), sub, sub))

    nrel = draw(st.integers(1, 3))
    rels = []
    for _ in range(nrel):
        op = draw(st.sampled_from(comparators))
        rels.append(Relation(op, draw(node(2)), draw(node(2)), 0))
    return System.of(rels, base)


def _safe(op: str, a, b):
    """``a op b``, with a power's exponent kept to a constant or a one-symbol word (values
    stay small enough for the oracle)."""
    if op == "^" and not ((isinstance(b, Constant) and b.value <= 3)
                          or (isinstance(b, Operand) and len(b.word) == 1)):
        b = Constant(2, 0)
    if op == "^" and isinstance(a, BinOp):
        a = Constant(3, 0)
    return BinOp(op, a, b, 0)


def _oracle_keys(system: System) -> set[tuple]:
    return {tuple(sorted(f.items())) for f in brute_solutions(system)}


def _check(system: System) -> None:
    """The engine's count equals the oracle's; every listed solution holds, all distinct."""
    truth = _oracle_keys(system)
    got = solve_system(system, cap=10**6)
    assert got.complete
    assert got.count == len(truth), (system.render(), system.base)
    keys = {tuple(sorted(f.items())) for f in got.solutions}
    assert keys == truth
    assert all(holds_system(system, f) for f in got.solutions)


@given(_systems())
@settings(max_examples=300, deadline=None)
@pytest.mark.slow
def test_every_operator_and_comparator_matches_brute_force(system):
    _check(system)


@given(_systems(ops=("+", "-"), comparators=("=",)))
@settings(max_examples=200, deadline=None)
@pytest.mark.slow
def test_sums_and_differences_match_brute_force(system):
    _check(system)


@given(_systems(ops=("+", "-", "*", "^"), comparators=("=",)))
@settings(max_examples=200, deadline=None)
@pytest.mark.slow
def test_products_and_powers_match_brute_force(system):
    _check(system)


@given(_systems(ops=("+", "*"), comparators=("<", ">", "<=", ">=", "!=")))
@settings(max_examples=100, deadline=None)
def test_comparators_match_brute_force(system):
    _check(system)


def test_send_more_money():
    s = _sys(_eq(_add(_word("send"), _word("more")), _word("money")))
    got = solve_system(s)
    assert got.count == 1 and got.complete
    assert got.solutions == [dict(s=9, e=5, n=6, d=7, m=1, o=0, r=8, y=2)]
    assert got.steps < 10_000   # the column search visits few nodes (enumeration: 1.8 M)


def test_counts_without_a_cap_on_the_list():
    s = _sys(_eq(_add(_word("a"), _word("b")), _word("c")))
    got = solve_system(s, cap=3)
    assert got.count == len(list(brute_solutions(s))) and len(got.solutions) == 3


def test_base_16_addition_matches_brute_force():
    small = _sys(_eq(_add(_word("abc"), _word("cba")), _word("dbd")), base=16)
    assert solve_system(small).count == len(list(brute_solutions(small)))


def test_more_symbols_than_digits_has_no_solution():
    s = _sys(_eq(_word("abc"), _word("abc")), base=2)
    assert solve_system(s).count == 0


def test_word_free_relations_hold_or_fail_as_a_whole():
    a = _word("a")
    ok = _sys(_eq(a, a), _eq(Constant(6, 0), BinOp("*", Constant(2, 0), Constant(3, 0), 0)))
    assert solve_system(ok).count == 10
    bad = _sys(_eq(a, a), _eq(Constant(1, 0), BinOp("/", Constant(1, 0), Constant(0, 0), 0)))
    assert solve_system(bad).count == 0


@pytest.mark.slow
def test_long_multiplication_system():
    # Cryptator's long multiplications: in * go = kan && in * '1' + km * '10' = kan && ...
    w = _word

    def c(v: int) -> Constant:
        return Constant(v, 0)

    def mul(a, b) -> BinOp:
        return BinOp("*", a, b, 0)

    s = _sys(_eq(mul(w("in"), w("go")), w("kan")),
             _eq(_add(mul(w("in"), c(1)), mul(w("km"), c(10))), w("kan")),
             _eq(mul(w("in"), w("g")), w("km")), _eq(mul(w("in"), w("o")), w("in")))
    assert solve_system(s).count == len(list(brute_solutions(s))) == 1


def test_step_budget_stops_at_the_budget():
    s = _sys(_eq(BinOp("*", _word("abcd"), _word("efg"), 0), _word("hijabc")))
    full = solve_system(s, cap=0)
    assert full.steps > 1000
    part = solve_system(s, steps=1000)
    assert not part.complete and 900 <= part.steps <= 1000 and part.count <= full.count


def test_deadline_stops_within_ten_percent():
    words = [_word(w) for w in ("abcdefg", "hijklmn", "opabcde")]
    s = _sys(_eq(BinOp("*", words[0], words[1], 0), BinOp("*", words[2], words[2], 0)),
             base=16)
    budget = 0.5
    t = time.monotonic()
    got = solve_system(s, deadline=t + budget)
    took = time.monotonic() - t
    assert not got.complete and took <= budget * 1.1


@pytest.mark.parametrize("op", COMPARATORS)
def test_one_symbol_words_with_each_comparator(op):
    s = _sys(_eq(_word("a"), _word("b"), op), base=5)
    assert solve_system(s).count == len(list(brute_solutions(s)))
