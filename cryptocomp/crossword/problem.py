"""A fill problem: a grid over a lexicon, checked once, shared by every engine.

The checks here are the one-line refusals of a grid that cannot be filled from
the list at all (a slot longer than any word, a length without words, a given
letter outside the alphabet).  :attr:`Problem.initial` holds each slot's words
with its given letters applied, as bitmaps of word ids (most frequent first).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from pyroaring import FrozenBitMap

from .grid import Grid, GridError
from .lexicon import Lexicon
from .rules import DEFAULT_RULES, FillRules

if TYPE_CHECKING:
    from .tables import Tables

__all__ = ["Problem", "Budget", "MAX_STEPS", "MAX_FILLS"]

# a step budget is held in the engines' int64 counters and added to their node counts:
# 2**62 fits with room to spare, and no search takes that many steps (a day is ~1e11)
MAX_STEPS = 1 << 62
# the fills of one search are kept to tell them apart and printed at its end (a 15x15
# fill is ~1.5 KB, ~8 KB as JSON): 10,000 of them stay under 100 MB
MAX_FILLS = 10_000


@dataclass
class Budget:
    """Limits of one fill: search steps (nodes) and wall-clock seconds (None: unlimited)."""

    steps: int | None = None
    seconds: float | None = None
    start: float = field(default_factory=time.monotonic)

    def elapsed(self) -> float:
        """Seconds since the budget started."""
        return time.monotonic() - self.start

    def deadline(self) -> float:
        """The monotonic time the budget ends (infinity without a time limit)."""
        return float("inf") if self.seconds is None else self.start + self.seconds

    def out_of_time(self) -> bool:
        """True once the time limit has passed."""
        return self.seconds is not None and self.elapsed() > self.seconds


class Problem:
    """A grid over a lexicon: slots, crossings and initial domains (given letters applied),
    and the rules on its answers (:class:`.rules.FillRules`: the conflict keys the engines
    enforce, :attr:`max_shared` and :attr:`lemmas`)."""

    def __init__(self, grid: Grid, lex: Lexicon, rules: FillRules = DEFAULT_RULES):
        self.grid, self.lex, self.rules = grid, lex, rules
        self.max_shared = rules.max_shared
        # lemma groups by word id, where the index knows them and the rules keep them apart
        self.lemmas = None if rules.same_lemma else lex.index.lemma_groups()
        self.slots = grid.slots
        self.n = len(self.slots)
        self.lengths = [s.length for s in self.slots]
        self.letters = lex.alphabet
        self.words = lex.words
        letters = set(self.letters)
        longest = lex.longest()
        if not longest:  # "longer than any word (at most 0)" would blame the grid
            raise GridError(f"the word list is empty: {lex.why_empty()}")
        for slot in self.slots:
            if not lex.base(slot.length):
                if slot.length > longest:
                    raise GridError(f"slot {slot.name} has {slot.length} letters, longer than "
                                    f"any word of the list (at most {longest})")
                raise GridError(f"slot {slot.name} has {slot.length} letters and the list has "
                                f"no word of that length")
        for (r, c), ch in grid.given.items():
            if ch not in letters:
                raise GridError(f"letter {ch!r} at row {r + 1}, column {c + 1} does not occur "
                                f"in the word list {lex.describe()}")
        self.cross: list[list[tuple[int, int, int]]] = [[] for _ in range(self.n)]
        for a, pa, b, pb in grid.crossings():
            self.cross[a].append((pa, b, pb))
            self.cross[b].append((pb, a, pa))
        self.initial: list[FrozenBitMap] = []
        for slot in self.slots:
            dom = lex.base(slot.length)
            for p, cell in enumerate(slot.cells):
                given = grid.given.get(cell)
                if given is not None:
                    dom = dom & lex.at(slot.length, p, given)
            self.initial.append(dom)
        self._tables: Tables | None = None

    @property
    def tables(self) -> Tables:
        """The engine's compact arrays (built on first use, then shared)."""
        if self._tables is None:
            from .tables import Tables

            self._tables = Tables(self)
        return self._tables

    def pattern(self, s: int) -> str:
        """The slot's given letters as a template, e.g. ``a?z``."""
        return "".join(self.grid.given.get(cell, "?") for cell in self.slots[s].cells)

    def rank_figures(self, fill: list[str]) -> tuple[float, int]:
        """Mean and largest frequency rank (1 = most frequent) of a fill's words."""
        ids = [self.lex.index.id_of(w) for w in fill]  # a checked fill's words are all there
        ranks = [i + 1 for i in ids if i is not None]
        return sum(ranks) / len(ranks), max(ranks)
