"""Cryptarithm sheets: a page (or more) of puzzles with a box for each letter's digit,
then the answer key.

A puzzle is printed in capitals with the signs a printed sum uses (− × ÷), its letters
under it in order of appearance, each over an empty box for the solver's digit.  The key
gives, for each puzzle by number, the solution in digits, each letter's digit, and the
entry's ``notes`` (one paragraph a note, wrapped: a difficulty, the steps of a deduction).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from ..cryptarithm.compose import Composed
from ..cryptarithm.difficulty import Difficulty
from ..cryptarithm.solve import Solved
from .choices import PageError
from .document import Document, text_width
from .typography import curly, label, language_of, wrap

__all__ = ["SheetEntry", "sheet_pdf", "printed_puzzle", "composed_entries", "solved_entry",
           "difficulty_notes", "MAX_SHEET"]

MAX_SHEET = 1000  # puzzles a sheet: more is a book, not a handout
_SIGNS = {"+": " + ", "-": " − ", "*": " × ", "/": " ÷ ", "=": " = "}
_BOX = 20.0
_PUZZLE_SIZE = 15.0
_NOTE_SIZE = 9.0


@dataclass(frozen=True)
class SheetEntry:
    """One puzzle of a sheet: the puzzle in letters (``send+more=money``), its solution in
    digits (``9567+1085=10652``), each letter's digit, and lines the answer key adds."""

    puzzle: str
    solution: str
    assignment: Mapping[str, int]
    notes: Sequence[str] = ()


def composed_entries(composed: Sequence[Composed],
                     notes: Sequence[Sequence[str]] | None = None) -> list[SheetEntry]:
    """A sheet entry for each composed puzzle (its unique solution in the key), with the
    key's ``notes`` of each when given."""
    extra = notes if notes is not None else [() for _ in composed]
    return [SheetEntry(c.puzzle, c.solution, dict(c.assignment), tuple(n))
            for c, n in zip(composed, extra)]


def solved_entry(solved: Solved, notes: Sequence[str] = ()) -> SheetEntry:
    """The sheet entry of a solved puzzle: its first solution, a note of how many there
    are when more than one, then ``notes``."""
    if not solved.count:
        raise PageError(f"{solved.puzzle}: no solution, so no puzzle to print")
    count = [] if solved.count == 1 else [
        label(language_of([solved.puzzle]), "one_of").format(n=f"{solved.count:,}")]
    return SheetEntry(solved.puzzle, solved.equations[0], dict(solved.solutions[0]),
                      [*count, *notes])


def difficulty_notes(puzzle: str, difficulty: Difficulty,
                     steps: Sequence[str] = ()) -> list[str]:
    """The key's notes on a puzzle: its difficulty level (in the puzzle's language), then
    the numbered ``steps`` of its explanation."""
    lang = language_of([puzzle])
    head = label(lang, "unrated") if difficulty.level is None else \
        label(lang, "difficulty").format(level=difficulty.level)
    return [head, *steps]


def printed_puzzle(text: str) -> str:
    """``send+more=money`` as printed: ``SEND + MORE = MONEY`` (− × ÷ for - * /)."""
    return "".join(_SIGNS.get(ch, ch) for ch in text.upper() if not ch.isspace())


def _letters(puzzle: str) -> list[str]:
    """The puzzle's letters in order of first appearance."""
    seen: dict[str, None] = {}
    for ch in puzzle:
        if ch.isalpha():
            seen.setdefault(ch.lower(), None)
    return list(seen)


def _fitted(text: str, width: float, size: float) -> float:
    """``size``, or the smaller size at which bold ``text`` fits ``width``."""
    wide = text_width(text, size, bold=True)
    return size if wide <= width else size * width / wide


