"""Printed pages: PDF documents of crosswords and word squares, arrow-word puzzles and
cryptarithm sheets, each with its solution, set in the shipped DejaVu fonts.

:mod:`.choices` holds the paper sizes and layouts (without loading the PDF library);
:mod:`.document` the fonts and the canvas; :mod:`.typography` the language's quotation
marks, words and hyphenation; :mod:`.crosswords`, :mod:`.arrows` and :mod:`.sheets` lay out
the three kinds of puzzle.  Each returns the PDF as bytes: the caller writes it
(atomically).  The names are imported on first use: a command that prints no page does not
load reportlab.  This floor sits beside :mod:`cryptocomp.rendering`, above the engines whose
results it prints.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..lazy import lazy_exports

if TYPE_CHECKING:
    from .arrows import arrow_pdf
    from .choices import LAYOUTS, MAX_PRINTED, PAPERS, PageError, check_printable, paper_size
    from .crosswords import ClueEntry, book_clues, clue_entries, crossword_pdf, shipped_clues
    from .document import Document
    from .sheets import (
        MAX_SHEET,
        SheetEntry,
        composed_entries,
        difficulty_notes,
        sheet_pdf,
        solved_entry,
    )
    from .typography import QUOTES, break_points, curly, language_of, quoted, wrap

_HOMES = {
    "arrow_pdf": "arrows",
    **dict.fromkeys(["LAYOUTS", "PAPERS", "MAX_PRINTED", "PageError", "paper_size",
                     "check_printable"], "choices"),
    **dict.fromkeys(["ClueEntry", "clue_entries", "crossword_pdf", "book_clues",
                     "shipped_clues"], "crosswords"),
    "Document": "document",
    **dict.fromkeys(["SheetEntry", "sheet_pdf", "composed_entries", "solved_entry",
                     "difficulty_notes", "MAX_SHEET"], "sheets"),
    **dict.fromkeys(["QUOTES", "break_points", "curly", "language_of", "quoted", "wrap"],
                    "typography"),
}

__all__ = ["crossword_pdf", "clue_entries", "ClueEntry", "book_clues", "shipped_clues",
           "LAYOUTS", "arrow_pdf", "sheet_pdf", "SheetEntry", "composed_entries",
           "solved_entry", "difficulty_notes", "MAX_SHEET", "PAPERS", "MAX_PRINTED",
           "PageError", "paper_size", "check_printable", "Document", "QUOTES", "language_of",
           "quoted", "curly", "break_points", "wrap"]

__getattr__ = lazy_exports(__name__, _HOMES)
