"""The search plan of the exact engine: the order of the symbols and, for each level of the
search, the checks that become possible once that level's symbol has its digit.

The symbols are taken column by column from the units: the plan repeatedly picks the
relation whose next column needs the fewest symbols still without a place (a word-free
evaluation needs all of its symbols), so that every column is checked as soon as it is
complete.  For each level it then records

- for each linear ``=`` relation the symbol touches: the gcd of the coefficients of the
  symbols still to come (the partial sum must be a multiple of it: for an addition this is
  the column with its carry) and the least and greatest value they can still add (the
  bounds from the high side that cut length mismatches);
- for each linear comparator the same bounds;
- for each polynomial ``=`` relation: the number ``k`` of its low columns now complete,
  when it grew (its value must vanish modulo ``base ** k``);
- each remaining relation once all of its symbols have digits (evaluated exactly).

>>> from cryptocomp.cryptarithm.expr import BinOp, Operand
>>> from cryptocomp.cryptarithm.system import Relation, System
>>> s = System.of([Relation("=", BinOp("+", Operand("send", 0), Operand("more", 5), 4),
...                         Operand("money", 10), 9)])
>>> "".join(s.symbols[i] for i in build_plan(s).order)
'deynrosm'
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from ..domain import Symbol
from .forms import (
    LinearForm,
    Polynomial,
    fold_constants,
    interval_program,
    linear_form,
    polynomial,
    word_positions,
)
from .system import Relation, System, holds_system

__all__ = ["Plan", "Level", "Solver", "build_plan", "EXACT"]

EXACT = -1   # a polynomial check with every digit known: compare exactly


@dataclass(frozen=True)
class Solver:
    """How a level's digits are found without trying them all: the linear relation ``rel``
    needs ``acc[rel] + c * d`` to be a multiple of the next modulus ``g``; with
    ``h = gcd(c, g)`` that is ``h | acc[rel]`` and ``d = (-acc[rel] / h) * inverse mod
    stride`` (``stride = g / h``): one digit in every ``stride``."""

    rel: int
    divisor: int     # h
    stride: int      # g / h (> 1)
    inverse: int     # of c / h modulo stride


@dataclass(frozen=True)
class Level:
    """What happens when ``symbol`` (an index of :attr:`System.symbols`) gets a digit."""

    symbol: int
    least: int                                  # 1 for a leading symbol, else 0
    updates: tuple[tuple[int, int], ...]        # (linear relation, coefficient)
    solver: Solver | None                       # digits in strides, or every digit
    equal: tuple[tuple[int, int, int, int], ...]     # linear =: (rel, modulus, low, high)
    compare: tuple[tuple[int, str, int, int], ...]   # linear comparator: (rel, op, low, high)
    residues: tuple[tuple[int, int], ...]            # polynomial: (rel, columns or EXACT)
    spans: tuple[tuple[int, tuple], ...]             # polynomial: (rel, interval program)
    exact: tuple[int, ...]                           # other relations, all digits known


@dataclass(frozen=True)
class Plan:
    """The order of the symbols and the relations as the search reads them."""

    base: int
    symbols: tuple[Symbol, ...]
    order: tuple[int, ...]
    levels: tuple[Level, ...]
    linear: tuple[tuple[str, LinearForm], ...]       # (comparator, form)
    polys: tuple[tuple[str, Polynomial], ...]
    others: tuple[Relation, ...]                      # evaluated exactly (word-free folded)
    fails: bool = False        # a relation without symbols fails: no solution at all


@dataclass
class _Rel:
    """A relation while the plan is built: its kind and each symbol's column."""

    kind: str
    index: int
    place: dict[int, int]         # symbol index -> column (0 for exact-only relations)
    coefs: dict[int, int] | None = None  # linear =: symbol index -> coefficient


def _bounds(coefs: list[int], least: list[int], base: int) -> tuple[int, int]:
    """The least and greatest of ``sum(c * d)`` over digits ``least[i] <= d <= base - 1``."""
    low = high = 0
    for c, lo in zip(coefs, least):
        a, b = c * lo, c * (base - 1)
        low += min(a, b)
        high += max(a, b)
    return low, high


