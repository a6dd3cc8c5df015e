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
the unknown itself is T at the bottom of the path; its number of digits is the longest
word worth trying.  :func:`hole_bounds` returns it together with the largest
magnitude of any value met on the way, which decides the integer width.  Note that the
divisor's row is the one a "keep the target" shortcut gets wrong: ``o / h = t`` makes
``h`` as large as the *dividend* ``o``, not as ``t`` (``two/(?/a)=i`` has words of four
letters).
"""

from __future__ import annotations

from typing import NamedTuple, Sequence

import numpy as np

from .expr import BinOp, Hole, Node, Operand, bound, has_hole

__all__ = ["Evaluator", "HoleBounds", "dtype_for", "hole_bounds", "largest"]

_INT64_LIMIT = 2 ** 63  # every value computed is below this in magnitude: int64 holds it


class HoleBounds(NamedTuple):
    """Static bounds for solving ``side = target`` for the unknown in ``side``."""

    value: int    # |the unknown's value| <= value, for every assignment
    largest: int  # |every value computed on the way down| <= largest


def hole_bounds(side: Node, target: int) -> HoleBounds:
    """Bounds for solving ``side = t`` (``|t| <= target``) for the hole in ``side``."""
    t = target
    worst = target
    node = side
    while isinstance(node, BinOp):
        hole_left = has_hole(node.left)
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
        node = node.left if hole_left else node.right
    return HoleBounds(t, worst)


def largest(node: Node) -> int:
    """Bound on |every value| computed while evaluating the node (a hole counts as 0).

    Differs from :func:`~cryptocomp.cryptarithm.expr.bound` for division: ``a/(bc*de)``
    is small, but the divisor and the exactness test ``q*d`` must still be computed.
    """
    def walk(n: Node) -> tuple[int, int]:
        if isinstance(n, Operand):
            b = 10 ** len(n.word) - 1
            return b, b
        if isinstance(n, Hole):
            return 0, 0
        (a, la), (b, lb) = walk(n.left), walk(n.right)
        if n.op in "+-":
            value = big = a + b
        elif n.op == "*":
            value = big = a * b
        else:
            value, big = a, a + b  # the quotient, and the exactness test q*d
        return value, max(big, la, lb)

    return walk(node)[1]


def dtype_for(largest: int) -> type | np.dtype:
    """int64 when every value computed is provably below 2**63 in magnitude, else object."""
    return np.dtype(np.int64) if largest < _INT64_LIMIT else np.dtype(object)


def _linear(node: Node, index: dict[str, int]) -> dict[int, int] | None:
    """Coefficient per letter when the node uses only + and -, else None."""
    if isinstance(node, Operand):
        coeffs: dict[int, int] = {}
        place = 1
        for ch in reversed(node.word):
            j = index[ch]
            coeffs[j] = coeffs.get(j, 0) + place
            place *= 10
        return coeffs
    if isinstance(node, BinOp) and node.op in "+-":
        a, b = _linear(node.left, index), _linear(node.right, index)
        if a is None or b is None:
            return None
        sign = 1 if node.op == "+" else -1
        for j, c in b.items():
            a[j] = a.get(j, 0) + sign * c
        return a
    return None


class Evaluator:
    """Evaluates the known parts of a puzzle tree over blocks of assignments."""

    def __init__(self, letters: Sequence[str], dtype):
        self.index = {ch: j for j, ch in enumerate(letters)}
        self.dtype = np.dtype(dtype)
        self._linear: dict[int, dict[int, int] | None] = {}
        self._tables: dict[tuple[int, int | None], np.ndarray] = {}

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
            self._linear[key] = _linear(node, self.index)
        return self._linear[key]

    def value(self, node: Node, cols: Sequence[np.ndarray]) -> tuple[np.ndarray, np.ndarray | None]:
        """The node's values over the block, and where they are defined (None: everywhere)."""
        n = len(cols[0]) if cols else 1
        coeffs = self._linear_of(node)
        if coeffs is not None:
            acc = np.zeros(n, dtype=self.dtype)
            terms = [(j, c) for j, c in coeffs.items() if c]
            for i in range(0, len(terms) - 1, 2):
                (j1, c1), (j2, c2) = terms[i], terms[i + 1]
                pair = cols[j1] * np.uint8(10) + cols[j2]  # < 100: fits uint8
                acc += np.take(self._table(c1, c2), pair)
            if len(terms) % 2:
                j, c = terms[-1]
                acc += np.take(self._table(c), cols[j])
            return acc, None
        assert isinstance(node, BinOp)
        a, oka = self.value(node.left, cols)
        b, okb = self.value(node.right, cols)
        ok = _and(oka, okb)
        if node.op == "+":
            return a + b, ok
        if node.op == "-":
            return a - b, ok
        if node.op == "*":
            return a * b, ok
        q, exact = _divide(a, b)
        return q, _and(ok, exact)

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
        node = side
        t = target
        while isinstance(node, BinOp):
            hole_left = has_hole(node.left)
            other, ok = self.value(node.right if hole_left else node.left, cols)
            known_ok = _and(known_ok, ok)
            op = node.op
            if op == "+":
                t = t - other
            elif op == "-":
                t = t + other if hole_left else other - t
            elif op == "*":
                # free only where every level above is solvable: elsewhere there is no
                # solution at all, whatever this level leaves open
                free = _or(free, _and(feasible, (other == 0) & (t == 0)))
                q, exact = _divide(t, other)
                feasible = _and(feasible, exact)
                t = q
            elif hole_left:  # x / other = t: undefined for every x when other is 0
                known_ok = _and(known_ok, other != 0)
                t = t * other
            else:  # other / x = t
                free = _or(free, _and(feasible, (t == 0) & (other == 0)))
                q, exact = _divide(other, t)
                feasible = _and(feasible, exact & (q != 0))
                t = q
            node = node.left if hole_left else node.right
        assert isinstance(node, Hole)
        return t, feasible, known_ok, free


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
