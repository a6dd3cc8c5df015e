"""Crossword and word-square pages: the grid with its numbers, the clue lists, the solution.

Two layouts (:data:`LAYOUTS`):

* ``puzzle`` -- the grid with its clue numbers, the Across and Down lists under it in
  columns (running on to further pages when long), then the solution grid on a page of its
  own: what a solver is handed;
* ``submission`` -- the shape newspapers ask a constructor for: the empty numbered grid on
  the first page, then the numbered clues with each answer on the right, then the solution.

A clue comes from the ``word -> clue`` mapping given; a word without one is printed as the
language's "[clue needed]" (grey), so that the author sees what is left to write.  Each
clue ends with its answer's length, as newspapers print it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ..crossword.grid import EMPTY, Cell, Grid, Letter
from .choices import LAYOUTS, PageError, check_printable
from .document import Document, text_width
from .typography import curly, label, language_of, wrap

if TYPE_CHECKING:
    from ..arrow.clues import ClueBook

__all__ = ["ClueEntry", "clue_entries", "crossword_pdf", "book_clues", "shipped_clues"]

_MAX_CELL = 30.0  # points: a cell larger than this makes a small grid look like a toy
_CLUE_SIZE = 9.0
_LEAD = 11.0
_GUTTER = 18.0  # points for a clue's number
_COLUMN_GAP = 14.0


@dataclass(frozen=True)
class ClueEntry:
    """One clue of a list: its number and direction, the clue (None: not written yet) and
    the answer (``.`` where no letter is known)."""

    number: int
    direction: str
    clue: str | None
    answer: str


def _drawn(grid: Grid, fill: Sequence[str] | None) -> tuple[Grid, list[str] | None]:
    """The grid as drawn (a symmetric square's rows and columns as slots of their own) and
    the fill's words in its slots."""
    if not grid.symmetric:
        return grid, list(fill) if fill else None
    letters = grid.letters_of(fill) if fill else dict(grid.given)
    drawn = Grid.from_cells(grid.width, grid.height, grid.drawn_open(), grid.given)
    return drawn, drawn.words_of(letters) if fill else None


def clue_entries(grid: Grid, fill: Sequence[str] | None,
                 clues: Mapping[str, str] | None = None) -> list[ClueEntry]:
    """The clue lists of a (drawn) grid: Across then Down, by number."""
    numbers = grid.numbers()
    out = []
    for k, slot in enumerate(grid.slots):
        word = fill[k] if fill else EMPTY * slot.length
        clue = (clues or {}).get(word) if fill else None
        out.append(ClueEntry(numbers[slot.start], slot.direction, clue or None, word))
    return sorted(out, key=lambda e: (e.direction != "across", e.number))


def _cell_size(grid: Grid, width: float, height: float) -> float:
    """The largest cell (up to the cap) with which the grid fits ``width`` x ``height``."""
    return min(_MAX_CELL, width / grid.width, height / grid.height)


def _draw_grid(doc: Document, grid: Grid, letters: Mapping[Cell, Letter] | None,
               x0: float, top: float, cell: float) -> float:
    """The grid with its numbers (and ``letters``) hanging from ``top``; the y under it."""
    c = doc.canvas
    numbers = grid.numbers()
    open_cells = grid.cells
    c.setLineWidth(0.6)
    for r in range(grid.height):
        for col in range(grid.width):
            x, y = x0 + col * cell, top - (r + 1) * cell
            if (r, col) not in open_cells:
                c.rect(x, y, cell, cell, stroke=1, fill=1)
                continue
            c.rect(x, y, cell, cell, stroke=1, fill=0)
            n = numbers.get((r, col))
            if n is not None:
                doc.text(x + cell * 0.06, y + cell * 0.72, str(n), cell * 0.26)
            ch = (letters or {}).get((r, col))
            if ch and ch != EMPTY:
                doc.text(x + cell / 2, y + cell * 0.2, ch.upper(), cell * 0.55, bold=True,
                         align="centre")
    c.setLineWidth(1.6)
    c.rect(x0, top - grid.height * cell, grid.width * cell, grid.height * cell, stroke=1,
           fill=0)
    c.setLineWidth(0.6)
    return top - grid.height * cell


def _clue_text(entry: ClueEntry, language: str) -> tuple[str, bool]:
    """The clue as printed (with the answer's length) and whether it is still blank."""
    length = f"({len(entry.answer)})"
    if entry.clue is None:
        return f"{label(language, 'clue_needed')} {length}", True
    return f"{curly(entry.clue, language)} {length}", False


@dataclass
class _Columns:
    """Columns text runs down, page after page: how many, their top, the pen."""

    doc: Document
    count: int
    top: float
    column: int = 0
    y: float = field(init=False)  # the pen: where the next line hangs from

    def __post_init__(self) -> None:
        self.y = self.top

    @property
    def width(self) -> float:
        return (self.doc.usable_width - _COLUMN_GAP * (self.count - 1)) / self.count

    def room(self, height: float) -> None:
        """Move to the next column (or page) unless ``height`` fits under the pen."""
        if self.y - height >= self.doc.bottom:
            return
        self.column += 1
        if self.column >= self.count:
            self.doc.new_page()
            self.column, self.top = 0, self.doc.top
        self.y = self.top

    @property
    def x(self) -> float:
        return self.doc.left + self.column * (self.width + _COLUMN_GAP)


def _flow_clues(doc: Document, entries: list[ClueEntry], top: float, language: str,
                columns: int) -> None:
    """The Across and Down lists in ``columns`` columns from ``top``."""
    flow = _Columns(doc, columns, top)

    def measure(s: str) -> float:
        return text_width(s, _CLUE_SIZE)

    for direction in ("across", "down"):
        group = [e for e in entries if e.direction == direction]
        if not group:
            continue
        flow.room(_LEAD * 3.2)
        if flow.y != flow.top:
            flow.y -= _LEAD * 0.6
        doc.text(flow.x, flow.y - _LEAD, label(language, direction), 11, bold=True)
        flow.y -= _LEAD * 1.6
        for entry in group:
            text, blank = _clue_text(entry, language)
            lines = wrap(text, flow.width - _GUTTER, measure)
            flow.room(_LEAD * len(lines))
            doc.text(flow.x + _GUTTER - 4, flow.y - _LEAD + 2, str(entry.number), _CLUE_SIZE,
                     bold=True, align="right")
            for line in lines:
                flow.y -= _LEAD
                doc.text(flow.x + _GUTTER, flow.y + 2, line, _CLUE_SIZE, grey=blank)


def _submission_clues(doc: Document, entries: list[ClueEntry], top: float,
                      language: str) -> None:
    """Numbered clues down the page, each answer on the right."""
    answer_w = max([text_width(e.answer.upper(), _CLUE_SIZE, bold=True) for e in entries]
                   + [60.0]) + 10
    clue_w = doc.usable_width - _GUTTER - answer_w

    def measure(s: str) -> float:
        return text_width(s, _CLUE_SIZE)

    y = top
    for direction in ("across", "down"):
        group = [e for e in entries if e.direction == direction]
        if not group:
            continue
        if y - _LEAD * 4 < doc.bottom:
            doc.new_page()
            y = doc.top
        doc.text(doc.left, y - _LEAD, label(language, direction).upper(), 11, bold=True)
        y -= _LEAD * 2
        for entry in group:
            text, blank = _clue_text(entry, language)
            lines = wrap(text, clue_w, measure)
            if y - _LEAD * len(lines) < doc.bottom:
                doc.new_page()
                y = doc.top
            doc.text(doc.left + _GUTTER - 4, y - _LEAD + 2, str(entry.number), _CLUE_SIZE,
                     bold=True, align="right")
            doc.text(doc.right, y - _LEAD + 2, entry.answer.upper(), _CLUE_SIZE, bold=True,
                     align="right")
            for line in lines:
                y -= _LEAD
                doc.text(doc.left + _GUTTER, y + 2, line, _CLUE_SIZE, grey=blank)
            y -= _LEAD * 0.25
        y -= _LEAD


def _grid_page(doc: Document, grid: Grid, letters: Mapping[Cell, Letter] | None, title: str,
               share: float) -> float:
    """A title and the grid, centred, taking at most ``share`` of the page's height; the y
    under it."""
    y = doc.heading(title, doc.top)
    cell = _cell_size(grid, doc.usable_width, (y - doc.bottom) * share)
    x0 = doc.left + (doc.usable_width - grid.width * cell) / 2
    return _draw_grid(doc, grid, letters, x0, y, cell)


def crossword_pdf(grid: Grid, fill: Sequence[str] | None = None, *,
                  clues: Mapping[str, str] | None = None, title: str = "",
                  layout: str = "puzzle", paper: str = "a4") -> bytes:
    """The PDF of a grid (and its ``fill``, one word a slot: the clue lists' answers and
    the solution page) in ``layout`` on ``paper``; clues from ``clues`` (word -> clue)."""
    if layout not in LAYOUTS:
        raise PageError(f"unknown layout {layout!r} (expected one of {', '.join(LAYOUTS)})")
    check_printable(grid.width, grid.height)
    drawn, words = _drawn(grid, fill)
    entries = clue_entries(drawn, words, clues)
    language = language_of([e.answer for e in entries] + list(grid.given.values()))
    title = title or label(language, "puzzle")
    doc = Document(paper, title)
    given = dict(grid.given) if not grid.symmetric else {
        cell: ch for cell, ch in grid.letters_of([]).items()}
    if layout == "puzzle":
        under = _grid_page(doc, drawn, given, title, 0.58)
        columns = 3 if doc.usable_width >= 420 else 2
        _flow_clues(doc, entries, under - _LEAD * 1.5, language, columns)
    else:
        _grid_page(doc, drawn, given, title, 0.9)
        doc.new_page()
        y = doc.heading(title, doc.top)
        _submission_clues(doc, entries, y, language)
    if words:
        doc.new_page()
        letters = drawn.letters_of(words)
        _grid_page(doc, drawn, letters, f"{title}: {label(language, 'solution').lower()}", 0.9)
    return doc.finish()



def book_clues(words: Sequence[str], book: ClueBook) -> dict[str, str]:
    """word -> the clue ``book`` prints for it, for the words it has one for (no clue
    printed twice while another is left)."""
    out: dict[str, str] = {}
    for word in dict.fromkeys(words):
        try:
            out[word] = book.pick(word, avoid=set(out.values()))
        except KeyError:
            continue
    return out


def shipped_clues(words: Sequence[str]) -> dict[str, str]:
    """word -> a clue from the shipped WordNet clue file, for English words (none for
    another language's: the file is English)."""
    if not words or language_of(words) != "en":
        return {}
    from ..arrow.clues import load_clues

    return book_clues(words, load_clues("wordnet"))
