"""What the exact engine knows of one relation: a linear form, a polynomial, or neither.

A relation ``left op right`` is read as ``f = left - right`` compared with 0.

- :class:`LinearForm`: ``f`` is a sum of words and constants, times constants (every
  addition, subtraction and Cryptator's long multiplications ``in * '10'``): one integer
  coefficient per symbol and a constant, ``f = const + sum(coef[s] * digit[s])``.
- :class:`Polynomial`: ``f`` is built from words and constants by ``+ - *`` and ``^`` with a
  constant exponent.  Its value modulo ``base ** k`` depends only on the last ``k`` digits
  of every word (reduction modulo ``base ** k`` is a ring map), which is what lets the
  search check products column by column from the units.
- anything else (``/ // %``, ``^`` with a word exponent) is evaluated exactly once every
  symbol of the relation has a digit.

Word-free subtrees (``'6' * '7'``) are folded into one constant first; an undefined one
(``'1' / '0'``) leaves the relation for exact evaluation, which then always fails.

>>> from cryptocomp.cryptarithm.expr import BinOp, Operand
>>> from cryptocomp.cryptarithm.system import Relation
>>> r = Relation("=", BinOp("+", Operand("ab", 0), Operand("ba", 3), 2), Operand("cc", 6), 5)
>>> f = linear_form(r.left, r.right, 10)
>>> sorted(f.coefs.items()), f.const
([('a', 11), ('b', 11), ('c', -11)], 0)
"""

from __future__ import annotations

from dataclasses import dataclass

from ..domain import Symbol
from .expr import BinOp, Hole, Operand, fold
from .system import Constant, SystemNode, evaluate

__all__ = ["LinearForm", "Polynomial", "linear_form", "polynomial", "fold_constants",
           "interval_program", "interval", "span", "word_positions"]

POLY_OPS = ("+", "-", "*", "^")


@dataclass(frozen=True)
class LinearForm:
    """``const + sum(coefs[s] * digit(s))``; symbols of coefficient 0 are left out."""

    coefs: dict[Symbol, int]
    const: int


@dataclass(frozen=True)
class Polynomial:
    """``left - right`` as a postfix program over words (symbol indices, units first),
    constants and ``+ - * ^``; :meth:`residue` evaluates it modulo ``base ** k``."""

    program: tuple[tuple, ...]   # ("w", indices units first) | ("c", value) | (op, exponent)
    base: int

    def residue(self, digits: list[int], k: int) -> int:
        """The value modulo ``base ** k`` (``k < 0``: exactly) from the words' last ``k``
        digits; only those digits are read."""
        mod = self.base ** k if k >= 0 else 0
        stack: list[int] = []
        for step in self.program:
            tag = step[0]
            if tag == "w":
                idx = step[1]
                v = 0
                for j in reversed(idx[:k] if k >= 0 else idx):
                    v = v * self.base + digits[j]
                stack.append(v)
            elif tag == "c":
                stack.append(step[1] % mod if mod else step[1])
            elif tag == "^":
                stack.append(pow(stack.pop(), step[1], mod) if mod else stack.pop() ** step[1])
            else:
                b = stack.pop()
                a = stack.pop()
                v = a + b if tag == "+" else a - b if tag == "-" else a * b
                stack.append(v % mod if mod else v)
        v = stack[0]
        return v % mod if mod else v


def fold_constants(node: SystemNode, base: int) -> SystemNode | None:
    """``node`` with every word-free subtree replaced by its :class:`Constant`; None when
    one is undefined (a zero divisor, an inexact ``/``, a negative power)."""
    def leaf(n: Operand | Hole) -> SystemNode | None:
        return n  # type: ignore[return-value]

    def combine(n: BinOp, a: SystemNode | None, b: SystemNode | None) -> SystemNode | None:
        if a is None or b is None:
            return None
        if isinstance(a, Constant) and isinstance(b, Constant):
            v = evaluate(BinOp(n.op, a, b, n.pos), {}, base)  # type: ignore[arg-type]
            return None if v is None else Constant(v, n.pos)
        return BinOp(n.op, a, b, n.pos)  # type: ignore[arg-type]

    return fold(node, leaf, combine)  # type: ignore[arg-type]


