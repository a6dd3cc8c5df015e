"""The crossword grid: cells, blocks, given letters and the slots words go in.

Rules of a fill (enforced by the engines, verified by :mod:`.check`):

* every slot holds a word of the word list, of exactly the slot's length;
* where two slots cross they share the cell, so their letters agree;
* a given (pre-filled) letter is kept;
* no word appears in two slots;
* the word rules of :mod:`.rules`, where a caller asks for them (excluded and theme
  words, shared runs of letters, lemmas).

A slot is a tuple of cells; two slots cross where they share a cell.  In a
drawn grid the slots are the maximal runs of two or more open cells across and
down (a run of one cell is no slot: that cell is unchecked).  The slot-list
format names its slots explicitly; a symmetric word square has one slot per
row whose cells are shared with the column of the same number.

Text grid format (version 1)
----------------------------
One row a line, one character a cell: ``#`` a block, ``.`` (or ``?``, ``_``)
an empty cell, a letter a given letter (any alphabet; read in NFC, so a letter
typed with a combining mark is one cell, ``e`` + U+0301 the letter ``é``, and a mark
NFC cannot join to its letter is an unknown character; stored in lower case, and it
must stay one character there: ``İ``, whose lower case is ``i`` plus a combining
dot, is refused).  A dictionary that folds ё reads a given ``ё`` as ``е``.  Lines starting
with ``;`` are comments; blank lines before and after the grid are ignored.  All rows
must have the same number of cells.

Slot-list format (version 1, the textbook filler's ``crossword.txt``)
---------------------------------------------------------------------
First line ``W H`` (width, height); then one slot a line, ``x y length dir``
with 0-based column ``x`` and row ``y`` of the first cell and ``dir`` ``h``
(across) or ``v`` (down).  Cells no slot covers are blocks.

Size limit (every format, ipuz too): width and height are at most
:data:`MAX_SIDE` (1000) cells.
"""

from __future__ import annotations

import bisect
import re
import unicodedata
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field, replace
from itertools import repeat

from ..errors import CryptocompError
from ..index.alphabet import is_any_mark, normalize
from ..numbers import MAX_WHOLE, NumberError, is_whole, read_whole, shown

__all__ = ["Cell", "Letter", "Slot", "Grid", "GridError", "parse_text", "format_text",
           "parse_slots", "format_slots", "is_slot_list", "given_letter", "check_size", "BLOCK",
           "EMPTY", "MAX_SIDE"]

Cell = tuple[int, int]  # (row, column), 0-based
Letter = str
Direction = str  # "across" | "down"

BLOCK = "#"
EMPTY = "."
_EMPTY_CHARS = frozenset(".?_")
TEXT_FORMAT = 1
SLOTS_FORMAT = 1
MAX_SIDE = 1000  # cells a side: far beyond any crossword, and drawing stays cheap
_BREAK = re.compile("\r\n|[\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029]")  # str.splitlines' breaks


class GridError(CryptocompError):
    """A grid cannot be read or cannot be filled from the given word list at all."""


def check_size(width: int, height: int, where: str = "grid") -> None:
    """Raise GridError unless 1 <= width, height <= MAX_SIDE."""
    if not (1 <= width <= MAX_SIDE and 1 <= height <= MAX_SIDE):
        raise GridError(f"{where}: bad grid size {width}x{height} (width and height must be "
                        f"1 to {MAX_SIDE})")


def given_letter(ch: str, where: str) -> Letter:
    """``ch`` as a stored given letter (NFC, lower case); GridError unless one letter."""
    letter = normalize(ch)
    if len(letter) != 1 or not letter.isalpha():
        raise GridError(f"given letter {ch!r} {where} is not a single letter "
                        f"(lower-cased it is {letter!r}, {len(letter)} characters)")
    return letter


@dataclass(frozen=True)
class Slot:
    """A place for one word: its name ("1-across"), direction and cells in reading order."""

    name: str
    direction: Direction
    cells: tuple[Cell, ...]

    @property
    def length(self) -> int:
        return len(self.cells)

    @property
    def start(self) -> Cell:
        return self.cells[0]


