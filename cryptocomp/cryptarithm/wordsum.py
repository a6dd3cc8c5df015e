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

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from ..domain import Symbol
from ..jitcache import compiled

__all__ = ["WordSum", "SumPlan", "plan_word_sum", "count_word_sum", "solve_word_sum",
           "SUM", "PRODUCT", "MAX_PRODUCT_DIGITS"]

SUM, PRODUCT = 0, 1
FREE, CHECK = 0, 1
# a product is checked exactly in int64: its right word has at most this many digits
MAX_PRODUCT_DIGITS = 18
# columns of a product are checked early while base ** (c+1) keeps a*b below 2**63
_MOD_LIMIT = 3_000_000_000
_UNCHECKED = -(2 ** 62)   # a column the search cannot check yet (a product's high ones)



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
    det: np.ndarray         # sum: per column, the symbol solved for at its check (-1: none)
    det_coef: np.ndarray    # ... its coefficient in the column
    det_inv: np.ndarray     # ... and that coefficient's inverse modulo the base


def plan_word_sum(addends: Sequence[str], right: str, op: str = "+", base: int = 10,
                  minus: Sequence[str] = ()) -> SumPlan:
    """The search plan of ``addends op ... - minus ... = right``: events in column order
    (each new symbol of the column, then the column's check).  ``minus`` words (a sum
    only) are subtracted: ``a + b = c + d`` is planned as ``a + b - c = d`` with ``d`` the
    longest word, so that no left word is longer than the right one."""
    signed = [(w, 1) for w in addends] + [(w, -1) for w in minus]
    words = [w for w, _ in signed]
    symbols: dict[Symbol, int] = {}
    for w in (*words, right):
        for ch in w:
            symbols.setdefault(ch, len(symbols))
    if op == "*":
        events, cols = _product_events(words, right, symbols, base)
    else:
        events, cols = _sum_events(signed, right, symbols, base)
    leading = np.zeros(len(symbols), np.int64)
    for w in (*words, right):
        if len(w) > 1:
            leading[symbols[w[0]]] = 1
    width = len(right)
    fac = np.full((len(words), max([width, *map(len, words)])), -1, np.int64)
    for f, w in enumerate(words):
        for c, ch in enumerate(reversed(w)):
            fac[f, c] = symbols[ch]
    i64 = np.int64
    col_start, col_sym, col_mult, det, det_coef, det_inv = cols
    return SumPlan(tuple(symbols), np.array([k for k, _ in events], i64),
                   np.array([a for _, a in events], i64), leading,
                   np.array(col_start, i64), np.array(col_sym, i64), np.array(col_mult, i64),
                   np.array([symbols[ch] for ch in reversed(right)], i64), fac,
                   PRODUCT if op == "*" else SUM, base, np.array(det, i64),
                   np.array(det_coef, i64), np.array(det_inv, i64))


_Columns = tuple[list[int], list[int], list[int], list[int], list[int], list[int]]


def _sum_events(signed: list[tuple[str, int]], right: str, symbols: dict[Symbol, int],
                base: int) -> tuple[list[tuple[int, int]], _Columns]:
    """A sum's events and columns: column ``c`` holds ``carry + sum(coef * digit) = base *
    carry_out`` (the right word's symbol with coefficient -1); one new symbol of the
    column whose coefficient is invertible modulo the base is not chosen but solved for
    (the right one when it is new), so a column costs one choice less."""
    events: list[tuple[int, int]] = []
    seen: set[int] = set()
    starts: list[int] = [0]
    col_sym: list[int] = []
    col_mult: list[int] = []
    det: list[int] = []
    det_coef: list[int] = []
    det_inv: list[int] = []
    for c in range(len(right)):
        terms: dict[int, int] = {}
        for w, sign in signed:
            if c < len(w):
                terms[symbols[w[-1 - c]]] = terms.get(symbols[w[-1 - c]], 0) + sign
        r = symbols[right[-1 - c]]
        terms[r] = terms.get(r, 0) - 1
        new = [s for s in terms if s not in seen]
        solvable = [s for s in new if math.gcd(terms[s] % base, base) == 1]
        chosen = r if r in solvable else (solvable[0] if solvable else -1)
        events.extend((FREE, s) for s in new if s != chosen)
        events.append((CHECK, c))
        seen.update(new)
        col_sym.extend(terms)
        col_mult.extend(terms.values())
        starts.append(len(col_sym))
        det.append(chosen)
        det_coef.append(terms[chosen] if chosen >= 0 else 0)
        det_inv.append(pow(terms[chosen] % base, -1, base) if chosen >= 0 else 0)
    for w, _ in signed:   # a left word longer than the right one (then no solution)
        for ch in w[: max(0, len(w) - len(right))]:
            if symbols[ch] not in seen:
                seen.add(symbols[ch])
                events.append((FREE, symbols[ch]))
    return events, (starts, col_sym, col_mult, det, det_coef, det_inv)


