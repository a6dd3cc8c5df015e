"""How a person solves a cryptarithm: digit domains narrowed by deductions to a fixpoint.

Each symbol starts with every digit of the base, and each carry of a column with the
values its column allows.  A *deduction* looks at one constraint and removes the values
that no assignment satisfying that constraint uses (so it can never remove the true
solution: the solution satisfies every constraint).  The constraints a person reads off a
puzzle, cheapest first (the ``weight`` a deduction adds to the difficulty score):

========== ====== ===========================================================================
kind       weight what a person sees
========== ====== ===========================================================================
leading    0      no number of two or more digits starts with 0 (given by the rules)
single     0      a symbol's digit is known, so no other symbol has it (all different)
hidden     1      every digit is used and only one symbol can still be digit d
column     1 + u  one column of a sum or difference: ``d + e`` ends in ``y``, with carries
                  in and out (u: the column's symbols not yet known). This one rule covers a
                  longer result's first symbol (the carry: 1), ``x + y = x`` (y is 0 or
                  base-1 with a carry), ``a + a`` (even, or odd with a carry), ...
columns    2 + u  two neighbouring columns read together, the carry between them shared
                  (SEND+MORE=MONEY: ``e + o = n`` with a carry and ``n + r`` ends in ``e``)
units      2 + k  the last k digits of a product (or any ``+ - *`` relation): ``(a*b) mod
                  base^k`` is fixed by the last k digits of every number
bounds     3      the sizes of the numbers: both sides' least and greatest values must meet
check      6      trying the few assignments left to one whole relation
========== ====== ===========================================================================

A column or a units rule is tried only while it has at most :data:`LIMIT` assignments
left, a check while it has at most :data:`CHECK_LIMIT` (a person does not try 5,000 cases);
a column with more falls back to a bounds reasoning on the column alone.  :func:`deduce`
applies the cheapest deduction that narrows something, then starts again from the
cheapest, until none does (the fixpoint); it records each as a :class:`Step`.  Guessing,
when the fixpoint does not solve the puzzle, is :mod:`cryptocomp.cryptarithm.difficulty`'s
business.

>>> from cryptocomp.cryptarithm.expr import parse
>>> p = parse("ab+ab=bcc")
>>> m = model_of(system_of_puzzle(p))
>>> out = deduce(m, m.initial)
>>> {s: sorted(out.domains[s]) for s in "abc"}
{'a': [6], 'b': [1], 'c': [2]}
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field

from ..domain import Symbol
from .constraint import (
    CHECK_LIMIT,
    LIMIT,
    Bounds,
    Carry,
    Check,
    Column,
    Columns,
    Constraint,
    Domains,
    Units,
    Var,
)
from .expr import BinOp, Operand, Puzzle
from .system import Constant, Relation, System, SystemNode

__all__ = ["Carry", "Var", "Domains", "Step", "Narrowing", "Deduced", "Model", "Column",
           "Units", "Bounds", "Check", "model_of", "deduce", "system_of_puzzle", "LIMIT",
           "solved", "assign", "CHECK_LIMIT", "signature", "variables"]


_RING_OPS = frozenset("+-*")



@dataclass(frozen=True)
class Narrowing:
    """One variable's values before and after a step."""

    var: Var
    before: frozenset[int]
    after: frozenset[int]


@dataclass(frozen=True)
class Step:
    """One deduction (or a guess): its kind, its weight, the constraint (None for the
    all-different rules), the symbol and digit it is about where it has one, and what
    it narrowed."""

    kind: str
    weight: int
    narrowed: tuple[Narrowing, ...]
    constraint: Constraint | None = None
    symbol: Symbol | None = None
    digit: int | None = None
    refuted: tuple[int, ...] = ()   # a guess: the digits tried first, which failed


@dataclass(frozen=True)
class Deduced:
    """The fixpoint :func:`deduce` reached: the domains, the steps taken, and whether a
    domain became empty (no solution from here)."""

    domains: dict[Var, frozenset[int]]
    steps: tuple[Step, ...]
    contradiction: bool