@dataclass
class Grid:
    """A grid of ``height`` rows and ``width`` columns with its slots and given letters.

    ``symmetric`` marks a word square whose rows are also its columns: slot ``i``
    covers cells ``(min(i, j), max(i, j))``; the drawn square is read off by
    :meth:`letters_of`.
    """

    width: int
    height: int
    slots: tuple[Slot, ...]
    given: dict[Cell, Letter] = field(default_factory=dict)
    symmetric: bool = False

    # -- construction -----------------------------------------------------------

    @classmethod
    def from_rows(cls, rows: Iterable[str]) -> Grid:
        """A drawn grid from rows of characters (see the module docstring)."""
        # NFC: a letter typed with a combining mark (e + U+0301) is one character, one cell
        table = [unicodedata.normalize("NFC", row) for row in rows]
        if not table:
            raise GridError("empty grid: no rows")
        width = len(table[0])
        check_size(width, len(table), "text grid")
        given: dict[Cell, Letter] = {}
        open_cells: set[Cell] = set()
        for r, row in enumerate(table):
            if len(row) != width:
                raise GridError(f"ragged grid: row {r + 1} has {len(row)} cells, "
                                f"row 1 has {width}")
            for c, ch in enumerate(row):
                if ch == BLOCK:
                    continue
                if ch in _EMPTY_CHARS:
                    open_cells.add((r, c))
                elif ch.isalpha():
                    open_cells.add((r, c))
                    given[(r, c)] = given_letter(ch, f"at row {r + 1}, column {c + 1}")
                else:
                    hint = "a combining mark that makes no one-character letter with the " \
                        "one before it" if is_any_mark(ch) else \
                        f"use {BLOCK} for a block, {EMPTY} for an empty cell, or a letter"
                    raise GridError(f"unknown character {ch!r} at row {r + 1}, column {c + 1} "
                                    f"({hint})")
        return cls.from_cells(width, len(table), open_cells, given)

    @classmethod
    def from_cells(cls, width: int, height: int, open_cells: Iterable[Cell],
                   given: Mapping[Cell, Letter] | None = None) -> Grid:
        """A drawn grid: slots are the maximal runs of >= 2 open cells across and down."""
        check_size(width, height)
        open_set = set(open_cells)
        runs: list[tuple[Direction, tuple[Cell, ...]]] = []
        for direction, (dr, dc) in (("across", (0, 1)), ("down", (1, 0))):
            for r in range(height):
                for c in range(width):
                    if (r, c) not in open_set or (r - dr, c - dc) in open_set:
                        continue
                    cells = []
                    rr, cc = r, c
                    while (rr, cc) in open_set:
                        cells.append((rr, cc))
                        rr, cc = rr + dr, cc + dc
                    if len(cells) >= 2:
                        runs.append((direction, tuple(cells)))
        if not runs:
            raise GridError("the grid has no slot (no run of two or more open cells)")
        letters = {(r, c): given_letter(ch, f"at row {r + 1}, column {c + 1}")
                   for (r, c), ch in (given or {}).items()}
        grid = cls(width, height, _numbered(runs), letters)
        grid._check()
        return grid

    @classmethod
    def from_slot_specs(cls, width: int, height: int,
                        specs: Iterable[tuple[int, int, int, str]]) -> Grid:
        """A grid from explicit ``(x, y, length, 'h'|'v')`` slots (the slot-list format)."""
        check_size(width, height, "slot list")
        runs: list[tuple[Direction, tuple[Cell, ...]]] = []
        # per (direction, row or column): the slots on it as sorted (first, last, number);
        # every check is on these numbers, before any slot's cells are listed
        lines: dict[tuple[str, int], list[tuple[int, int, int]]] = {}
        for n, (x, y, length, d) in enumerate(specs, 1):
            if d not in ("h", "v"):
                raise GridError(f"slot {n}: direction {d!r} is not h or v")
            if length < 1:
                raise GridError(f"slot {n}: length {length} is not positive")
            end_x, end_y = (x + length - 1, y) if d == "h" else (x, y + length - 1)
            if not (x >= 0 and y >= 0 and end_x < width and end_y < height):
                raise GridError(f"slot {n} ({x} {y} {length} {d}) leaves the "
                                f"{width}x{height} grid")
            first, line = (x, y) if d == "h" else (y, x)
            taken = lines.setdefault((d, line), [])
            k = bisect.bisect_left(taken, (first,))
            # the earlier slot holding this slot's first covered cell, as a cell by cell
            # check would name it: the one before, if it reaches in, else the one after
            if k and taken[k - 1][1] >= first:
                raise GridError(f"slot {n} overlaps slot {taken[k - 1][2]} in the same direction")
            if k < len(taken) and taken[k][0] <= first + length - 1:
                raise GridError(f"slot {n} overlaps slot {taken[k][2]} in the same direction")
            taken.insert(k, (first, first + length - 1, n))
            cells = tuple(zip(repeat(y), range(x, x + length))) if d == "h" else \
                tuple(zip(range(y, y + length), repeat(x)))
            runs.append(("across" if d == "h" else "down", cells))
        if not runs:
            raise GridError("the slot list has no slot")
        grid = cls(width, height, _numbered(runs), {})
        grid._check()
        return grid

    # -- views ------------------------------------------------------------------

    @property
    def cells(self) -> set[Cell]:
        """The open cells (covered by some slot, or given)."""
        out = {cell for slot in self.slots for cell in slot.cells}
        out.update(self.given)
        return out

    def is_block(self, cell: Cell) -> bool:
        return cell not in self.cells

    def crossings(self) -> list[tuple[int, int, int, int]]:
        """Every crossing as ``(slot a, position in a, slot b, position in b)``, a < b."""
        where: dict[Cell, list[tuple[int, int]]] = {}
        for s, slot in enumerate(self.slots):
            for p, cell in enumerate(slot.cells):
                where.setdefault(cell, []).append((s, p))
        out = []
        for places in where.values():
            for i in range(len(places)):
                for j in range(i + 1, len(places)):
                    (a, pa), (b, pb) = places[i], places[j]
                    out.append((a, pa, b, pb))
        return sorted(out)

    def numbers(self) -> dict[Cell, int]:
        """Clue numbers: the start cells of slots, numbered in reading order."""
        starts = sorted({slot.start for slot in self.slots})
        return {cell: n for n, cell in enumerate(starts, 1)}

    def words_of(self, letters: Mapping[Cell, Letter]) -> list[str]:
        """The word in each slot (``.`` where a cell has no letter), in slot order."""
        return ["".join(letters.get(cell, EMPTY) for cell in slot.cells) for slot in self.slots]

    def letters_of(self, words: Iterable[str]) -> dict[Cell, Letter]:
        """The drawn letters of one word per slot (a symmetric square is mirrored out)."""
        letters: dict[Cell, Letter] = dict(self.given)
        for slot, word in zip(self.slots, words):
            for cell, ch in zip(slot.cells, word):
                if ch != EMPTY:
                    letters[cell] = ch
        if self.symmetric:
            letters.update({(c, r): ch for (r, c), ch in list(letters.items())})
        return letters

    def spelt(self, *, fold_yo: bool) -> Grid:
        """The grid with its given letters in the spelling of a dictionary (``fold_yo``: one
        that folds ё into е)."""
        if not fold_yo or "ё" not in self.given.values():
            return self
        return replace(self, given={cell: normalize(ch, fold_yo=True)
                                    for cell, ch in self.given.items()})

    def drawn_open(self) -> set[Cell]:
        """The open cells as drawn (both triangles of a symmetric square)."""
        cells = self.cells
        if self.symmetric:
            cells |= {(c, r) for r, c in cells}
        return cells

    def _check(self) -> None:
        """Invariants: cells inside, slot names unique, slots sorted, given cells open."""
        names = [s.name for s in self.slots]
        assert len(set(names)) == len(names), "duplicate slot names"
        for slot in self.slots:
            assert slot.length >= 1
            # by whole rows of numbers, not cell by cell: a 1000x1000 grid has 2M cells
            rows, columns = zip(*slot.cells)
            assert _run(rows, columns) or _run(columns, rows) or \
                len(set(slot.cells)) == slot.length, f"{slot.name} repeats a cell"
            assert min(rows) >= 0 and max(rows) < self.height and min(columns) >= 0 and \
                max(columns) < self.width, f"{slot.name} leaves the grid"
        for (r, c), ch in self.given.items():
            # inside the grid (a given letter in an unchecked lone cell is allowed in drawn grids)
            assert 0 <= r < self.height and 0 <= c < self.width
            assert len(ch) == 1 and ch == normalize(ch), f"bad given letter {ch!r}"
        assert 1 <= self.width <= MAX_SIDE and 1 <= self.height <= MAX_SIDE


