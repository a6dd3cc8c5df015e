"""The exact engine's search compiled (numba) for plans whose relations are all linear.

Sums, differences, Cryptator's long multiplications by quoted constants, crossword systems
and doubly-true sums are linear relations (:class:`~cryptocomp.cryptarithm.forms.LinearForm`):
their checks are integer sums, which compiled code runs in int64 when every partial sum
provably fits.  :class:`Kernel` lays a :class:`~cryptocomp.cryptarithm.plan.Plan` out as flat
arrays and runs the same depth-first search as :class:`~cryptocomp.cryptarithm.search.Search`
(same order, same checks, hence the same count and the same solutions in the same order), as
an explicit stack so that it can stop after a number of nodes and go on later: budgets are
kept between slices.

>>> from cryptocomp.cryptarithm.expr import BinOp, Operand
>>> from cryptocomp.cryptarithm.plan import build_plan
>>> from cryptocomp.cryptarithm.system import Relation, System
>>> s = System.of([Relation("=", BinOp("+", Operand("send", 0), Operand("more", 5), 4),
...                         Operand("money", 10), 9)])
>>> k = Kernel.of(build_plan(s), cap=2)
>>> k is not None and k.run().count
1
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

from ..domain import Symbol
from ..jitcache import compiled
from .plan import Plan

__all__ = ["Kernel", "SLICE_NODES"]

SLICE_NODES = 1 << 16    # nodes between two looks at the clock (a few milliseconds)
LIMIT = 2 ** 62          # every partial sum must stay below this in magnitude
STRIDE_LIMIT = 2 ** 31  # a solver's stride, so that a residue times its inverse fits
OPS = {"=": 0, "!=": 1, "<": 2, ">": 3, "<=": 4, ">=": 5}



@compiled()
def _possible(op, low, high):
    """Whether ``v op 0`` can hold for some ``v`` in ``[low, high]`` (op as in :data:`OPS`)."""
    if op == 2:
        return low < 0
    if op == 3:
        return high > 0
    if op == 4:
        return low <= 0
    if op == 5:
        return high >= 0
    if op == 1:
        return low != 0 or high != 0
    return low <= 0 <= high


@compiled()
def _window(lv, acc, base, least, eq_start, eq_rel, eq_coef, eq_low, eq_high):
    """The digits of level ``lv`` that its ``=`` checks' bounds allow, ``(lo, hi)``: with
    ``v`` the partial sum before the digit, ``v + c * d`` must lie in ``[-high, -low]``
    (trying the digits outside would fail the same bounds one by one)."""
    lo = least[lv]
    hi = base - 1
    for t in range(eq_start[lv], eq_start[lv + 1]):
        c = eq_coef[t]
        v = acc[eq_rel[t]]
        a = -v - eq_high[t]       # c * d >= a
        b = -v - eq_low[t]        # c * d <= b
        if c > 0:
            lo = max(lo, -(-a // c))
            hi = min(hi, b // c)
        elif c < 0:
            lo = max(lo, -(b // -c))
            hi = min(hi, (-a) // -c)
    return lo, hi


@compiled()
def _first(lv, acc, sol_rel, sol_div, sol_stride, sol_inv, lo):
    """The first candidate digit from ``lo`` of level ``lv`` and the stride (a first
    beyond any digit: none)."""
    r = sol_rel[lv]
    if r < 0:
        return lo, 1
    v = acc[r]
    h = sol_div[lv]
    if v % h != 0:
        return 1 << 40, 1
    stride = sol_stride[lv]
    first = (-(v // h)) % stride * sol_inv[lv] % stride
    if first < lo:
        first += stride * ((lo - first + stride - 1) // stride)
    return first, stride


@compiled()
def _holds(lv, acc, used, base, eq_start, eq_rel, eq_mod, eq_low, eq_high, pos_start, pos,
           neg_start, neg, cmp_start, cmp_rel, cmp_op, cmp_low, cmp_high):
    """Whether level ``lv``'s checks pass on the partial sums ``acc`` (digits ``used``)."""
    for t in range(eq_start[lv], eq_start[lv + 1]):
        v = acc[eq_rel[t]]
        if v % eq_mod[t] != 0 or v + eq_low[t] > 0 or v + eq_high[t] < 0:
            return False
    for t in range(cmp_start[lv], cmp_start[lv + 1]):
        v = acc[cmp_rel[t]]
        if not _possible(cmp_op[t], v + cmp_low[t], v + cmp_high[t]):
            return False
    for t in range(eq_start[lv], eq_start[lv + 1]):
        if not _distinct_bounds(acc[eq_rel[t]], used, base, pos[pos_start[t]:pos_start[t + 1]],
                                neg[neg_start[t]:neg_start[t + 1]]):
            return False
    return True


