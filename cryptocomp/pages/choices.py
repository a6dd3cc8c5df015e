"""What a page offers to choose, kept free of the PDF library so that a command line can
list the choices without loading it: the paper sizes, the crossword layouts, and the error a
bad choice (or a page that cannot be made) raises."""

from __future__ import annotations

from ..errors import CryptocompError

__all__ = ["PageError", "PAPERS", "LAYOUTS", "MAX_PRINTED", "paper_size", "check_printable"]

_MM = 72 / 25.4  # PostScript points a millimetre
# the paper sizes a page is laid out for, (width, height) in PostScript points (1/72 inch)
PAPERS: dict[str, tuple[float, float]] = {"a4": (210 * _MM, 297 * _MM),
                                          "letter": (8.5 * 72, 11 * 72)}
# the crossword layouts (see cryptocomp.pages.crosswords)
LAYOUTS = ("puzzle", "submission")
# cells a side of a grid printed on one page: more and a cell is too small to write in
MAX_PRINTED = 50


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


def check_printable(width: int, height: int) -> None:
    """Raise PageError unless a width x height grid fits a page legibly."""
    if max(width, height) > MAX_PRINTED:
        raise PageError(f"a {width}x{height} grid is too large to print on a page (at most "
                        f"{MAX_PRINTED} cells a side)")
