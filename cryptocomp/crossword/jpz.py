"""Crossword Compiler .jpz (XML, ``crossword-compiler-applet``): writing and reading puzzles.

Written (UTF-8, format version 1 of this module, the applet's ``rectangular-puzzle``)::

    <crossword-compiler-applet xmlns="http://crossword.info/xml/crossword-compiler-applet">
     <rectangular-puzzle xmlns="http://crossword.info/xml/rectangular-puzzle">
      <metadata><title/><creator/><copyright/><description/></metadata>
      <crossword>
       <grid width="W" height="H">
        <cell x="1" y="1" solution="C" number="1" solve-state="C" background-shape="circle"/>
        <cell x="2" y="1" type="block"/> ...
       </grid>
       <word id="1" x="1-3" y="1"/> ...
       <clues ordering="normal"><title><b>Across</b></title>
        <clue word="1" number="1">Feline</clue> ...</clues>
       <clues ordering="normal"><title><b>Down</b></title> ...</clues>
      </crossword></rectangular-puzzle></crossword-compiler-applet>

``x`` is the 1-based column, ``y`` the row; ``solution`` the cell's answer (several
letters in a rebus cell; left out where unknown), ``solve-state`` a given letter,
``background-shape="circle"`` a circled cell, ``type="block"`` (or ``void``) no cell.
An unclued slot gets :data:`~.puzzle.BLANK_CLUE`.

Read: the same elements (namespace prefixes ignored; a clue's inline markup read as its
text; each clue tied to its slot by its ``word``'s first cell and direction).  The XML is
parsed with expat with every DTD refused: no document type, no entity declaration (so no
"billion laughs" expansion) and no external entity is ever read; files are at most
:data:`~.gridfile.MAX_GRID_BYTES` and grids at most
:data:`~cryptocomp.crossword.grid.MAX_SIDE` a side.  A zipped .jpz is refused (unzip it).
Every problem is one line with the XML line and column where expat gives them.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from xml.parsers import expat
from xml.sax.saxutils import escape, quoteattr

from .grid import Cell, Grid, GridError, Slot, check_size, given_letter
from .puzzle import BLANK_CLUE, Puzzle, PuzzleError, capitals

__all__ = ["to_jpz", "parse_jpz", "JPZ_FORMAT"]

JPZ_FORMAT = 1
APPLET_NS = "http://crossword.info/xml/crossword-compiler-applet"
PUZZLE_NS = "http://crossword.info/xml/rectangular-puzzle"
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")
_RANGE = re.compile(r"\s*(\d{1,6})(?:\s*-\s*(\d{1,6}))?\s*\Z")


# -- writing -------------------------------------------------------------------------------

def _cell_xml(puzzle: Puzzle, cell: Cell, number: int | None) -> str:
    """One ``<cell>`` element."""
    r, c = cell
    if cell not in puzzle.grid.cells:
        return f'<cell x="{c + 1}" y="{r + 1}" type="block"/>'
    attrs = [f'x="{c + 1}"', f'y="{r + 1}"']
    if cell in puzzle.solution:
        attrs.append(f"solution={quoteattr(capitals(puzzle.solution[cell]))}")
    if number is not None:
        attrs.append(f'number="{number}"')
    if cell in puzzle.grid.given:
        attrs.append(f"solve-state={quoteattr(capitals(puzzle.grid.given[cell]))}")
    if cell in puzzle.circles:
        attrs.append('background-shape="circle"')
    return f"<cell {' '.join(attrs)}/>"


def _word_xml(k: int, slot: Slot) -> str:
    """One ``<word>``: its id and cell range."""
    (r0, c0), (r1, c1) = slot.cells[0], slot.cells[-1]
    xs = f"{c0 + 1}-{c1 + 1}" if c1 != c0 else f"{c0 + 1}"
    ys = f"{r0 + 1}-{r1 + 1}" if r1 != r0 else f"{r0 + 1}"
    return f'<word id="{k}" x="{xs}" y="{ys}"/>'


def _alphabet(puzzle: Puzzle) -> str:
    """The letters a solver types: A to Z, and the solution's other letters."""
    letters = set("ABCDEFGHIJKLMNOPQRSTUVWXYZ")
    letters.update(ch for text in puzzle.solution.values() for ch in capitals(text))
    return "".join(sorted(letters))


