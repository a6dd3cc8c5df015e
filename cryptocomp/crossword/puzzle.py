"""A published crossword: the grid with its solution, clues, rebus cells and circles.

This is what the interchange formats (:mod:`.puz`, :mod:`.jpz`) write and read: a drawn
:class:`~.grid.Grid` (a symmetric square is drawn out first), the solution text of each
open cell (one letter, or several in a *rebus* cell; lower case; a cell with no known
answer has none), the clue of each slot by slot name (``"1-across"``; a slot with no
clue has :data:`BLANK_CLUE`, the author's marker, which the readers turn back into no
clue), the circled cells, and the title, author, copyright and notes.  The grid's given
letters are the letters a solver sees filled in from the start.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field

from .grid import Cell, Grid, GridError, Slot

__all__ = ["Puzzle", "PuzzleError", "BLANK_CLUE", "puzzle_of", "clue_order", "drawn", "capitals"]

BLANK_CLUE = "(clue)"  # a slot no clue source knows: the author writes one in


class PuzzleError(GridError):
    """A puzzle file cannot be read or a puzzle cannot be written in a format."""


@dataclass(frozen=True)
class Puzzle:
    """A crossword as published: grid, solution, clues by slot name, circles, metadata."""

    grid: Grid
    solution: Mapping[Cell, str] = field(default_factory=dict)
    clues: Mapping[str, str] = field(default_factory=dict)
    circles: frozenset[Cell] = frozenset()
    title: str = ""
    author: str = ""
    copyright: str = ""
    notes: str = ""

    @property
    def rebus(self) -> dict[Cell, str]:
        """The cells whose answer is more than one letter."""
        return {cell: text for cell, text in self.solution.items() if len(text) > 1}

    def clue(self, slot: Slot) -> str:
        """The slot's clue, or :data:`BLANK_CLUE` when none is known."""
        return self.clues.get(slot.name) or BLANK_CLUE

    def answer(self, slot: Slot) -> str | None:
        """The slot's answer (rebus cells spelt out), or None while a cell is unknown."""
        parts = [self.solution.get(cell) for cell in slot.cells]
        return None if None in parts else "".join(p for p in parts if p)


def capitals(text: str, encoding: str = "utf-8") -> str:
    """``text`` in capitals, as puzzle files show answers, each letter that has one capital
    in ``encoding`` (ß, whose capital is SS, stays as it is; so do ÿ and µ in Latin-1):
    lower-casing gives ``text`` back."""
    out = []
    for ch in text:
        up = ch.upper()
        try:
            up.encode(encoding)
        except UnicodeEncodeError:
            up = ch
        out.append(up if len(up) == 1 and up.lower() == ch else ch)
    return "".join(out)


def drawn(grid: Grid) -> Grid:
    """The grid as drawn: a symmetric square's mirrored cells made cells of their own."""
    if not grid.symmetric:
        return grid
    return Grid.from_cells(grid.width, grid.height, grid.drawn_open(), grid.given)


def clue_order(grid: Grid) -> list[Slot]:
    """The slots in the order of a .puz clue list: by clue number, across before down."""
    numbers = grid.numbers()
    return sorted(grid.slots, key=lambda s: (numbers[s.start], s.direction != "across"))


def puzzle_of(grid: Grid, fill: list[str] | None = None, *,
              clues: Mapping[str, str] | Callable[[str], str | None] | None = None,
              circles: Iterable[Cell] = (), title: str = "", author: str = "",
              copyright: str = "", notes: str = "") -> Puzzle:
    """The puzzle of ``grid`` filled with ``fill`` (one word a slot; None: unfilled), with
    each slot's clue looked up by its word in ``clues`` (a mapping or a function)."""
    letters = grid.letters_of(fill) if fill else dict(grid.given)
    shown = drawn(grid)
    look = clues.get if isinstance(clues, Mapping) else clues
    by_slot: dict[str, str] = {}
    if fill and look is not None:
        for slot, word in zip(shown.slots, shown.words_of(letters)):
            clue = look(word)
            if clue:
                by_slot[slot.name] = clue
    open_cells = shown.cells
    circled = frozenset(circles)
    if not circled <= open_cells:
        raise PuzzleError("a circled cell is not an open cell of the grid")
    return Puzzle(shown, {cell: ch for cell, ch in letters.items() if cell in open_cells},
                  by_slot, circled, title, author, copyright, notes)