def _run(fixed: tuple[int, ...], moving: tuple[int, ...]) -> bool:
    """Whether cells of these rows and columns (or columns and rows) are a straight run."""
    return len(set(fixed)) == 1 and moving == tuple(range(moving[0], moving[0] + len(moving)))


def _numbered(runs: list[tuple[Direction, tuple[Cell, ...]]]) -> tuple[Slot, ...]:
    """Name runs by the usual numbering: start cells numbered in reading order."""
    starts = sorted({cells[0] for _, cells in runs})
    number = {cell: n for n, cell in enumerate(starts, 1)}
    slots = [Slot(f"{number[cells[0]]}-{d}", d, cells) for d, cells in runs]
    # across before down, then by number: the order of a printed clue list
    slots.sort(key=lambda s: (s.direction != "across", number[s.start]))
    return tuple(slots)


# -- text formats -------------------------------------------------------------------

def _lines(text: str) -> Iterator[str]:
    """The lines of ``text`` as :meth:`str.splitlines` cuts them, one at a time: a file's
    size is checked as it is read, and a crafted one is not split into millions of lines."""
    start = 0
    for m in _BREAK.finditer(text):
        yield text[start:m.start()]
        start = m.end()
    if start < len(text):
        yield text[start:]


def parse_text(text: str) -> Grid:
    """A grid from the text format (see the module docstring)."""
    rows: list[str] = []
    width = height = 0  # of the rows seen; one past MAX_SIDE ends the reading
    blank = False  # a blank line after a row: the next row is inside the grid
    for line in _lines(text):
        line = line.strip()
        if line.startswith(";"):
            continue
        if not line:
            blank = blank or height > 0
            continue
        if blank:
            raise GridError(f"blank line inside the grid (line {height + 1})")
        height += 1
        width = width or len(line)
        if height > MAX_SIDE:  # the rest is not read: a crafted file may have millions
            raise GridError(f"text grid: bad grid size {width}x{height} or taller (width and "
                            f"height must be 1 to {MAX_SIDE})")
        if width <= MAX_SIDE:
            rows.append(line)
    if not height:
        raise GridError("empty grid: no rows")
    check_size(width, height, "text grid")
    return Grid.from_rows(rows)