@compiled()
def _distinct_bounds(v, used, base, pos, neg):
    """Whether ``v + sum(c * d)`` can be 0 when the later symbols take distinct free digits:
    the positive coefficients ``pos`` and the magnitudes ``neg`` of the negative ones (each
    sorted, largest first) are paired with the largest or the smallest free digits, which
    bounds the sum (rearrangement: tighter than each digit alone in [0, base))."""
    if pos.shape[0] + neg.shape[0] < 2:
        return True
    high = v
    low = v
    i = 0
    j = 0
    for d in range(base - 1, -1, -1):     # free digits from the largest
        if (used >> d) & 1:
            continue
        if i < pos.shape[0]:
            high += pos[i] * d
            i += 1
        if j < neg.shape[0]:
            low -= neg[j] * d
            j += 1
    i = 0
    j = 0
    for d in range(base):                 # from the smallest
        if (used >> d) & 1:
            continue
        if i < pos.shape[0]:
            low += pos[i] * d
            i += 1
        if j < neg.shape[0]:
            high -= neg[j] * d
            j += 1
    return low <= 0 <= high


@compiled()
def _run(st, nxt, stp, cur, digits, acc, sols, top, base, sym, least, upd_start, upd_rel,
         upd_coef, eq_start, eq_rel, eq_coef, eq_mod, eq_low, eq_high, pos_start, pos,
         neg_start, neg, cmp_start, cmp_rel, cmp_op,
         cmp_low, cmp_high, sol_rel, sol_div, sol_stride, sol_inv, limit):
    """Go on with the search in ``st`` = [level, used mask, count, nodes, started] for at
    most ``limit`` more nodes; the first solutions go to ``sols`` (one row each)."""
    n = sym.shape[0]
    lv, used, count, nodes = st[0], st[1], st[2], st[3]
    stop = nodes + limit
    if st[4] == 0:
        st[4] = 1
        lv = 0
        lo, top[0] = _window(0, acc, base, least, eq_start, eq_rel, eq_coef, eq_low, eq_high)
        nxt[0], stp[0] = _first(0, acc, sol_rel, sol_div, sol_stride, sol_inv, lo)
        cur[0] = -1
    while lv >= 0:
        d = cur[lv]
        if d >= 0:      # undo the digit this level holds
            for t in range(upd_start[lv], upd_start[lv + 1]):
                acc[upd_rel[t]] -= upd_coef[t] * d
            used &= ~(1 << d)
            cur[lv] = -1
        d = nxt[lv]
        while d <= top[lv] and (used >> d) & 1:
            d += stp[lv]
        if d > top[lv]:
            lv -= 1
            continue
        if nodes >= stop:
            break
        nxt[lv] = d + stp[lv]
        nodes += 1
        digits[sym[lv]] = d
        for t in range(upd_start[lv], upd_start[lv + 1]):
            acc[upd_rel[t]] += upd_coef[t] * d
        cur[lv] = d
        used |= 1 << d
        if not _holds(lv, acc, used, base, eq_start, eq_rel, eq_mod, eq_low, eq_high,
                      pos_start, pos, neg_start, neg, cmp_start, cmp_rel, cmp_op, cmp_low,
                      cmp_high):
            continue
        if lv + 1 == n:
            if count < sols.shape[0]:
                for j in range(digits.shape[0]):
                    sols[count, j] = digits[j]
            count += 1
            continue
        lv += 1
        lo, top[lv] = _window(lv, acc, base, least, eq_start, eq_rel, eq_coef, eq_low, eq_high)
        nxt[lv], stp[lv] = _first(lv, acc, sol_rel, sol_div, sol_stride, sol_inv, lo)
        cur[lv] = -1
    st[0], st[1], st[2], st[3] = lv, used, count, nodes
    return lv < 0


def _later_coefficients(plan: Plan) -> tuple[tuple[np.ndarray, np.ndarray], ...]:
    """For every linear ``=`` check of every level (in :attr:`Level.equal` order): the
    coefficients of the relation's symbols still to come, positive ones and the magnitudes
    of negative ones, each largest first (as :func:`_distinct_bounds` reads them)."""
    at = {plan.symbols[s]: lv for lv, s in enumerate(plan.order)}
    pos: list[list[int]] = []
    neg: list[list[int]] = []
    for lv in plan.levels:
        for r, *_ in lv.equal:
            form = plan.linear[r][1]
            mine = at[plan.symbols[lv.symbol]]
            later = [c for s, c in form.coefs.items() if at[s] > mine]
            pos.append(sorted((c for c in later if c > 0), reverse=True))
            neg.append(sorted((-c for c in later if c < 0), reverse=True))

    def flat(rows: list[list[int]]) -> tuple[np.ndarray, np.ndarray]:
        start = np.zeros(len(rows) + 1, np.int64)
        for i, row in enumerate(rows):
            start[i + 1] = start[i] + len(row)
        return start, np.array([c for row in rows for c in row], np.int64)

    return flat(pos), flat(neg)


