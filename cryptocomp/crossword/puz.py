"""Across Lite .puz (version 1.3, or 2.0 for UTF-8 text): writing and reading puzzles.

Layout (all numbers little-endian): a 52-byte header -- overall checksum, the magic
``ACROSS&DOWN\\0``, the CIB checksum (of the 8 bytes from width on), the masked low and
high checksums (``ICHEATED`` xor'ed with the CIB, solution, state and text checksums),
the version ``1.3\\0``, width and height (one byte each, so at most :data:`MAX_PUZ_SIDE`),
the number of clues, puzzle type 1 and scrambled tag 0; then the solution (one byte a
cell, ``.`` a block), the state a solver sees (``-`` an empty cell, the grid's given
letters filled in), the NUL-terminated title, author, copyright, clues (by clue number,
across before down) and notes; then extension sections (code, length, checksum, data,
NUL): ``GEXT`` (``0x80`` a circled cell), ``GRBS`` (0, or 1 + the rebus key of the
cell) and ``RTBL`` (`` k:TEXT;`` for each rebus key ``k``).

Encoding: version 1.3 text is ISO-8859-1 (Latin-1) and a cell is one byte.  When some
text (a clue, the title) is not Latin-1 but every cell's letter is ASCII, version 2.0 is
written, whose text is UTF-8.  A letter a byte cannot hold (Cyrillic, Greek) cannot be
written: a one-line :class:`PuzzleError` names its cell (ipuz and .jpz hold any letter).
A cell with no known answer is written ``-`` in the solution (Across Lite shows it as
unchecked); an unclued slot gets :data:`~.puzzle.BLANK_CLUE`.

Reading checks the magic, the version (1.x or 2.x), the sizes against the file's length,
all four checksums and each section's checksum, and refuses a scrambled (locked) solution;
every problem is one line with the byte offset.
"""

from __future__ import annotations

import struct
from collections.abc import Iterator, Mapping
from typing import NamedTuple

from .grid import Cell, Grid, GridError, given_letter
from .puzzle import BLANK_CLUE, Puzzle, PuzzleError, capitals, clue_order

__all__ = ["to_puz", "parse_puz", "checksum", "MAX_PUZ_SIDE"]

MAGIC = b"ACROSS&DOWN\0"
HEADER = struct.Struct("<H12sHII4s2sH12sBBHHH")
MAX_PUZ_SIDE = 255  # width and height are one byte each
BLOCK, UNKNOWN = ".", "-"
CIRCLED = 0x80
LATIN1, UTF8 = "iso-8859-1", "utf-8"


class Header(NamedTuple):
    """The fields of the 52-byte header, in file order."""

    overall: int
    magic: bytes
    cib: int
    masked_low: int
    masked_high: int
    version: bytes
    reserved: bytes
    scrambled_sum: int
    reserved2: bytes
    width: int
    height: int
    clues: int
    kind: int
    scrambled: int


def checksum(data: bytes, start: int = 0) -> int:
    """The .puz checksum of ``data``: rotate the 16 bits right, add the byte."""
    value = start
    for byte in data:
        value = ((value >> 1) | ((value & 1) << 15)) + byte & 0xFFFF
    return value


def _text_sum(strings: list[bytes], clues: list[bytes], notes: bytes, start: int) -> int:
    """The checksum of the text: title, author, copyright (each with its NUL when not
    empty), the clues (without), the notes (with its NUL when not empty)."""
    value = start
    for s in strings:
        if s:
            value = checksum(s + b"\0", value)
    for clue in clues:
        value = checksum(clue, value)
    return checksum(notes + b"\0", value) if notes else value


def _masked(cib: int, sums: tuple[int, int, int]) -> tuple[int, int]:
    """The masked low and high checksums (the 'ICHEATED' mask)."""
    parts = (cib, *sums)
    low = bytes(m ^ (p & 0xFF) for m, p in zip(b"ICHE", parts))
    high = bytes(m ^ (p >> 8) for m, p in zip(b"ATED", parts))
    return int.from_bytes(low, "little"), int.from_bytes(high, "little")


# -- writing -------------------------------------------------------------------------------

