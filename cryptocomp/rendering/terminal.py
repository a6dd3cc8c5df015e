"""Rich output turned into ANSI text, and an error shown as its line (with a caret under
the faulty column of an expression), for the prompt's screen and its line mode."""

from __future__ import annotations

import io
import unicodedata
from typing import TYPE_CHECKING, Literal

from ..errors import CryptocompError, ExpressionError

if TYPE_CHECKING:
    from rich.console import RenderableType

__all__ = ["ColorSystem", "render_ansi", "error_text", "banner_text"]

ColorSystem = Literal["auto", "standard", "256", "truecolor", "windows"]  # rich's names


def render_ansi(renderable: RenderableType, *, width: int = 100,
                color_system: ColorSystem | None = "standard", soft_wrap: bool = False) -> str:
    """Render rich output to a string of ANSI text (prompt_toolkit prints it cleanly)."""
    from rich.console import Console

    out = io.StringIO()
    console = Console(file=out, force_terminal=color_system is not None,
                      color_system=color_system, width=width, legacy_windows=False,
                      highlight=False, emoji=False)
    # soft_wrap: one logical line stays one line (the terminal wraps it), tables don't
    console.print(renderable, soft_wrap=soft_wrap)
    return out.getvalue().rstrip("\n")


def error_text(exc: CryptocompError, width: int | None = None) -> str:
    """An error as its one line, plus the expression and a caret for a bad expression.

    With a ``width`` (the terminal's), an expression longer than a line is cut to a window
    around the faulty column, marked with "…": the terminal would wrap the expression and
    the caret line each on their own, and the caret would land under the wrong row."""
    text = f"error: {exc}"
    if isinstance(exc, ExpressionError) and exc.text is not None and exc.position is not None:
        shown, column = _window(exc.text, exc.position, None if width is None else width - 3)
        text += f"\n  {shown}\n  {' ' * column}^"
    return text


def _window(text: str, position: int, room: int | None) -> tuple[str, int]:
    """The part of ``text`` around ``position`` that fits in ``room`` cells (all of it when
    it fits or room is None), and the cell column of ``position`` in it."""
    from rich.cells import cell_len

    pieces = [_visible(ch) for ch in text]  # a control character would break the line
    cells = [cell_len(p) for p in pieces]
    position = max(0, min(position, len(text)))
    if room is None or sum(cells) < room:
        return "".join(pieces), sum(cells[:position])
    budget = max(1, room - 2)  # two cells for the "…" marks
    lo = position
    hi = min(position + 1, len(text))
    used = sum(cells[lo:hi]) if hi > lo else 1  # a caret past the end takes a cell
    while lo > 0 and used + cells[lo - 1] <= budget // 2:  # up to half the room before it
        lo -= 1
        used += cells[lo]
    while hi < len(text) and used + cells[hi] <= budget:  # the rest after it
        used += cells[hi]
        hi += 1
    while lo > 0 and used + cells[lo - 1] <= budget:  # near the end: more before it
        lo -= 1
        used += cells[lo]
    head = "…" if lo > 0 else ""
    tail = "…" if hi < len(text) else ""
    return head + "".join(pieces[lo:hi]) + tail, len(head) + sum(cells[lo:position])


def _visible(ch: str) -> str:
    """A character as shown under an error: control and line-separating characters (which
    would start a new line or move the cursor) as escapes, like \\x1e."""
    if unicodedata.category(ch) in ("Cc", "Zl", "Zp"):
        return ch.encode("unicode_escape").decode("ascii")
    return ch


def banner_text(banner: str) -> RenderableType:
    """A banner of two lines (what is open; how to start), its first line in bold."""
    from rich.text import Text

    head, _, rest = banner.partition("\n")
    return Text.assemble((head, "bold"), "\n", (rest, "dim"))
