"""The exact counter of word sums and products ``a + b + ... = z`` (``a * b * ... = z``).

:func:`count_word_sum` counts the injective assignments of digits to the symbols of the
words (no word of two or more symbols starting with 0) under which the left words add up
(or multiply) to the right word, up to a ``cap`` (the generator asks "none, one or more?":
``cap=2``).  It searches column by column from the units, as a person does: the addends'
new symbols of a column are chosen, then the right word's digit of that column is
determined (``(carry + column sum) mod base``), so a contradiction in a low column cuts
off every choice of the higher ones.  For a product the digit of column ``c`` is that of
the product of the factors' low parts modulo ``base ** (c+1)``.

The search is one compiled loop (numba, cached beside the sources: the first use in a
fresh install compiles it in a few seconds).  The generator calls it once a candidate.

>>> count_word_sum(["send", "more"], "money")
1
>>> count_word_sum(["a", "b"], "c", cap=100)
32
>>> count_word_sum(["ab", "ab"], "ab", op="*", cap=100)
0
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from numba import njit

from ..domain import Symbol

__all__ = ["WordSum", "SumPlan", "plan_word_sum", "count_word_sum", "solve_word_sum",
           "SUM", "PRODUCT", "MAX_PRODUCT_DIGITS"]

SUM, PRODUCT = 0, 1
FREE, CHECK = 0, 1
# a product is checked exactly in int64: its right word has at most this many digits
MAX_PRODUCT_DIGITS = 18
# columns of a product are checked early while base ** (c+1) keeps a*b below 2**63
_MOD_LIMIT = 3_000_000_000
_UNCHECKED = -(2 ** 62)   # a column the search cannot check yet (a product's high ones)


def _compiled(fn):  # type: ignore[no-untyped-def]
    """``njit`` with numba's cache when one can be written, else compiled each process
    (a read-only install must still run)."""
    try:
        return njit(cache=True)(fn)
    except (RuntimeError, OSError):
        return njit(cache=False)(fn)


@dataclass(frozen=True)
class WordSum:
    """``addends op ... = right``: the words of one candidate puzzle."""

    addends: tuple[str, ...]
    right: str
    op: str = "+"

    @property
    def puzzle(self) -> str:
        """The puzzle in Cryptator's grammar: ``a + b = c``."""
        return f" {self.op} ".join(self.addends) + f" = {self.right}"


@dataclass(frozen=True)
class SumPlan:
    """The arrays the compiled search reads (see :func:`plan_word_sum`)."""

    symbols: tuple[Symbol, ...]
    kind: np.ndarray        # per event: FREE (choose a symbol's digit) or CHECK (a column)
    arg: np.ndarray         # FREE: the symbol; CHECK: the column
    leading: np.ndarray     # per symbol: 1 when it may not be 0
    col_start: np.ndarray   # column c's addend terms are col_sym/col_mult[start[c]:start[c+1]]
    col_sym: np.ndarray
    col_mult: np.ndarray
    right_sym: np.ndarray   # per column: the right word's symbol
    fac_sym: np.ndarray     # product: factor f's digit at column c is fac_sym[f, c] (-1: none)
    mode: int
    base: int


