"""The constraints a person reads off a cryptarithm, each a deduction over digit domains
(see :mod:`cryptocomp.cryptarithm.deduction` for the model and the weights).

Each constraint's ``prune(domains)`` keeps the values of its variables that some assignment
satisfying the constraint (different symbols, different digits) uses; so it never removes
a solution.  Variables are symbols and the :class:`Carry` of each column.
"""

from __future__ import annotations

import functools
import itertools
import math
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Union

import numpy as np

from ..domain import Symbol
from .expr import BinOp, Operand, fold
from .forms import span
from .system import Constant, SystemNode, evaluate

__all__ = ["Carry", "Var", "Domains", "Column", "Columns", "Units", "Bounds", "Check",
           "Constraint", "LIMIT", "CHECK_LIMIT", "VECTOR"]

LIMIT = 4096          # most assignments a person checks on one column (or units rule)
CHECK_LIMIT = 100     # most cases a person tries on a whole relation
VECTOR = 128           # a column with more assignments is pruned as one numpy block


@dataclass(frozen=True, order=True)
class Carry:
    """The carry into column ``column`` (0 = the units) of relation ``relation``."""

    relation: int
    column: int


Var = Union[Symbol, Carry]  # noqa: UP007 (a runtime alias)
Interval = tuple[int, int]
Domains = Mapping[Var, frozenset[int]]

@dataclass(frozen=True)
class Column:
    """``sum(coef * digit) + const + carry_in = base * carry_out`` for one column."""

    relation: int
    index: int
    terms: tuple[tuple[Symbol, int], ...]   # distinct symbols with non-zero coefficients
    const: int
    carry_in: Carry | None
    carry_out: Carry | None
    plus: tuple[Symbol, ...]                # as written: the digits added ...
    minus: tuple[Symbol, ...]               # ... and those subtracted (the result's)
    base: int

    kind = "column"

    @functools.cached_property
    def symbols(self) -> tuple[Symbol, ...]:
        return tuple(s for s, _ in self.terms)

    def weight(self, domains: Domains) -> int:
        """1 + the column's symbols not known yet."""
        return 1 + sum(len(domains[s]) > 1 for s in self.symbols)

    def prune(self, domains: Domains) -> dict[Var, frozenset[int]]:
        """The values of the column's variables some solution of the column uses."""
        symbols = self.symbols
        size = _size(domains, symbols)
        if size > LIMIT:
            return self._bounds(domains)
        cin = domains[self.carry_in] if self.carry_in else frozenset([0])
        cout = domains[self.carry_out] if self.carry_out else frozenset([0])
        if size > VECTOR and symbols:
            return self._prune_block(domains, cin, cout)
        # the column's sum must be base * carry_out - carry_in for some pair of carries
        targets: dict[int, list[tuple[int, int]]] = {}
        for ci in cin:
            for co in cout:
                targets.setdefault(self.base * co - ci - self.const, []).append((ci, co))
        seen: list[set[int]] = [set() for _ in symbols]
        seen_in: set[int] = set()
        seen_out: set[int] = set()
        for combo, pairs in self._solutions(domains, targets):
            for got, d in zip(seen, combo):
                got.add(d)
            for ci, co in pairs:
                seen_in.add(ci)
                seen_out.add(co)
        out: dict[Var, frozenset[int]] = {s: frozenset(v) for s, v in zip(symbols, seen)}
        if self.carry_in:
            out[self.carry_in] = frozenset(seen_in)
        if self.carry_out:
            out[self.carry_out] = frozenset(seen_out)
        return out

    def _prune_block(self, domains: Domains, cin: frozenset[int], cout: frozenset[int]
                     ) -> dict[Var, frozenset[int]]:
        """:meth:`prune` over every assignment at once (numpy), for many assignments."""
        symbols = self.symbols
        grid, distinct = _grid(domains, symbols)
        total = np.array([c for _, c in self.terms]) @ grid + self.const
        good = np.zeros_like(distinct)
        seen_in: set[int] = set()
        seen_out: set[int] = set()
        for ci in cin:
            q, r = np.divmod(total + ci, self.base)
            hit = distinct & (r == 0) & _member(q, cout)
            if hit.any():
                good |= hit
                seen_in.add(ci)
                seen_out.update(q[hit].tolist())
        out = _used(symbols, grid, good)
        if self.carry_in:
            out[self.carry_in] = frozenset(seen_in)
        if self.carry_out:
            out[self.carry_out] = frozenset(seen_out)
        return out

    def _solutions(self, domains: Domains, targets: dict[int, list[tuple[int, int]]]
                   ) -> Iterator[tuple[tuple[int, ...], list[tuple[int, int]]]]:
        """The column's injective assignments whose sum is a target, with the carries of
        that target: every symbol but the last enumerated, the last one solved for."""
        if not self.terms:
            if 0 in targets:
                yield (), targets[0]
            return
        *head, (last, coef) = self.terms
        head_symbols = [s for s, _ in head]
        head_coefs = [c for _, c in head]
        last_domain = domains[last]
        for combo in _injective(domains, head_symbols):
            total = sum(c * d for c, d in zip(head_coefs, combo))
            for target, pairs in targets.items():
                d, r = divmod(target - total, coef)
                if not r and d in last_domain and d not in combo:
                    yield (*combo, d), pairs

    def _bounds(self, domains: Domains) -> dict[Var, frozenset[int]]:
        """Too many cases: keep each value for which the column's least and greatest sums
        can still meet (interval reasoning on the column alone)."""
        linear: list[tuple[Var, int]] = list(self.terms)
        if self.carry_in:
            linear.append((self.carry_in, 1))
        if self.carry_out:
            linear.append((self.carry_out, -self.base))
        return _linear_bounds(linear, self.const, domains)


