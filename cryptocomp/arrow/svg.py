"""SVG drawings of arrow-word puzzles, as a publisher prints them.

Clue cells carry their clue text, wrapped and sized to fit (a cell defining two
words is split: the across clue above, the down clue below), and an arrow in
the first letter cell of each word.  Without clues (``--clues none``) a clue
cell shows its number.  Letter cells are empty (the puzzle) or hold their
letters (the solution); hidden-solution cells are shaded and numbered in
reading order, and numbered solution boxes, grouped by the phrase's words, sit
under the grid.
"""

from __future__ import annotations

from xml.sax.saxutils import escape

from .puzzle import ArrowPuzzle, ArrowWord

__all__ = ["arrow_svg", "wrap_clue", "solution_layout"]

_CELL = 64.0  # px a cell
_FONT = "DejaVu Sans Condensed, Arial Narrow, Liberation Sans Narrow, sans-serif"
_CLUE_FILL = "#dbe5f1"
_DEAD_FILL = "#b9c7d8"
_HIDDEN_FILL = "#ffe08a"
_LINE = "#1f2d3d"
_WIDTH_EM = 0.5  # average advance of a condensed sans-serif character, in em
_WIDE = set("MWmw@%")
_NARROW = set("ilj.,;:'!|() -")


def _text_width(text: str, size: float) -> float:
    """Estimated width of ``text`` at font ``size`` px (condensed sans-serif)."""
    units = 0.0
    for ch in text:
        units += 0.8 if ch in _WIDE else 0.3 if ch in _NARROW else (
            0.6 if ch.isupper() else _WIDTH_EM)
    return units * size


def _split_long(word: str, width: float, size: float) -> list[str]:
    """A word too wide for a line, cut into hyphenated pieces of at least 3 letters."""
    parts, rest = [], word
    while _text_width(rest, size) > width and len(rest) >= 6:
        cut = 3
        while cut + 1 <= len(rest) - 3 and _text_width(rest[:cut + 1] + "-", size) <= width:
            cut += 1
        parts.append(rest[:cut] + "-")
        rest = rest[cut:]
    parts.append(rest)
    return parts


def _wrap(text: str, width: float, size: float, hyphenate: bool) -> list[str] | None:
    """Greedy lines of ``text`` at ``size``; None when a word is too wide and may not be cut."""
    lines: list[str] = []
    for word in text.split():
        pieces = [word]
        if _text_width(word, size) > width:
            if not hyphenate:
                return None
            pieces = _split_long(word, width, size)
        for piece in pieces:
            if lines and not lines[-1].endswith("-") \
                    and _text_width(lines[-1] + " " + piece, size) <= width:
                lines[-1] += " " + piece
            else:
                lines.append(piece)
    return lines


def wrap_clue(text: str, width: float, height: float, *, largest: float = 11.0,
              smallest: float = 6.0) -> tuple[float, list[str]]:
    """(font size, lines): the largest size at which ``text`` wraps into the box with whole
    words; failing that, hyphenated words (pieces of 3+ letters) at the largest size that
    fits; at worst the smallest size."""
    for hyphenate in (False, True):
        size = largest
        while size >= smallest:
            lines = _wrap(text, width, size, hyphenate)
            if lines is not None and len(lines) * size * 1.08 <= height:
                return size, lines
            size = round(size - 0.5, 2)
    return smallest, _wrap(text, width, smallest, True) or [text]


def _clue_text(x: float, y: float, w: float, h: float, text: str) -> list[str]:
    size, lines = wrap_clue(text, w - 4, h - 2)
    lead = size * 1.08
    top = y + (h - lead * len(lines)) / 2 + size * 0.85
    out = [f'<text x="{x + w / 2:.1f}" y="{top:.1f}" font-size="{size:.1f}" '
           f'text-anchor="middle">']
    for i, line in enumerate(lines):
        dy = 0 if i == 0 else lead
        out.append(f'<tspan x="{x + w / 2:.1f}" dy="{dy:.1f}">{escape(line)}</tspan>')
    out.append("</text>")
    return ["".join(out)]


