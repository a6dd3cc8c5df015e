"""The compiled search of linear plans (cryptarithm.kernel) against the Python search
(cryptarithm.search) and the brute-force oracle: same count, same solutions in the same
order, on random sums, differences, constants and comparators in bases 2 to 16; budgets."""

from __future__ import annotations

import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cryptocomp.cryptarithm.engine import solve_system
from cryptocomp.cryptarithm.grammar import parse_system
from cryptocomp.cryptarithm.kernel import Kernel
from cryptocomp.cryptarithm.plan import build_plan
from cryptocomp.cryptarithm.products import Products
from cryptocomp.cryptarithm.search import Search
from cryptocomp.cryptarithm.system import COMPARATORS, brute_solutions

ALPHABET = "abcdef"


@st.composite
def _linear(draw):
    """A small linear system as text: words joined by + and -, quoted constants, any
    comparator, one to three relations, base 2 to 12."""
    base = draw(st.integers(2, 12))
    nsym = draw(st.integers(1, min(5, base)))
    word = st.text(st.sampled_from(ALPHABET[:nsym]), min_size=1, max_size=4)
    term = st.one_of(word, word, st.integers(0, 2 * base).map(lambda v: f"'{v}'"))

    def side():
        terms = draw(st.lists(term, min_size=1, max_size=4))
        out = terms[0]
        for t in terms[1:]:
            out += draw(st.sampled_from([" + ", " - "])) + t
        return out

    rels = [f"{side()} {draw(st.sampled_from(COMPARATORS))} {side()}"
            for _ in range(draw(st.integers(1, 3)))]
    return parse_system(" ; ".join(rels), base=base)


@given(_linear())
@settings(max_examples=300, deadline=None)
@pytest.mark.slow
def test_kernel_lists_what_the_python_search_lists(system):
    plan = build_plan(system)
    kernel = Kernel.of(plan, cap=10**4)
    slow = Search(plan, cap=10**4).run()
    if kernel is None:
        return
    got = kernel.run()
    assert got.complete and got.count == slow.count
    assert got.solutions == slow.solutions
    truth = {tuple(sorted(f.items())) for f in brute_solutions(system)}
    assert {tuple(sorted(f.items())) for f in got.solutions} == truth


def test_linear_systems_take_the_kernel():
    for text in ("send+more=money", "cc + a = cl && on + d = go && a + d = e",
                 "in * '1' + km * '10' = kan", "ab + ba = cc ; a < b"):
        assert Kernel.of(build_plan(parse_system(text))) is not None, text
    for text in ("ab * c = dc", "a / b = c"):
        assert Kernel.of(build_plan(parse_system(text))) is None, text


def test_kernel_step_budget_stops_at_the_budget():
    s = parse_system("abcdefghijklmnop > a", base=16)
    got = solve_system(s, steps=5000, cap=0)
    assert not got.complete and got.steps == 5000
    again = solve_system(s, steps=5000, cap=0)
    assert again.count == got.count


def test_kernel_deadline_stops_within_ten_percent():
    s = parse_system("abcdefghijklmnop > a", base=16)
    solve_system(s, steps=10)   # the compiled code loads before the clock starts
    budget = 0.5
    t = time.monotonic()
    got = solve_system(s, deadline=t + budget)
    took = time.monotonic() - t
    assert not got.complete and got.count > 0 and took <= budget * 1.1


@st.composite
def _products(draw):
    """A small product of words equal to another, as text, base 2 to 10."""
    base = draw(st.integers(2, 10))
    nsym = draw(st.integers(1, min(5, base)))
    word = st.text(st.sampled_from(ALPHABET[:nsym]), min_size=1, max_size=3)
    left = " * ".join(draw(st.lists(word, min_size=1, max_size=3)))
    right = " * ".join(draw(st.lists(word, min_size=1, max_size=3)))
    return parse_system(f"{left} = {right}", base=base)


@given(_products())
@settings(max_examples=300, deadline=None)
def test_products_match_brute_force(system):
    got = Products.of(system, cap=10**4)
    assert got is not None
    found = got.run()
    truth = {tuple(sorted(f.items())) for f in brute_solutions(system)}
    assert found.complete and found.count == len(truth)
    assert {tuple(sorted(f.items())) for f in found.solutions} == truth


def test_products_budgets():
    s = parse_system("abcdefg * hijklmn = opabcde * pmnoa", base=16)
    assert Products.of(s) is not None
    part = solve_system(s, steps=3000, cap=0)
    assert not part.complete and part.steps == 3000
    budget = 0.5
    t = time.monotonic()
    got = solve_system(s, deadline=t + budget)
    assert not got.complete and time.monotonic() - t <= budget * 1.1