@dataclass(frozen=True)
class Columns:
    """Two neighbouring columns read together (the carry between them shared)."""

    lower: Column
    upper: Column

    kind = "columns"

    @functools.cached_property
    def symbols(self) -> tuple[Symbol, ...]:
        return tuple(dict.fromkeys(self.lower.symbols + self.upper.symbols))

    def weight(self, domains: Domains) -> int:
        """2 + the columns' symbols not known yet."""
        return 2 + sum(len(domains[s]) > 1 for s in self.symbols)

    def prune(self, domains: Domains) -> dict[Var, frozenset[int]]:
        """The values of both columns' variables some solution of the pair uses: the lower
        column's assignments that work, each extended by the upper column's other symbols."""
        size = _size(domains, self.symbols)
        if size > LIMIT:
            return {}
        if size > VECTOR and self.symbols:
            return self._prune_block(domains)
        low, up = self.lower, self.upper
        lows = low.symbols
        ups = tuple(s for s in up.symbols if s not in lows)
        cin = domains[low.carry_in] if low.carry_in else frozenset([0])
        assert low.carry_out is not None
        mid = domains[low.carry_out]
        cout = domains[up.carry_out] if up.carry_out else frozenset([0])
        seen: dict[Var, set[int]] = {v: set() for v in (*lows, *ups)}
        carries = (low.carry_in, low.carry_out, up.carry_out)
        for lc in _injective(domains, lows):
            first = sum(c * d for (_, c), d in zip(low.terms, lc)) + low.const
            ways = [(ci, (first + ci) // low.base) for ci in cin
                    if not (first + ci) % low.base and (first + ci) // low.base in mid]
            if not ways:
                continue
            fill = dict(zip(lows, lc))
            rest: dict[Var, frozenset[int]] = {s: domains[s] - set(lc) for s in ups}
            for uc in _injective(rest, ups):
                fill.update(zip(ups, uc))
                second = sum(c * fill[s] for s, c in up.terms) + up.const
                good = [(ci, q, (second + q) // up.base) for ci, q in ways
                        if not (second + q) % up.base and (second + q) // up.base in cout]
                if good:
                    for v, d in fill.items():
                        seen[v].add(d)
                    for ci, q, q2 in good:
                        for carry, value in zip(carries, (ci, q, q2)):
                            if carry is not None:
                                seen.setdefault(carry, set()).add(value)
        out: dict[Var, frozenset[int]] = {v: frozenset(got) for v, got in seen.items()}
        for carry in carries:
            if carry is not None and carry not in out:
                out[carry] = frozenset()
        return out


    def _prune_block(self, domains: Domains) -> dict[Var, frozenset[int]]:
        """:meth:`prune` over every assignment of both columns at once (numpy)."""
        low, up = self.lower, self.upper
        symbols = self.symbols
        grid, distinct = _grid(domains, symbols)
        at = {s: i for i, s in enumerate(symbols)}

        def total(c: Column) -> np.ndarray:
            coefs = np.zeros(len(symbols), dtype=np.int64)
            for s, k in c.terms:
                coefs[at[s]] = k
            return coefs @ grid + c.const

        first, second = total(low), total(up)
        cin = sorted(domains[low.carry_in]) if low.carry_in else [0]
        assert low.carry_out is not None
        mid = domains[low.carry_out]
        cout = domains[up.carry_out] if up.carry_out else frozenset([0])
        good = np.zeros_like(distinct)
        seen: dict[Var, set[int]] = {v: set() for v in (low.carry_in, low.carry_out,
                                                         up.carry_out) if v is not None}
        for ci in cin:
            q, r = np.divmod(first + ci, low.base)
            ok = distinct & (r == 0) & _member(q, mid)
            if not ok.any():
                continue
            q2, r2 = np.divmod(second + q, up.base)
            hit = ok & (r2 == 0) & _member(q2, cout)
            if hit.any():
                good |= hit
                if low.carry_in:
                    seen[low.carry_in].add(ci)
                seen[low.carry_out].update(q[hit].tolist())
                if up.carry_out:
                    seen[up.carry_out].update(q2[hit].tolist())
        out = _used(symbols, grid, good)
        out.update((v, frozenset(got)) for v, got in seen.items())
        return out


@dataclass(frozen=True)
class Units:
    """The last ``digits`` digits of both sides of a ``+ - *`` relation agree."""

    relation: int
    digits: int
    symbols: tuple[Symbol, ...]
    left: SystemNode
    right: SystemNode
    base: int

    kind = "units"

    def weight(self, domains: Domains) -> int:
        return 2 + self.digits

    def prune(self, domains: Domains) -> dict[Var, frozenset[int]]:
        size = _size(domains, self.symbols)
        if size > LIMIT:
            return {}
        modulus = self.base ** self.digits
        if size > 2 and self.symbols:
            # the same arithmetic on every assignment at once (a tree's fold per assignment
            # costs more than numpy's overhead from three assignments up): values stay below
            # modulus ** 2 <= 36 ** 6, far inside int64
            grid, distinct = _grid(domains, self.symbols)
            fill = dict(zip(self.symbols, grid))
            gap = _mod_value(self.left, fill, self.base, self.digits) - \
                _mod_value(self.right, fill, self.base, self.digits)
            return _used(self.symbols, grid, distinct & (gap % modulus == 0))
        return _supported(domains, self.symbols, lambda fill: (
            _mod_value(self.left, fill, self.base, self.digits) -
            _mod_value(self.right, fill, self.base, self.digits)) % modulus == 0)


@dataclass(frozen=True)
class Bounds:
    """Both sides' least and greatest values (digit by digit) must allow the comparator."""

    relation: int
    op: str
    symbols: tuple[Symbol, ...]
    left: SystemNode
    right: SystemNode
    base: int
    linear: tuple[tuple[Symbol, int], ...] | None = None   # a sum's form: symbol, weight
    const: int = 0

    kind = "bounds"

    def weight(self, domains: Domains) -> int:
        return 3

    def prune(self, domains: Domains) -> dict[Var, frozenset[int]]:
        if self.linear is not None:
            return _linear_bounds(self.linear, self.const, domains)
        left, right = self._programs
        base = self.base
        words = {item[1] for item in (*left, *right) if item[0] == "w"}
        # each word's span over the domains; a trial s = d moves only the words holding s
        spans = {w: _word_span(w, domains, base) for w in words}
        out: dict[Var, frozenset[int]] = {}
        for s in self.symbols:
            least, most = min(domains[s]), max(domains[s])
            places = {w: sum(base ** i for i, ch in enumerate(reversed(w)) if ch == s)
                      for w in words if s in w}
            keep = []
            trial = dict(spans)
            for d in sorted(domains[s]):
                for w, place in places.items():
                    lo, hi = spans[w]
                    trial[w] = (lo + (d - least) * place, hi + (d - most) * place)
                if _may_compare(self.op, _run(left, trial), _run(right, trial)):
                    keep.append(d)
            out[s] = frozenset(keep)
        return out


    @functools.cached_property
    def _programs(self) -> tuple[tuple[tuple, ...], tuple[tuple, ...]]:
        """Both sides in postfix: ("w", word), ("c", value) and (op,) items."""
        return _postfix(self.left), _postfix(self.right)


def _postfix(node: SystemNode) -> tuple[tuple, ...]:
    """A ``+ - *`` tree as a postfix program (iterative: trees may be deep)."""
    out: list[tuple] = []
    todo: list[tuple[object, bool]] = [(node, False)]
    while todo:
        n, done = todo.pop()
        if isinstance(n, BinOp):
            if done:
                out.append((n.op,))
            else:
                todo += [(n, True), (n.right, False), (n.left, False)]
        elif isinstance(n, Constant):
            out.append(("c", n.value))
        else:
            assert isinstance(n, Operand)
            out.append(("w", n.word))
    return tuple(out)


def _run(program: tuple[tuple, ...], spans: Mapping[str, Interval]) -> Interval:
    """The span of a postfix program whose words range over ``spans``."""
    stack: list[Interval] = []
    for item in program:
        tag = item[0]
        if tag == "w":
            stack.append(spans[item[1]])
        elif tag == "c":
            stack.append((item[1], item[1]))
        else:
            b = stack.pop()
            stack.append(span(tag, stack.pop(), b))
    return stack[0]


def _word_span(word: str, domains: Domains, base: int) -> Interval:
    """The least and greatest value of ``word`` with each digit in its domain."""
    lo = hi = 0
    for ch in word:
        lo, hi = lo * base + min(domains[ch]), hi * base + max(domains[ch])
    return lo, hi


@dataclass(frozen=True)
class Check:
    """A whole relation, tried on every assignment left of its symbols."""

    relation: int
    op: str
    symbols: tuple[Symbol, ...]
    left: SystemNode
    right: SystemNode
    base: int

    kind = "check"

    def weight(self, domains: Domains) -> int:
        return 6

    def prune(self, domains: Domains) -> dict[Var, frozenset[int]]:
        if _size(domains, self.symbols) > CHECK_LIMIT:
            return {}

        def holds(fill: dict[Symbol, int]) -> bool:
            a, b = evaluate(self.left, fill, self.base), evaluate(self.right, fill, self.base)
            return a is not None and b is not None and _compare(self.op, a, b)
        return _supported(domains, self.symbols, holds)


Constraint = Union[Column, Columns, Units, Bounds, Check]  # noqa: UP007 (a runtime alias)


def _compare(op: str, a: int, b: int) -> bool:
    """``a op b`` for a comparator of :data:`~cryptocomp.cryptarithm.system.COMPARATORS`."""
    return {"=": a == b, "!=": a != b, "<": a < b, ">": a > b, "<=": a <= b, ">=": a >= b}[op]


def _size(domains: Domains, symbols: Sequence[Symbol]) -> int:
    """How many assignments (not necessarily injective) the domains leave the symbols."""
    return math.prod(len(domains[s]) for s in symbols)


def _grid(domains: Domains, symbols: Sequence[Symbol]) -> tuple[np.ndarray, np.ndarray]:
    """Every assignment of the domains to ``symbols`` as the columns of a matrix (one row a
    symbol), and which of them give different symbols different digits."""
    axes = [np.array(sorted(domains[s]), dtype=np.int64) for s in symbols]
    where = np.indices([len(a) for a in axes]).reshape(len(axes), -1)
    grid = np.stack([a[w] for a, w in zip(axes, where)])
    bits = np.left_shift(1, grid)
    # distinct digits: no two bits collide, so the sum of the bits is their union
    distinct = bits.sum(axis=0) == np.bitwise_or.reduce(bits, axis=0)
    return grid, distinct


def _member(values: np.ndarray, allowed: frozenset[int]) -> np.ndarray:
    """Which of ``values`` are in ``allowed`` (a carry's values: most often a range)."""
    lo, hi = min(allowed), max(allowed)
    inside = (values >= lo) & (values <= hi)
    if hi - lo + 1 == len(allowed):
        return inside
    return inside & np.isin(values, sorted(allowed))


def _used(symbols: Sequence[Symbol], grid: np.ndarray, good: np.ndarray
          ) -> dict[Var, frozenset[int]]:
    """Each symbol's values at the assignments ``good`` marks (its row of ``grid``)."""
    values = grid[:, good]
    flags = np.zeros((len(symbols), int(grid.max(initial=0)) + 1), dtype=bool)
    flags[np.arange(len(symbols))[:, None], values] = True
    return {s: frozenset(d for d, on in enumerate(row) if on)
            for s, row in zip(symbols, flags.tolist())}


def _injective(domains: Domains, symbols: Sequence[Symbol]) -> Iterator[tuple[int, ...]]:
    """Every assignment of distinct digits from the domains to ``symbols``."""
    for combo in itertools.product(*(sorted(domains[s]) for s in symbols)):
        if len(set(combo)) == len(combo):
            yield combo


def _supported(domains: Domains, symbols: Sequence[Symbol],
               test: Callable[[dict[Symbol, int]], bool]) -> dict[Var, frozenset[int]]:
    """The values of ``symbols`` used by some injective assignment passing ``test``."""
    seen: list[set[int]] = [set() for _ in symbols]
    for combo in _injective(domains, symbols):
        if test(dict(zip(symbols, combo))):
            for s, d in zip(seen, combo):
                s.add(d)
    return {s: frozenset(v) for s, v in zip(symbols, seen)}


def _linear_bounds(linear: Sequence[tuple[Var, int]], const: int,
                   domains: Domains) -> dict[Var, frozenset[int]]:
    """Each variable's values for which ``sum(coef * var) + const == 0`` can still hold
    with every other variable anywhere in its range."""
    lo = hi = const
    for v, c in linear:
        a, b = c * min(domains[v]), c * max(domains[v])
        lo, hi = lo + min(a, b), hi + max(a, b)
    out: dict[Var, frozenset[int]] = {}
    for v, c in linear:
        a, b = c * min(domains[v]), c * max(domains[v])
        rest_lo, rest_hi = lo - min(a, b), hi - max(a, b)
        out[v] = frozenset(d for d in domains[v] if rest_lo <= -c * d <= rest_hi)
    return out


def _mod_value(node: SystemNode, fill: Mapping[Symbol, Any], base: int, digits: int) -> Any:
    """``node`` modulo ``base ** digits``, each word read from its last ``digits`` digits
    (``fill`` gives each symbol a digit, or a numpy array of digits: then an array)."""
    modulus = base ** digits

    def leaf(n: object) -> Any:
        if isinstance(n, Constant):
            return n.value % modulus
        assert isinstance(n, Operand)
        v = 0
        for ch in n.word[-digits:]:
            v = v * base + fill[ch]
        return v

    def combine(n: BinOp, a: Any, b: Any) -> Any:
        return (a + b if n.op == "+" else a - b if n.op == "-" else a * b) % modulus

    return fold(node, leaf, combine)  # type: ignore[arg-type]


def _may_compare(op: str, a: Interval, b: Interval) -> bool:
    """Whether some values of the intervals ``a`` and ``b`` satisfy ``op``."""
    if op == "=":
        return a[0] <= b[1] and b[0] <= a[1]
    if op == "!=":
        return not (a[0] == a[1] == b[0] == b[1])
    return {"<": a[0] < b[1], "<=": a[0] <= b[1], ">": a[1] > b[0], ">=": a[1] >= b[0]}[op]