def _arrow(word: ArrowWord, cell: float, part: tuple[float, float] | None) -> str:
    """A small filled triangle in the word's first cell, at the edge next to its clue."""
    x, y = word.col * cell, word.row * cell
    s = cell * 0.11
    if word.direction == "across":
        cy = part[0] + part[1] / 2 if part else y + cell / 2
        pts = [(x, cy - s), (x + s * 1.2, cy), (x, cy + s)]
    else:
        cx = x + cell / 2
        pts = [(cx - s, y), (cx, y + s * 1.2), (cx + s, y)]
    return ('<polygon points="' + " ".join(f"{a:.1f},{b:.1f}" for a, b in pts)
            + f'" fill="{_LINE}"/>')


def arrow_svg(puzzle: ArrowPuzzle, *, solution: bool = False, cell: float = _CELL,
              title: str | None = None) -> str:
    """The puzzle as an SVG document; ``solution`` writes the letters in."""
    w, h = puzzle.width, puzzle.height
    margin = 12.0
    numbers = puzzle.numbers()
    hidden = {c: i for i, c in enumerate(puzzle.hidden.cells, 1)} if puzzle.hidden else {}
    box = cell * 0.62
    phrase_words = puzzle.hidden.phrase.split() if puzzle.hidden else []
    per_row = max(1, int((w * cell) // (box * 1.1)))
    boxes = solution_layout(phrase_words, puzzle.hidden is not None, per_row)
    box_rows = (max(r for r, _ in boxes) + 1) if boxes else 0
    head = 24.0 if title else 0.0
    grid_top = margin + head
    boxes_h = box_rows * box * 1.25 + 24 if box_rows else 0
    # an unclued puzzle's solution sheet lists its answers, for the author writing the clues
    answers = _answer_lines(puzzle) if solution and any(
        word.clue is None for word in puzzle.words) else []
    columns = max(1, int((w * cell) // 150))
    answer_rows = -(-len(answers) // columns) if answers else 0
    answers_h = answer_rows * 15 + 20 if answers else 0
    total_h = grid_top + h * cell + boxes_h + answers_h + margin
    total_w = w * cell + 2 * margin
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{total_w:.0f}" '
           f'height="{total_h:.0f}" viewBox="0 0 {total_w:.0f} {total_h:.0f}" '
           f'font-family="{_FONT}">',
           f'<rect width="{total_w:.0f}" height="{total_h:.0f}" fill="white"/>']
    if title:
        out.append(f'<text x="{margin}" y="{margin + 16}" font-size="16" '
                   f'font-weight="bold">{escape(title)}</text>')
    out.append(f'<g transform="translate({margin},{grid_top})">')
    arrows = []
    for r in range(h):
        for c in range(w):
            x, y = c * cell, r * cell
            ch = puzzle.grid[r][c]
            if ch != "#":
                fill = _HIDDEN_FILL if (r, c) in hidden else "white"
                out.append(f'<rect x="{x:.1f}" y="{y:.1f}" width="{cell:.1f}" '
                           f'height="{cell:.1f}" fill="{fill}" stroke="{_LINE}" '
                           f'stroke-width="1"/>')
                if (r, c) in hidden:
                    out.append(f'<text x="{x + cell - 3:.1f}" y="{y + cell - 4:.1f}" '
                               f'font-size="{cell * 0.2:.1f}" text-anchor="end" '
                               f'fill="#7a5200">{hidden[(r, c)]}</text>')
                if solution:
                    out.append(f'<text x="{x + cell / 2:.1f}" y="{y + cell * 0.68:.1f}" '
                               f'font-size="{cell * 0.5:.1f}" text-anchor="middle" '
                               f'font-weight="bold">{escape(ch.upper())}</text>')
                continue
            defined = puzzle.clues_at((r, c))
            fill = _CLUE_FILL if defined else _DEAD_FILL
            out.append(f'<rect x="{x:.1f}" y="{y:.1f}" width="{cell:.1f}" height="{cell:.1f}" '
                       f'fill="{fill}" stroke="{_LINE}" stroke-width="1"/>')
            parts = [(y, cell)] if len(defined) <= 1 else [(y, cell / 2), (y + cell / 2, cell / 2)]
            if len(defined) == 2:
                out.append(f'<line x1="{x:.1f}" y1="{y + cell / 2:.1f}" x2="{x + cell:.1f}" '
                           f'y2="{y + cell / 2:.1f}" stroke="{_LINE}" stroke-width="0.6"/>')
            for word, (py, ph) in zip(defined, parts):
                text = word.clue if word.clue is not None else str(numbers[(r, c)])
                if word.clue is None and len(defined) == 2:
                    text = f"{numbers[(r, c)]}{'→' if word.direction == 'across' else '↓'}"
                out.extend(_clue_text(x, py, cell, ph, text))
                arrows.append(_arrow(word, cell, (py, ph) if len(defined) == 2 else None))
    out.extend(arrows)
    out.append(f'<rect x="0" y="0" width="{w * cell:.1f}" height="{h * cell:.1f}" fill="none" '
               f'stroke="{_LINE}" stroke-width="2.5"/>')
    out.append("</g>")
    if boxes and puzzle.hidden:
        letters = [puzzle.grid[r][c].upper() for r, c in puzzle.hidden.cells]
        top = grid_top + h * cell + 18
        out.append(f'<text x="{margin}" y="{top - 4:.1f}" font-size="11">Solution: the '
                   f'shaded cells in reading order</text>')
        for k, (row, col) in enumerate(boxes):
            bx, by = margin + col * box * 1.1, top + 4 + row * box * 1.25
            out.append(f'<rect x="{bx:.1f}" y="{by:.1f}" width="{box:.1f}" height="{box:.1f}" '
                       f'fill="white" stroke="{_LINE}" stroke-width="1"/>')
            out.append(f'<text x="{bx + 2:.1f}" y="{by + box * 0.28:.1f}" '
                       f'font-size="{box * 0.24:.1f}" fill="#7a5200">{k + 1}</text>')
            if solution and k < len(letters):
                out.append(f'<text x="{bx + box / 2:.1f}" y="{by + box * 0.78:.1f}" '
                           f'font-size="{box * 0.55:.1f}" text-anchor="middle" '
                           f'font-weight="bold">{escape(letters[k])}</text>')
    if answers:
        top = grid_top + h * cell + boxes_h + 24
        step = (w * cell) / columns
        for k, line in enumerate(answers):
            col, row = divmod(k, answer_rows)
            out.append(f'<text x="{margin + col * step:.1f}" y="{top + row * 15:.1f}" '
                       f'font-size="11">{escape(line)}</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _answer_lines(puzzle: ArrowPuzzle) -> list[str]:
    """'12→ WORD' for every word, by clue-cell number, across first."""
    numbers = puzzle.numbers()
    words = sorted(puzzle.words, key=lambda x: (numbers[x.clue_cell], x.direction != "across"))
    return [f"{numbers[x.clue_cell]}{'→' if x.direction == 'across' else '↓'} {x.word.upper()}"
            for x in words]


def solution_layout(phrase_words: list[str], present: bool,
                     per_row: int) -> list[tuple[int, int]]:
    """(row, column) of each solution box: the phrase's words side by side with a gap,
    a word moved to the next row when it does not fit."""
    if not present:
        return []
    out: list[tuple[int, int]] = []
    row, col = 0, 0
    for word in phrase_words:
        n = sum(1 for ch in word if ch.isalpha())
        if n == 0:
            continue
        if col and col + n > per_row:
            row, col = row + 1, 0
        for _ in range(n):
            if col >= per_row:
                row, col = row + 1, 0
            out.append((row, col))
            col += 1
        col += 1  # the gap between words
    return out
