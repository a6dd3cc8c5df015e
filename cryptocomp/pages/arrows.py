"""Arrow-word pages: a puzzle a page, as a publisher prints it, then the solutions.

A puzzle page holds the grid: clue cells (shaded) carry their clues, wrapped and set as
large as fits (a cell defining two words is split, the across clue above, the down clue
below; without clues, ``--clues none``, the cell's number), an arrow in the first letter cell
of each word points from its clue; hidden-solution cells are shaded yellow and numbered in
reading order, and numbered boxes for the hidden phrase, grouped by its words, sit under the
grid.  After every puzzle page come the solution pages, one a puzzle: the letters written
in, the boxes filled, the phrase in the language's quotation marks, and for an unclued
puzzle the list of its answers (for the author writing the clues).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from ..arrow.puzzle import ArrowPuzzle, ArrowWord
from ..arrow.svg import solution_layout
from .choices import PageError
from .document import REGULAR, Document, text_width
from .typography import label, language_of, quoted, wrap

__all__ = ["arrow_pdf", "fit_clue"]

_MAX_CELL = 56.0  # points: larger cells leave a small grid's clues floating in space
_CLUE_FILL = (0.86, 0.90, 0.95)
_DEAD_FILL = (0.73, 0.78, 0.85)
_HIDDEN_FILL = (1.0, 0.88, 0.54)
_HIDDEN_INK = (0.48, 0.32, 0.0)
_LARGEST, _SMALLEST = 8.0, 4.0  # points: the clue sizes tried, largest first
_WHOLE = 5.5  # points: the smallest size worth keeping every word of a clue whole for
_LEAD = 1.1  # line height, in font sizes


def fit_clue(text: str, width: float, height: float) -> tuple[float, list[str]]:
    """(size, lines): the largest size (down to :data:`_WHOLE`) at which ``text`` fits the
    box in whole words; failing that, the largest at which it fits with words broken where
    wider than a line, then broken to fill the lines; at worst the smallest size."""
    def measure(size: float) -> Callable[[str], float]:
        return lambda s: text_width(s, size)

    for smallest, eager in ((_WHOLE, None), (_SMALLEST, False), (_SMALLEST, True)):
        size = _LARGEST
        while size >= smallest:
            fits = measure(size)
            whole = eager is not None or all(fits(w) <= width for w in text.split())
            lines = wrap(text, width, fits, eager=bool(eager)) if whole else []
            if whole and len(lines) * size * _LEAD <= height:
                return size, lines
            size -= 0.5
    return _SMALLEST, wrap(text, width, measure(_SMALLEST), eager=True)


def _solution_boxes(puzzle: ArrowPuzzle, per_row: int) -> list[tuple[int, int]]:
    """(row, column) of each hidden-solution box, laid out as the SVG lays them out."""
    if puzzle.hidden is None:
        return []
    return solution_layout(puzzle.hidden.phrase.split(), True, per_row)


class _Page:
    """One puzzle drawn on a page: the geometry its cells are placed by."""

    def __init__(self, doc: Document, puzzle: ArrowPuzzle, top: float, room: float):
        self.doc, self.puzzle = doc, puzzle
        self.cell = min(_MAX_CELL, doc.usable_width / puzzle.width, room / puzzle.height)
        self.x0 = doc.left + (doc.usable_width - puzzle.width * self.cell) / 2
        self.top = top

    def corner(self, r: int, c: int) -> tuple[float, float]:
        """The lower left corner of cell (r, c)."""
        return self.x0 + c * self.cell, self.top - (r + 1) * self.cell

    def clue_cell(self, r: int, c: int, numbers: dict) -> None:
        """A clue cell with its one or two clues and the arrows of their words."""
        doc, cell = self.doc, self.cell
        x, y = self.corner(r, c)
        defined = self.puzzle.clues_at((r, c))
        doc.canvas.setFillColorRGB(*(_CLUE_FILL if defined else _DEAD_FILL))
        doc.canvas.rect(x, y, cell, cell, stroke=1, fill=1)
        doc.reset_ink()
        parts = [(0.0, cell)] if len(defined) <= 1 else [(0.0, cell / 2), (cell / 2, cell / 2)]
        if len(defined) == 2:
            doc.canvas.line(x, y + cell / 2, x + cell, y + cell / 2)
        for word, (offset, h) in zip(defined, parts):
            text = word.clue if word.clue is not None else str(numbers[(r, c)])
            if word.clue is None and len(defined) == 2:
                text += "→" if word.direction == "across" else "↓"
            size, lines = fit_clue(text, cell - 3, h - 1.5)
            lead = size * _LEAD
            base = y + cell - offset - (h - lead * len(lines)) / 2 - size * 0.85
            for i, line in enumerate(lines):
                doc.text(x + cell / 2, base - i * lead, line, size, align="centre")
            self.arrow(word, offset + h / 2 if len(defined) == 2 else None)

    def arrow(self, word: ArrowWord, centre: float | None) -> None:
        """A small filled triangle in the word's first cell, at the edge next to its clue
        (``centre``: the height in a split clue cell the across clue stands at)."""
        x, y = self.corner(word.row, word.col)
        cell, s = self.cell, self.cell * 0.11
        path = self.doc.canvas.beginPath()
        if word.direction == "across":
            cy = y + cell - (centre if centre is not None else cell / 2)
            points = [(x, cy + s), (x + s * 1.2, cy), (x, cy - s)]
        else:
            cx = x + cell / 2
            points = [(cx - s, y + cell), (cx, y + cell - s * 1.2), (cx + s, y + cell)]
        path.moveTo(*points[0])
        for p in points[1:]:
            path.lineTo(*p)
        path.close()
        self.doc.canvas.drawPath(path, stroke=0, fill=1)

    def letter_cell(self, r: int, c: int, hidden: dict, solution: bool) -> None:
        """A letter cell: white, or shaded and numbered for the hidden solution."""
        doc, cell = self.doc, self.cell
        x, y = self.corner(r, c)
        if (r, c) in hidden:
            doc.canvas.setFillColorRGB(*_HIDDEN_FILL)
            doc.canvas.rect(x, y, cell, cell, stroke=1, fill=1)
            doc.canvas.setFillColorRGB(*_HIDDEN_INK)
            doc.canvas.setFont(REGULAR, cell * 0.2)
            doc.canvas.drawRightString(x + cell - 2, y + 2.5, str(hidden[(r, c)]))
            doc.reset_ink()
        else:
            doc.canvas.rect(x, y, cell, cell, stroke=1, fill=0)
        if solution:
            doc.text(x + cell / 2, y + cell * 0.3, self.puzzle.grid[r][c].upper(), cell * 0.5,
                     bold=True, align="centre")

    def grid(self, solution: bool) -> float:
        """Every cell and the frame; the y under the grid."""
        puzzle, c = self.puzzle, self.doc.canvas
        numbers = puzzle.numbers()
        hidden = {cell: i for i, cell in enumerate(puzzle.hidden.cells, 1)} \
            if puzzle.hidden else {}
        c.setLineWidth(0.6)
        letters = [(r, col) for r in range(puzzle.height) for col in range(puzzle.width)
                   if puzzle.grid[r][col] != "#"]
        for r, col in letters:
            self.letter_cell(r, col, hidden, solution)
        for r in range(puzzle.height):
            for col in range(puzzle.width):
                if puzzle.grid[r][col] == "#":
                    self.clue_cell(r, col, numbers)
        c.setLineWidth(1.8)
        x, y = self.corner(puzzle.height - 1, 0)
        c.rect(x, y, puzzle.width * self.cell, puzzle.height * self.cell, stroke=1, fill=0)
        c.setLineWidth(0.6)
        return y

    def boxes(self, y: float, solution: bool, language: str) -> float:
        """The numbered hidden-solution boxes under the grid; the y under them."""
        puzzle, doc = self.puzzle, self.doc
        if puzzle.hidden is None:
            return y
        box = min(self.cell * 0.62, 22.0)
        per_row = max(1, int(doc.usable_width // (box * 1.1)))
        places = _solution_boxes(puzzle, per_row)
        letters = [puzzle.grid[r][c].upper() for r, c in puzzle.hidden.cells]
        y -= 16
        doc.text(doc.left, y, f"{label(language, 'hidden')}: "
                              f"{label(language, 'hidden_hint')}", 9)
        y -= 6
        for k, (row, col) in enumerate(places):
            bx, by = doc.left + col * box * 1.1, y - (row + 1) * box * 1.25
            doc.canvas.rect(bx, by, box, box, stroke=1, fill=0)
            doc.canvas.setFillColorRGB(*_HIDDEN_INK)
            doc.canvas.setFont(REGULAR, box * 0.24)
            doc.canvas.drawString(bx + 1.5, by + box * 0.74, str(k + 1))
            doc.reset_ink()
            if solution and k < len(letters):
                doc.text(bx + box / 2, by + box * 0.2, letters[k], box * 0.55, bold=True,
                         align="centre")
        rows = (max(r for r, _ in places) + 1) if places else 0
        y -= rows * box * 1.25
        if solution:
            y -= 16
            doc.text(doc.left, y, quoted(puzzle.hidden.phrase, language), 11, bold=True)
        return y


def _answers(doc: Document, puzzle: ArrowPuzzle, y: float) -> None:
    """'12→ WORD' for every word by clue-cell number, in columns under ``y``."""
    numbers = puzzle.numbers()
    words = sorted(puzzle.words, key=lambda w: (numbers[w.clue_cell], w.direction != "across"))
    lines = [f"{numbers[w.clue_cell]}{'→' if w.direction == 'across' else '↓'} "
             f"{w.word.upper()}" for w in words]
    columns = max(1, int(doc.usable_width // 120))
    per_column = max(1, int((y - 20 - doc.bottom) // 11))
    step = doc.usable_width / columns
    for k, line in enumerate(lines[:columns * per_column]):
        col, row = divmod(k, per_column)
        doc.text(doc.left + col * step, y - 20 - row * 11, line, 8.5)


def _reserve(puzzle: ArrowPuzzle, doc: Document, solution: bool) -> float:
    """The height kept under the grid: the hidden-solution boxes, the phrase, the answers."""
    kept = 0.0
    if puzzle.hidden is not None:
        kept += 70.0
    if solution and any(w.clue is None for w in puzzle.words):
        columns = max(1, int(doc.usable_width // 120))
        kept += 30 + 11 * -(-len(puzzle.words) // columns)
    return kept


def _page(doc: Document, puzzle: ArrowPuzzle, title: str, solution: bool,
          language: str) -> None:
    """One puzzle (or its solution) on the current page."""
    y = doc.heading(title, doc.top)
    room = y - doc.bottom - _reserve(puzzle, doc, solution)
    page = _Page(doc, puzzle, y, room)
    under = page.boxes(page.grid(solution), solution, language)
    if solution and any(w.clue is None for w in puzzle.words):
        _answers(doc, puzzle, under)


def arrow_pdf(puzzles: Sequence[ArrowPuzzle], *, paper: str = "a4",
              title: str = "") -> bytes:
    """One PDF of ``puzzles``: a page each, then a solution page each."""
    if not puzzles:
        raise PageError("no arrow-word puzzle to print")
    language = language_of(p.reading() for p in puzzles)
    name = title or label(language, "arrow")
    doc = Document(paper, name)
    many = len(puzzles) > 1
    for i, puzzle in enumerate(puzzles):
        if i:
            doc.new_page()
        _page(doc, puzzle, f"{name} {i + 1}" if many else name, False, language)
    for i, puzzle in enumerate(puzzles):
        doc.new_page()
        heading = f"{name} {i + 1}" if many else name
        _page(doc, puzzle, f"{heading}: {label(language, 'solution').lower()}", True, language)
    return doc.finish()
