"""Crossword cryptarithms generated from a word list (Cryptator's ``--cross N``): an N×N grid
of distinct list words whose rows and columns are sums, with exactly one solution.

In row ``i`` the first N-1 words add up to the last one, and likewise down each column::

    cc  a   cl        cc + a = cl && on + d = go && ni + e = ne &&
    on  d   go        cc + on = ni && a + d = e && cl + go = ne
    ni  e   ne

The 2N relations form one system (rows first, then columns, joined by ``&&`` as Cryptator
writes them) that must have exactly one solution, counted as linear forms all at once by
:func:`~cryptocomp.cryptarithm.lineform.count_lines` (by the exact engine,
:func:`~cryptocomp.cryptarithm.engine.solve_system`, when a place value does not fit int64).
Reordering the addend rows, the addend columns, or transposing the grid gives the same
system: as Cryptator does, only the grid whose first column's and first row's addends are
in list order, the second word of the first column before the second of the first row, is
kept.

The search fills the first row, the first column, then the other cells row by row with
distinct words, and cuts a branch as soon as the grid has more distinct symbols than the
base has digits, or a completed row or column has no solution as a sum by itself
(:func:`~cryptocomp.cryptarithm.wordsum.solve_word_sum`, which also refuses lengths that
cannot add up; remembered by its words), or the completed ones have none together (the same
counter as the whole grid's).

>>> words = ["cc", "a", "cl", "on", "d", "go", "ni", "e", "ne"]
>>> found = [c.text for c in crosswords(words, 3)]
>>> len(found), found[0]
(6, 'cc + on = ni && a + d = e && cl + go = ne && cc + a = cl && on + d = go && ni + e = ne')
"""

from __future__ import annotations

import time
import unicodedata
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

import numpy as np

from ..domain import Symbol
from ..errors import QueryError
from .engine import solve_system
from .expr import BinOp, Operand
from .generation import Branch
from .lineform import WordTable, count_lines, fits_int64, word_table
from .system import DIGITS, Relation, System
from .wordsum import solve_word_sum

__all__ = ["Crossword", "CrossGeneration", "crosswords", "cross_generation", "cross_system",
           "MIN_SIZE"]

MIN_SIZE = 3      # a 2×2 grid says a = b: distinct words are never equal


@dataclass(frozen=True)
class Crossword:
    """One grid (rows of words) and the only solution of its system."""

    grid: tuple[tuple[str, ...], ...]
    solution: dict[Symbol, int]

    @property
    def relations(self) -> list[tuple[tuple[str, ...], str]]:
        """Each row's, then each column's addends and sum."""
        n = len(self.grid)
        lines = [row for row in self.grid] + [tuple(r[j] for r in self.grid) for j in range(n)]
        return [(line[:-1], line[-1]) for line in lines]

    @property
    def text(self) -> str:
        """The system as Cryptator writes it: ``cc + a = cl && on + d = go && ...``."""
        return " && ".join(f"{' + '.join(left)} = {right}" for left, right in self.relations)

    @property
    def puzzle(self) -> str:
        """The system as printed (:attr:`text`), as a generated sum's ``puzzle``."""
        return self.text

    def numbers(self, base: int = 10) -> tuple[tuple[str, ...], ...]:
        """The solution grid: each word in digits of ``base`` (above 9 as a-z)."""
        return tuple(tuple("".join(DIGITS[self.solution[ch]] for ch in w) for w in row)
                     for row in self.grid)

    def equation(self, base: int = 10) -> str:
        """The solved system: :attr:`text` with each word in digits."""
        lines = [*self.numbers(base)]
        lines += [tuple(r[j] for r in lines) for j in range(len(lines))]
        return " && ".join(f"{' + '.join(line[:-1])} = {line[-1]}" for line in lines)

    def to_json(self, base: int = 10) -> dict:
        """``{"puzzle", "grid", "solution", "numbers"}`` (solution: symbol to digit)."""
        return {"puzzle": self.text, "grid": [list(r) for r in self.grid],
                "solution": dict(sorted(self.solution.items())),
                "numbers": [list(r) for r in self.numbers(base)]}


def cross_system(grid: Sequence[Sequence[str]], base: int = 10) -> System:
    """The system of a grid: each row's and each column's sum."""
    return _system(Crossword(tuple(tuple(r) for r in grid), {}).relations, base)


def _system(relations: Sequence[tuple[Sequence[str], str]], base: int) -> System:
    """The sums ``left[0] + left[1] + ... = right`` as one system."""
    out = []
    for left, right in relations:
        node: Operand | BinOp = Operand(left[0], 0)
        for w in left[1:]:
            node = BinOp("+", node, Operand(w, 0), 0)
        out.append(Relation("=", node, Operand(right, 0), 0))
    return System.of(out, base=base)


