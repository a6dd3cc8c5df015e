"""Vectorised evaluation of a puzzle tree over a block of digit assignments.

An assignment block is a list of uint8 columns, one per letter (``cols[j][i]`` is the
digit of letter ``j`` in assignment ``i``).  Values are int64 arrays when a static
bound proves that every value computed fits (:func:`dtype_for`), else numpy object
arrays of Python ints (slow but exact).  Every function returns ``(values, ok)``:
``ok`` is False where an exact division leaves a remainder or divides by zero, i.e.
where the assignment is no solution whatever the other letters are.

Bounds.  ``|v| <= B(node)`` for the value of a known node under any assignment:
``B(word of n letters) = 10**n - 1``, ``B(a+b) = B(a-b) = B(a) + B(b)``,
``B(a*b) = B(a) * B(b)``, ``B(a/b) = B(a)``.  The last holds for every row, exact or
not, because the evaluator takes the floor quotient by the divisor, or by 1 where the
divisor is 0, and ``|a // d| <= |a|`` for every integer ``d != 0``.  Division also
computes ``q*d`` to test exactness, and ``|q*d| <= |a| + |d|`` (``a = q*d + r`` with
``|r| < |d|``): :func:`largest` covers these by-products too.

Solving ``side = t`` for the unknown ``h`` goes down the path from the side's root to
``?``; at each operator the other operand ``o`` is known, ``|o| <= O``, and the target
``|t| <= T`` becomes the target ``t'`` of the operand holding ``?``:

==============  =================  ============  ========================================
level           new target t'      bound on t'   other values computed
==============  =================  ============  ========================================
h + o, o + h    t - o              T + O
h - o           t + o              T + O
o - h           o - t              T + O
h * o, o * h    t // o             T             ``q*o`` (exactness): T + O
h / o           t * o              T * O
o / h           o // t             O             ``q*t`` (exactness): O + T
==============  =================  ============  ========================================

(``//`` by 0 is taken as by 1, so again the bounds hold for every row.)  The bound on
the unknown itself is T at the bottom of the path.  :func:`hole_bounds` returns it
together with the largest magnitude of any value met on the way, which decides the
integer width.  Note that the divisor's row is the one a "keep the target" shortcut
gets wrong: ``o / h = t`` makes ``h`` as large as the *dividend* ``o``, not as ``t``
(``two/(?/a)=i`` has words of four letters).

Which word lengths are worth trying needs the unknown's value only where the puzzle is
solved, and there ranges do better than magnitudes: :func:`unknown_span` takes the same
inverse steps on inclusive ranges (:func:`span`: a word of n >= 2 letters is at least
``10**(n-1)``; ``x / y`` exact is an integer between the ceiling and the floor of the
corner quotients over the non-zero y of each sign) and keeps values >= 0 at the bottom.
For ``send+?=money`` it gives five digits where the magnitude gives six.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from fractions import Fraction
from typing import NamedTuple

import numpy as np

from .expr import BinOp, Hole, Node, Operand, bound, fold, hole_path

__all__ = ["Evaluator", "HoleBounds", "Span", "dtype_for", "hole_bounds", "largest", "span",
           "unknown_span"]

_INT64_LIMIT = 2 ** 63  # every value computed is below this in magnitude: int64 holds it


class HoleBounds(NamedTuple):
    """Static bounds for solving ``side = target`` for the unknown in ``side``."""

    value: int    # |the unknown's value| <= value, for every assignment
    largest: int  # |every value computed on the way down| <= largest


def hole_bounds(side: Node, target: int) -> HoleBounds:
    """Bounds for solving ``side = t`` (``|t| <= target``) for the hole in ``side``."""
    t = target
    worst = target
    for node, hole_left in hole_path(side):
        known = node.right if hole_left else node.left
        o, before = bound(known), t
        if node.op in "+-":
            t = before + o
        elif node.op == "/" and hole_left:
            t = before * o
        elif node.op == "/":  # the hole is the divisor: it is at most the dividend
            t = o
        # '*': t // o, by o or by 1 in place of 0: no growth
        # before + o bounds the sums, differences and exactness products of this level
        worst = max(worst, largest(known), t, before + o)
    return HoleBounds(t, worst)


def largest(node: Node) -> int:
    """Bound on |every value| computed while evaluating the node (a hole counts as 0).

    Differs from :func:`~cryptocomp.cryptarithm.expr.bound` for division: ``a/(bc*de)``
    is small, but the divisor and the exactness test ``q*d`` must still be computed.
    """
    def leaf(n: Operand | Hole) -> tuple[int, int]:
        b = 10 ** len(n.word) - 1 if isinstance(n, Operand) else 0
        return b, b

    def combine(n: BinOp, left: tuple[int, int], right: tuple[int, int]) -> tuple[int, int]:
        (a, la), (b, lb) = left, right
        if n.op in "+-":
            value = big = a + b
        elif n.op == "*":
            value = big = a * b
        else:
            value, big = a, a + b  # the quotient, and the exactness test q*d
        return value, max(big, la, lb)

    return fold(node, leaf, combine)[1]


Span = tuple[int, int]  # an inclusive integer range [lo, hi]


def span(node: Node) -> Span | None:
    """The range of the node's value over the assignments where it is defined (None:
    defined nowhere); a word of n >= 2 letters starts with a non-zero digit."""
    def leaf(n: Operand | Hole) -> Span | None:
        if isinstance(n, Hole):
            raise ValueError("the unknown has no span")
        k = len(n.word)
        return (10 ** (k - 1) if k > 1 else 0, 10 ** k - 1)

    def combine(n: BinOp, a: Span | None, b: Span | None) -> Span | None:
        return None if a is None or b is None else _apply(n.op, a, b)

    return fold(node, leaf, combine)


def unknown_span(side: Node, known: Node) -> Span | None:
    """The range of the unknown's value over the assignments that solve ``side = known``
    (None when no value >= 0 can): the inverse steps of :func:`hole_bounds` on ranges,
    which also know signs and leading digits (``send+?=money``: ? = money - send is at
    most 98,999, five digits, where magnitudes give 109,998)."""
    t = span(known)
    for node, hole_left in hole_path(side):
        o = span(node.right if hole_left else node.left)
        if t is None or o is None:
            return None
        if node.op == "+":                  # h = t - o
            t = _apply("-", t, o)
        elif node.op == "-":                # h = t + o, or o - t
            t = _apply("+", t, o) if hole_left else _apply("-", o, t)
        elif node.op == "*":                # h = t / o, exactly, o != 0
            t = _apply("/", t, o)
        elif hole_left:                     # h = t * o
            t = _apply("*", t, o)
        else:                               # h = o / t, exactly, t != 0
            t = _apply("/", o, t)
    if t is None or t[1] < 0:
        return None
    return (max(t[0], 0), t[1])


def _apply(op: str, a: Span, b: Span) -> Span | None:
    """The range of ``x op y`` for x in a, y in b (``/``: exact quotients, y != 0)."""
    if op == "+":
        return (a[0] + b[0], a[1] + b[1])
    if op == "-":
        return (a[0] - b[1], a[1] - b[0])
    if op == "*":
        corners = [x * y for x in a for y in b]
        return (min(corners), max(corners))
    # x / y over the non-zero y of each sign: x / y is monotone in x and in y there, so
    # the corners bound it; an exact quotient is an integer between their ceiling and floor
    quotients = []
    for lo, hi in ((b[0], min(b[1], -1)), (max(b[0], 1), b[1])):
        if lo <= hi:
            quotients += [Fraction(x, y) for x in a for y in (lo, hi)]
    if not quotients:
        return None
    lo, hi = math.ceil(min(quotients)), math.floor(max(quotients))
    return (lo, hi) if lo <= hi else None


def dtype_for(largest: int) -> type | np.dtype:
    """int64 when every value computed is provably below 2**63 in magnitude, else object."""
    return np.dtype(np.int64) if largest < _INT64_LIMIT else np.dtype(object)


def _linear(node: Node, index: dict[str, int], seen: dict[int, dict[int, int] | None]
            ) -> dict[int, int] | None:
    """Coefficient per letter when the node uses only + and -, else None; the result of
    every subtree is recorded in ``seen`` (by node id)."""
    def leaf(n: Operand | Hole) -> dict[int, int] | None:
        coeffs: dict[int, int] | None = None
        if isinstance(n, Operand):
            coeffs = {}
            place = 1
            for ch in reversed(n.word):
                j = index[ch]
                coeffs[j] = coeffs.get(j, 0) + place
                place *= 10
        seen[id(n)] = coeffs
        return coeffs

    def combine(n: BinOp, a: dict[int, int] | None, b: dict[int, int] | None
                ) -> dict[int, int] | None:
        out = None
        if n.op in "+-" and a is not None and b is not None:
            out = dict(a)  # at most ten letters: copying keeps every subtree's own result
            sign = 1 if n.op == "+" else -1
            for j, c in b.items():
                out[j] = out.get(j, 0) + sign * c
        seen[id(n)] = out
        return out

    return fold(node, leaf, combine)


class Evaluator:
    """Evaluates the known parts of a puzzle tree over blocks of assignments."""

    def __init__(self, letters: Sequence[str], dtype: type | np.dtype):
        self.index = {ch: j for j, ch in enumerate(letters)}
        self.dtype = np.dtype(dtype)
        self._linear: dict[int, dict[int, int] | None] = {}
        self._tables: dict[tuple[int, int | None], np.ndarray] = {}
        self._plans: dict[int, list[_Step]] = {}

    def _table(self, c: int, c2: int | None = None) -> np.ndarray:
        """Lookup table of the working dtype: digit -> c*digit, or, given c2,
        10*d1 + d2 -> c*d1 + c2*d2 (two letters in one lookup)."""
        key = (c, c2)
        tab = self._tables.get(key)
        if tab is None:
            if c2 is None:
                values = [c * d for d in range(10)]
            else:
                values = [c * (i // 10) + c2 * (i % 10) for i in range(100)]
            tab = np.array(values, dtype=object if self.dtype == object else np.int64)
            self._tables[key] = tab
        return tab

    def _linear_of(self, node: Node) -> dict[int, int] | None:
        key = id(node)
        if key not in self._linear:
            _linear(node, self.index, self._linear)
        return self._linear[key]

    def _steps(self, side: Node) -> list[_Step]:
        key = id(side)
        if key not in self._plans:
            self._plans[key] = _steps(side)
        return self._plans[key]

    def value(self, node: Node, cols: Sequence[np.ndarray]) -> tuple[np.ndarray, np.ndarray | None]:
        """The node's values over the block, and where they are defined (None: everywhere)."""
        n = len(cols[0]) if cols else 1

        def linear(x: Node) -> tuple[np.ndarray, None] | None:
            coeffs = self._linear_of(x)
            return None if coeffs is None else (self._linear_value(coeffs, cols, n), None)

        def leaf(x: Operand | Hole) -> tuple[np.ndarray, np.ndarray | None]:
            raise ValueError("the unknown has no value")  # an operand is always linear

        def combine(x: BinOp, left: tuple[np.ndarray, np.ndarray | None],
                    right: tuple[np.ndarray, np.ndarray | None]
                    ) -> tuple[np.ndarray, np.ndarray | None]:
            (a, oka), (b, okb) = left, right
            ok = _and(oka, okb)
            if x.op == "+":
                return a + b, ok
            if x.op == "-":
                return a - b, ok
            if x.op == "*":
                return a * b, ok
            q, exact = _divide(a, b)
            return q, _and(ok, exact)

        return fold(node, leaf, combine, stop=linear)

    def _linear_value(self, coeffs: dict[int, int], cols: Sequence[np.ndarray], n: int
                      ) -> np.ndarray:
        """Sum of coefficient * digit over the letters, two letters per table lookup."""
        acc = np.zeros(n, dtype=self.dtype)
        terms = [(j, c) for j, c in coeffs.items() if c]
        for i in range(0, len(terms) - 1, 2):
            (j1, c1), (j2, c2) = terms[i], terms[i + 1]
            pair = cols[j1] * np.uint8(10) + cols[j2]  # < 100: fits uint8
            acc += np.take(self._table(c1, c2), pair)
        if len(terms) % 2:
            j, c = terms[-1]
            acc += np.take(self._table(c), cols[j])
        return acc

    def solve_hole(self, side: Node, target: np.ndarray, cols: Sequence[np.ndarray]
                   ) -> tuple[np.ndarray, np.ndarray | None, np.ndarray | None, np.ndarray | None]:
        """Solve ``side = target`` for the hole in ``side``.

        Returns ``(x, feasible, known_ok, free)``: the hole's value where ``feasible``;
        ``known_ok`` where every known part of ``side`` is defined and no division by a
        known zero makes the side undefined whatever the hole; ``free`` where at some
        level the identity does not determine the hole (e.g. ``0*? = 0``).  None means
        all True (or, for ``free``, all False).
        """
        feasible: np.ndarray | None = None
        known_ok: np.ndarray | None = None
        free: np.ndarray | None = None
        t = target
        for step in self._steps(side):
            if step.op == "+":  # a run of + and - levels: t' = sign*t + plus - minus
                if step.sign < 0:
                    t = -t
                for node, sign in ((step.plus, 1), (step.minus, -1)):
                    if node is not None:
                        other, ok = self.value(node, cols)
                        known_ok = _and(known_ok, ok)
                        t = t + other if sign > 0 else t - other
                continue
            assert step.other is not None
            other, ok = self.value(step.other, cols)
            known_ok = _and(known_ok, ok)
            if step.op == "*":
                # free only where every level above is solvable: elsewhere there is no
                # solution at all, whatever this level leaves open
                free = _or(free, _and(feasible, (other == 0) & (t == 0)))
                q, exact = _divide(t, other)
                feasible = _and(feasible, exact)
                t = q
            elif step.hole_left:  # x / other = t: undefined for every x when other is 0
                known_ok = _and(known_ok, other != 0)
                t = t * other
            else:  # other / x = t
                free = _or(free, _and(feasible, (t == 0) & (other == 0)))
                q, exact = _divide(other, t)
                feasible = _and(feasible, exact & (q != 0))
                t = q
        return t, feasible, known_ok, free