def _cell_text(puzzle: Puzzle, encoding: str) -> tuple[bytes, bytes]:
    """The solution and state grids, one byte a cell."""
    grid = puzzle.grid
    open_cells = grid.cells
    solution, state = bytearray(), bytearray()
    for r in range(grid.height):
        for c in range(grid.width):
            if (r, c) not in open_cells:
                solution += b"."
                state += b"."
                continue
            text = puzzle.solution.get((r, c), "")
            solution += _byte(text[:1] or UNKNOWN, (r, c), encoding)
            state += _byte(grid.given.get((r, c), UNKNOWN), (r, c), encoding)
    return bytes(solution), bytes(state)


def _byte(letter: str, cell: Cell, encoding: str) -> bytes:
    """One cell's letter as the one byte .puz has for it, or PuzzleError naming the cell."""
    try:
        data = capitals(letter, encoding).encode(encoding)
    except UnicodeEncodeError:
        data = b""
    if len(data) != 1:
        raise PuzzleError(f".puz holds one byte a cell: the letter {letter!r} at row "
                          f"{cell[0] + 1}, column {cell[1] + 1} has none (write ipuz or .jpz)")
    return data


def _encoding(puzzle: Puzzle) -> str:
    """Latin-1 (version 1.3) when every string is Latin-1, else UTF-8 (2.0, ASCII cells)."""
    texts = [puzzle.title, puzzle.author, puzzle.copyright, puzzle.notes,
             *puzzle.clues.values(), *puzzle.solution.values()]
    try:
        for text in texts:
            text.encode(LATIN1)
    except UnicodeEncodeError:
        return UTF8
    return LATIN1


def _section(code: bytes, data: bytes) -> bytes:
    """An extension section: code, length, checksum, data, NUL."""
    return code + struct.pack("<HH", len(data), checksum(data)) + data + b"\0"


def _sections(puzzle: Puzzle, encoding: str) -> bytes:
    """The GRBS/RTBL (rebus) and GEXT (circles) sections the puzzle needs."""
    grid = puzzle.grid
    order = [(r, c) for r in range(grid.height) for c in range(grid.width)]
    out = b""
    rebus = puzzle.rebus
    if rebus:
        keys = {text: k for k, text in enumerate(dict.fromkeys(rebus[c] for c in order
                                                                if c in rebus))}
        odd = next((text for text in keys if ";" in text or text != text.strip()), None)
        if odd is not None:
            raise PuzzleError(f".puz rebus entries are letters: {odd[:40]!r} cannot be one")
        if len(keys) > 254:
            raise PuzzleError(f".puz holds at most 254 different rebus entries, not {len(keys)}")
        out += _section(b"GRBS", bytes(keys[rebus[c]] + 1 if c in rebus else 0 for c in order))
        table = "".join(f"{k:2d}:{capitals(text, encoding)};" for text, k in keys.items())
        out += _section(b"RTBL", table.encode(encoding))
    if puzzle.circles:
        out += _section(b"GEXT", bytes(CIRCLED if c in puzzle.circles else 0 for c in order))
    return out


def to_puz(puzzle: Puzzle) -> bytes:
    """The puzzle as the bytes of an Across Lite .puz file (see the module docstring)."""
    grid = puzzle.grid
    if grid.width > MAX_PUZ_SIDE or grid.height > MAX_PUZ_SIDE:
        raise PuzzleError(f".puz holds grids of at most {MAX_PUZ_SIDE} cells a side, not "
                          f"{grid.width}x{grid.height}")
    encoding = _encoding(puzzle)
    solution, state = _cell_text(puzzle, encoding)
    for text in (puzzle.title, puzzle.author, puzzle.copyright, puzzle.notes,
                 *puzzle.clues.values()):
        if "\0" in text:
            raise PuzzleError(f".puz strings end at a NUL: {text[:40]!r} holds one")
    strings = [s.encode(encoding) for s in (puzzle.title, puzzle.author, puzzle.copyright)]
    clues = [puzzle.clue(slot).encode(encoding) for slot in clue_order(grid)]
    notes = puzzle.notes.encode(encoding)
    version = b"1.3\0" if encoding == LATIN1 else b"2.0\0"
    cib_bytes = struct.pack("<BBHHH", grid.width, grid.height, len(clues), 1, 0)
    cib = checksum(cib_bytes)
    sums = (checksum(solution), checksum(state), _text_sum(strings, clues, notes, 0))
    overall = _text_sum(strings, clues, notes, checksum(state, checksum(solution, cib)))
    low, high = _masked(cib, sums)
    header = HEADER.pack(overall, MAGIC, cib, low, high, version, b"\0\0", 0, b"\0" * 12,
                         grid.width, grid.height, len(clues), 1, 0)
    body = b"".join(s + b"\0" for s in [*strings, *clues, notes])
    return header + solution + state + body + _sections(puzzle, encoding)