def crosswords(words: Sequence[str], n: int, *, base: int = 10,
               deadline: float | None = None, steps: int | None = None
               ) -> Iterator[Crossword]:
    """Every N×N crossword system of distinct ``words`` with exactly one solution, in the
    order of the search; stops at ``deadline`` (a :func:`time.monotonic` instant) or after
    ``steps`` words placed."""
    yield from cross_generation(words, n, base=base, deadline=deadline, steps=steps)


class CrossGeneration:
    """The crosswords of one list, yielded as found (iterate once); ``complete`` is False
    when the deadline or the step budget stopped the search, ``candidates`` counts the
    words placed."""

    def __init__(self, search: _Search) -> None:
        self._search = search

    def __iter__(self) -> Iterator[Crossword]:
        return self._search.run()

    @property
    def words(self) -> list[str]:
        """The list's words (NFC, lower case, each once): what a branch's indices name."""
        return self._search.words

    def branches(self) -> list[Branch]:
        """Every branch of the search (the words of the first row's first two cells) in its
        order; their crosswords, branch after branch, are the whole search's."""
        s = self._search
        if len(s.words) < s.n * s.n:
            return []
        return [Branch(a, b) for a in s.firsts() for b in range(a + 1, len(s.words))
                if len(s.masks[a] | s.masks[b]) <= s.base]

    def first_words(self) -> int:
        """How many words the first cell takes in the whole search: the placements that
        its branches, each counting its own, leave to the caller."""
        s = self._search
        return len(s.firsts()) if len(s.words) >= s.n * s.n else 0

    def split(self, branch: Branch, *, deadline: float | None = None) -> CrossGeneration:
        """The crosswords of one branch (its first cell's placement not counted)."""
        s = self._search
        part = _Search(s.words, s.n, s.base, deadline, branch=branch, shared=s)
        return CrossGeneration(part)

    @property
    def complete(self) -> bool:
        return not self._search.stopped

    @property
    def candidates(self) -> int:
        return self._search.tried


def cross_generation(words: Sequence[str], n: int, *, base: int = 10,
                     deadline: float | None = None, steps: int | None = None
                     ) -> CrossGeneration:
    """:func:`crosswords` as an object that also says whether the search was complete; bad
    input (N below 3, a word with a space or sign) is one QueryError line at once."""
    if isinstance(n, bool) or not isinstance(n, int) or n < MIN_SIZE:
        raise QueryError(f"a crossword grid is at least {MIN_SIZE}×{MIN_SIZE} "
                         f"(got a size of {n!r})")
    listed = [unicodedata.normalize("NFC", w).lower() for w in words]
    if any(not w or not all(ch.isalnum() or ord(ch) >= 0x80 for ch in w) for w in listed):
        raise QueryError("a crossword's words are runs of symbols (letters, digits, any "
                         "character from U+0080): no spaces or signs")
    listed = list(dict.fromkeys(listed))
    return CrossGeneration(_Search(listed, n, base, deadline, steps))


