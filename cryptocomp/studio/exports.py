"""The studio's exports: a grid (filled or not) as .puz, .ipuz, .jpz, SVG or PDF bytes.

The writers are the CLI's (:mod:`cryptocomp.crossword` and :mod:`cryptocomp.pages`); this
module only picks one and names the file and its media type.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass

from ..errors import CryptocompError
from .bodies import ExportRequest
from .settings import StudioError

__all__ = ["Export", "FORMATS", "export"]


@dataclass(frozen=True)
class Export:
    """A file to send: its bytes, media type and name."""

    data: bytes
    media_type: str
    filename: str


def _puz(req: ExportRequest) -> bytes:
    from ..crossword.puz import to_puz
    from ..crossword.puzzle import puzzle_of

    return to_puz(puzzle_of(req.grid, req.fill, clues=req.clues, title=req.title))


def _jpz(req: ExportRequest) -> bytes:
    from ..crossword.jpz import to_jpz
    from ..crossword.puzzle import puzzle_of

    return to_jpz(puzzle_of(req.grid, req.fill, clues=req.clues, title=req.title))


def _ipuz(req: ExportRequest) -> bytes:
    from ..crossword.ipuz import to_ipuz

    doc = to_ipuz(req.grid, req.fill, clues=req.clues, title=req.title)
    return (json.dumps(doc, ensure_ascii=False, indent=1) + "\n").encode()


def _svg(req: ExportRequest) -> bytes:
    from ..crossword.svg import to_svg

    letters = req.grid.letters_of(req.fill) if req.fill else dict(req.grid.given) or None
    return to_svg(req.grid, letters).encode()


def _pdf(req: ExportRequest) -> bytes:
    from ..pages import crossword_pdf, shipped_clues
    from ..pages.choices import check_printable

    check_printable(req.grid.width, req.grid.height)
    clues = req.clues or (shipped_clues(req.fill) if req.fill else None)
    return crossword_pdf(req.grid, req.fill, clues=clues, title=req.title)


# format -> (writer, media type)
FORMATS: dict[str, tuple[Callable[[ExportRequest], bytes], str]] = {
    "puz": (_puz, "application/x-crossword"),
    "ipuz": (_ipuz, "application/json"),
    "jpz": (_jpz, "application/xml"),
    "svg": (_svg, "image/svg+xml"),
    "pdf": (_pdf, "application/pdf"),
}


def _file_stem(title: str) -> str:
    stem = re.sub(r"[^A-Za-z0-9_-]+", "-", title).strip("-")[:60]
    return stem or "crossword"


def export(fmt: str, req: ExportRequest) -> Export:
    """The file of ``req`` in format ``fmt`` (StudioError for an unknown format or a grid
    the format cannot hold)."""
    if fmt not in FORMATS:
        raise StudioError(f"unknown export format {fmt[:20]!r} (one of "
                          f"{', '.join(FORMATS)})", 404)
    write, media = FORMATS[fmt]
    try:
        data = write(req)
    except CryptocompError as exc:
        raise StudioError(str(exc)) from None
    return Export(data, media, f"{_file_stem(req.title)}.{fmt}")
