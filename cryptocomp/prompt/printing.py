"""``:pdf FILE [a4|letter]``: the last compose or solve result printed as a cryptarithm
sheet (:mod:`cryptocomp.pages.sheets`), the puzzles shown (``:top``) with their boxes, then
the answer key."""

from __future__ import annotations

import os
from pathlib import Path

from ..errors import QueryError
from ..files import shown, write_atomic
from ..rendering import Result, plural

__all__ = ["print_sheet", "USAGE"]

USAGE = "usage: :pdf FILE.pdf [a4|letter]"


def _target(arg: str) -> tuple[Path, str]:
    """The file and the paper size of ``:pdf``'s argument (a path may hold spaces)."""
    from ..pages import PAPERS

    head, _, last = arg.rpartition(" ")
    if head.strip() and last.lower() in PAPERS:
        return Path(os.path.expanduser(head.strip())), last.lower()
    if not arg or arg.lower() in PAPERS:
        raise QueryError(USAGE)
    return Path(os.path.expanduser(arg)), "a4"


def print_sheet(result: Result | None, arg: str, top: int | None) -> str:
    """Write the sheet of ``result`` (its first ``top`` puzzles, all for None) to the file
    ``arg`` names; the message saying so."""
    from ..cryptarithm.solve import Solved
    from ..pages import MAX_SHEET, SheetEntry, difficulty_notes, sheet_pdf, solved_entry

    path, paper = _target(arg.strip())
    if result is None or result.kind == "words" or not result.rows:
        raise QueryError(":pdf prints puzzles: compose or solve one first")
    if result.kind == "solve":
        first = result.rows[0]
        notes = [] if result.difficulty is None else \
            difficulty_notes(result.title, result.difficulty)
        entries = [solved_entry(Solved(result.title, result.total, [dict(first.assignment or {})],
                                       [first.solution]), notes)]
    else:
        rows = result.rows[:min(top or MAX_SHEET, MAX_SHEET)]
        entries = [SheetEntry(r.puzzle, r.solution, dict(r.assignment or {}),
                              [] if r.difficulty is None else
                              difficulty_notes(r.puzzle, r.difficulty)) for r in rows]
    write_atomic(path, sheet_pdf(entries, paper=paper))
    part = f" (the first of {len(result.rows):,})" if len(entries) < len(result.rows) \
        and result.kind == "compose" else ""
    return (f"printed {plural(len(entries), 'puzzle')}{part} and the answer key to "
            f"{shown(path)}")
