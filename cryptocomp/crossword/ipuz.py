"""ipuz (http://ipuz.org, version 2, kind crossword#1): reading grids, writing puzzles.

Read: ``dimensions``, ``puzzle`` (``#`` or the puzzle's ``block`` is a block,
``null`` an omitted cell, a number or ``0`` an open cell; a cell object may
carry a given letter as ``value``).  Crafted files are refused in one line before
any deep work: JSON nested more than :data:`MAX_DEPTH` levels, or a number of more
than :data:`MAX_DIGITS` digits (Python would refuse to convert it, or spend
quadratic time on it).  Written: dimensions, the numbered puzzle,
the solution (when a fill is given), and clue lists (empty, or from a
``word -> clue`` mapping).  Width and height must be 1 to
:data:`~cryptocomp.crossword.grid.MAX_SIDE` (1000), as in every grid format.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from ..files import read_text, shown
from .grid import MAX_SIDE, Cell, Grid, GridError, Letter, check_size, given_letter

__all__ = ["parse_ipuz", "to_ipuz", "read_clues"]

VERSION = "http://ipuz.org/v2"
KIND = "http://ipuz.org/crossword#1"
MAX_DEPTH = 64  # an ipuz puzzle nests 4 levels deep; the json module recurses per level
MAX_DIGITS = 32


def _nesting(text: str) -> int:
    """The deepest nesting of JSON arrays and objects in ``text`` (strings skipped)."""
    depth = deepest = 0
    in_string = escaped = False
    for ch in text:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            if depth > deepest:
                deepest = depth
                if deepest > MAX_DEPTH:
                    break
        elif ch in "]}":
            depth -= 1
    return deepest


def _number(kind: type[int] | type[float]) -> Callable[[str], int | float]:
    """A JSON number parser that refuses numbers of more than MAX_DIGITS digits."""
    def parse(token: str) -> int | float:
        if len(token) > MAX_DIGITS:
            raise ValueError(f"a number of {len(token)} characters")
        return kind(token)
    return parse


def _ipuz_document(text: str, source: str) -> dict:
    """The JSON object of an ipuz crossword, refusing other JSON."""
    if _nesting(text) > MAX_DEPTH:
        raise GridError(f"{source}: JSON nested more than {MAX_DEPTH} levels deep")
    try:
        doc = json.loads(text, parse_int=_number(int), parse_float=_number(float))
    except json.JSONDecodeError as exc:
        raise GridError(f"{source}: not valid JSON ({exc.msg} at line {exc.lineno})") from None
    except (ValueError, RecursionError) as exc:
        raise GridError(f"{source}: unreadable JSON ({exc})") from None
    if not isinstance(doc, dict):
        raise GridError(f"{source}: an ipuz file holds a JSON object")
    kinds = doc.get("kind") or []
    if not isinstance(kinds, list) or not any(isinstance(k, str) and "crossword" in k
                                              for k in kinds):
        raise GridError(f"{source}: not an ipuz crossword (kind {kinds!r})")
    return doc


def _ipuz_dimensions(doc: dict, source: str) -> tuple[int, int]:
    """The document's (width, height), checked."""
    dims: Any = doc.get("dimensions")
    if not isinstance(dims, dict) or "width" not in dims or "height" not in dims:
        raise GridError(f"{source}: missing or bad 'dimensions' (width and height)")
    width, height = dims["width"], dims["height"]
    for name, value in (("width", width), ("height", height)):
        # JSON whole numbers only: int() would take 3.5 as 3 and true as 1
        if not isinstance(value, int) or isinstance(value, bool):
            raise GridError(f"{source}: 'dimensions' {name} must be a whole number from 1 to "
                            f"{MAX_SIDE}, not {json.dumps(value)[:40]}")
    check_size(width, height, source)
    return width, height