# -- reading -------------------------------------------------------------------------------

class _Reader:
    """Bytes read in order, every shortfall a PuzzleError with the offset."""

    def __init__(self, data: bytes, source: str, start: int):
        self.data, self.source, self.pos = data, source, start

    def fail(self, what: str) -> PuzzleError:
        """The error of ``what``, with the source and the offset reached."""
        return PuzzleError(f"{self.source}: {what} (at byte {self.pos})")

    def take(self, n: int, what: str) -> bytes:
        """The next ``n`` bytes, or an error saying the file ends before ``what``."""
        if self.pos + n > len(self.data):
            raise self.fail(f"truncated .puz: the {what} needs {n} bytes, "
                            f"{len(self.data) - self.pos} are left")
        chunk = self.data[self.pos:self.pos + n]
        self.pos += n
        return chunk

    def string(self, what: str) -> bytes:
        """The next NUL-terminated string (without its NUL)."""
        end = self.data.find(b"\0", self.pos)
        if end < 0:
            raise self.fail(f"truncated .puz: the {what} has no terminating NUL")
        chunk = self.data[self.pos:end]
        self.pos = end + 1
        return chunk


def _decode(raw: bytes, encoding: str, what: str, reader: _Reader) -> str:
    """Text in the file's encoding, or one line naming the bad byte."""
    try:
        return raw.decode(encoding)
    except UnicodeDecodeError as exc:
        raise reader.fail(f"the {what} is not {encoding} text (byte 0x{raw[exc.start]:02x})") \
            from None


def _header(reader: _Reader) -> Header:
    """The checked header fields."""
    head = Header(*HEADER.unpack(reader.take(HEADER.size, "header")))
    if head.version[:1] not in (b"1", b"2") or head.version[1:2] != b".":
        raise reader.fail(f"unknown .puz version {head.version!r} (1.x and 2.x are read)")
    if not head.width or not head.height:
        raise reader.fail(f"bad grid size {head.width}x{head.height}")
    if head.scrambled:
        raise reader.fail("the solution is scrambled (locked): unlock it in Across Lite first")
    cib = checksum(reader.data[reader.pos - 8:reader.pos])
    if cib != head.cib:
        raise reader.fail(f"bad CIB checksum 0x{head.cib:04x} (the header says, the bytes "
                          f"give 0x{cib:04x})")
    return head


def _extensions(reader: _Reader) -> Iterator[tuple[bytes, bytes]]:
    """The extension sections after the text, each checksum checked."""
    while len(reader.data) - reader.pos >= 8:
        code = reader.take(4, "section code")
        length, value = struct.unpack("<HH", reader.take(4, "section header"))
        data = reader.take(length, f"section {code!r}")
        reader.take(1, f"section {code!r} end")
        if checksum(data) != value:
            raise reader.fail(f"bad checksum of section {code!r}")
        yield code, data


def _rebus_table(text: str, reader: _Reader) -> dict[int, str]:
    """RTBL: ``k:TEXT;`` entries as key -> text."""
    table = {}
    for entry in text.split(";"):
        if not entry.strip():
            continue
        key, sep, value = entry.partition(":")
        if not sep or not key.strip().isdigit() or not value:
            raise reader.fail(f"bad rebus table entry {entry[:40]!r}")
        table[int(key)] = value.lower()
    return table


def _cells(head: Header, solution: str, state: str,
           ) -> tuple[list[Cell], dict[Cell, str], dict[Cell, str]]:
    """The open cells, their answers and the given letters of the state grid."""
    open_cells: list[Cell] = []
    answers: dict[Cell, str] = {}
    given: dict[Cell, str] = {}
    for i, (s, g) in enumerate(zip(solution, state)):
        cell = divmod(i, head.width)
        if s in ".:":
            continue
        open_cells.append(cell)
        if s != UNKNOWN:
            answers[cell] = s.lower()
        if g not in (UNKNOWN, BLOCK):
            given[cell] = given_letter(g, f"at row {cell[0] + 1}, column {cell[1] + 1}")
    return open_cells, answers, given


