"""The SAT engine: the encoding of seed 000 solved by CaDiCaL through python-sat.

Variables: one per (slot, candidate word) and one per (crossing cell, letter).
Clauses:

* exactly one word per slot: "some word" (guarded by a selector literal per
  slot, so an unsatisfiable core names the slots involved) and at most one
  (sequential counter);
* per crossing cell, "some letter here", and each letter variable equivalent to
  the words having that letter there, in each of the two slots (this avoids the
  word-pair clauses, millions of them);
* at most one slot per word (no repeats).

Domains are first made arc consistent by the CSP's propagation (sound: no fill
is lost), which shrinks the formula.  UNSAT is a proof that no fill exists.
"""

from __future__ import annotations

import logging
import threading

from pysat.card import CardEnc, EncType
from pysat.formula import IDPool
from pysat.solvers import Solver

from .csp import Budget, Problem, _Search, _Wipeout, _no_fill_root
from .result import BUDGET, FILLED, NO_FILL, FillResult

__all__ = ["solve_sat", "encode", "SOLVER"]

log = logging.getLogger(__name__)

SOLVER = "cadical195"


class _Encoding:
    """The clauses of a problem and the variable of each (slot, word)."""

    def __init__(self) -> None:
        self.pool = IDPool()
        self.clauses: list[list[int]] = []
        self.word_var: list[dict[int, int]] = []
        self.selector: list[int] = []


def encode(prob: Problem, domains: list) -> _Encoding:
    """Encode ``prob`` over the (arc-consistent) ``domains``."""
    enc = _Encoding()
    pool, clauses = enc.pool, enc.clauses
    words = prob.words
    for s, d in enumerate(domains):
        wv = {w: pool.id(("x", s, w)) for w in d}
        enc.word_var.append(wv)
        sel = pool.id(("sel", s))
        enc.selector.append(sel)
        lits = list(wv.values())
        clauses.append([-sel] + lits)
        if len(lits) > 1:
            amo = CardEnc.atmost(lits, 1, vpool=pool, encoding=EncType.seqcounter)
            clauses.extend(amo.clauses)
    for a, pa, b, pb in prob.grid.crossings():
        letters: dict[str, list[list[int]]] = {}
        for side, (s, p) in enumerate(((a, pa), (b, pb))):
            for w, v in enc.word_var[s].items():
                letters.setdefault(words[w][p], [[], []])[side].append(v)
        some = []
        for ch, (in_a, in_b) in letters.items():
            lv = pool.id(("L", a, pa, ch))
            if not in_a or not in_b:
                # no word of the other slot has this letter here: the words are out
                clauses.extend([-v] for v in in_a + in_b)
                continue
            some.append(lv)
            for group in (in_a, in_b):
                clauses.append([-lv] + group)
                clauses.extend([-v, lv] for v in group)
        # implied by slot a's "some word"; guarded by its selector so that cores stay precise
        clauses.append([-enc.selector[a]] + some)
    # no repeats: a word in the domains of several slots is placed at most once
    holders: dict[int, list[int]] = {}
    for s, wv in enumerate(enc.word_var):
        for w, v in wv.items():
            holders.setdefault(w, []).append(v)
    for lits in holders.values():
        if len(lits) < 2:
            continue
        if len(lits) <= 5:
            clauses.extend([-lits[i], -lits[j]] for i in range(len(lits))
                           for j in range(i + 1, len(lits)))
        else:
            clauses.extend(CardEnc.atmost(lits, 1, vpool=pool, encoding=EncType.seqcounter).clauses)
    return enc


def solve_sat(prob: Problem, *, count: int = 1, budget: Budget | None = None,
              seed: int | None = None) -> FillResult:
    """Fill ``prob.grid`` with up to ``count`` fills by SAT, or prove that none exists."""
    budget = budget or Budget()
    result = FillResult(prob.grid, BUDGET, engine="sat")
    search = _Search(prob, budget, None)
    try:
        dom, _ = search.root()
    except _Wipeout as exc:
        out = _no_fill_root(prob, search, exc.slot, result)
        out.engine = "sat"
        return out
    enc = encode(prob, dom)
    log.debug("SAT: %d variables, %d clauses", enc.pool.top, len(enc.clauses))
    words = prob.words
    timer = None
    with Solver(name=SOLVER, bootstrap_with=enc.clauses) as solver:
        if budget.seconds is not None:
            remaining = max(0.0, budget.seconds - budget.elapsed())
            timer = threading.Timer(remaining, solver.interrupt)
            timer.daemon = True
            timer.start()
        try:
            while len(result.fills) < count:
                ok = solver.solve_limited(assumptions=enc.selector, expect_interrupt=True)
                if ok is None:
                    break
                if not ok:
                    result.complete = True
                    if not result.fills:
                        core = set(solver.get_core() or [])
                        region = [prob.slots[s].name for s, v in enumerate(enc.selector)
                                  if v in core]
                        result.region = region
                    break
                model = solver.get_model()
                true = {v for v in model if v > 0}
                fill, block = [], []
                for wv in enc.word_var:
                    w, v = next((w, v) for w, v in wv.items() if v in true)
                    fill.append(words[w])
                    block.append(-v)
                result.fills.append(fill)
                solver.add_clause(block)
        finally:
            if timer is not None:
                timer.cancel()
    result.seconds = budget.elapsed()
    if result.fills:
        result.status = FILLED
        n = len(result.fills)
        result.message = (f"filled {n} way{'s' if n > 1 else ''}"
                          + (" (all fills)" if result.complete else ""))
    elif result.complete:
        result.status = NO_FILL
        region = result.region
        where = (f"; the slots {', '.join(region)} cannot all be filled together"
                 if region and len(region) < prob.n else "")
        result.message = f"no fill exists (proved by SAT){where}"
        if region:
            result.culprit = region[0]
    else:
        result.message = f"budget exhausted: the SAT solver ran {result.seconds:.1f} s"
    return result