def _product_events(words: list[str], right: str, symbols: dict[Symbol, int],
                    base: int) -> tuple[list[tuple[int, int]], _Columns]:
    """A product's events: each column's new factor symbols, then its check, which sets
    the right word's digit of the column when it is new (while the column can be checked
    early, see :data:`_MOD_LIMIT`)."""
    events: list[tuple[int, int]] = []
    seen: set[int] = set()
    for c in range(len(right)):
        for w in words:
            if c < len(w) and symbols[w[-1 - c]] not in seen:
                seen.add(symbols[w[-1 - c]])
                events.append((FREE, symbols[w[-1 - c]]))
        events.append((CHECK, c))
        if base ** (c + 1) <= _MOD_LIMIT:
            seen.add(symbols[right[-1 - c]])
    for w in words:
        for ch in w[: max(0, len(w) - len(right))]:
            if symbols[ch] not in seen:
                seen.add(symbols[ch])
                events.append((FREE, symbols[ch]))
    return events, ([0], [], [], [], [], [])


@compiled()
def _product_value(c, fac, val, base):
    """The product of the factors' low parts modulo ``base ** (c+1)`` shifted to digit
    ``c`` (:data:`_UNCHECKED`: column ``c`` cannot be checked yet)."""
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


@compiled()
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
    return _match_digits(prod, right_sym, val, used, base)


@compiled()
def _match_digits(prod, right_sym, val, used, base):
    """1 when the right word can spell ``prod`` (its unset digits set injectively), else 0;
    every digit it sets is unset again."""
    width = right_sym.shape[0]
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


@compiled()
def _search(kind, arg, leading, col_start, col_sym, col_mult, right_sym, fac, mode, base,
            nsym, cap, first, det, det_coef, det_inv):
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
        if tried[p] >= 0:           # back from above: undo this check, go further back
            if tried[p] == 2:
                s = det[c] if mode == 0 else right_sym[c]
                used[val[s]] = 0
                val[s] = -1
            tried[p] = -1
            p -= 1
            continue
        if mode == 0:
            ok, assigned, out = _sum_check(c, carry[p], col_start, col_sym, col_mult, det,
                                           det_coef, det_inv, leading, val, used, base)
        else:
            ok, assigned, out = _product_check(c, right_sym[c], fac, leading, val, used,
                                               base)
        if not ok:
            p -= 1
            continue
        tried[p] = 1 + assigned
        carry[p + 1] = out
        p += 1
        tried[p] = -1
    return count


@compiled()
def _sum_check(c, carry, col_start, col_sym, col_mult, det, det_coef, det_inv, leading, val,
               used, base):
    """Column ``c`` of a sum: (holds, sets its solved symbol, carry out); the solved
    symbol's digit is set when it holds."""
    rest = carry
    d = det[c]
    for t in range(col_start[c], col_start[c + 1]):
        if col_sym[t] != d:
            rest += col_mult[t] * val[col_sym[t]]
    if d < 0:
        return rest % base == 0, 0, rest // base
    x = (-rest) % base * det_inv[c] % base
    if used[x] == 1 or (x == 0 and leading[d] == 1):
        return False, 0, 0
    val[d] = x
    used[x] = 1
    return True, 1, (rest + det_coef[c] * x) // base


@compiled()
def _product_check(c, rs, fac, leading, val, used, base):
    """Column ``c`` of a product: (holds, sets the right word's digit, 0)."""
    total = _product_value(c, fac, val, base)
    if total == _UNCHECKED:
        return True, 0, 0
    r = total % base
    if val[rs] >= 0:
        return val[rs] == r, 0, 0
    if used[r] == 1 or (r == 0 and leading[rs] == 1):
        return False, 0, 0
    val[rs] = r
    used[r] = 1
    return True, 1, 0


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
                        nsym, cap, first, plan.det, plan.det_coef, plan.det_inv))
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