# -- the model of a system ------------------------------------------------------------------

@dataclass(frozen=True)
class Model:
    """A system's constraints (cheapest first) and the domains a person starts from."""

    system: System
    constraints: tuple[Constraint, ...]
    initial: dict[Var, frozenset[int]]
    leading: Step | None      # the first step: leading symbols are not 0
    # what each constraint concluded from given domains of its variables: a search meets
    # the same column in the same state at many nodes
    memo: dict[tuple, dict[Var, frozenset[int]]] = field(default_factory=dict, compare=False,
                                                         repr=False)
    # variable -> the constraints (their positions) that read it
    watch: dict[Var, tuple[int, ...]] = field(default_factory=dict, compare=False, repr=False)
    # the fixpoint reached from given domains: the path's guesses search again the subtree
    # that a search below them has already been through
    fixed: dict[tuple, Deduced] = field(default_factory=dict, compare=False, repr=False)


def system_of_puzzle(puzzle: Puzzle) -> System:
    """The one-relation system of a complete :class:`~cryptocomp.cryptarithm.expr.Puzzle`."""
    left, right = puzzle.sides
    at = puzzle.text.find("=")
    return System.of([Relation("=", left, right, max(at, 0))], text=puzzle.text)  # type: ignore[arg-type]


def _walk(node: object) -> Iterator[object]:
    """Every node of a tree, parents first, left to right (iterative)."""
    todo = [node]
    while todo:
        n = todo.pop()
        yield n
        if isinstance(n, BinOp):
            todo += [n.right, n.left]


def _ops(node: SystemNode) -> set[str]:
    """The operators of a tree."""
    return {n.op for n in _walk(node) if isinstance(n, BinOp)}


def _signed(node: object, sign: int) -> Iterator[tuple[int, Operand | Constant]]:
    """The terms of a tree of ``+`` and ``-`` with their signs (iterative)."""
    todo = [(node, sign)]
    while todo:
        n, s = todo.pop()
        if isinstance(n, BinOp):
            todo += [(n.right, s if n.op == "+" else -s), (n.left, s)]
        elif isinstance(n, (Operand, Constant)):
            yield s, n


def _symbols(nodes: Iterable[SystemNode], order: Sequence[Symbol]) -> tuple[Symbol, ...]:
    """The symbols of the trees, in the system's order."""
    found = {ch for node in nodes for n in _walk(node) if isinstance(n, Operand)
             for ch in n.word}
    return tuple(s for s in order if s in found)


def _digits(term: Operand | Constant, base: int) -> list[int | Symbol]:
    """A term's digits from the units up: symbols for a word, numbers for a constant."""
    if isinstance(term, Operand):
        return list(reversed(term.word))
    out: list[int | Symbol] = []
    v = term.value
    while v:
        v, d = divmod(v, base)
        out.append(d)
    return out


