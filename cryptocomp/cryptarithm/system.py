"""Systems of cryptarithm relations in any base: the value objects every engine shares.

A :class:`System` is one or more :class:`Relation` (``left op right`` with ``op`` one of
:data:`COMPARATORS`) over number trees built from :class:`~cryptocomp.cryptarithm.expr.Operand`
(a word: each character one symbol, a digit of the base), :class:`Constant` (a number
written in decimal, not a puzzle word) and :class:`~cryptocomp.cryptarithm.expr.BinOp`
with an operator of :data:`OPERATIONS`.  Unary minus is ``0 - x`` (a constant zero).

The rules, as Cryptator states them:

- different symbols stand for different digits ``0 .. base-1``;
- no word of two or more symbols starts with 0 (:attr:`System.leading`);
- every relation holds in integers: ``/`` is exact division (a remainder or a zero divisor
  makes the assignment no solution), ``//`` divides truncating toward zero, ``%`` is the
  non-negative remainder by a positive divisor, ``^`` raises to a non-negative power.

>>> from cryptocomp.cryptarithm.expr import BinOp, Operand
>>> s = System.of([Relation("=", BinOp("+", Operand("ab", 0), Operand("ba", 3), 2),
...                         Operand("cc", 6), 5)])
>>> s.symbols, s.leading, s.base
(('a', 'b', 'c'), ('a', 'b', 'c'), 10)
>>> holds_system(s, {"a": 1, "b": 2, "c": 3})
True
>>> sum(1 for _ in brute_solutions(s))
32
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Union

from ..domain import Symbol
from .expr import BinOp, Hole, Operand, fold

__all__ = ["System", "Relation", "Constant", "SystemNode", "COMPARATORS", "OPERATIONS",
           "DIGITS", "evaluate", "holds_system", "brute_solutions", "render_node",
           "spell_number"]

COMPARATORS = ("=", "!=", "<", ">", "<=", ">=")
OPERATIONS = ("+", "-", "*", "/", "//", "%", "^")
DIGITS = "0123456789abcdefghijklmnopqrstuvwxyz"   # how numbers print in bases up to 36
# binding strength for printing with minimal parentheses (Cryptator's grammar)
PRECEDENCE = {"+": 1, "-": 1, "*": 2, "/": 2, "//": 2, "%": 3, "^": 3}


@dataclass(frozen=True)
class Constant:
    """A number written as such (Cryptator's ``'10'``): decimal, whatever the base."""

    value: int
    pos: int


SystemNode = Union[Operand, Constant, BinOp]  # noqa: UP007 (a runtime alias)


@dataclass(frozen=True)
class Relation:
    """``left op right``; ``pos`` is the column of the comparator."""

    op: str
    left: SystemNode
    right: SystemNode
    pos: int


@dataclass(frozen=True)
class System:
    """Relations that must all hold under one assignment of digits to symbols."""

    relations: tuple[Relation, ...]
    symbols: tuple[Symbol, ...]    # distinct symbols in order of appearance
    base: int = 10
    text: str = ""                 # the text as given (for error carets), "" when built

    @classmethod
    def of(cls, relations: Sequence[Relation], base: int = 10, text: str = "") -> System:
        """The system of ``relations``, its symbols read off its words."""
        symbols: dict[Symbol, None] = {}
        for w in words_of(relations):
            symbols.update(dict.fromkeys(w.word))
        return cls(tuple(relations), tuple(symbols), base, text)

    @property
    def words(self) -> list[Operand]:
        """Every word of every relation, left to right."""
        return words_of(self.relations)

    @property
    def leading(self) -> tuple[Symbol, ...]:
        """Symbols that may not be 0: the first of each word of two or more symbols."""
        out: dict[Symbol, None] = {}
        for w in self.words:
            if len(w.word) > 1:
                out[w.word[0]] = None
        return tuple(out)

    def render(self, fill: dict[Symbol, int] | None = None) -> str:
        """The system as text (relations joined by ``;``); with ``fill`` in digits."""
        return " ; ".join(f"{render_node(r.left, fill, self.base)}{r.op}"
                          f"{render_node(r.right, fill, self.base)}" for r in self.relations)

    def __str__(self) -> str:
        return self.render()


def words_of(relations: Sequence[Relation]) -> list[Operand]:
    """The words of ``relations`` in reading order."""
    out: list[Operand] = []
    for r in relations:
        for side in (r.left, r.right):
            fold(side, lambda n: out.append(n) if isinstance(n, Operand) else None,  # type: ignore[arg-type]
                 lambda n, a, b: None)
    return out


def spell_number(value: int, base: int) -> str:
    """``value`` written in ``base`` with :data:`DIGITS` (a minus sign when negative)."""
    if value < 0:
        return "-" + spell_number(-value, base)
    out = []
    while True:
        value, d = divmod(value, base)
        out.append(DIGITS[d])
        if not value:
            return "".join(reversed(out))


def render_node(node: SystemNode, fill: dict[Symbol, int] | None = None, base: int = 10) -> str:
    """A number tree as text with minimal parentheses; with ``fill`` its words in digits
    (each digit one character of :data:`DIGITS`)."""
    def leaf(n: Operand | Hole) -> str:
        if isinstance(n, Constant):
            return f"'{n.value}'"
        assert isinstance(n, Operand)
        return n.word if fill is None else "".join(DIGITS[fill[ch]] for ch in n.word)

    def combine(n: BinOp, left: str, right: str) -> str:
        prec = PRECEDENCE[n.op]
        if isinstance(n.left, BinOp) and PRECEDENCE[n.left.op] < prec:
            left = f"({left})"
        if isinstance(n.right, BinOp) and PRECEDENCE[n.right.op] <= prec:
            right = f"({right})"
        return f"{left}{n.op}{right}"

    return fold(node, leaf, combine)  # type: ignore[arg-type]


def _apply(op: str, a: int, b: int) -> int | None:
    """``a op b`` under the rules of the module docstring; None where it is undefined."""
    if op == "+":
        return a + b
    if op == "-":
        return a - b
    if op == "*":
        return a * b
    if op == "/":
        return None if b == 0 or a % b else a // b
    if op == "//":
        if b == 0:
            return None
        q = abs(a) // abs(b)
        return q if (a < 0) == (b < 0) else -q
    if op == "%":
        return None if b <= 0 else a % b
    if op == "^":
        return None if b < 0 else a ** b
    raise ValueError(f"unknown operation {op!r}")


def evaluate(node: SystemNode, fill: dict[Symbol, int], base: int = 10) -> int | None:
    """The exact value of ``node`` under ``fill`` (symbol -> digit); None when an operation
    is undefined (division by zero, inexact ``/``, ``%`` by a non-positive number, a
    negative power)."""
    def leaf(n: Operand | Hole) -> int | None:
        if isinstance(n, Constant):
            return n.value
        assert isinstance(n, Operand)
        v = 0
        for ch in n.word:
            v = v * base + fill[ch]
        return v

    def combine(n: BinOp, a: int | None, b: int | None) -> int | None:
        if a is None or b is None:
            return None
        return _apply(n.op, a, b)

    return fold(node, leaf, combine)  # type: ignore[arg-type]


def _compare(op: str, a: int, b: int) -> bool:
    return {"=": a == b, "!=": a != b, "<": a < b, ">": a > b, "<=": a <= b, ">=": a >= b}[op]


def holds_system(system: System, fill: dict[Symbol, int]) -> bool:
    """True when ``fill`` solves ``system`` under every rule (one assignment, slow)."""
    digits = list(fill.values())
    if set(fill) != set(system.symbols) or len(set(digits)) != len(digits):
        return False
    if any(not 0 <= d < system.base for d in digits):
        return False
    if any(fill[s] == 0 for s in system.leading):
        return False
    for r in system.relations:
        a, b = evaluate(r.left, fill, system.base), evaluate(r.right, fill, system.base)
        if a is None or b is None or not _compare(r.op, a, b):
            return False
    return True


def brute_solutions(system: System) -> Iterator[dict[Symbol, int]]:
    """Every solution, by trying every injective assignment: the oracle the fast engines
    are tested against (base ** symbols work: small systems only)."""
    symbols = system.symbols
    for digits in itertools.permutations(range(system.base), len(symbols)):
        fill = dict(zip(symbols, digits))
        if holds_system(system, fill):
            yield fill
