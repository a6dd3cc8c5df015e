"""The difficulty of a cryptarithm: how hard a person finds it, by the model of
:mod:`cryptocomp.cryptarithm.deduction`.

A person deduces to a fixpoint (:func:`~cryptocomp.cryptarithm.deduction.deduce`).  When
stuck, they guess: the symbol with the fewest digits left (the first in order of
appearance on a tie), its digits from the smallest; each guess is followed by deductions,
and a guess that ends in a contradiction (perhaps after further guesses) is taken back and
the next digit tried.  The *path* is what the answer key prints: the deductions, each guess
that stands (with the digits tried first, which failed) and the deductions after it, down
to the solution.

The raw score adds the weight of every step on the path (the table in
:mod:`~cryptocomp.cryptarithm.deduction`), :data:`GUESS` for each guess that stands and
:data:`DEAD_END` for each trial that failed (each node of the search tree taken back).
The level is read off the score by :data:`CUTS` (calibrated on the examples of the README
section "Difficulty", which ``scripts/bench_difficulty.py --examples`` prints):

===== ============== ====================================================================
level score          typically
===== ============== ====================================================================
1     up to 20       a few columns give everything (``ab+ab=bcc``)
2     21 to 70       deductions only, many of them (``send+more=money``)
3     71 to 120      deductions and a guess that stands (``donald+gerald=robert``)
4     121 to 240     guesses, some taken back (``azure+gray+grey=yellow``)
5     more than 240  a search: many guesses taken back (``cyan*navy=black*gray``)
===== ============== ====================================================================

Rating stops after ``seconds`` of the process's CPU time (or :data:`WALL` times that on
the clock) or ``nodes`` search nodes; the puzzle is then *unrated* (also when it has no
solution).  CPU time, since a rating should not depend on what else the machine runs.

>>> rate("ab+ab=bcc").level, rate("send+more=money").level, rate("to+go=out", base=16).level
(1, 2, 1)
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from dataclasses import dataclass, field

from ..domain import Symbol
from ..errors import ExpressionError
from .deduction import (
    Deduced,
    Domains,
    Model,
    Narrowing,
    Step,
    assign,
    deduce,
    model_of,
    solved,
)
from .expr import parse
from .grammar import parse_system
from .propagation import fixpoint
from .system import System

__all__ = ["Difficulty", "Path", "Rated", "rate", "rate_system", "rate_rows", "solution_path",
           "system_of", "level_of", "difficulty_of", "CUTS", "GUESS", "DEAD_END", "SECONDS",
           "NODES", "UNRATED", "LEVELS"]

GUESS = 30            # a guess that stands
DEAD_END = 8          # a trial taken back
CUTS = (20, 70, 120, 240)   # the highest score of levels 1 to 4
SECONDS = 0.5         # default time budget of one rating (CPU seconds)
WALL = 4              # the clock may run this many times the CPU budget (a loaded machine)
NODES = 5000          # default search nodes of one rating
UNRATED = "unrated"
LEVELS = 5


@dataclass(frozen=True)
class Difficulty:
    """A puzzle's difficulty: ``level`` 1 (easiest) to 5, None when unrated; the raw
    ``score``; the deduction ``steps`` and ``guesses`` on the path to the solution; the
    search ``nodes`` tried (each guess, kept or taken back)."""

    level: int | None
    score: int
    steps: int
    guesses: int
    nodes: int
    reason: str = ""      # why unrated: "no solution", "out of time", ...

    @property
    def rated(self) -> bool:
        return self.level is not None

    def __str__(self) -> str:
        if self.level is None:
            return f"{UNRATED} ({self.reason})" if self.reason else UNRATED
        guesses = "no guess" if not self.guesses else (
            "1 guess" if self.guesses == 1 else f"{self.guesses} guesses")
        return f"level {self.level} (score {self.score}: {self.steps} steps, {guesses})"

    def to_json(self) -> dict:
        return {"level": self.level, "score": self.score, "steps": self.steps,
                "guesses": self.guesses, "nodes": self.nodes,
                **({"reason": self.reason} if self.reason else {})}


@dataclass(frozen=True)
class Path:
    """How the model solves a system: the steps (deductions and standing guesses), the
    solution reached (None when there is none or the budget ran out), the search nodes
    tried, the dead ends among them, and whether the work finished within its budget."""

    model: Model
    steps: tuple[Step, ...]
    solution: dict[Symbol, int] | None
    nodes: int
    dead_ends: int
    complete: bool


class _OutOfBudget(Exception):
    """The rating's time or node budget ran out."""


@dataclass
class _Budget:
    """``seconds`` of this process's CPU time (other processes on a busy machine do not
    make a puzzle unrated), at most :data:`WALL` times that on the clock, ``nodes`` nodes."""

    seconds: float
    nodes: int
    tried: int = 0
    failed: int = 0       # dead ends: nodes whose whole subtree failed
    cpu: float = field(init=False)      # the process_time() and monotonic() deadlines
    wall: float = field(init=False)

    def __post_init__(self) -> None:
        self.cpu = time.process_time() + self.seconds
        self.wall = time.monotonic() + WALL * self.seconds

    def spend(self) -> None:
        """One more search node; raises when the budget is gone."""
        self.tried += 1
        if self.tried > self.nodes or time.process_time() > self.cpu or \
                time.monotonic() > self.wall:
            raise _OutOfBudget


def level_of(score: int) -> int:
    """The level 1-5 of a raw score (by :data:`CUTS`)."""
    return 1 + sum(score > c for c in CUTS)