def format_text(grid: Grid, letters: Mapping[Cell, Letter] | None = None) -> str:
    """The grid in the text format, with ``letters`` (else the given letters) written in."""
    letters = grid.letters_of([]) if letters is None else letters
    open_cells = grid.drawn_open()
    rows = []
    for r in range(grid.height):
        rows.append("".join(letters.get((r, c), EMPTY) if (r, c) in open_cells else BLOCK
                            for c in range(grid.width)))
    return "\n".join(rows) + "\n"


def parse_slots(text: str) -> Grid:
    """A grid from the slot-list format (see the module docstring)."""
    lines = ((n, line.split()) for n, line in enumerate(_lines(text), 1) if line.strip())
    n, head = next(lines, (0, []))
    if not n:
        raise GridError("empty slot list")
    if len(head) != 2 or not all(is_whole(t, grouped=False) for t in head):
        raise GridError(f"line {n}: expected 'W H' (width and height), got {' '.join(head)!r}")
    width, height = _int(head[0], n), _int(head[1], n)
    check_size(width, height, f"line {n}")
    # each cell lies in at most one slot a direction, so the slots' cells add up to at most
    # 2 W H: past that, slots overlap (or are bad); counted as the lines are read, so that
    # the list never grows past the grid (a bad slot counts a cell, a long one a side)
    room = 2 * width * height
    specs = []
    for n, parts in lines:
        if len(parts) != 4 or not all(is_whole(t, grouped=False) for t in parts[:3]) \
                or parts[3] not in ("h", "v"):
            raise GridError(f"line {n}: expected 'x y length h|v', got {' '.join(parts)!r}")
        x, y, length = (_int(t, n) for t in parts[:3])
        room -= min(max(length, 1), width if parts[3] == "h" else height)
        if room < 0:
            raise GridError(f"line {n}: more slots than the {width}x{height} grid holds (their "
                            f"cells across and down add up to more than {2 * width * height:,})")
        specs.append((x, y, length, parts[3]))
    return Grid.from_slot_specs(width, height, specs)


def _int(token: str, n: int) -> int:
    """A slot list's number on line ``n`` (ASCII digits, checked), within 64 bits."""
    try:
        return read_whole(token, -MAX_WHOLE, MAX_WHOLE, grouped=False)
    except NumberError:
        raise GridError(f"line {n}: the number {shown(token)} is out of range (a grid is at "
                        f"most {MAX_SIDE} cells a side)") from None


def format_slots(grid: Grid) -> str:
    """The grid's slots in the slot-list format (given letters are not part of it)."""
    if grid.symmetric:
        raise GridError("a symmetric square has no slot-list form")
    out = [f"{grid.width} {grid.height}"]
    for slot in grid.slots:
        r, c = slot.start
        out.append(f"{c} {r} {slot.length} {'h' if slot.direction == 'across' else 'v'}")
    return "\n".join(out) + "\n"


def is_slot_list(text: str) -> bool:
    """Whether ``text`` is in the slot-list format (its first line is ``W H``)."""
    first = next((line.split() for line in _lines(text) if line.strip()), [])
    return len(first) == 2 and all(is_whole(t, grouped=False) for t in first)