def _columns(r: int, rel: Relation, base: int) -> tuple[list[Column], dict[Var, frozenset[int]]]:
    """The columns of the linear relation ``rel`` (number ``r``) and its carries' ranges."""
    terms = list(_signed(rel.left, 1)) + list(_signed(rel.right, -1))
    if any(isinstance(t, Constant) and t.value < 0 for _, t in terms):
        return [], {}
    digits = [(s, _digits(t, base)) for s, t in terms]
    width = max((len(d) for _, d in digits), default=0)
    columns: list[Column] = []
    carries: dict[Var, frozenset[int]] = {}
    lo = hi = 0                       # the carry into this column's range
    for i in range(width):
        coef: dict[Symbol, int] = {}
        const = 0
        plus: list[Symbol] = []
        minus: list[Symbol] = []
        cmin = cmax = 0
        for s, ds in digits:
            if i >= len(ds):
                continue
            d = ds[i]
            if isinstance(d, int):
                const += s * d
                cmin, cmax = cmin + s * d, cmax + s * d
                continue
            coef[d] = coef.get(d, 0) + s
            (plus if s > 0 else minus).append(d)
            cmin, cmax = (cmin, cmax + base - 1) if s > 0 else (cmin - base + 1, cmax)
        cin = Carry(r, i) if i else None
        top = i == width - 1
        cout = None if top else Carry(r, i + 1)
        if cout is not None:
            lo, hi = -((-(cmin + lo)) // base), (cmax + hi) // base
            carries[cout] = frozenset(range(lo, hi + 1))
        columns.append(Column(r, i, tuple((s, c) for s, c in coef.items() if c), const, cin,
                              cout, tuple(plus), tuple(minus), base))
    return columns, carries


def _linear_form(rel: Relation, base: int) -> tuple[tuple[tuple[Symbol, int], ...], int]:
    """A sum or difference as ``sum(weight * symbol) + const == 0`` (left minus right)."""
    coefs: dict[Symbol, int] = {}
    const = 0
    for sign, term in (*_signed(rel.left, 1), *_signed(rel.right, -1)):
        if isinstance(term, Constant):
            const += sign * term.value
            continue
        for i, ch in enumerate(reversed(term.word)):
            coefs[ch] = coefs.get(ch, 0) + sign * base ** i
    return tuple((s, c) for s, c in coefs.items() if c), const


def model_of(system: System) -> Model:
    """The constraints a person reads off ``system``: columns of each sum or difference,
    units of each ``+ - *`` relation, bounds and checks of every relation."""
    base = system.base
    initial: dict[Var, frozenset[int]] = {s: frozenset(range(base)) for s in system.symbols}
    cheap: list[Constraint] = []
    dear: list[Constraint] = []
    for r, rel in enumerate(system.relations):
        ops = _ops(rel.left) | _ops(rel.right)
        symbols = _symbols((rel.left, rel.right), system.symbols)
        if rel.op == "=" and ops <= {"+", "-"}:
            columns, carries = _columns(r, rel, base)
            cheap += columns
            cheap += [Columns(a, b) for a, b in itertools.pairwise(columns)]
            initial.update(carries)
        elif rel.op == "=" and ops <= _RING_OPS:
            longest = max(len(w.word) for w in _words(rel))
            for k in range(1, min(longest, 3) + 1):
                cheap.append(Units(r, k, _symbols_of_tail(rel, k, system.symbols), rel.left,
                                   rel.right, base))
        if rel.op == "=" and ops <= {"+", "-"}:
            coefs, const = _linear_form(rel, base)
            dear.append(Bounds(r, rel.op, symbols, rel.left, rel.right, base, coefs, const))
        elif ops <= _RING_OPS:
            dear.append(Bounds(r, rel.op, symbols, rel.left, rel.right, base))
        dear.append(Check(r, rel.op, symbols, rel.left, rel.right, base))
    leading = None
    if system.leading:
        before = initial[system.leading[0]]
        leading = Step("leading", 0, tuple(Narrowing(s, before, before - {0})
                                           for s in system.leading))
        for s in system.leading:
            initial[s] = before - {0}
    constraints = tuple(cheap + dear)
    watch: dict[Var, list[int]] = {}
    for i, c in enumerate(constraints):
        for v in variables(c):
            watch.setdefault(v, []).append(i)
    return Model(system, constraints, initial, leading,
                 watch={v: tuple(ids) for v, ids in watch.items()})


def variables(c: Constraint) -> tuple[Var, ...]:
    """The variables a constraint reads: its symbols and its columns' carries."""
    if isinstance(c, Columns):
        return tuple(dict.fromkeys(variables(c.lower) + variables(c.upper)))
    if isinstance(c, Column):
        return c.symbols + tuple(v for v in (c.carry_in, c.carry_out) if v is not None)
    return c.symbols


def _words(rel: Relation) -> list[Operand]:
    """The words of one relation."""
    return [n for side in (rel.left, rel.right) for n in _walk(side) if isinstance(n, Operand)]


def _symbols_of_tail(rel: Relation, k: int, order: Sequence[Symbol]) -> tuple[Symbol, ...]:
    """The symbols among the last ``k`` digits of the relation's words."""
    found = {ch for w in _words(rel) for ch in w.word[-k:]}
    return tuple(s for s in order if s in found)


# -- propagation ------------------------------------------------------------------------------

def solved(model: Model, domains: Domains) -> bool:
    """Whether every symbol has one digit left."""
    return all(len(domains[s]) == 1 for s in model.system.symbols)


def assign(domains: Domains, symbol: Symbol, digit: int) -> dict[Var, frozenset[int]]:
    """The domains with ``symbol`` set to ``digit``."""
    out = dict(domains)
    out[symbol] = frozenset([digit])
    return out


def _all_different(model: Model, domains: Domains) -> Step | None:
    """The cheapest all-different step that narrows something: a known symbol's digit
    taken from the others, or (every digit used) the one symbol that can hold a digit."""
    symbols = model.system.symbols
    for s in symbols:
        dom = domains[s]
        if len(dom) == 1:
            (d,) = dom
            hit = tuple(Narrowing(t, domains[t], domains[t] - dom) for t in symbols
                        if t != s and d in domains[t])
            if hit:
                return Step("single", 0, hit, symbol=s, digit=d)
    if len(symbols) == model.system.base:
        for d in range(model.system.base):
            holders = [s for s in symbols if d in domains[s]]
            if len(holders) == 1 and len(domains[holders[0]]) > 1:
                s = holders[0]
                return Step("hidden", 1, (Narrowing(s, domains[s], frozenset([d])),),
                            symbol=s, digit=d)
            if not holders:
                return Step("hidden", 1, (), digit=d)  # no symbol can hold d: contradiction
    return None


def signature(c: Constraint, domains: Domains) -> tuple:
    """What a constraint's deduction depends on: its variables' domains (the key of
    :attr:`Model.memo`)."""
    if isinstance(c, Column):
        return (tuple(domains[s] for s in c.symbols),
                domains[c.carry_in] if c.carry_in else None,
                domains[c.carry_out] if c.carry_out else None)
    if isinstance(c, Columns):
        return (signature(c.lower, domains), signature(c.upper, domains))
    return tuple(domains[s] for s in c.symbols)


def _narrowing(c: Constraint, domains: Domains, cache: dict[int, tuple],
               memo: dict[tuple, dict[Var, frozenset[int]]]) -> Step | None:
    """The step constraint ``c`` makes now, None when it narrows nothing (remembered until
    its variables change)."""
    sig = signature(c, domains)
    if cache.get(id(c)) == sig:
        return None
    key = (id(c), sig)
    pruned = memo.get(key)
    if pruned is None:
        pruned = memo[key] = c.prune(domains)
    hit = tuple(Narrowing(v, domains[v], new) for v, new in pruned.items() if new != domains[v])
    if not hit:
        cache[id(c)] = sig
        return None
    return Step(c.kind, c.weight(domains), hit, constraint=c)


def _order(model: Model, domains: Domains) -> list[Constraint]:
    """The constraints in the order a person looks at them: by weight now, simplest first."""
    return sorted(model.constraints, key=lambda c: c.weight(domains))


def deduce(model: Model, domains: Domains, *, record: bool = True,
           budget: list[int] | None = None) -> Deduced:
    """The fixpoint of the deductions from ``domains``: the cheapest step that narrows
    something, again and again.  ``budget`` (a one-item list) counts steps down and stops
    the work at 0 (the caller then says it ran out)."""
    doms = dict(domains)
    steps: list[Step] = []
    cache: dict[int, tuple] = {}
    while True:
        step = _all_different(model, doms)
        if step is None:
            step = next((s for c in _order(model, doms)
                         if (s := _narrowing(c, doms, cache, model.memo)) is not None), None)
        if step is None:
            return Deduced(doms, tuple(steps), False)
        if budget is not None:
            budget[0] -= 1
            if budget[0] < 0:
                return Deduced(doms, tuple(steps), False)
        for n in step.narrowed:
            doms[n.var] = n.after
        if record:
            steps.append(step)
        if not step.narrowed or any(not n.after for n in step.narrowed):
            return Deduced(doms, tuple(steps), True)