def system_of(text_or_system: str | System, base: int = 10) -> System:
    """A system from a puzzle's text in ``base`` (the cryptarithm language of
    :func:`~cryptocomp.cryptarithm.grammar.parse_system`: systems, comparators, constants)
    or as given."""
    if isinstance(text_or_system, System):
        return text_or_system
    try:
        return parse_system(text_or_system, base=base)
    except ExpressionError:
        if _has_unknown(text_or_system):
            raise ExpressionError("a difficulty needs a complete puzzle LEFT=RIGHT without '?'",
                                  None, text_or_system) from None
        raise


def _has_unknown(text: str) -> bool:
    """Whether ``text`` is a compose query (today's grammar, with an unknown)."""
    try:
        return parse(text).unknown
    except ExpressionError:
        return False


def _choose(model: Model, domains: Domains) -> Symbol:
    """The symbol a person guesses: the fewest digits left, the first on a tie."""
    open_ = [s for s in model.system.symbols if len(domains[s]) > 1]
    return min(open_, key=lambda s: len(domains[s]))


def _search(model: Model, domains: Domains, budget: _Budget) -> bool:
    """Whether deductions and guesses from ``domains`` reach a solution (one node)."""
    budget.spend()
    out = fixpoint(model, domains)
    if solved(model, out.domains) and not out.contradiction:
        return True
    if not out.contradiction:
        s = _choose(model, out.domains)
        if any(_search(model, assign(out.domains, s, d), budget)
               for d in sorted(out.domains[s])):
            return True
    budget.failed += 1
    return False


def _guess(model: Model, domains: Domains, budget: _Budget) -> Step | None:
    """The guess that stands at a fixpoint (the digits before it failed), None when every
    digit fails."""
    s = _choose(model, domains)
    failed: list[int] = []
    for d in sorted(domains[s]):
        before = budget.failed
        if _search(model, assign(domains, s, d), budget):
            new = frozenset([d])
            budget.failed = before  # its subtree's dead ends are counted again below it
            return Step("guess", GUESS, (Narrowing(s, domains[s], new),), symbol=s, digit=d,
                        refuted=tuple(failed))
        failed.append(d)
    return None


def solution_path(system: System, *, seconds: float = SECONDS, nodes: int = NODES) -> Path:
    """The model's way to the (first) solution of ``system`` within the budget."""
    model = model_of(system)
    budget = _Budget(seconds, nodes)
    steps: list[Step] = [model.leading] if model.leading else []
    domains: Domains = model.initial
    try:
        while True:
            out: Deduced = deduce(model, domains)
            steps += out.steps
            if out.contradiction:
                return Path(model, tuple(steps), None, budget.tried, budget.failed, True)
            if solved(model, out.domains):
                solution = {s: min(out.domains[s]) for s in system.symbols}
                return Path(model, tuple(steps), solution, budget.tried, budget.failed, True)
            guess = _guess(model, out.domains, budget)
            if guess is None:
                return Path(model, tuple(steps), None, budget.tried, budget.failed, True)
            steps.append(guess)
            assert guess.symbol is not None and guess.digit is not None
            domains = assign(out.domains, guess.symbol, guess.digit)
    except _OutOfBudget:
        return Path(model, tuple(steps), None, budget.tried, budget.failed, False)


def rate_system(system: System, *, seconds: float = SECONDS, nodes: int = NODES) -> Difficulty:
    """The difficulty of ``system`` (unrated when the budget runs out or there is no
    solution)."""
    path = solution_path(system, seconds=seconds, nodes=nodes)
    return difficulty_of(path)


def difficulty_of(path: Path) -> Difficulty:
    """The difficulty the path shows."""
    deductions = [s for s in path.steps if s.kind != "guess"]
    guesses = [s for s in path.steps if s.kind == "guess"]
    score = sum(s.weight for s in path.steps) + DEAD_END * path.dead_ends
    if not path.complete:
        return Difficulty(None, score, len(deductions), len(guesses), path.nodes, "out of time")
    if path.solution is None:
        return Difficulty(None, score, len(deductions), len(guesses), path.nodes, "no solution")
    return Difficulty(level_of(score), score, len(deductions), len(guesses), path.nodes)


def rate(puzzle: str | System, *, base: int = 10, seconds: float = SECONDS,
         nodes: int = NODES) -> Difficulty:
    """The difficulty of a complete puzzle: its text in ``base`` (``"send+more=money"``,
    ``"cc+a=cl && on+d=go"``) or a :class:`~cryptocomp.cryptarithm.system.System`."""
    return rate_system(system_of(puzzle, base), seconds=seconds, nodes=nodes)


@dataclass(frozen=True)
class Rated:
    """Row ``index`` of a list of puzzles and its difficulty."""

    index: int
    difficulty: Difficulty


def rate_rows(puzzles: Iterable[str], *, top: int | None = None, max_level: int | None = None,
              seconds: float = SECONDS) -> list[Rated]:
    """The first ``top`` rows (all when None) of ``puzzles`` rated, in order; with
    ``max_level`` only the rows rated at most that level (rows are rated one by one until
    ``top`` of them pass: the rating is lazy)."""
    out: list[Rated] = []
    for i, text in enumerate(puzzles):
        if top is not None and len(out) >= top:
            break
        d = rate(text, seconds=seconds)
        if max_level is None or (d.level is not None and d.level <= max_level):
            out.append(Rated(i, d))
    return out
