"""Finished arrow-word puzzles and what a generator run returns.

JSON of one puzzle (``format`` 1; one object a puzzle, JSON Lines for several):

* ``format`` -- 1; ``width``, ``height`` -- cells;
* ``grid`` -- ``height`` strings, ``#`` a clue cell, a letter otherwise;
* ``words`` -- objects ``word``, ``clue`` (null for ``--clues none``), ``ambiguity``
  (how many other clued words of the same length carry the same clue, see
  :mod:`.clues`; null without clues), ``row``, ``col``
  (0-based, the first letter), ``direction`` (``across``/``down``), ``clue_cell``
  (``[row, col]``), ``number`` (the clue cell's number, as printed for ``--clues none``);
* ``hidden`` -- ``phrase`` and ``cells`` (``[row, col]`` pairs in reading order), or null;
* ``stats`` -- ``attempts`` (tried for this puzzle), ``seconds`` (CPU seconds of those
  attempts), ``penalties`` (the mask's ``total`` and its faults: ``hard``,
  ``two_letter``, ``dead_clue_cells``, ``long_words``, ``crowded``, ``islands``),
  ``phrases_fit`` (phrases of the file that fit the grid, or null), ``seed``,
  ``repairs`` (mask repairs the filler asked for), ``fill_steps``, ``words``,
  ``clue_ambiguity`` (``median`` and ``p90`` of its clues' ambiguity, or null without
  clues), and in a batch ``puzzle`` (its place in the batch, from 1).  A batch's output file
  (``swedish --output``) holds these objects without ``stats.seconds`` (timings would
  make a resumed file differ from an uninterrupted one).
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Iterable
from dataclasses import dataclass, field

from .check import puzzle_quality

__all__ = ["ArrowWord", "Hidden", "ArrowPuzzle", "ArrowResult", "PUZZLE_FORMAT",
           "ambiguity_summary"]

PUZZLE_FORMAT = 1
Cell = tuple[int, int]


def ambiguity_summary(values: Iterable[int]) -> dict[str, float] | None:
    """``median`` and ``p90`` (nearest rank) of clue ambiguities; None for none."""
    got = sorted(values)
    if not got:
        return None
    return {"median": statistics.median(got), "p90": got[math.ceil(0.9 * len(got)) - 1]}


@dataclass(frozen=True)
class ArrowWord:
    """One word of a puzzle: its letters, clue, first cell, direction and clue cell, and
    the clue's ambiguity (None without a clue)."""

    word: str
    clue: str | None
    row: int
    col: int
    direction: str
    clue_cell: Cell
    ambiguity: int | None = None

    @property
    def cells(self) -> list[Cell]:
        dr, dc = (0, 1) if self.direction == "across" else (1, 0)
        return [(self.row + i * dr, self.col + i * dc) for i in range(len(self.word))]


@dataclass(frozen=True)
class Hidden:
    """The hidden solution: the phrase as written and its cells in reading order."""

    phrase: str
    cells: tuple[Cell, ...]


@dataclass
class ArrowPuzzle:
    """A finished arrow-word puzzle."""

    grid: tuple[str, ...]  # '#' clue cell, letter otherwise
    words: list[ArrowWord]
    hidden: Hidden | None = None
    stats: dict = field(default_factory=dict)

    @property
    def height(self) -> int:
        return len(self.grid)

    @property
    def width(self) -> int:
        return len(self.grid[0])

    def reading(self) -> str:
        """The letters read row by row (letter cells only)."""
        return "".join(ch for row in self.grid for ch in row if ch != "#")

    def letter_cells(self) -> list[Cell]:
        """Letter cells in reading order."""
        return [(r, c) for r, row in enumerate(self.grid) for c, ch in enumerate(row)
                if ch != "#"]

    def numbers(self) -> dict[Cell, int]:
        """Clue cells that define a word, numbered in reading order."""
        cells = sorted({w.clue_cell for w in self.words})
        return {cell: n for n, cell in enumerate(cells, 1)}

    def clues_at(self, cell: Cell) -> list[ArrowWord]:
        """The words a clue cell defines: across first, then down."""
        return sorted((w for w in self.words if w.clue_cell == cell),
                      key=lambda w: w.direction != "across")

    def ambiguities(self) -> list[int]:
        """The ambiguity of each clue printed (empty without clues)."""
        return [w.ambiguity for w in self.words if w.ambiguity is not None]

    def quality(self) -> dict[str, int]:
        """Soft faults counted from the grid (see :func:`.check.puzzle_quality`)."""
        return puzzle_quality(self.to_json())

    def to_json(self) -> dict:
        """The puzzle as a JSON-ready object (format ``PUZZLE_FORMAT``)."""
        numbers = self.numbers()
        return {
            "format": PUZZLE_FORMAT,
            "width": self.width,
            "height": self.height,
            "grid": list(self.grid),
            "words": [{"word": w.word, "clue": w.clue, "ambiguity": w.ambiguity,
                       "row": w.row, "col": w.col,
                       "direction": w.direction, "clue_cell": list(w.clue_cell),
                       "number": numbers[w.clue_cell]} for w in self.words],
            "hidden": None if self.hidden is None else {
                "phrase": self.hidden.phrase, "cells": [list(c) for c in self.hidden.cells]},
            "stats": self.stats,
        }

    def text(self) -> str:
        """A plain-text rendering: the grid, the hidden solution and the clue list."""
        numbers = self.numbers()
        marked = {c: i for i, c in enumerate(self.hidden.cells, 1)} if self.hidden else {}
        lines = []
        for r, row in enumerate(self.grid):
            cells = []
            for c, ch in enumerate(row):
                if ch == "#":
                    n = numbers.get((r, c))
                    cells.append(f"{n:>3}" if n else "  #")
                else:
                    cells.append(f" {ch.upper()}{'*' if (r, c) in marked else ' '}")
            lines.append("".join(cells).rstrip())
        if self.hidden:
            lines.append(f"hidden solution (* cells, in reading order): {self.hidden.phrase}")
        for w in sorted(self.words, key=lambda w: (numbers[w.clue_cell], w.direction)):
            arrow = "→" if w.direction == "across" else "↓"
            clue = w.clue if w.clue is not None else ""
            lines.append(f"{numbers[w.clue_cell]:>3}{arrow} {w.word.upper():<15} {clue}")
        return "\n".join(lines) + "\n"


@dataclass
class ArrowResult:
    """What :func:`cryptocomp.arrow.arrowword` returns: the finished puzzles (in batch
    order), how many were asked for, and the run's totals."""

    puzzles: list[ArrowPuzzle]
    requested: int
    attempts: int = 0
    cpu_seconds: float = 0.0
    wall_seconds: float = 0.0
    message: str = ""

    @property
    def complete(self) -> bool:
        return len(self.puzzles) == self.requested

    def clue_ambiguity(self) -> dict[str, float] | None:
        """``median`` and ``p90`` of the ambiguity of every clue of every puzzle (None
        without clues)."""
        return ambiguity_summary(a for p in self.puzzles for a in p.ambiguities())

    @property
    def puzzle(self) -> ArrowPuzzle:
        """The first puzzle (ValueError when none was finished)."""
        if not self.puzzles:
            raise ValueError(self.message or "no puzzle finished")
        return self.puzzles[0]
