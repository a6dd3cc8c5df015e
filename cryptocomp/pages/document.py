"""A PDF document under way: the paper, the shipped fonts, the canvas and its pages.

Every page is set in DejaVu Sans and DejaVu Sans Bold, shipped in ``cryptocomp/data/fonts/``
with their licence (they cover Latin and Cyrillic).  reportlab embeds the subset of glyphs a
document uses, and writes text as text: a reader can select it, search it and copy it.  The
fonts are read from the package, never from the system, so that a page looks the same on
every machine.  A document is written with reportlab's ``invariant`` mode: the same puzzle
gives the same bytes (no creation date, no random document id).
"""

from __future__ import annotations

import functools
import io
from dataclasses import dataclass, field

from reportlab import rl_config
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFError, TTFont
from reportlab.pdfgen.canvas import Canvas

from ..shipped import shipped
from .choices import PageError, paper_size

__all__ = ["Document", "MARGIN", "REGULAR", "BOLD", "INK", "text_width"]

MARGIN = 42.0  # points around the printed area: room for any office printer's margins
REGULAR = "DejaVuSans"
BOLD = "DejaVuSans-Bold"
_FILES = {REGULAR: "fonts/DejaVuSans.ttf", BOLD: "fonts/DejaVuSans-Bold.ttf"}
INK = (0.12, 0.18, 0.24)  # the lines and text of a page: a near-black that prints crisply


@functools.cache
def _register_fonts() -> None:
    """Register the shipped fonts with reportlab once a process (and write its streams
    binary: ASCII85 text would make each page larger and slower to write, for mail systems
    of the past that no PDF travels through now)."""
    rl_config.useA85 = 0
    registered = set(pdfmetrics.getRegisteredFontNames())
    for name, relative in _FILES.items():
        if name in registered:
            continue
        path = shipped(relative)
        if not path.is_file():
            raise PageError(f"the shipped font {relative} is missing ({path}); reinstall "
                            f"cryptocomp")
        try:
            pdfmetrics.registerFont(TTFont(name, str(path)))
        except (TTFError, OSError) as exc:
            raise PageError(f"the shipped font {relative} is unreadable ({exc}); reinstall "
                            f"cryptocomp") from None


# the same few words are measured again and again (clue lists, sizes tried for a clue
# cell), and reportlab measures them in Python
@functools.lru_cache(maxsize=1 << 16)
def text_width(text: str, size: float, *, bold: bool = False) -> float:
    """The width in points of ``text`` set in the page font at ``size``."""
    _register_fonts()
    return pdfmetrics.stringWidth(text, BOLD if bold else REGULAR, size)


@dataclass
class Document:
    """A PDF being drawn: its canvas, page size and printed area."""

    paper: str = "a4"
    title: str = ""
    width: float = field(init=False)
    height: float = field(init=False)
    canvas: Canvas = field(init=False, repr=False)
    _buffer: io.BytesIO = field(init=False, repr=False)

    def __post_init__(self) -> None:
        self.width, self.height = paper_size(self.paper)
        _register_fonts()
        self._buffer = io.BytesIO()
        self.canvas = Canvas(self._buffer, pagesize=(self.width, self.height),
                             invariant=True, pageCompression=1)
        self.canvas.setTitle(self.title)
        self.canvas.setCreator("cryptocomp")
        self.reset_ink()

    @property
    def left(self) -> float:
        return MARGIN

    @property
    def right(self) -> float:
        return self.width - MARGIN

    @property
    def top(self) -> float:
        return self.height - MARGIN

    @property
    def bottom(self) -> float:
        return MARGIN

    @property
    def usable_width(self) -> float:
        return self.width - 2 * MARGIN

    def reset_ink(self) -> None:
        """Back to the ink and font a page starts with (after a shaded cell, a grey line)."""
        c = self.canvas
        c.setStrokeColorRGB(*INK)
        c.setFillColorRGB(*INK)
        c.setFont(REGULAR, 10)

    def new_page(self) -> None:
        """End the page drawn so far and start the next."""
        self.canvas.showPage()
        self.reset_ink()

    def heading(self, text: str, y: float, *, size: float = 16) -> float:
        """A bold heading whose baseline is ``size`` below ``y``; the y under it."""
        c = self.canvas
        c.setFont(BOLD, size)
        c.drawString(self.left, y - size, text)
        c.setFont(REGULAR, 10)
        return y - size * 1.6

    def text(self, x: float, y: float, text: str, size: float, *, bold: bool = False,
             align: str = "left", grey: bool = False) -> None:
        """``text`` with its baseline at ``y``, starting at, centred on or ending at ``x``."""
        c = self.canvas
        c.setFont(BOLD if bold else REGULAR, size)
        if grey:
            c.setFillColorRGB(0.45, 0.45, 0.45)
        draw = {"left": c.drawString, "centre": c.drawCentredString,
                "right": c.drawRightString}[align]
        draw(x, y, text)
        if grey:
            c.setFillColorRGB(*INK)

    def finish(self) -> bytes:
        """The whole document as PDF bytes (the last page ended)."""
        self.canvas.showPage()
        self.canvas.save()
        return self._buffer.getvalue()
