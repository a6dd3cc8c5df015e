"""Published puzzles the .puz and .jpz tests share: a hypothesis strategy over every shape
the grid model allows (blocks or none, 1 to 12 cells a side, rectangular, given letters,
rebus cells, unknown answers, circles, clues or none)."""

from __future__ import annotations

from hypothesis import assume
from hypothesis import strategies as st

from cryptocomp.crossword.grid import Grid, GridError
from cryptocomp.crossword.puzzle import BLANK_CLUE, Puzzle

__all__ = ["puzzles", "LATIN", "latin_text"]

LATIN = "abcdefghijklmnopqrstuvwxyzéñüçøåß"  # ß has no one capital: it stays as it is
# printable Latin-1 text: the .puz 1.3 encoding (clues may still be any text: see the tests)
latin_text = st.text(st.characters(min_codepoint=0x20, max_codepoint=0xFF,
                                   blacklist_categories=("Cc",)), max_size=30)


@st.composite
def puzzles(draw, text=latin_text, letters=LATIN, max_side=12) -> Puzzle:
    """A random puzzle (see the module docstring)."""
    height, width = draw(st.integers(1, max_side)), draw(st.integers(1, max_side))
    block_share = draw(st.sampled_from([0.0, 0.15, 0.4]))
    open_cells = [(r, c) for r in range(height) for c in range(width)
                  if draw(st.floats(0, 1)) >= block_share]
    letter = st.sampled_from(letters)
    given = {cell: draw(letter) for cell in open_cells if draw(st.integers(0, 9)) == 0}
    try:
        grid = Grid.from_cells(width, height, open_cells, given)
    except GridError:
        assume(False)
        raise
    solution = {}
    for cell in sorted(grid.cells):
        kind = draw(st.integers(0, 9))
        if kind == 0:
            continue  # an unknown answer
        solution[cell] = "".join(draw(st.lists(letter, min_size=2, max_size=4))) \
            if kind == 1 else draw(letter)
    clues = {}
    for slot in grid.slots:
        clue = draw(text).strip() if draw(st.booleans()) else ""
        if clue and clue != BLANK_CLUE:
            clues[slot.name] = clue
    circles = frozenset(c for c in grid.cells if draw(st.integers(0, 5)) == 0)
    words = [draw(text).strip() for _ in range(4)]
    return Puzzle(grid, solution, clues, circles, *words)
