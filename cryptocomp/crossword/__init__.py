"""Crossword filling over the dictionary index: grids, the CSP and SAT engines, word squares.

>>> from cryptocomp import Index
>>> from cryptocomp.crossword import Grid, fill
>>> idx = Index.from_counts({"car": 9, "cat": 8, "cob": 7, "ten": 6, "bun": 5, "tar": 4})
>>> grid = Grid.from_rows(["c..", ".#.", "..."])
>>> result = fill(grid, idx)
>>> result.status, result.words
('filled', ['cat', 'bun', 'cob', 'ten'])
"""

from __future__ import annotations

import logging
import math
from collections.abc import Callable

from ..index.alphabet import normalize
from ..index.classes import DEFAULTS
from ..index.index import Index
from ..index.wordfilter import ALL_WORDS, WordFilter
from .csp import STRATEGIES, load_engine, solve_csp
from .grid import Grid, GridError, Slot, format_slots, format_text, parse_slots, parse_text
from .gridfile import read_grid
from .improvement import improve as improve_fill
from .lane import Learned
from .lexicon import Lexicon
from .problem import MAX_FILLS, MAX_STEPS, Budget, Problem
from .result import BUDGET, FILLED, NO_FILL, FillResult, Improvement, SearchProgress
from .rules import DEFAULT_RULES, FillRules, ids_of
from .theme import fill_theme

__all__ = ["fill", "with_rules", "FillRules", "Grid", "Slot", "GridError", "Lexicon", "FillResult",
           "SearchProgress", "Improvement", "Budget", "ENGINES", "STRATEGIES", "read_grid",
           "parse_text", "parse_slots", "format_text", "format_slots", "FILLED", "NO_FILL",
           "BUDGET", "MAX_STEPS", "MAX_FILLS"]

log = logging.getLogger(__name__)

ENGINES = ("csp", "sat", "auto")
AUTO_CSP_SHARE = 0.75  # of a time budget, for the CSP before SAT takes over
AUTO_CSP_STEPS = 1_000_000  # CSP steps before SAT takes over when there is no time budget


def fill(grid: Grid, index: Index | Lexicon, words: WordFilter = ALL_WORDS, *,
         engine: str = "auto", count: int = 1, steps: int | None = None,
         seconds: float | None = None, seed: int | None = None,
         lookahead: bool = True, letter_branch: int = 0,
         strategy: str = "auto", improve: float | None = None,
         progress: Callable[[SearchProgress], None] | None = None,
         rules: FillRules = DEFAULT_RULES, parallel: bool = True) -> FillResult:
    """Fill ``grid`` from ``index`` (the words passing ``words``: its ``top`` most frequent,
    ``min_count``, ``min_score``, ``min_length``..``max_length`` letters, its word classes;
    a filter naming none takes ``DEFAULTS["fill"]``, dictionary words and names) with up
    to ``count`` different fills (a :class:`Lexicon` given is used as it is).

    ``engine`` is ``csp``, ``sat`` or ``auto`` (the CSP first; SAT when the CSP runs
    out of its share, to finish or to prove that no fill exists).  ``steps`` bounds
    the search steps (CSP nodes; SAT conflicts) of the first fill, ``seconds`` the
    whole attempt (wall clock).  ``lookahead`` orders the CSP's candidates by the
    support they leave their crossings, weighed with frequency (else by frequency
    alone); ``strategy`` and ``letter_branch`` choose how the CSP branches (see
    :func:`.csp.solve_csp`).  ``improve``: once filled (one fill), spend up to that
    many more seconds on fills whose rarest word is commoner (:mod:`.improvement`,
    the CSP on ever narrower lists; ``result.improvement`` says what it found).
    ``progress`` is told how far each CSP search is, some twenty times a second
    (:class:`.result.SearchProgress`); it changes nothing of the fill.  ``rules``: words
    left out, preferred or required (theme words), shared substrings and lemmas
    (:class:`.rules.FillRules`; by default no two answers of one lemma, where the index
    knows lemmas); every engine and strategy honours them.  ``parallel``: the CSP's lanes
    run side by side in threads (the same fills and steps on any number of cores); off,
    they take turns in one thread, for callers whose other processes have the cores.
    """
    if engine not in ENGINES:
        raise GridError(f"unknown engine {engine!r} (choose from {', '.join(ENGINES)})")
    if strategy not in STRATEGIES:
        raise GridError(f"unknown strategy {strategy!r} (choose from {', '.join(STRATEGIES)})")
    if not 1 <= count <= MAX_FILLS:
        raise GridError(f"count must be 1 to {MAX_FILLS:,} fills, not {count}")
    if seconds is not None and not (math.isfinite(seconds) and seconds > 0):
        raise GridError(f"the time budget must be a positive number of seconds, not {seconds}")
    if steps is not None and not 0 <= steps <= MAX_STEPS:
        raise GridError(f"the step budget must be 0 to {MAX_STEPS:,} steps, not {steps}")
    if improve is not None:
        if not (math.isfinite(improve) and improve > 0):
            raise GridError(f"the improvement time must be a positive number of seconds, "
                            f"not {improve}")
        if count != 1:
            raise GridError(f"improving a fill goes with one fill (count 1), not {count}")
    load_engine()  # before the budget starts: compiling once after installing is not search
    budget = Budget(steps=steps, seconds=seconds)
    lex = index if isinstance(index, Lexicon) else \
        Lexicon(index, words.with_classes(DEFAULTS["fill"]))
    lex = with_rules(lex, rules)
    grid = grid.spelt(fold_yo=lex.index.fold_yo)  # a given ё as the words spell it
    # with an improvement to come, the failure weights the CSP learns of the grid carry over
    # to its tries
    csp_options: dict = dict(count=count, seed=seed, lookahead=lookahead,
                             letter_branch=letter_branch, strategy=strategy,
                             learned=None if improve is None else Learned(),
                             progress=progress, parallel=parallel)
    theme = tuple(normalize(w, fold_yo=lex.index.fold_yo) for w in rules.theme)
    if theme:
        def placed(given: Grid, sub_budget: Budget) -> FillResult:
            options = dict(csp_options, count=count)
            return _first_fill(Problem(given, lex, rules), engine, sub_budget, options)

        result, grid = fill_theme(grid, theme, placed, budget, count)
    else:
        result = _first_fill(Problem(grid, lex, rules), engine, budget, csp_options)
    if improve is None or not result.filled:
        return result

    def narrower(sub: Lexicon, sub_budget: Budget) -> FillResult:
        return solve_csp(Problem(grid, sub, rules), budget=sub_budget, **csp_options)

    return improve_fill(result, lex, narrower, seconds=improve, budget=budget)


