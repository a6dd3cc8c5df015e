"""The SAT engine: the encoding of seed 000 solved by CaDiCaL through python-sat.

Variables: one per (slot, candidate word) and one per (crossing cell, letter).
Clauses:

* exactly one word per slot: "some word" (guarded by a selector literal per
  slot, so an unsatisfiable core names the slots involved) and at most one
  (sequential counter);
* per crossing cell, "some letter here", and each letter variable equivalent to
  the words having that letter there, in each of the two slots (this avoids the
  word-pair clauses, millions of them);
* at most one slot per word (no repeats), and at most one answer with each conflict key
  (:mod:`.rules`: a run of letters too long, a lemma).

Preferred words (:mod:`.rules`) have their variables' phase set true (the other words'
false), so that the solver tends to try them first (a heuristic: its decisions on other
variables can come first).

Domains are first made arc consistent by the CSP's propagation (sound: no fill
is lost), which shrinks the formula.  UNSAT is a proof that no fill exists.

CaDiCaL cannot be interrupted from Python, and the encoding of a large grid can
take gigabytes, so :func:`solve_sat` runs both in a child process
(:mod:`.worker`) that is killed at the deadline and whose address space is
capped: the budget holds and memory stays bounded whatever the solver does.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from .csp import RootWipeout, no_fill_at_root, root_domains
from .problem import Budget, Problem
from .result import BUDGET, FILLED, NO_FILL, FillResult
from .rules import word_keys
from .worker import run_in_child

__all__ = ["solve_sat", "encode", "SOLVER", "Encoding", "MAX_CONFLICTS"]

log = logging.getLogger(__name__)

SOLVER = "cadical195"
# CaDiCaL keeps its conflict limit in a C int: a larger budget is cut to its low 32 bits
# (2**32 became 0, an empty budget), so it is capped here; 2**31 conflicts take days
MAX_CONFLICTS = 2**31 - 1


class Encoding:
    """The clauses of a problem and the variable of each (slot, word)."""

    def __init__(self) -> None:
        from pysat.formula import IDPool

        self.pool = IDPool()
        self.clauses: list[list[int]] = []
        self.word_var: list[dict[int, int]] = []
        self.selector: list[int] = []
        self.phases: list[int] = []


def encode(prob: Problem, domains: list) -> Encoding:
    """Encode ``prob`` over ``domains`` (per slot, the index ids of its candidate words)."""
    from pysat.card import CardEnc, EncType

    enc = Encoding()
    pool, clauses = enc.pool, enc.clauses
    words = prob.words
    for s, d in enumerate(domains):
        wv = {int(w): pool.id(("x", s, int(w))) for w in d}
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
    for wv in enc.word_var:
        for w, v in wv.items():
            holders.setdefault(w, []).append(v)
    for lits in list(holders.values()) + _key_groups(prob, enc):
        if len(lits) < 2:
            continue
        if len(lits) <= 5:
            clauses.extend([-lits[i], -lits[j]] for i in range(len(lits))
                           for j in range(i + 1, len(lits)))
        else:
            clauses.extend(CardEnc.atmost(lits, 1, vpool=pool, encoding=EncType.seqcounter).clauses)
    # preferred words are tried first: their variables' phase is true, the others' false
    preferred = prob.lex.preferred
    if preferred:
        enc.phases = [v if w in preferred else -v for wv in enc.word_var for w, v in wv.items()]
    return enc


def _key_groups(prob: Problem, enc: Encoding) -> list[list[int]]:
    """The variables of the words with each conflict key (a run of letters too long, a
    lemma: :mod:`.rules`): at most one of each group is an answer."""
    if prob.max_shared is None and prob.lemmas is None:
        return []
    by_key: dict[object, list[int]] = {}
    for wv in enc.word_var:
        for w, v in wv.items():
            lemma = None if prob.lemmas is None else int(prob.lemmas[w])
            for key in word_keys(prob.words[w], prob.max_shared, lemma):
                by_key.setdefault(key, []).append(v)
    return list(by_key.values())


def _sat_child(send: Callable[[object], None], prob: Problem, domains: list, count: int,
               conflicts: int | None) -> None:
    """In the child: encode, solve, and send each fill, then how the search ended (at most
    ``conflicts`` conflicts when given: the step budget of this engine)."""
    from pysat.solvers import Solver

    enc = encode(prob, domains)
    send(("log", f"SAT: {enc.pool.top} variables, {len(enc.clauses)} clauses"))
    words = prob.words
    found = 0
    with Solver(name=SOLVER, bootstrap_with=enc.clauses) as solver:
        del enc.clauses
        if enc.phases:
            solver.set_phases(enc.phases)
        while found < count:
            if conflicts is not None:
                solver.conf_budget(min(conflicts, MAX_CONFLICTS))
            ok = solver.solve_limited(assumptions=enc.selector)
            if ok is None:
                send(("budget", None))
                return
            if not ok:
                region = []
                if not found:
                    core = set(solver.get_core() or [])
                    region = [prob.slots[s].name for s, v in enumerate(enc.selector) if v in core]
                send(("unsat", region))
                return
            true = {v for v in solver.get_model() if v > 0}
            fill, block = [], []
            for wv in enc.word_var:
                w, v = next((w, v) for w, v in wv.items() if v in true)
                fill.append(words[w])
                block.append(-v)
            send(("fill", fill))
            found += 1
            solver.add_clause(block)
    send(("done", None))


def solve_sat(prob: Problem, *, count: int = 1, budget: Budget | None = None,
              seed: int | None = None, memory_limit: int | None = None) -> FillResult:
    """Fill ``prob.grid`` with up to ``count`` fills by SAT, or prove that none exists.

    The solver runs in a child process, killed when the budget's time runs out;
    ``memory_limit`` caps the child's address space in bytes (default: see
    :mod:`.worker`).  The step budget is the solver's conflict budget.  ``seed``
    is accepted for symmetry with the CSP (CaDiCaL's search is deterministic).
    """
    budget = budget or Budget()
    result = FillResult(prob.grid, BUDGET, engine="sat")
    try:
        domains = root_domains(prob, budget)
    except RootWipeout as exc:
        out = no_fill_at_root(prob, exc.slot, result, budget)
        out.engine = "sat"
        return out
    if domains is None:
        result.seconds = budget.elapsed()
        result.message = f"budget exhausted after {result.seconds:.1f} s, before the SAT search"
        return result
    # loaded before the fork: the child's memory cap is for the work, not for the libraries
    import pysat.card
    import pysat.solvers  # noqa: F401

    outcome = run_in_child(_sat_child, (prob, domains, count, budget.steps), budget=budget,
                           memory_limit=memory_limit)
    unsat, region = False, []
    for kind, value in outcome.messages:
        if kind == "fill":
            result.fills.append(value)
        elif kind == "unsat":
            unsat, region = True, value
        elif kind == "log":
            log.debug("%s", value)
    result.complete = unsat or any(kind == "done" for kind, _ in outcome.messages)
    if any(kind == "budget" for kind, _ in outcome.messages):
        outcome.why = f"{budget.steps} conflicts"
    result.seconds = budget.elapsed()
    if result.fills:
        result.status = FILLED
        n = len(result.fills)
        result.message = (f"filled {n} way{'s' if n > 1 else ''}"
                          + (" (all fills)" if unsat and n < count else ""))
    elif unsat:
        result.status = NO_FILL
        result.region = region
        where = (f"; the slots {', '.join(region)} cannot all be filled together"
                 if region and len(region) < prob.n else "")
        result.message = f"no fill exists (proved by SAT){where}"
        if region:
            result.culprit = region[0]
    else:
        result.message = (f"budget exhausted: the SAT solver ran {result.seconds:.1f} s"
                          + (f" ({outcome.why})" if outcome.why else ""))
        result.partial = ["." * n for n in prob.lengths]
        tight = min(range(prob.n), key=lambda s: len(domains[s]))
        result.culprit = prob.slots[tight].name
        result.culprit_candidates = len(domains[tight])
    return result