def _ipuz_cells(puzzle: list, width: int, block: Any,
                source: str) -> tuple[list[Cell], dict[Cell, Letter]]:
    """The open cells of the 'puzzle' rows and the letters given in them."""
    open_cells: list[Cell] = []
    given: dict[Cell, Letter] = {}
    for r, row in enumerate(puzzle):
        if not isinstance(row, list) or len(row) != width:
            raise GridError(f"{source}: puzzle row {r + 1} must have {width} cells")
        for c, cell in enumerate(row):
            value = None
            if isinstance(cell, dict):
                value = cell.get("value")
                cell = cell.get("cell", 0)
            if cell is None or cell == block:
                continue
            if not isinstance(cell, (int, str)) or isinstance(cell, bool):
                raise GridError(f"{source}: bad cell {cell!r} at row {r + 1}, column {c + 1}")
            open_cells.append((r, c))
            if isinstance(value, str) and value.strip():
                given[(r, c)] = given_letter(value.strip(),
                                             f"in {source} at row {r + 1}, column {c + 1}")
    return open_cells, given


def parse_ipuz(text: str, *, source: str = "ipuz") -> Grid:
    """A grid (with given letters) from ipuz JSON text."""
    doc = _ipuz_document(text, source)
    width, height = _ipuz_dimensions(doc, source)
    puzzle = doc.get("puzzle")
    if not isinstance(puzzle, list) or len(puzzle) != height:
        raise GridError(f"{source}: 'puzzle' must be a list of {height} rows")
    open_cells, given = _ipuz_cells(puzzle, width, doc.get("block", "#"), source)
    return Grid.from_cells(width, height, open_cells, given)


def to_ipuz(grid: Grid, fill: list[str] | None = None, *, clues: Mapping[str, str] | None = None,
            title: str = "", circles: Iterable[Cell] = ()) -> dict:
    """An ipuz document of the grid, with the solution of ``fill``, clues and circled cells
    (ipuz's ``"style": {"shapebg": "circle"}``) when given."""
    circled = frozenset(circles)
    numbers = grid.numbers()
    open_cells = grid.drawn_open()
    if grid.symmetric:
        from .grid import Grid as _G

        drawn = _G.from_cells(grid.width, grid.height, open_cells, grid.given)
        letters = grid.letters_of(fill) if fill else dict(grid.given)
        words = drawn.words_of(letters) if fill else None
        return to_ipuz(drawn, words, clues=clues, title=title, circles=circled)
    puzzle = []
    for r in range(grid.height):
        row: list = []
        for c in range(grid.width):
            if (r, c) not in open_cells:
                row.append("#")
                continue
            n = numbers.get((r, c), 0)
            cell: dict = {"cell": n}
            if (r, c) in grid.given:
                cell["value"] = grid.given[(r, c)].upper()
            if (r, c) in circled:
                cell["style"] = {"shapebg": "circle"}
            row.append(cell if len(cell) > 1 else n)
        puzzle.append(row)
    doc: dict = {
        "version": VERSION,
        "kind": [KIND],
        "dimensions": {"width": grid.width, "height": grid.height},
        "block": "#",
        "empty": 0,
        "puzzle": puzzle,
    }
    if title:
        doc["title"] = title
    lists: dict[str, list] = {"Across": [], "Down": []}
    for k, slot in enumerate(grid.slots):
        word = fill[k] if fill else None
        clue = (clues or {}).get(word, "") if word else ""
        lists["Across" if slot.direction == "across" else "Down"].append(
            [numbers[slot.start], clue])
    doc["clues"] = lists
    if fill:
        letters = grid.letters_of(fill)
        doc["solution"] = [[letters[(r, c)].upper() if (r, c) in letters else
                            ("#" if (r, c) not in open_cells else None)
                            for c in range(grid.width)] for r in range(grid.height)]
    return doc


def read_clues(path: str) -> dict[str, str]:
    """A ``word<TAB>clue`` file (one a line; ``#`` lines are comments) as word -> clue."""
    text = read_text(path, "clue file", GridError)
    clues = {}
    for n, line in enumerate(text.splitlines(), 1):
        if not line.strip() or line.startswith("#"):
            continue
        word, sep, clue = line.partition("\t")
        if not sep or not word.strip():
            raise GridError(f"{shown(path)}, line {n}: expected 'word<TAB>clue'")
        clues[word.strip().lower()] = clue.strip()
    return clues