def with_rules(lex: Lexicon, rules: FillRules) -> Lexicon:
    """``lex`` with the rules' words left out, preferred, and the theme words kept
    (GridError for a theme word the dictionary lacks)."""
    if not (rules.exclude or rules.prefer or rules.theme):
        return lex
    index = lex.index
    for word in rules.theme:
        if index.id_of(normalize(word, fold_yo=index.fold_yo)) is None:
            raise GridError(f"theme word {word!r} is not a word of "
                            f"{index.name or 'the dictionary'}")
    return lex.with_words(exclude=ids_of(rules.exclude, index.id_of),
                          prefer=ids_of(rules.prefer, index.id_of),
                          include=ids_of((normalize(w, fold_yo=index.fold_yo)
                                          for w in rules.theme), index.id_of))


def _first_fill(prob: Problem, engine: str, budget: Budget, csp_options: dict) -> FillResult:
    """:func:`fill`'s search by ``engine`` within ``budget``."""
    count, seed = csp_options["count"], csp_options["seed"]
    steps, seconds = budget.steps, budget.seconds
    if engine == "sat":
        from .sat import solve_sat

        return solve_sat(prob, count=count, budget=budget, seed=seed)
    if engine == "csp":
        return solve_csp(prob, budget=budget, **csp_options)
    # auto: the CSP gets its share of the budget, SAT the rest
    share = Budget(steps=steps if steps is not None else
                   (AUTO_CSP_STEPS if seconds is None else None),
                   seconds=None if seconds is None else seconds * AUTO_CSP_SHARE,
                   start=budget.start)
    result = solve_csp(prob, budget=share, **csp_options)
    if result.status != BUDGET or (steps is not None and result.steps >= steps) \
            or budget.out_of_time():
        return result
    log.info("CSP: %s; trying SAT", result.message)
    from .sat import solve_sat

    sat = solve_sat(prob, count=count, budget=Budget(seconds=seconds, start=budget.start),
                    seed=seed)
    sat.engine = "csp+sat"
    sat.steps += result.steps
    if sat.status == BUDGET:
        sat.partial, sat.culprit = result.partial, result.culprit
        sat.culprit_candidates = result.culprit_candidates
        sat.message = (f"budget exhausted: the CSP ({result.steps} steps) and SAT found no fill "
                       f"in {sat.seconds:.1f} s; best partial fill settles "
                       f"{sum('.' not in w for w in result.partial or [])} of {prob.n} slots"
                       + (f", fewest candidates at {result.culprit} "
                          f"({result.culprit_candidates})" if result.culprit else ""))
    return sat
