"""The exact engine's compiled search (numba) for one product of words equal to another.

Cryptator's multiplications (``chi * omega = sigma * phi``, ``honor * joy = bravery``) are
one relation between two products of words.  :class:`Products` gives the symbols digits
column by column from the units, and as soon as the low ``k`` digits of every word are
known it checks that both products agree modulo ``base ** k`` (reduction modulo ``base **
k`` is a ring map, so the low digits decide it); the last level compares the products
exactly.  Every value is int64: it is used only when each product is below ``2 ** 62`` and
every modulus checked keeps a product of two residues below ``2 ** 63``.

>>> from cryptocomp.cryptarithm.grammar import parse_system
>>> p = Products.of(parse_system("honor * joy = bravery"), cap=2)
>>> p is not None and p.run().count
1
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

from ..domain import Symbol
from ..jitcache import compiled
from .expr import BinOp, Operand
from .system import System, SystemNode

__all__ = ["Products", "MOD_LIMIT"]

MOD_LIMIT = 3_000_000_000   # a checked modulus: two residues below it multiply in int64
VALUE_LIMIT = 2 ** 62       # each side's product at most this
SLICE_NODES = 1 << 14       # nodes between two looks at the clock (a few milliseconds)



@compiled()
def _side_mod(fac, side, which, digits, cols, modulus, base):
    """The product of the words of side ``which`` (their low ``cols`` digits) modulo
    ``modulus`` (0: exactly)."""
    prod = 1
    for w in range(fac.shape[0]):
        if side[w] != which:
            continue
        low = 0
        for j in range(min(cols, fac.shape[1]) - 1, -1, -1):
            s = fac[w, j]
            if s >= 0:
                low = low * base + digits[s]
        prod = prod * (low % modulus) % modulus if modulus > 0 else prod * low
    return prod


@compiled()
def _agree(fac, side, digits, k, base):
    """Whether both sides agree on their low ``k`` columns (``k < 0``: exactly)."""
    if k == 0:
        return True
    if k < 0:
        return _side_mod(fac, side, 1, digits, fac.shape[1], 0, base) == \
            _side_mod(fac, side, -1, digits, fac.shape[1], 0, base)
    m = 1
    for _ in range(k):
        m *= base
    return _side_mod(fac, side, 1, digits, k, m, base) == _side_mod(fac, side, -1, digits, k,
                                                                    m, base)


@compiled()
def _run(st, nxt, cur, digits, sols, base, sym, least, check, fac, side, limit):
    """Go on with the search in ``st`` = [level, used mask, count, nodes, started] for at
    most ``limit`` more nodes; ``check[lv]``: the columns complete at level ``lv`` (0:
    none, -1: the last level, compared exactly)."""
    n = sym.shape[0]
    lv, used, count, nodes = st[0], st[1], st[2], st[3]
    stop = nodes + limit
    if st[4] == 0:
        st[4] = 1
        lv = 0
        nxt[0] = least[0]
        cur[0] = -1
    while lv >= 0:
        d = cur[lv]
        if d >= 0:
            used &= ~(1 << d)
            cur[lv] = -1
        d = nxt[lv]
        while d < base and (used >> d) & 1:
            d += 1
        if d >= base:
            lv -= 1
            continue
        if nodes >= stop:
            break
        nxt[lv] = d + 1
        nodes += 1
        digits[sym[lv]] = d
        cur[lv] = d
        used |= 1 << d
        if not _agree(fac, side, digits, check[lv], base):
            continue
        if lv + 1 == n:
            if count < sols.shape[0]:
                for j in range(digits.shape[0]):
                    sols[count, j] = digits[j]
            count += 1
            continue
        lv += 1
        nxt[lv] = least[lv]
        cur[lv] = -1
    st[0], st[1], st[2], st[3] = lv, used, count, nodes
    return lv < 0


@dataclass(frozen=True)
class Outcome:
    """What a run found (as :class:`~cryptocomp.cryptarithm.search.Found`)."""

    count: int
    solutions: list[dict[Symbol, int]]
    complete: bool
    nodes: int


def _factors(node: SystemNode) -> list[str] | None:
    """The words of a product of words, or None when ``node`` is something else."""
    if isinstance(node, Operand):
        return [node.word]
    if isinstance(node, BinOp) and node.op == "*":
        left, right = _factors(node.left), _factors(node.right)  # type: ignore[arg-type]
        return None if left is None or right is None else left + right
    return None


@dataclass
class Products:
    """A product-equals-product system as the arrays :func:`_run` reads, and its state."""

    symbols: tuple[Symbol, ...]
    base: int
    cap: int
    arrays: tuple[np.ndarray, ...]
    state: tuple[np.ndarray, ...]
    done: bool = False

    @classmethod
    def of(cls, system: System, cap: int = 20) -> Products | None:
        """The search of ``system``, or None when it is not one ``=`` between products of
        words whose values fit in int64."""
        if len(system.relations) != 1 or system.relations[0].op != "=":
            return None
        r = system.relations[0]
        left, right = _factors(r.left), _factors(r.right)
        base, symbols = system.base, system.symbols
        if left is None or right is None or len(symbols) > base or base > 62 or not symbols:
            return None
        if any(base ** sum(map(len, words)) >= VALUE_LIMIT for words in (left, right)):
            return None
        index = {s: i for i, s in enumerate(symbols)}
        words = [(w, 1) for w in left] + [(w, -1) for w in right]
        width = max(len(w) for w, _ in words)
        fac = np.full((len(words), width), -1, np.int64)
        for i, (w, _) in enumerate(words):
            for c, ch in enumerate(reversed(w)):
                fac[i, c] = index[ch]
        order: list[int] = []
        check: list[int] = []
        for c in range(width):   # column by column from the units
            for w, _ in words:
                if c < len(w) and index[w[-1 - c]] not in order:
                    order.append(index[w[-1 - c]])
                    check.append(0)
            if order and base ** (c + 1) < MOD_LIMIT:
                check[-1] = c + 1        # columns 0..c complete at this level
        check[-1] = -1
        lead = set(system.leading)
        i64 = np.int64
        n, k = len(order), len(symbols)
        arrays = (np.array(order, i64), np.array([1 if symbols[s] in lead else 0
                                                   for s in order], i64),
                  np.array(check, i64), fac, np.array([s for _, s in words], i64))
        state = (np.zeros(5, i64), np.zeros(n, i64), np.full(n, -1, i64), np.zeros(k, i64),
                 np.zeros((cap, k), i64))
        return cls(symbols, base, cap, arrays, state)

    def run(self, *, deadline: float | None = None, steps: int | None = None) -> Outcome:
        """Search until the end, ``deadline`` (monotonic seconds) or ``steps`` nodes."""
        st = self.state[0]
        while not self.done:
            limit = SLICE_NODES if deadline is not None else 1 << 62
            if steps is not None:
                limit = min(limit, steps - int(st[3]))
            if limit <= 0:
                break
            self.done = bool(_run(*self.state, self.base, *self.arrays, limit))
            if deadline is not None and time.monotonic() >= deadline:
                break
        count = int(st[2])
        rows = self.state[4][:min(count, self.cap)].tolist()
        return Outcome(count, [dict(zip(self.symbols, row)) for row in rows], self.done,
                       int(st[3]))