class _Search:
    """The grid filled cell by cell (row by row), word indices in ``cells``."""

    def __init__(self, words: list[str], n: int, base: int, deadline: float | None,
                 steps: int | None = None, branch: Branch | None = None,
                 shared: _Search | None = None):
        """``shared``: a search of the same words whose tables this one reuses."""
        self.words, self.n, self.base, self.deadline = words, n, base, deadline
        self.steps = steps    # the most words to place (None: no step budget)
        self.branch = branch  # the words of the first two cells, when one branch
        self.masks = [frozenset(w) for w in words]
        # the lines as linear forms, all counted at once by the compiled counter, when
        # every place value fits in int64 (else the exact engine counts the system)
        self.table: WordTable | None = (
            shared.table if shared is not None else
            word_table(words, base) if words and fits_int64(words, base) else None)
        # a line's words: a sum by itself?  (a pure function of the words: shared too)
        self.solvable: dict[tuple[int, ...], bool] = {} if shared is None else shared.solvable
        # the first row, then the first column, then the rest row by row: the first
        # column's sum is checked after 2N-1 cells, not after N(N-1)+1
        self.order = [(0, c) for c in range(n)] + [(r, 0) for r in range(1, n)] + \
            [(r, c) for r in range(1, n) for c in range(1, n)]
        self.at: dict[tuple[int, int], int] = {}
        self.used: set[int] = set()
        self.tried = 0
        self.stopped = False

    def run(self) -> Iterator[Crossword]:
        if len(self.words) < self.n * self.n:
            return
        try:
            yield from self._fill(frozenset())
        except _Stopped:
            self.stopped = True

    def _fill(self, symbols: frozenset[str]) -> Iterator[Crossword]:
        n, k = self.n, len(self.at)
        if k == n * n:
            found = self._unique()
            if found is not None:
                yield found
            return
        cell = self.order[k]
        choices: Sequence[int] = range(self._least(cell), len(self.words))
        if self.branch is not None and k < 2:
            choices = [self.branch.second if k else self.branch.first]
        for w in choices:
            if w in self.used:
                continue
            more = symbols | self.masks[w]
            if len(more) > self.base:
                continue
            self.at[cell] = w
            if self._fits(cell):
                self.used.add(w)
                yield from self._fill(more)
                self.used.discard(w)
            del self.at[cell]
            if self.branch is None or k:
                self._clock()

    def firsts(self) -> list[int]:
        """The words the first cell may take (no more symbols than the base has digits)."""
        return [w for w in range(len(self.words)) if len(self.masks[w]) <= self.base]

    def _least(self, cell: tuple[int, int]) -> int:
        """The least word index a cell may take: the first row's and the first column's
        addends in list order (one grid of each set of equal systems)."""
        i, j = cell
        if i == 0 and 0 < j < self.n - 1:
            return self.at[0, j - 1] + 1
        if j == 0 and 0 < i < self.n - 1:
            return self.at[i - 1, 0] + 1
        return 0

    def _fits(self, cell: tuple[int, int]) -> bool:
        """Whether the cell just placed keeps the grid possible: the second word of the
        first column before the second of the first row (the transposed grid is the same
        system), and the rows and columns it completes solvable, alone and together."""
        n, at = self.n, self.at
        i, j = cell
        if cell == (1, 0) and at[1, 0] > at[0, 1]:
            return False
        done = [line for line in (self._row(i), self._column(j)) if line is not None]
        if any(not self._solvable(line) for line in done):
            return False
        if not done or len(at) == n * n:
            return True       # the whole grid is counted by _unique
        lines = [line for line in (*(self._row(r) for r in range(n)),
                                   *(self._column(c) for c in range(n))) if line is not None]
        return len(lines) < 2 or self._together(lines)

    def _row(self, i: int) -> list[int] | None:
        """Row ``i``'s words when all are placed."""
        line = [self.at.get((i, c)) for c in range(self.n)]
        return None if None in line else line  # type: ignore[return-value]

    def _column(self, j: int) -> list[int] | None:
        """Column ``j``'s words when all are placed."""
        line = [self.at.get((r, j)) for r in range(self.n)]
        return None if None in line else line  # type: ignore[return-value]

    def _together(self, lines: list[list[int]]) -> bool:
        """Whether the complete rows and columns have a solution together."""
        if self.table is not None:
            return self._forms(lines, 1)[0] > 0
        w = self.words
        relations = [([w[x] for x in line[:-1]], w[line[-1]]) for line in lines]
        return solve_system(_system(relations, self.base), cap=1).count > 0

    def _forms(self, lines: list[list[int]], cap: int) -> tuple[int, dict[Symbol, int]]:
        """The solutions (up to ``cap``) of the lines' sums read as linear forms, all at
        once, and the first one found."""
        table = self.table
        assert table is not None
        first = np.empty(len(table.symbols), np.int64)
        count = int(count_lines(np.array(lines, np.int64), table.coef, table.present,
                                table.lead, cap, self.base, first))
        return count, ({table.symbols[s]: int(d) for s, d in enumerate(first) if d >= 0}
                       if count else {})

    def _solvable(self, line: list[int]) -> bool:
        """Whether ``line[:-1]`` can add up to ``line[-1]`` by itself (remembered: the
        same line comes back under every grid that differs elsewhere)."""
        key = tuple(line)
        known = self.solvable.get(key)
        if known is None:
            w = self.words
            count, _ = solve_word_sum([w[x] for x in line[:-1]], w[line[-1]],
                                      base=self.base, cap=1)
            known = self.solvable[key] = count > 0
        return known

    def _unique(self) -> Crossword | None:
        """The complete grid, when its system has exactly one solution."""
        n, w = self.n, self.words
        grid = tuple(tuple(w[self.at[i, j]] for j in range(n)) for i in range(n))
        if self.table is not None:
            lines = [self._row(i) for i in range(n)] + [self._column(j) for j in range(n)]
            count, solution = self._forms(lines, 2)   # type: ignore[arg-type]
            return Crossword(grid, solution) if count == 1 else None
        found = solve_system(_system(Crossword(grid, {}).relations, self.base), cap=2)
        if found.count != 1:
            return None
        return Crossword(grid, found.solutions[0])

    def _clock(self) -> None:
        """Stops the search at the deadline or once ``steps`` words are placed (looked at
        every placement: one may cost a system count, far more than a look at the clock)."""
        if self.steps is not None and self.tried >= self.steps:
            raise _Stopped
        self.tried += 1
        if self.deadline is not None and \
                time.monotonic() > self.deadline:
            raise _Stopped


class _Stopped(Exception):
    """The deadline passed, or the step budget is spent."""