def _valuation(c: int, base: int) -> int:
    """The largest ``k`` with ``base ** k`` dividing ``c`` (``c != 0``), at most 64."""
    k = 0
    while c % base == 0 and k < 64:
        c //= base
        k += 1
    return k


def _read(system: System, index: dict[Symbol, int]) -> tuple[list, list, list, list, bool]:
    """The relations sorted into linear, polynomial and other, with their build records."""
    linear: list[tuple[str, LinearForm]] = []
    polys: list[tuple[str, Polynomial]] = []
    others: list[Relation] = []
    rels: list[_Rel] = []
    fails = False
    base = system.base
    for r in system.relations:
        left, right = fold_constants(r.left, base), fold_constants(r.right, base)
        if left is None or right is None or not _symbols(r, index):
            fails |= not _symbols(r, index) and not holds_system(System((r,), (), base), {})
            others.append(r)
            rels.append(_Rel("other", len(others) - 1, dict.fromkeys(_symbols(r, index), 0)))
            continue
        form = linear_form(left, right, base)
        if form is not None:
            linear.append((r.op, form))
            place = {index[s]: _valuation(c, base) if r.op == "=" else 0
                     for s, c in form.coefs.items()}
            if not place and not _compare(r.op, form.const):
                fails = True
            rels.append(_Rel("eq" if r.op == "=" else "cmp", len(linear) - 1, place,
                             coefs={index[s]: c for s, c in form.coefs.items()}))
            continue
        poly = polynomial(left, right, base, index) if r.op == "=" else None
        if poly is not None:
            polys.append((r.op, poly))
            pos = word_positions(left) | {}
            for s, p in word_positions(right).items():
                pos[s] = min(pos.get(s, p), p)
            rels.append(_Rel("poly", len(polys) - 1, {index[s]: p for s, p in pos.items()}))
            continue
        others.append(Relation(r.op, left, right, r.pos))
        rels.append(_Rel("other", len(others) - 1, dict.fromkeys(_symbols(r, index), 0)))
    return linear, polys, others, rels, fails


def _symbols(r: Relation, index: dict[Symbol, int]) -> list[int]:
    """The indices of the symbols of ``r``."""
    pos = word_positions(r.left) | word_positions(r.right)
    return [index[s] for s in pos]


def _compare(op: str, v: int) -> bool:
    """``v op 0``."""
    return {"=": v == 0, "!=": v != 0, "<": v < 0, ">": v > 0, "<=": v <= 0, ">=": v >= 0}[op]


def _primes(n: int) -> list[int]:
    """The prime factors of ``n``."""
    out, p = [], 2
    while p * p <= n:
        if n % p == 0:
            out.append(p)
            while n % p == 0:
                n //= p
        p += 1
    return out + ([n] if n > 1 else [])


def _vp(c: int, p: int) -> int:
    """The exponent of the prime ``p`` in ``c != 0`` (at most 200)."""
    k = 0
    while c % p == 0 and k < 200:
        c //= p
        k += 1
    return k


def _next_group(r: _Rel, rest: list[int], primes: list[int]) -> tuple[int, list[int]]:
    """The symbols of ``r`` to give digits next so that a check gains strength, and their
    column: for a linear ``=`` the fewest symbols raising a prime's power in the gcd of the
    coefficients still to come (a column of an addition, or its even or its multiple-of-5
    part in base 10); else the lowest column."""
    if r.coefs is not None:
        best: tuple[int, list[int]] | None = None
        for p in primes:
            low = min(_vp(r.coefs[s], p) for s in rest)
            need = [s for s in rest if _vp(r.coefs[s], p) == low]
            if best is None or len(need) < len(best[1]):
                best = (low, need)
        if best is not None:
            return best
    col = min(r.place[s] for s in rest)
    return col, [s for s in rest if r.place[s] == col]


