"""Hypothesis strategies of small relation systems for the difficulty tests: sums,
differences, products, mixed trees, constants, comparators, two relations, bases 2 to 36,
symbols that are Latin letters, Devanagari letters and vowel signs (combining marks) or
digits inside words, and planted puzzles that have a solution (often exactly one)."""

from __future__ import annotations

import math

from hypothesis import strategies as st

from cryptocomp.cryptarithm.expr import BinOp, Operand
from cryptocomp.cryptarithm.system import (
    COMPARATORS,
    Constant,
    Relation,
    System,
    evaluate,
    holds_system,
)

LETTERS = "abcde"
# each code point one symbol: Devanagari vowel signs (combining marks) and digits in words
ALPHABETS = (LETTERS, LETTERS, "कखगाौ", "a2b3c")
NEW = "vwxyzpqrst"        # the symbols of a planted right side's other digits
MAX_BRUTE = 10000         # assignments the oracle may try on one example


@st.composite
def terms(draw, letters: str, constants: bool) -> Operand | Constant:
    """A word of the letters (1 to 3 symbols) or, sometimes, a small constant."""
    if constants and draw(st.integers(0, 5)) == 0:
        return Constant(draw(st.integers(0, 30)), 0)
    return Operand(draw(st.text(alphabet=letters, min_size=1, max_size=3)), 0)


@st.composite
def sides(draw, letters: str, ops: str, constants: bool, most: int = 3):
    """A tree of 1 to ``most`` terms joined by operators of ``ops``."""
    node = draw(terms(letters, constants))
    for _ in range(draw(st.integers(0, most - 1))):
        node = BinOp(draw(st.sampled_from(ops)), node, draw(terms(letters, constants)), 0)
    return node


@st.composite
def planted(draw) -> System:
    """A sum, difference or product with at least one solution: the right side spells the
    left side's value under a random assignment (new symbols for digits the left side does
    not use)."""
    base = draw(st.sampled_from([10, 6, 8, 7, 5, 9, 4, 3, 16, 36]))
    digits = draw(st.permutations(range(base)))
    alphabet = draw(st.sampled_from(ALPHABETS))
    letters = alphabet[:draw(st.integers(2, min(base, 5)))]
    fill = dict(zip(letters, digits))
    ops = draw(st.sampled_from(["+", "+", "+-", "*", "+*"]))
    left = draw(sides(letters, ops, False, 4))
    value = evaluate(left, fill, base)
    if value is None or value < 0:
        return draw(systems_of_shape())
    by_digit = {d: ch for ch, d in fill.items()}
    spelled = []
    while True:
        value, d = divmod(value, base)
        if d not in by_digit and len(by_digit) - len(letters) == len(NEW):
            return draw(systems_of_shape())    # too many symbols for the oracle anyway
        spelled.append(by_digit.setdefault(d, NEW[len(by_digit) - len(letters)]))
        if not value:
            break
    system = System.of([Relation("=", left, Operand("".join(reversed(spelled)), 0), 0)],
                       base=base)
    fill = {ch: d for d, ch in by_digit.items()}
    if math.perm(base, len(system.symbols)) > MAX_BRUTE or not holds_system(system, fill):
        return draw(systems_of_shape())    # too big for the oracle, or a leading zero
    return system


def _words(node) -> list[Operand]:
    out, todo = [], [node]
    while todo:
        n = todo.pop()
        if isinstance(n, BinOp):
            todo += [n.right, n.left]
        elif isinstance(n, Operand):
            out.append(n)
    return out


def systems() -> st.SearchStrategy[System]:
    """Small systems of every shape (half of them planted: solvable, often uniquely)."""
    return st.one_of(planted(), systems_of_shape())


@st.composite
def systems_of_shape(draw) -> System:
    """Small systems of every shape: sums, differences, products, mixed trees, constants,
    comparators, two relations, bases 2 to 36."""
    alphabet = draw(st.sampled_from(ALPHABETS))
    letters = alphabet[:draw(st.integers(2, len(alphabet)))]
    shape = draw(st.sampled_from(["sum", "sum", "difference", "product", "mixed", "any"]))
    ops = {"sum": "+", "difference": "+-", "product": "*", "mixed": "+-*",
           "any": "+-*/%"}[shape]
    constants = draw(st.booleans())
    relations = []
    for _ in range(draw(st.integers(1, 2))):
        op = "=" if draw(st.integers(0, 3)) else draw(st.sampled_from(COMPARATORS))
        relations.append(Relation(op, draw(sides(letters, ops, constants)),
                                  draw(sides(letters, "+", False, 1)), 0))
    base = draw(st.sampled_from([10, 8, 6, 7, 5, 9, 3, 2, 12, 16, 36]))
    system = System.of(relations, base=base)
    k = len(system.symbols)
    if k > base or math.perm(base, k) > MAX_BRUTE:
        system = System.of(relations, base=max(k, min(base, 7)))
    return system
