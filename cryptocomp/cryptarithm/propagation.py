"""The fixpoint of the deductions without the steps: what the search of
:mod:`cryptocomp.cryptarithm.difficulty` needs at each node.

:func:`~cryptocomp.cryptarithm.deduction.deduce` takes the cheapest deduction that narrows
something and starts again from the cheapest (the order a person works in, which the answer
key records).  Every deduction only keeps values some assignment satisfying its constraint
uses, so each is monotone (smaller domains in, smaller domains out) and narrowing; such
operators reach one and the same fixpoint in any order.  :func:`fixpoint` reaches it with a
work list instead: a constraint is looked at again only when one of its variables changed,
and the all-different rules run on the symbols alone.  The tests compare it with
``deduce`` on random systems and domains.

>>> from cryptocomp.cryptarithm.deduction import model_of
>>> from cryptocomp.cryptarithm.grammar import parse_system
>>> m = model_of(parse_system("ab+ab=bcc"))
>>> out = fixpoint(m, m.initial)
>>> {s: sorted(out.domains[s]) for s in "abc"}, out.contradiction
({'a': [6], 'b': [1], 'c': [2]}, False)
"""

from __future__ import annotations

from ..domain import Symbol
from .deduction import Carry, Deduced, Domains, Model, Var, signature

__all__ = ["fixpoint"]


def fixpoint(model: Model, domains: Domains) -> Deduced:
    """The domains every deduction leaves from ``domains`` (no steps recorded), and whether
    one of them became empty (remembered by the model: the result must not be changed)."""
    key = tuple(domains[v] for v in model.initial)    # every variable, in the model's order
    known = model.fixed.get(key)
    if known is None:
        known = model.fixed[key] = _fixpoint(model, domains)
    return known


def _fixpoint(model: Model, domains: Domains) -> Deduced:
    """:func:`fixpoint`, computed."""
    doms: dict[Var, frozenset[int]] = dict(domains)
    constraints, watch, memo = model.constraints, model.watch, model.memo
    symbols = model.system.symbols
    pending = set(range(len(constraints)))
    dirty = True          # a symbol changed since all different last ran
    while True:
        if dirty:
            changed = _different(symbols, model.system.base, doms)
            if changed is None:
                return Deduced(doms, (), True)
            for s in changed:
                pending.update(watch.get(s, ()))
            dirty = False
        if not pending:
            return Deduced(doms, (), False)
        c = constraints[pending.pop()]
        key = (id(c), signature(c, doms))
        pruned = memo.get(key)
        if pruned is None:
            pruned = memo[key] = c.prune(doms)
        for v, new in pruned.items():
            if new != doms[v]:
                doms[v] = new
                if not new:
                    return Deduced(doms, (), True)
                pending.update(watch[v])
                dirty = dirty or not isinstance(v, Carry)


def _different(symbols: tuple[Symbol, ...], base: int,
               doms: dict[Var, frozenset[int]]) -> set[Symbol] | None:
    """All different to its fixpoint in place: a known digit taken from the other symbols
    and, when every digit is used, a digit only one symbol can hold given to it.  The
    symbols changed, None on a contradiction."""
    if any(not doms[s] for s in symbols):
        return None
    changed: set[Symbol] = set()
    done: set[Symbol] = set()
    todo = [s for s in symbols if len(doms[s]) == 1]
    while True:
        if not _singles(symbols, doms, todo, done, changed):
            return None
        if len(symbols) != base:
            return changed
        holder: dict[int, Symbol | None] = {}     # a digit's one holder, None for several
        for s in symbols:
            for d in doms[s]:
                holder[d] = s if d not in holder else None
        if len(holder) < base:
            return None           # a digit no symbol can hold
        for d, one in holder.items():
            if one is not None and len(doms[one]) > 1:
                doms[one] = frozenset([d])
                changed.add(one)
                todo.append(one)
        if not todo:
            return changed


def _singles(symbols: tuple[Symbol, ...], doms: dict[Var, frozenset[int]], todo: list[Symbol],
             done: set[Symbol], changed: set[Symbol]) -> bool:
    """The digit of each known symbol of ``todo`` (and of those it leaves known) taken from
    the others, in place; False on a contradiction."""
    while todo:
        s = todo.pop()
        if s in done:
            continue
        done.add(s)
        known = doms[s]
        (d,) = known
        for t in symbols:
            if t != s and d in doms[t]:
                new = doms[t] - known
                doms[t] = new
                changed.add(t)
                if not new:
                    return False
                if len(new) == 1:
                    todo.append(t)
    return True