def _order(rels: list[_Rel], n: int, weight: list[int], base: int) -> list[int]:
    """The symbols group by group: each time the relation whose next check needs the fewest
    new symbols (:func:`_next_group`; linear and polynomial relations before exact ones)."""
    primes = _primes(base)
    done: set[int] = set()
    order: list[int] = []
    while len(order) < n:
        best: tuple | None = None
        for r in rels:
            rest = [s for s in r.place if s not in done]
            if not rest:
                continue
            col, need = _next_group(r, rest, primes)
            key = (r.kind == "other", len(need), col)
            if best is None or key < best[0]:
                best = (key, need, r)
        if best is None:   # symbols of no relation (cannot happen: every symbol is in a word)
            need, coefs = [s for s in range(n) if s not in done], dict[int, int]()
        else:
            need, coefs = best[1], best[2].coefs or {}
        # the group's last symbol is found by its relation's solver: the one whose
        # coefficient shares least with the base gives the longest stride
        for s in sorted(need, key=lambda s: (-weight[s], -math.gcd(coefs.get(s, 0), base ** 8))):
            order.append(s)
            done.add(s)
    return order


def _by_magnitude(rels: list[_Rel], n: int, weight: list[int]) -> list[int]:
    """The symbols by their largest coefficient in a linear relation, largest first: the
    high columns first, where the bounds of the rest decide (a sum of many addends, whose
    low columns hold most symbols, is cut there and hardly at all from the units)."""
    size = [0] * n
    for r in rels:
        for s, c in (r.coefs or {}).items():
            size[s] = max(size[s], abs(c))
    return sorted(range(n), key=lambda s: (-size[s], -weight[s]))


def build_plan(system: System, *, magnitude: bool = False) -> Plan:
    """The plan of ``system``: symbol order (column by column from the units, or with
    ``magnitude`` by coefficient size from the largest) and the checks of every level."""
    base = system.base
    symbols = system.symbols
    index = {s: i for i, s in enumerate(symbols)}
    linear, polys, others, rels, fails = _read(system, index)
    lead = {index[s] for s in system.leading}
    least = [1 if i in lead else 0 for i in range(len(symbols))]
    weight = [sum(i in r.place for r in rels) for i in range(len(symbols))]
    order = (_by_magnitude(rels, len(symbols), weight) if magnitude
             else _order(rels, len(symbols), weight, base))
    at = {s: lv for lv, s in enumerate(order)}
    last_cols = {r.index: 0 for r in rels if r.kind == "poly"}
    levels = [_level(lv, s, rels, linear, polys, symbols, at, least, base, last_cols)
              for lv, s in enumerate(order)]
    return Plan(base, symbols, tuple(order), tuple(levels), tuple(linear), tuple(polys),
                tuple(others), fails)


def _level(lv: int, s: int, rels: list[_Rel], linear: list, polys: list,
           symbols: tuple[Symbol, ...], at: dict[int, int], least: list[int], base: int,
           last_cols: dict[int, int]) -> Level:
    """The checks of level ``lv`` (symbol ``s``); ``last_cols`` is updated."""
    updates = tuple((i, form.coefs[symbols[s]]) for i, (_op, form) in enumerate(linear)
                    if symbols[s] in form.coefs)
    equal, compare, residues, spans, exact = [], [], [], [], []
    solver: Solver | None = None
    known = {t for t, where in at.items() if where <= lv}
    for r in rels:
        if s not in r.place:
            continue
        later = [t for t in r.place if at[t] > lv]
        if r.kind in ("eq", "cmp"):
            op, form = linear[r.index]
            coefs = [form.coefs[symbols[t]] for t in later]
            low, high = _bounds(coefs, [least[t] for t in later], base)
            if r.kind == "cmp":
                compare.append((r.index, op, low, high))
                continue
            modulus = math.gcd(*coefs) if coefs else 0
            equal.append((r.index, modulus or 1, low, high))
            c = form.coefs[symbols[s]]
            g = modulus or abs(c) * base      # complete: acc + c*d = 0 exactly
            h = math.gcd(c, g)
            if g // h > 1 and (solver is None or g // h > solver.stride):
                solver = Solver(r.index, h, g // h, pow(c // h, -1, g // h))
        elif r.kind == "poly":
            cols = min((r.place[t] for t in later), default=EXACT)
            if cols == EXACT or cols > last_cols[r.index]:
                residues.append((r.index, cols))
                last_cols[r.index] = cols
            if cols != EXACT:
                spans.append((r.index, interval_program(polys[r.index][1], known, least)))
        elif not later:
            exact.append(r.index)
    return Level(s, least[s], updates, solver, tuple(equal), tuple(compare), tuple(residues),
                 tuple(spans), tuple(exact))

