"""The PDF options every puzzle command shares (``--pdf``, ``--paper``, ``--layout``): their
arguments, the check before the work and the write after it (:mod:`cryptocomp.pages` draws
the pages; a command writes them with :func:`cryptocomp.files.write_atomic`)."""

from __future__ import annotations

import argparse

from ..files import check_writable
from ..pages.choices import LAYOUTS, PAPERS

__all__ = ["add_pdf_options", "check_pdf"]


def add_pdf_options(p: argparse.ArgumentParser, what: str, *, layout: bool = False) -> None:
    """``--pdf FILE`` and ``--paper`` (and ``--layout`` for crosswords), one group."""
    g = p.add_argument_group("PDF pages")
    g.add_argument("--pdf", metavar="FILE", help=f"write {what} as a PDF, the solution on "
                                                 f"its own page")
    g.add_argument("--paper", choices=tuple(PAPERS), default="a4",
                   help="the PDF's paper size (default a4)")
    if layout:
        g.add_argument("--layout", choices=LAYOUTS, default="puzzle",
                       help="the PDF: the grid with the clues in columns (puzzle, the "
                            "default), or grid, numbered clues with the answers on the "
                            "right, solution (submission, as newspapers ask)")


def check_pdf(args: argparse.Namespace) -> None:
    """Fail before the work when the PDF cannot be written (no such directory)."""
    if args.pdf:
        check_writable(args.pdf)