@dataclass
class Outcome:
    """What a kernel run found (as :class:`~cryptocomp.cryptarithm.search.Found`)."""

    count: int
    solutions: list[dict[Symbol, int]]
    complete: bool
    nodes: int


@dataclass
class Kernel:
    """A linear plan as the arrays :func:`_run` reads, and the search's state."""

    plan: Plan
    cap: int
    arrays: tuple[np.ndarray, ...]
    state: tuple[np.ndarray, ...]
    done: bool = False

    @classmethod
    def of(cls, plan: Plan, cap: int = 20) -> Kernel | None:
        """The kernel of ``plan``, or None when the plan has a non-linear relation, an
        impossible shape, or a partial sum that may not fit in int64."""
        if (plan.polys or plan.others or plan.fails or not plan.levels
                or len(plan.symbols) > plan.base or plan.base > 62):
            return None
        for _op, form in plan.linear:
            if abs(form.const) + sum(abs(c) for c in form.coefs.values()) * plan.base >= LIMIT:
                return None
        # the solver's product (residue * inverse) must fit too
        if any(lv.solver is not None and lv.solver.stride >= STRIDE_LIMIT for lv in plan.levels):
            return None
        i64 = np.int64
        levels = plan.levels

        def csr(rows: list[tuple]) -> tuple[np.ndarray, ...]:
            start = np.zeros(len(levels) + 1, i64)
            flat: list[tuple] = []
            for i, row in enumerate(rows):
                flat.extend(row)
                start[i + 1] = len(flat)
            width = len(flat[0]) if flat else 0
            cols = [np.array([f[j] for f in flat], i64) for j in range(width)]
            return (start, *cols)

        upd = csr([lv.updates for lv in levels])
        if len(upd) == 1:
            upd = (upd[0], np.zeros(0, i64), np.zeros(0, i64))
        eq = csr([tuple((r, plan.linear[r][1].coefs[plan.symbols[lv.symbol]], m, lo, hi)
                        for r, m, lo, hi in lv.equal) for lv in levels])
        if len(eq) == 1:
            eq = (eq[0], *(np.zeros(0, i64) for _ in range(5)))
        pos, neg = _later_coefficients(plan)
        cmp = csr([tuple((r, OPS[op], lo, hi) for r, op, lo, hi in lv.compare)
                   for lv in levels])
        if len(cmp) == 1:
            cmp = (cmp[0], *(np.zeros(0, i64) for _ in range(4)))
        sol = [np.array([lv.solver.rel if lv.solver else -1 for lv in levels], i64),
               np.array([lv.solver.divisor if lv.solver else 1 for lv in levels], i64),
               np.array([lv.solver.stride if lv.solver else 1 for lv in levels], i64),
               np.array([lv.solver.inverse if lv.solver else 0 for lv in levels], i64)]
        arrays = (np.array([lv.symbol for lv in levels], i64),
                  np.array([lv.least for lv in levels], i64), *upd, *eq, *pos, *neg, *cmp,
                  *sol)
        n, k = len(levels), len(plan.symbols)
        state = (np.zeros(5, i64), np.zeros(n, i64), np.ones(n, i64), np.full(n, -1, i64),
                 np.zeros(k, i64), np.array([form.const for _op, form in plan.linear], i64),
                 np.zeros((cap, k), i64), np.zeros(n, i64))
        return cls(plan, cap, arrays, state)

    @property
    def nodes(self) -> int:
        """The nodes visited so far."""
        return int(self.state[0][3])

    @property
    def count(self) -> int:
        """The solutions found so far."""
        return int(self.state[0][2])

    def advance(self, limit: int) -> bool:
        """Go on for at most ``limit`` nodes; True when the search is over."""
        if self.done:
            return True
        self.done = bool(_run(*self.state, self.plan.base, *self.arrays, limit))
        return self.done

    def outcome(self) -> Outcome:
        """What the search found so far (complete when it is over)."""
        count = self.count
        rows = self.state[6][:min(count, self.cap)].tolist()
        return Outcome(count, [dict(zip(self.plan.symbols, row)) for row in rows], self.done,
                       self.nodes)

    def run(self, *, deadline: float | None = None, steps: int | None = None) -> Outcome:
        """Search (on from where a budget stopped it) until the end, ``deadline``
        (monotonic seconds) or ``steps`` nodes in all."""
        while not self.done:
            limit = SLICE_NODES if deadline is not None else 1 << 62
            if steps is not None:
                limit = min(limit, steps - self.nodes)
            if limit <= 0 or self.advance(limit):
                break
            if deadline is not None and time.monotonic() >= deadline:
                break
        return self.outcome()
