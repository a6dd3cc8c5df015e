"""The studio's JSON request bodies, read into value objects (one line for what is wrong).

A grid is a list of rows, each a string of ``#`` (a block), ``.`` (an empty cell) and
letters (given), as the CLI's text grids; its size is bounded by :class:`.Limits`.  A fill's
``options`` are the CLI's: ``seed``, ``time`` (seconds), ``steps``, ``engine``,
``strategy``, the word filters (``words``, ``minfreq``, ``min_count``, ``min_score``,
``limit``, ``length``) and the word rules (``theme``, ``exclude``, ``prefer``: lists of
words; ``max_shared``; ``same_lemma``).  A fill's ``region`` (a list of ``[row, col]``
cells) fills only those cells: the entries through them are filled, every letter outside
is kept (a constraint), and the cells outside stay as they are.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ..arrow.generator import MAX_SIDE as ARROW_MAX
from ..arrow.generator import MIN_SIDE as ARROW_MIN
from ..crossword.grid import Cell, Grid, GridError, Slot
from ..crossword.rules import MAX_SHARED, FillRules
from ..errors import CryptocompError
from ..index.alphabet import normalize
from ..index.classes import DEFAULTS
from ..index.index import Index
from ..index.wordfilter import WordFilter
from .parameters import MAX_SEED, MIN_SEED, Raw, seconds, text, whole, word_filter
from .settings import Limits, StudioError

__all__ = ["FillRequest", "CandidatesRequest", "ArrowRequest", "ExportRequest", "read_grid",
           "fill_request", "candidates_request", "arrow_request", "export_request",
           "find_slot", "read_region", "region_grid", "ENGINES", "STRATEGIES"]

ENGINES = ("auto", "csp", "sat")
STRATEGIES = ("auto", "restarts", "words", "cells", "rows")
_FILL_OPTIONS = {"seed", "time", "steps", "engine", "strategy", "theme", "exclude", "prefer",
                 "max_shared", "same_lemma", "words", "minfreq", "min_count", "min_score",
                 "limit", "length"}


@dataclass(frozen=True)
class FillRequest:
    """A fill to run: the grid searched (a region's entries only, when one is given), the
    rows as sent and the grid they draw, the words, the search's options."""

    grid: Grid
    rows: tuple[str, ...]
    words: WordFilter
    seconds: float
    seed: int | None = None
    steps: int | None = None
    engine: str = "auto"
    strategy: str = "auto"
    rules: FillRules = field(default_factory=FillRules)
    drawn: Grid | None = None  # the whole grid sent, when ``grid`` is a region's
    region: frozenset[Cell] | None = None  # the cells to fill (None: all)


@dataclass(frozen=True)
class CandidatesRequest:
    """The words that fit one slot of a grid, each tried against the rest of it."""

    grid: Grid
    rows: tuple[str, ...]
    slot: Slot
    top: int
    seconds: float
    words: WordFilter


@dataclass(frozen=True)
class ArrowRequest:
    """An arrow-word (Swedish) puzzle to generate."""

    width: int
    height: int
    seed: int
    seconds: float
    clues: str  # "auto" (WordNet for English) or "none"


@dataclass(frozen=True)
class ExportRequest:
    """A grid (filled or not) to write as a file, with its clues (word -> clue) and title."""

    grid: Grid
    fill: list[str] | None
    clues: dict[str, str]
    title: str


def _object(body: Raw, what: str) -> Mapping[str, Any]:
    if not isinstance(body, dict):
        raise StudioError(f"{what} wants a JSON object")
    return body


def _known(given: Mapping[str, Any], known: set[str], what: str) -> None:
    unknown = sorted(set(given) - known)
    if unknown:
        raise StudioError(f"{what}: unknown field {unknown[0]!r} (known: "
                          f"{', '.join(sorted(known))})")


def read_grid(value: Raw, limits: Limits) -> tuple[Grid, tuple[str, ...]]:
    """A grid from its rows (``#`` block, ``.`` empty, letters given), within the limits."""
    if not isinstance(value, list) or not value:
        raise StudioError('grid wants a non-empty list of rows, like ["#..", "...", "..#"]')
    if len(value) > limits.max_side:
        raise StudioError(f"the grid has {len(value):,} rows: at most {limits.max_side:,}")
    rows = []
    for r, row in enumerate(value):
        if not isinstance(row, str):
            raise StudioError(f"grid row {r + 1} is not a string")
        if len(row) > limits.max_side:
            raise StudioError(f"grid row {r + 1} has {len(row):,} cells: at most "
                              f"{limits.max_side:,}")
        rows.append(row)
    if len(rows) * max(len(r) for r in rows) > limits.max_cells:
        raise StudioError(f"the grid has more than {limits.max_cells:,} cells")
    try:
        return Grid.from_rows(rows), tuple(rows)
    except CryptocompError as exc:
        raise StudioError(str(exc)) from None


def read_region(value: Raw, grid: Grid) -> frozenset[Cell]:
    """The cells of a region: a non-empty list of ``[row, col]`` (0-based) open cells."""
    if not isinstance(value, list) or not value:
        raise StudioError("region wants a non-empty list of [row, col] cells")
    if len(value) > grid.width * grid.height:
        raise StudioError(f"region lists {len(value):,} cells: the grid has "
                          f"{grid.width * grid.height:,}")
    open_cells = grid.cells
    cells = set()
    for k, item in enumerate(value):
        if not isinstance(item, list) or len(item) != 2:
            raise StudioError(f"region cell {k + 1} wants [row, col]")
        cell = (whole(f"region cell {k + 1} row", item[0], 0, grid.height - 1),
                whole(f"region cell {k + 1} col", item[1], 0, grid.width - 1))
        if cell not in open_cells:
            raise StudioError(f"region cell {k + 1} (row {cell[0]}, col {cell[1]}) is a block")
        cells.add(cell)
    return frozenset(cells)


def region_grid(grid: Grid, region: frozenset[Cell]) -> Grid:
    """The grid a region's fill searches: the entries through the region, with every
    letter of theirs given (those outside the region are thus kept)."""
    slots = tuple(s for s in grid.slots if not region.isdisjoint(s.cells))
    if not slots:
        raise StudioError("the region crosses no entry (an entry has two cells or more)")
    inside = {cell for s in slots for cell in s.cells}
    given = {cell: ch for cell, ch in grid.given.items() if cell in inside}
    return Grid(grid.width, grid.height, slots, given, grid.symmetric)


def _words_list(name: str, value: Raw, fold_yo: bool) -> tuple[str, ...]:
    if not isinstance(value, list) or len(value) > 10_000:
        raise StudioError(f"{name} wants a list of at most 10,000 words")
    words = tuple(normalize(text(name, w, 100).strip(), fold_yo=fold_yo) for w in value)
    if not all(words):
        raise StudioError(f"{name}: a word is empty")
    return words


def _choice(name: str, value: Raw, choices: tuple[str, ...]) -> str:
    if value not in choices:
        raise StudioError(f"{name} must be one of {', '.join(choices)}, not "
                          f"{str(value)[:40]!r}")
    return str(value)


def _rules(options: Mapping[str, Any], index: Index) -> FillRules:
    fold_yo = index.fold_yo
    same = options.get("same_lemma", False)
    if not isinstance(same, bool):
        raise StudioError("same_lemma wants true or false")
    try:
        rules = FillRules(
            exclude=frozenset(_words_list("exclude", options["exclude"], fold_yo))
            if "exclude" in options else frozenset(),
            prefer=frozenset(_words_list("prefer", options["prefer"], fold_yo))
            if "prefer" in options else frozenset(),
            theme=_words_list("theme", options["theme"], fold_yo) if "theme" in options else (),
            max_shared=whole("max_shared", options["max_shared"], 1, MAX_SHARED)
            if "max_shared" in options else None,
            same_lemma=same)
    except GridError as exc:
        raise StudioError(str(exc)) from None
    missing = [w for w in rules.theme if index.id_of(w) is None]
    if missing:  # said now, not by a job that fails
        raise StudioError(f"theme word {missing[0]!r} is not a word of "
                          f"{index.name or 'the dictionary'}")
    return rules


def _options(body: Mapping[str, Any], known: set[str]) -> Mapping[str, Any]:
    options = _object(body.get("options", {}), "options")
    _known(options, known, "options")
    return {k: v for k, v in options.items() if v is not None}


def fill_request(body: Raw, index: Index, limits: Limits) -> FillRequest:
    """``POST /api/fill``: ``{"grid": [...], "options": {...}, "region": [[r, c], ...]}``."""
    doc = _object(body, "the fill request")
    _known(doc, {"grid", "options", "region"}, "the fill request")
    drawn, rows = read_grid(doc.get("grid"), limits)
    region = read_region(doc["region"], drawn) if doc.get("region") is not None else None
    grid = drawn if region is None else region_grid(drawn, region)
    options = _options(doc, _FILL_OPTIONS)
    return FillRequest(
        grid=grid, rows=rows, drawn=None if region is None else drawn, region=region,
        words=word_filter(options, index.total).word_filter(DEFAULTS["fill"]),
        seconds=seconds("time", options["time"], limits.job_seconds) if "time" in options
        else limits.default_seconds,
        seed=whole("seed", options["seed"], MIN_SEED, MAX_SEED) if "seed" in options else None,
        steps=whole("steps", options["steps"], 0) if "steps" in options else None,
        engine=_choice("engine", options.get("engine", "auto"), ENGINES),
        strategy=_choice("strategy", options.get("strategy", "auto"), STRATEGIES),
        rules=_rules(options, index))


def find_slot(grid: Grid, spec: Raw) -> Slot:
    """The slot of ``grid`` through the cell ``row``, ``col`` (0-based) in direction ``dir``
    (``across`` or ``down``)."""
    doc = _object(spec, "slot")
    _known(doc, {"row", "col", "dir"}, "slot")
    row = whole("slot row", doc.get("row", ""), 0, grid.height - 1)
    col = whole("slot col", doc.get("col", ""), 0, grid.width - 1)
    direction = _choice("slot dir", doc.get("dir", "across"), ("across", "down"))
    for slot in grid.slots:
        if slot.direction == direction and (row, col) in slot.cells:
            return slot
    raise StudioError(f"no {direction} slot runs through row {row}, column {col}")


def candidates_request(body: Raw, index: Index, limits: Limits) -> CandidatesRequest:
    """``POST /api/candidates``: ``{"grid", "slot": {"row", "col", "dir"}, "top", "time"}``
    (and the word filters, as a fill's)."""
    doc = _object(body, "the candidates request")
    known = {"grid", "slot", "top", "time", "words", "minfreq", "min_count", "min_score",
             "limit"}
    _known(doc, known, "the candidates request")
    grid, rows = read_grid(doc.get("grid"), limits)
    given = {k: v for k, v in doc.items() if v is not None}
    return CandidatesRequest(
        grid=grid, rows=rows, slot=find_slot(grid, doc.get("slot")),
        top=whole("top", given["top"], 1, 1000) if "top" in given else 50,
        seconds=seconds("time", given["time"], limits.candidates_seconds) if "time" in given
        else 2.0,
        words=word_filter(given, index.total).word_filter(DEFAULTS["fill"]))


def arrow_request(body: Raw, limits: Limits) -> ArrowRequest:
    """``POST /api/arrow``: ``{"width", "height", "options": {"seed", "time", "clues"}}``."""
    doc = _object(body, "the arrow request")
    _known(doc, {"width", "height", "options"}, "the arrow request")
    options = _options(doc, {"seed", "time", "clues"})
    return ArrowRequest(
        width=whole("width", doc.get("width", 12), ARROW_MIN, ARROW_MAX),
        height=whole("height", doc.get("height", 12), ARROW_MIN, ARROW_MAX),
        seed=whole("seed", options.get("seed", 0), 0, MAX_SEED),
        seconds=seconds("time", options["time"], limits.job_seconds) if "time" in options
        else limits.default_seconds,
        clues=_choice("clues", options.get("clues", "auto"), ("auto", "none")))


def export_request(body: Raw, limits: Limits) -> ExportRequest:
    """``POST /api/export/FORMAT``: ``{"grid", "clues": {word or slot: clue}, "title"}``; a
    grid whose every open cell has a letter is exported with that fill."""
    doc = _object(body, "the export request")
    _known(doc, {"grid", "clues", "title"}, "the export request")
    grid, _ = read_grid(doc.get("grid"), limits)
    title = text("title", doc.get("title") or "", 200)
    clues_doc = _object({} if doc.get("clues") is None else doc["clues"], "clues")
    full = grid.cells <= set(grid.given)
    fill = grid.words_of(grid.given) if full and grid.slots else None
    by_slot = {s.name: w for s, w in zip(grid.slots, fill or [])}
    clues: dict[str, str] = {}
    for key, clue in clues_doc.items():
        word = by_slot.get(key, normalize(str(key)))
        clues[word] = text(f"clue of {key}", clue, 500)
    return ExportRequest(grid=grid, fill=fill, clues=clues, title=title)