def plan_word_sum(addends: Sequence[str], right: str, op: str = "+", base: int = 10,
                  minus: Sequence[str] = ()) -> SumPlan:
    """The search plan of ``addends op ... - minus ... = right``: events in column order
    (each new symbol of the left words, then the column's check).  ``minus`` words (a sum
    only) are subtracted: ``a + b = c + d`` is planned as ``a + b - c = d`` with ``d`` the
    longest word, so that no left word is longer than the right one."""
    signs = [1] * len(addends) + [-1] * len(minus)
    addends = [*addends, *minus]
    symbols: dict[Symbol, int] = {}
    for w in (*addends, right):
        for ch in w:
            symbols.setdefault(ch, len(symbols))
    width = len(right)
    kind: list[int] = []
    arg: list[int] = []
    seen: set[int] = set()
    col_start, col_sym, col_mult = [0], [], []
    for c in range(width):
        terms: dict[int, int] = {}
        for w, sign in zip(addends, signs):
            if c < len(w):
                s = symbols[w[-1 - c]]
                terms[s] = terms.get(s, 0) + sign
                if s not in seen:
                    seen.add(s)
                    kind.append(FREE)
                    arg.append(s)
        col_sym.extend(terms)
        col_mult.extend(terms.values())
        col_start.append(len(col_sym))
        kind.append(CHECK)
        arg.append(c)
        if op != "*" or base ** (c + 1) <= _MOD_LIMIT:   # the check sets it (see _search)
            seen.add(symbols[right[-1 - c]])
    for w in addends:   # a left word longer than the right one: its high symbols too
        for ch in w[: max(0, len(w) - width)]:
            if symbols[ch] not in seen:
                seen.add(symbols[ch])
                kind.append(FREE)
                arg.append(symbols[ch])
    leading = np.zeros(len(symbols), np.int64)
    for w in (*addends, right):
        if len(w) > 1:
            leading[symbols[w[0]]] = 1
    fac = np.full((len(addends), max([width, *map(len, addends)])), -1, np.int64)
    for f, w in enumerate(addends):
        for c, ch in enumerate(reversed(w)):
            fac[f, c] = symbols[ch]
    i64 = np.int64
    return SumPlan(tuple(symbols), np.array(kind, i64), np.array(arg, i64), leading,
                   np.array(col_start, i64), np.array(col_sym, i64), np.array(col_mult, i64),
                   np.array([symbols[ch] for ch in reversed(right)], i64), fac,
                   PRODUCT if op == "*" else SUM, base)


@_compiled
def _column_value(plan_mode, c, carry, col_start, col_sym, col_mult, fac, val, base):
    """The value whose digit ``c`` the right word must show (:data:`_UNCHECKED`: not
    checkable yet); a sum's value may be negative where words are subtracted."""
    if plan_mode == 0:
        total = carry
        for t in range(col_start[c], col_start[c + 1]):
            total += col_mult[t] * val[col_sym[t]]
        return total
    modulus = 1
    for _ in range(c + 1):
        modulus *= base
    if modulus > 3_000_000_000:   # _MOD_LIMIT
        return _UNCHECKED
    prod = 1
    for f in range(fac.shape[0]):
        low = 0
        for j in range(c, -1, -1):
            s = fac[f, j]
            low = low * base + (val[s] if s >= 0 else 0)
        prod = prod * low % modulus
    return prod // (modulus // base)


@_compiled
def _final(plan_mode, right_sym, fac, val, used, base, carry):
    """1 when the complete left side equals the right word (assigning its digits not yet
    set, injectively), else 0; every digit it sets is unset again."""
    width = right_sym.shape[0]
    if plan_mode == 0:
        return 1 if carry == 0 else 0
    limit = 1
    for _ in range(width):
        limit *= base
    values = np.zeros(fac.shape[0], np.int64)
    for f in range(fac.shape[0]):
        for j in range(fac.shape[1] - 1, -1, -1):
            if fac[f, j] >= 0:
                values[f] = values[f] * base + val[fac[f, j]]
    prod = 1
    for f in range(fac.shape[0]):
        if values[f] == 0:     # a zero factor: no overflow guard may refuse it first
            prod = 0
            break
    for f in range(fac.shape[0] if prod else 0):
        if prod > (limit - 1) // values[f]:
            return 0
        prod *= values[f]
    if width > 1 and prod < limit // base:
        return 0
    ok = 1
    set_here = np.full(width, -1, np.int64)
    for c in range(width):
        d = prod % base
        prod //= base
        s = right_sym[c]
        if val[s] >= 0:
            if val[s] != d:
                ok = 0
                break
        elif used[d]:
            ok = 0
            break
        else:
            val[s] = d
            used[d] = 1
            set_here[c] = s
    for c in range(width):
        if set_here[c] >= 0:
            used[val[set_here[c]]] = 0
            val[set_here[c]] = -1
    return ok