def to_jpz(puzzle: Puzzle) -> bytes:
    """The puzzle as the UTF-8 bytes of a .jpz file (see the module docstring)."""
    grid = puzzle.grid
    for text in (puzzle.title, puzzle.author, puzzle.copyright, puzzle.notes,
                 *puzzle.clues.values(), *puzzle.solution.values()):
        bad = _NOT_XML.search(text)
        if bad:
            raise PuzzleError(f"XML cannot hold the character U+{ord(bad.group()):04X} in "
                              f"{text[:40]!r}")
    numbers = grid.numbers()
    out = ['<?xml version="1.0" encoding="UTF-8"?>',
           f'<crossword-compiler-applet xmlns="{APPLET_NS}">',
           f'<rectangular-puzzle xmlns="{PUZZLE_NS}" alphabet={quoteattr(_alphabet(puzzle))}>',
           f"<metadata><title>{escape(puzzle.title)}</title><creator>{escape(puzzle.author)}"
           f"</creator><copyright>{escape(puzzle.copyright)}</copyright><description>"
           f"{escape(puzzle.notes)}</description></metadata>",
           "<crossword>", f'<grid width="{grid.width}" height="{grid.height}">',
           '<grid-look numbering-scheme="normal"/>']
    out += [_cell_xml(puzzle, (r, c), numbers.get((r, c)))
            for r in range(grid.height) for c in range(grid.width)]
    out.append("</grid>")
    out += [_word_xml(k, slot) for k, slot in enumerate(grid.slots, 1)]
    for direction in ("across", "down"):
        out.append(f'<clues ordering="normal"><title><b>{direction.title()}</b></title>')
        out += [f'<clue word="{k}" number="{numbers[slot.start]}">'
                f"{escape(puzzle.clue(slot))}</clue>"
                for k, slot in enumerate(grid.slots, 1) if slot.direction == direction]
        out.append("</clues>")
    out += ["</crossword>", "</rectangular-puzzle>", "</crossword-compiler-applet>"]
    return ("\n".join(out) + "\n").encode()


# -- reading -------------------------------------------------------------------------------

class _Refused(Exception):
    """A DTD construct met while parsing: never expanded, never fetched."""


def _refuse_dtd(*_args: object) -> int:
    """Any DTD handler: stop the parse."""
    raise _Refused


def _local(name: str) -> str:
    """An XML name without its namespace prefix."""
    return name.rpartition(":")[2]


def _tree(data: bytes, source: str) -> ET.Element:
    """The document element of ``data``, parsed with every DTD refused."""
    if data[:2] == b"PK":
        raise PuzzleError(f"{source}: a zipped .jpz: unzip it and give the XML inside")
    builder = ET.TreeBuilder()
    parser = expat.ParserCreate()
    parser.SetParamEntityParsing(expat.XML_PARAM_ENTITY_PARSING_NEVER)
    parser.StartDoctypeDeclHandler = _refuse_dtd
    parser.EntityDeclHandler = _refuse_dtd
    parser.ExternalEntityRefHandler = _refuse_dtd
    parser.StartElementHandler = lambda name, attrs: builder.start(
        _local(name), {_local(k): v for k, v in attrs.items()})
    parser.EndElementHandler = lambda name: builder.end(_local(name))
    parser.CharacterDataHandler = builder.data
    try:
        parser.Parse(data, True)
    except _Refused:
        raise PuzzleError(f"{source}: a document type or entity declaration at line "
                          f"{parser.CurrentLineNumber} (DTDs are refused: no entity is "
                          f"expanded or fetched)") from None
    except LookupError as exc:  # the XML declaration names an encoding Python lacks
        raise PuzzleError(f"{source}: {exc}") from None
    except expat.ExpatError as exc:
        raise PuzzleError(f"{source}: not well-formed XML ({expat.ErrorString(exc.code)} at "
                          f"line {exc.lineno}, column {exc.offset + 1})") from None
    return builder.close()


def _child(parent: ET.Element, name: str, source: str) -> ET.Element:
    """The first child element ``name``, or one line saying it is missing."""
    found = parent.find(name)
    if found is None:
        raise PuzzleError(f"{source}: no <{name}> in <{parent.tag}>")
    return found


def _range(text: str | None, what: str, source: str) -> tuple[int, int]:
    """A 1-based ``"3"`` or ``"3-7"`` as a 0-based (first, last)."""
    m = _RANGE.match(text or "")
    if not m:
        raise PuzzleError(f"{source}: bad {what} {str(text)[:40]!r} (a number or 'a-b')")
    first = int(m.group(1))
    last = int(m.group(2) or first)
    if first < 1 or last < first:
        raise PuzzleError(f"{source}: bad {what} {text!r}")
    return first - 1, last - 1