def _grid(head: Header, raw_solution: bytes, raw_state: bytes, encoding: str,
          reader: _Reader) -> tuple[Grid, dict[Cell, str]]:
    """The grid (given letters from the state) and the one-letter answers, its clue count
    checked against the header's."""
    cell_encoding = LATIN1 if encoding == LATIN1 else "ascii"  # a 2.0 cell is one byte
    solution = _decode(raw_solution, cell_encoding, "solution grid", reader)
    state = _decode(raw_state, cell_encoding, "state grid", reader)
    try:
        open_cells, answers, given = _cells(head, solution, state)
        grid = Grid.from_cells(head.width, head.height, open_cells, given)
    except GridError as exc:
        raise reader.fail(str(exc)) from None
    if len(grid.slots) != head.clues:
        raise reader.fail(f"the header's {head.clues} clues for the grid's {len(grid.slots)} "
                          f"slots")
    return grid, answers


def _extras(reader: _Reader, head: Header, encoding: str,
              ) -> tuple[set[Cell], dict[Cell, str]]:
    """The circled cells (GEXT) and the rebus answers (GRBS through RTBL)."""
    cells = head.width * head.height
    circles: set[Cell] = set()
    rebus_keys: dict[Cell, int] = {}
    table: dict[int, str] = {}
    for code, section in _extensions(reader):
        if len(section) != cells and code in (b"GEXT", b"GRBS"):
            raise reader.fail(f"section {code!r} has {len(section)} bytes, not {cells}")
        if code == b"GEXT":
            circles = {divmod(i, head.width) for i, b in enumerate(section) if b & CIRCLED}
        elif code == b"GRBS":
            rebus_keys = {divmod(i, head.width): b - 1 for i, b in enumerate(section) if b}
        elif code == b"RTBL":
            table = _rebus_table(_decode(section, encoding, "rebus table", reader), reader)
    rebus = {}
    for cell, key in rebus_keys.items():
        if key not in table:
            raise reader.fail(f"rebus cell at row {cell[0] + 1}, column {cell[1] + 1} has key "
                              f"{key}, which the rebus table lacks")
        rebus[cell] = table[key]
    return circles, rebus


def parse_puz(data: bytes, *, source: str = ".puz") -> Puzzle:
    """The puzzle in the bytes of a .puz file, every checksum checked."""
    start = data.find(MAGIC)
    if start < 2:
        raise PuzzleError(f"{source}: not a .puz file (no ACROSS&DOWN magic)")
    reader = _Reader(data, source, start - 2)
    head = _header(reader)
    encoding = LATIN1 if head.version[:1] == b"1" else UTF8
    cells = head.width * head.height
    raw_solution = reader.take(cells, "solution grid")
    raw_state = reader.take(cells, "state grid")
    strings = [reader.string(what) for what in ("title", "author", "copyright")]
    clues = [reader.string(f"clue {k + 1}") for k in range(head.clues)]
    notes = reader.string("notes") if reader.pos < len(data) else b""
    summed_notes = notes if head.version[:3] >= b"1.3" else b""  # notes joined the sum in 1.3
    overall = _text_sum(strings, clues, summed_notes,
                        checksum(raw_state, checksum(raw_solution, head.cib)))
    if overall != head.overall:
        raise reader.fail(f"bad overall checksum 0x{head.overall:04x} (the contents give "
                          f"0x{overall:04x})")
    sums = (checksum(raw_solution), checksum(raw_state), _text_sum(strings, clues, summed_notes, 0))
    if _masked(head.cib, sums) != (head.masked_low, head.masked_high):
        raise reader.fail("bad masked checksums")
    grid, answers = _grid(head, raw_solution, raw_state, encoding, reader)
    title, author, rights, note_text = (
        _decode(s, encoding, what, reader)
        for s, what in zip([*strings, notes], ("title", "author", "copyright", "notes")))
    clue_texts = [_decode(c, encoding, f"clue {k + 1}", reader) for k, c in enumerate(clues)]
    circles, rebus = _extras(reader, head, encoding)
    answers.update(rebus)
    kept = grid.cells
    return Puzzle(grid, {c: a for c, a in answers.items() if c in kept},
                  _clue_map(clue_order(grid), clue_texts), frozenset(circles & kept), title,
                  author, rights, note_text)


def _clue_map(order: list, texts: list[str]) -> Mapping[str, str]:
    """Slot name -> clue, the author's blank marker left out."""
    return {slot.name: text for slot, text in zip(order, texts) if text and text != BLANK_CLUE}