@_compiled
def _search(kind, arg, leading, col_start, col_sym, col_mult, right_sym, fac, mode, base,
            nsym, cap, first):
    """The number of solutions, stopping at ``cap``; the first one's digits go to ``first``."""
    n = kind.shape[0]
    val = np.full(nsym, -1, np.int64)
    used = np.zeros(base, np.int64)
    tried = np.full(n + 1, -1, np.int64)
    carry = np.zeros(n + 2, np.int64)     # carry into the column checked at event p
    count = 0
    p = 0
    while p >= 0:
        if p == n:
            if _final(mode, right_sym, fac, val, used, base, carry[n]) == 1:
                if count == 0:
                    for s in range(nsym):
                        first[s] = val[s]
                count += 1
                if count >= cap:
                    return count
            p -= 1
            continue
        if kind[p] == 0:
            s = arg[p]
            if tried[p] >= 0:
                used[tried[p]] = 0
                val[s] = -1
            d = tried[p] + 1
            while d < base and (used[d] == 1 or (d == 0 and leading[s] == 1)):
                d += 1
            if d == base:
                tried[p] = -1
                p -= 1
                continue
            tried[p] = d
            used[d] = 1
            val[s] = d
            carry[p + 1] = carry[p]
            p += 1
            tried[p] = -1
            continue
        c = arg[p]
        rs = right_sym[c]
        if tried[p] >= 0:           # back from above: undo this check, go further back
            if tried[p] == 2:
                used[val[rs]] = 0
                val[rs] = -1
            tried[p] = -1
            p -= 1
            continue
        total = _column_value(mode, c, carry[p], col_start, col_sym, col_mult, fac, val, base)
        if total == _UNCHECKED:
            tried[p] = 1
            carry[p + 1] = 0
            p += 1
            tried[p] = -1
            continue
        r = total % base
        if val[rs] >= 0:
            ok = val[rs] == r
            assigned = 0
        else:
            ok = used[r] == 0 and not (r == 0 and leading[rs] == 1)
            assigned = 1
            if ok:
                val[rs] = r
                used[r] = 1
        if not ok:
            p -= 1
            continue
        tried[p] = 1 + assigned
        carry[p + 1] = total // base if mode == 0 else 0
        p += 1
        tried[p] = -1
    return count


def _run(plan: SumPlan, cap: int) -> tuple[int, dict[Symbol, int]]:
    """Count with the compiled search; the first solution as a mapping."""
    nsym = len(plan.symbols)
    # a sum: an addend longer than the right word makes the left side too large
    too_long = plan.mode == SUM and plan.fac_sym.shape[1] > len(plan.right_sym)
    if nsym > plan.base or too_long:
        return 0, {}
    first = np.full(nsym, -1, np.int64)
    count = int(_search(plan.kind, plan.arg, plan.leading, plan.col_start, plan.col_sym,
                        plan.col_mult, plan.right_sym, plan.fac_sym, plan.mode, plan.base,
                        nsym, cap, first))
    fill = {s: int(first[i]) for i, s in enumerate(plan.symbols)} if count else {}
    if count and min(fill.values()) < 0:   # a product's right digits set only at the end
        fill = _complete_product(plan, fill)
    return count, fill


def _complete_product(plan: SumPlan, fill: dict[Symbol, int]) -> dict[Symbol, int]:
    """The product's right digits the search checked but did not keep."""
    prod = 1
    for f in range(plan.fac_sym.shape[0]):
        v = 0
        for s in reversed(plan.fac_sym[f]):
            if s >= 0:
                v = v * plan.base + fill[plan.symbols[s]]
        prod *= v
    for s in plan.right_sym:
        prod, fill[plan.symbols[s]] = divmod(prod, plan.base)
    return fill


def count_word_sum(addends: Sequence[str], right: str, op: str = "+", base: int = 10,
                   cap: int = 2, minus: Sequence[str] = ()) -> int:
    """How many assignments solve ``addends op ... - minus ... = right``, counting up to
    ``cap``."""
    return _run(plan_word_sum(addends, right, op, base, minus), cap)[0]


def solve_word_sum(addends: Sequence[str], right: str, op: str = "+", base: int = 10,
                   cap: int = 2, minus: Sequence[str] = ()) -> tuple[int, dict[Symbol, int]]:
    """The count (up to ``cap``) and the first solution found (empty when none)."""
    return _run(plan_word_sum(addends, right, op, base, minus), cap)