class _Step(NamedTuple):
    """One step down the path to the unknown: a '*' or '/' level, or a whole run of '+'
    and '-' levels collapsed into ``t' = sign*t + plus - minus`` (a sum of 999 operands
    is then one linear form, not 999 levels)."""

    op: str                   # '*', '/', or '+' for a run of + and -
    hole_left: bool = False   # '*' and '/': the unknown is in the left operand
    other: Node | None = None  # '*' and '/': the known operand
    sign: int = 1             # '+': the sign of t in the new target
    plus: Node | None = None  # '+': the known operands added (a chain of '+'), or None
    minus: Node | None = None  # '+': the known operands subtracted, or None


def _steps(side: Node) -> list[_Step]:
    """The path from the side's root to the unknown as steps (runs of + and - merged)."""
    steps: list[_Step] = []
    run: tuple[int, list[Node], list[Node]] | None = None
    for node, hole_left in hole_path(side) + [(None, False)]:
        if node is not None and node.op in "+-":
            sign, plus, minus = run or (1, [], [])
            other = node.right if hole_left else node.left
            if node.op == "+":          # x + o = t, o + x = t: x = t - o
                minus.append(other)
            elif hole_left:             # x - o = t: x = t + o
                plus.append(other)
            else:                       # o - x = t: x = o - t
                sign, plus, minus = -sign, minus, plus
                plus.append(other)
            run = (sign, plus, minus)
            continue
        if run is not None:
            sign, plus, minus = run
            steps.append(_Step("+", sign=sign, plus=_sum(plus), minus=_sum(minus)))
            run = None
        if node is not None:
            steps.append(_Step(node.op, hole_left, node.right if hole_left else node.left))
    return steps


def _sum(nodes: list[Node]) -> Node | None:
    """The nodes added left to right (None for none)."""
    if not nodes:
        return None
    total = nodes[0]
    for n in nodes[1:]:
        total = BinOp("+", total, n, n.pos)
    return total


def _divide(a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(a // b, exact): exact is False where b is 0 or b does not divide a."""
    nonzero = b != 0
    safe = np.where(nonzero, b, 1)
    if safe.dtype == object:
        safe = safe.astype(object)
    q = a // safe
    return q, nonzero & (a - q * safe == 0)


def _and(a: np.ndarray | None, b: np.ndarray | None) -> np.ndarray | None:
    if a is None:
        return b
    if b is None:
        return a
    return a & b


def _or(a: np.ndarray | None, b: np.ndarray | None) -> np.ndarray | None:
    if a is None:
        return b
    if b is None:
        return a
    return a | b