def _cells(grid_el: ET.Element, width: int, height: int, source: str,
           ) -> tuple[list[Cell], dict[Cell, str], dict[Cell, str], set[Cell]]:
    """The open cells, their answers, given letters and circles."""
    open_cells: list[Cell] = []
    answers: dict[Cell, str] = {}
    given: dict[Cell, str] = {}
    circles: set[Cell] = set()
    seen: set[Cell] = set()
    for el in grid_el.iter("cell"):
        c, c_last = _range(el.get("x"), "cell x", source)
        r, r_last = _range(el.get("y"), "cell y", source)
        if c != c_last or r != r_last or c >= width or r >= height or (r, c) in seen:
            raise PuzzleError(f"{source}: cell x={el.get('x')} y={el.get('y')} is outside "
                              f"the {width}x{height} grid or given twice")
        seen.add((r, c))
        if el.get("type") in ("block", "void"):
            continue
        open_cells.append((r, c))
        solution = (el.get("solution") or "").strip()
        if solution:
            answers[(r, c)] = solution.lower()
        state = (el.get("solve-state") or "").strip()
        if state:
            try:
                given[(r, c)] = given_letter(state, f"at row {r + 1}, column {c + 1}")
            except GridError as exc:
                raise PuzzleError(f"{source}: {exc}") from None
        if el.get("background-shape") == "circle":
            circles.add((r, c))
    return open_cells, answers, given, circles


def _clues(crossword: ET.Element, grid: Grid, source: str) -> dict[str, str]:
    """Slot name -> clue, each clue tied to its slot through its word's cells."""
    slots = {(slot.start, slot.direction): slot for slot in grid.slots}
    words: dict[str, Slot] = {}
    for el in crossword.iter("word"):
        c0, c1 = _range(el.get("x"), "word x", source)
        r0, _ = _range(el.get("y"), "word y", source)
        slot = slots.get(((r0, c0), "across" if c1 > c0 else "down"))
        if slot is not None and el.get("id"):
            words[el.get("id", "")] = slot
    out: dict[str, str] = {}
    for el in crossword.iter("clue"):
        slot = words.get(el.get("word", ""))
        if slot is None:
            raise PuzzleError(f"{source}: clue {el.get('number')!r} names word "
                              f"{el.get('word')!r}, which is no slot of the grid")
        text = "".join(el.itertext()).strip()
        if text and text != BLANK_CLUE:
            out[slot.name] = text
    return out


def _size(grid_el: ET.Element, source: str) -> tuple[int, int]:
    """The grid's checked (width, height)."""
    sides = []
    for name in ("width", "height"):
        value = grid_el.get(name) or ""
        if not value.isascii() or not value.isdigit() or len(value) > 6:
            raise PuzzleError(f"{source}: <grid> {name} {value[:40]!r} is no whole number")
        sides.append(int(value))
    try:
        check_size(sides[0], sides[1], "grid")
    except GridError as exc:
        raise PuzzleError(f"{source}: {exc}") from None
    return sides[0], sides[1]


def parse_jpz(data: bytes, *, source: str = ".jpz") -> Puzzle:
    """The puzzle in the bytes of a .jpz file (parsed safely, see the module docstring)."""
    root = _tree(data, source)
    puzzle_el = root if root.tag == "rectangular-puzzle" else root.find("rectangular-puzzle")
    if puzzle_el is None:
        raise PuzzleError(f"{source}: not a Crossword Compiler puzzle (no <rectangular-puzzle>)")
    crossword = _child(puzzle_el, "crossword", source)
    grid_el = _child(crossword, "grid", source)
    width, height = _size(grid_el, source)
    open_cells, answers, given, circles = _cells(grid_el, width, height, source)
    try:
        grid = Grid.from_cells(width, height, open_cells, given)
    except GridError as exc:
        raise PuzzleError(f"{source}: {exc}") from None
    meta = puzzle_el.find("metadata")

    def text(name: str) -> str:
        el = meta.find(name) if meta is not None else None
        return "".join(el.itertext()).strip() if el is not None else ""

    kept = grid.cells
    return Puzzle(grid, {c: a for c, a in answers.items() if c in kept},
                  _clues(crossword, grid, source), frozenset(circles & kept), text("title"),
                  text("creator"), text("copyright"), text("description"))
