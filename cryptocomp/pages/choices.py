"""What a page offers to choose, kept free of the PDF library so that a command line can
list the choices without loading it: the paper sizes, the crossword layouts, and the error a
bad choice (or a page that cannot be made) raises."""

from __future__ import annotations

from ..errors import CryptocompError

__all__ = ["PageError", "PAPERS", "LAYOUTS", "paper_size"]

_MM = 72 / 25.4  # PostScript points a millimetre
# the paper sizes a page is laid out for, (width, height) in PostScript points (1/72 inch)
PAPERS: dict[str, tuple[float, float]] = {"a4": (210 * _MM, 297 * _MM),
                                          "letter": (8.5 * 72, 11 * 72)}
# the crossword layouts (see cryptocomp.pages.crosswords)
LAYOUTS = ("puzzle", "submission")


class PageError(CryptocompError):
    """A page cannot be made: an unknown paper size or layout, nothing to print, a missing
    font."""


def paper_size(name: str) -> tuple[float, float]:
    """(width, height) in points of the paper called ``name`` (``a4`` or ``letter``)."""
    try:
        return PAPERS[name.lower()]
    except KeyError:
        raise PageError(f"unknown paper size {name!r} (expected one of "
                        f"{', '.join(PAPERS)})") from None