def _puzzle_block(doc: Document, number: int, entry: SheetEntry, y: float) -> float:
    """Puzzle ``number`` with its letter boxes under ``y``; the y under it."""
    text = printed_puzzle(entry.puzzle)
    size = _fitted(text, doc.usable_width - 26, _PUZZLE_SIZE)
    doc.text(doc.left, y - _PUZZLE_SIZE, f"{number}.", 11, bold=True)
    doc.text(doc.left + 26, y - _PUZZLE_SIZE, text, size, bold=True)
    y -= _PUZZLE_SIZE + 8
    step = _BOX * 1.6
    per_row = max(1, int((doc.usable_width - 26) // step))
    letters = _letters(entry.puzzle)
    for k, letter in enumerate(letters):
        row, col = divmod(k, per_row)
        x = doc.left + 26 + col * step
        top = y - row * (_BOX + 16)
        doc.text(x + _BOX / 2, top - 9, letter.upper(), 9, align="centre")
        doc.canvas.rect(x, top - 12 - _BOX, _BOX, _BOX, stroke=1, fill=0)
    rows = -(-len(letters) // per_row) if letters else 0
    return y - rows * (_BOX + 16) - 10


def _block_height(entry: SheetEntry, per_row: int) -> float:
    """The height :func:`_puzzle_block` takes."""
    rows = -(-len(_letters(entry.puzzle)) // per_row)
    return _PUZZLE_SIZE + 8 + rows * (_BOX + 16) + 10


def _key_lines(entry: SheetEntry, width: float) -> list[tuple[str, bool]]:
    """The key's lines for one entry: (text, bold)."""
    language = language_of([entry.puzzle])

    def measure(s: str) -> float:
        return text_width(s, _NOTE_SIZE)

    digits = "  ".join(f"{ch.upper()}={d}" for ch, d in sorted(entry.assignment.items(),
                                                               key=lambda x: x[1]))
    out = [(printed_puzzle(entry.solution), True)]
    out += [(line, False) for line in wrap(digits, width, measure)]
    for note in entry.notes:
        out += [(line, False) for line in wrap(curly(note, language), width, measure,
                                               eager=True)]
    return out


def _answer_key(doc: Document, entries: Sequence[SheetEntry], language: str) -> None:
    """The key, from a fresh page."""
    doc.new_page()
    y = doc.heading(label(language, "sheet_key"), doc.top)
    width = doc.usable_width - 26
    lead = _NOTE_SIZE * 1.35
    for number, entry in enumerate(entries, 1):
        lines = _key_lines(entry, width)
        need = 14 + lead * len(lines) + 8
        if y - need < doc.bottom:
            doc.new_page()
            y = doc.top
        doc.text(doc.left, y - 11, f"{number}.", 10, bold=True)
        puzzle = printed_puzzle(entry.puzzle)
        doc.text(doc.left + 26, y - 11, puzzle, _fitted(puzzle, width, 10))
        y -= 14
        for text, bold in lines:
            y -= lead
            size = _fitted(text, width, _NOTE_SIZE + 1) if bold else _NOTE_SIZE
            doc.text(doc.left + 26, y + 3, text, size, bold=bold)
        y -= 8


def sheet_pdf(entries: Sequence[SheetEntry], *, paper: str = "a4", title: str = "") -> bytes:
    """A PDF of ``entries``: the puzzles with their letter boxes, then the answer key."""
    if not entries:
        raise PageError("no cryptarithm to print")
    if len(entries) > MAX_SHEET:
        raise PageError(f"{len(entries):,} puzzles: a sheet prints at most {MAX_SHEET:,} "
                        f"(choose fewer)")
    language = language_of(e.puzzle for e in entries)
    name = title or label(language, "sheet")
    doc = Document(paper, name)
    y = doc.heading(name, doc.top) - 4
    rule = wrap(label(language, "sheet_rule"), doc.usable_width, lambda s: text_width(s, 9))
    for line in rule:
        doc.text(doc.left, y, line, 9)
        y -= 12
    y -= 8
    per_row = max(1, int((doc.usable_width - 26) // (_BOX * 1.6)))
    for number, entry in enumerate(entries, 1):
        if y - _block_height(entry, per_row) < doc.bottom:
            doc.new_page()
            y = doc.top
        y = _puzzle_block(doc, number, entry, y)
    _answer_key(doc, entries, language)
    return doc.finish()
