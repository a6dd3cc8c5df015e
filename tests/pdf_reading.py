"""Reading PDF pages back for the tests (pypdf): the text of a page, where each piece of it
stands, the paper size, the fonts embedded."""

from __future__ import annotations

import io
from typing import NamedTuple

from pypdf import PdfReader


class Piece(NamedTuple):
    text: str
    x: float
    y: float
    size: float


def reader(data: bytes) -> PdfReader:
    return PdfReader(io.BytesIO(data))


def page_texts(data: bytes) -> list[str]:
    return [page.extract_text() for page in reader(data).pages]


def pieces(page) -> list[Piece]:
    """Every string drawn on the page, with its origin and font size (the page's own
    coordinates: reportlab draws without scaling)."""
    out: list[Piece] = []

    def visit(text, cm, tm, font, size):
        if text.strip():
            out.append(Piece(text, tm[4] * cm[0] + cm[4], tm[5] * cm[3] + cm[5], size))

    page.extract_text(visitor_text=visit)
    return out


def letter_rows(page) -> list[str]:
    """The single letters set in the page's largest size, row by row from the top, each
    row left to right: a solution grid's letters."""
    letters = [p for p in pieces(page) if len(p.text.strip()) == 1 and p.text.strip().isalpha()]
    biggest = max(p.size for p in letters)
    letters = [p for p in letters if abs(p.size - biggest) < 0.01]
    rows: dict[int, list[Piece]] = {}
    for p in letters:
        rows.setdefault(round(p.y), []).append(p)
    return ["".join(p.text.strip() for p in sorted(row, key=lambda p: p.x))
            for _, row in sorted(rows.items(), key=lambda kv: -kv[0])]


def flat(text: str) -> str:
    """Text without spaces, line breaks and hyphens: a clue wrapped and hyphenated in a cell
    reads as the clue did."""
    return "".join(ch for ch in text if not ch.isspace() and ch not in "-‐")


def embedded_fonts(data: bytes) -> set[str]:
    """The base names of the fonts whose file is embedded, over every page."""
    names = set()
    for page in reader(data).pages:
        fonts = page["/Resources"].get("/Font", {})
        for ref in fonts.values():
            font = ref.get_object()
            for desc in [font.get("/FontDescriptor")] + [
                    d.get_object().get("/FontDescriptor")
                    for d in font.get("/DescendantFonts", [])]:
                if desc is not None and "/FontFile2" in desc.get_object():
                    names.add(str(font["/BaseFont"]))
    return names


def paper(data: bytes) -> set[tuple[int, int]]:
    """The (width, height) of every page, in whole points."""
    return {(round(float(p.mediabox.width)), round(float(p.mediabox.height)))
            for p in reader(data).pages}
