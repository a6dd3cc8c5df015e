"""Printed pages: PDF documents of crosswords and word squares, arrow-word puzzles and
cryptarithm sheets, each with its solution, set in the shipped DejaVu fonts.

:mod:`.document` holds the paper sizes, the fonts and the canvas; :mod:`.typography` the
language's quotation marks, words and hyphenation; :mod:`.crosswords`, :mod:`.arrows` and
:mod:`.sheets` lay out the three kinds of puzzle.  Each returns the PDF as bytes: the
caller writes it (atomically).  This floor sits beside :mod:`cryptocomp.rendering`, above
the engines whose results it prints.
"""

from __future__ import annotations

from .arrows import arrow_pdf
from .crosswords import LAYOUTS, ClueEntry, clue_entries, crossword_pdf
from .document import PAPERS, Document, PageError, paper_size
from .sheets import SheetEntry, sheet_pdf
from .typography import QUOTES, break_points, curly, language_of, quoted, wrap

__all__ = ["crossword_pdf", "clue_entries", "ClueEntry", "LAYOUTS", "arrow_pdf",
           "sheet_pdf", "SheetEntry", "PAPERS", "PageError", "Document", "paper_size",
           "QUOTES", "language_of", "quoted", "curly", "break_points", "wrap"]