def linear_form(left: SystemNode, right: SystemNode, base: int) -> LinearForm | None:
    """``left - right`` as a :class:`LinearForm`, or None when it is not linear."""
    Form = tuple[dict[Symbol, int], int]

    def leaf(n: Operand | Hole) -> Form | None:
        if isinstance(n, Constant):
            return {}, n.value
        assert isinstance(n, Operand)
        coefs: dict[Symbol, int] = {}
        place = 1
        for ch in reversed(n.word):
            coefs[ch] = coefs.get(ch, 0) + place
            place *= base
        return coefs, 0

    def combine(n: BinOp, a: Form | None, b: Form | None) -> Form | None:
        if a is None or b is None:
            return None
        if n.op in ("+", "-"):
            sign = 1 if n.op == "+" else -1
            coefs = dict(a[0])
            for s, c in b[0].items():
                coefs[s] = coefs.get(s, 0) + sign * c
            return coefs, a[1] + sign * b[1]
        if n.op == "*" and (not a[0] or not b[0]):
            k, form = (a[1], b) if not a[0] else (b[1], a)
            return {s: k * c for s, c in form[0].items()}, k * form[1]
        return None

    got = fold(BinOp("-", left, right, 0), leaf, combine)  # type: ignore[arg-type]
    if got is None:
        return None
    return LinearForm({s: c for s, c in got[0].items() if c}, got[1])


def polynomial(left: SystemNode, right: SystemNode, base: int,
               index: dict[Symbol, int]) -> Polynomial | None:
    """``left - right`` as a :class:`Polynomial` over symbol indices ``index``, or None when
    an operation is not ``+ - *`` or ``^`` with a non-negative constant exponent."""
    Program = list[tuple]

    def leaf(n: Operand | Hole) -> Program | None:
        if isinstance(n, Constant):
            return [("c", n.value)]
        assert isinstance(n, Operand)
        return [("w", tuple(index[ch] for ch in reversed(n.word)))]

    def combine(n: BinOp, a: Program | None, b: Program | None) -> Program | None:
        if a is None or b is None or n.op not in POLY_OPS:
            return None
        if n.op == "^":
            if not isinstance(n.right, Constant) or n.right.value < 0:
                return None
            return [*a, ("^", n.right.value)]
        return [*a, *b, (n.op, 0)]

    got = fold(BinOp("-", left, right, 0), leaf, combine)  # type: ignore[arg-type]
    return None if got is None else Polynomial(tuple(got), base)


def word_positions(node: SystemNode) -> dict[Symbol, int]:
    """For each symbol of ``node``, its lowest place in any word (0 = units)."""
    out: dict[Symbol, int] = {}

    def leaf(n: Operand | Hole) -> None:
        if isinstance(n, Operand):
            for place, ch in enumerate(reversed(n.word)):
                out[ch] = min(out.get(ch, place), place)

    fold(node, leaf, lambda n, a, b: None)  # type: ignore[arg-type]
    return out



def interval_program(poly: Polynomial, known: set[int], least: list[int]) -> tuple[tuple, ...]:
    """:attr:`Polynomial.program` for :func:`interval` when the symbols ``known`` have
    digits: each word becomes (known (index, place value) pairs, least and greatest value
    of its other digits; ``least[s]`` is 1 for a leading symbol)."""
    top = poly.base - 1
    out: list[tuple] = []
    for step in poly.program:
        if step[0] != "w":
            out.append(step)
            continue
        pairs, low, high, place = [], 0, 0, 1
        for s in step[1]:
            if s in known:
                pairs.append((s, place))
            else:
                low += least[s] * place
                high += top * place
            place *= poly.base
        out.append(("w", tuple(pairs), low, high))
    return tuple(out)


def interval(program: tuple[tuple, ...], digits: list[int]) -> tuple[int, int]:
    """The least and greatest value an :func:`interval_program` can still take."""
    stack: list[tuple[int, int]] = []
    for step in program:
        tag = step[0]
        if tag == "w":
            v = 0
            for s, place in step[1]:
                v += digits[s] * place
            stack.append((v + step[2], v + step[3]))
        elif tag == "c":
            stack.append((step[1], step[1]))
        elif tag == "^":
            stack.append(_power(stack.pop(), step[1]))
        else:
            right = stack.pop()
            stack.append(span(tag, stack.pop(), right))
    return stack[0]


def span(op: str, a: tuple[int, int], b: tuple[int, int]) -> tuple[int, int]:
    """The least and greatest value of ``x op y`` for ``x`` in span ``a`` and ``y`` in
    span ``b`` (``op`` one of ``+ - *``)."""
    if op == "+":
        return a[0] + b[0], a[1] + b[1]
    if op == "-":
        return a[0] - b[1], a[1] - b[0]
    ends = (a[0] * b[0], a[0] * b[1], a[1] * b[0], a[1] * b[1])
    return min(ends), max(ends)


def _power(values: tuple[int, int], e: int) -> tuple[int, int]:
    """The range of ``x ** e`` over ``x`` in the span ``values``."""
    a, b = values
    if e == 0:
        return 1, 1
    pa, pb = a ** e, b ** e
    if e % 2 == 0 and a < 0 < b:
        return 0, max(pa, pb)
    return min(pa, pb), max(pa, pb)
