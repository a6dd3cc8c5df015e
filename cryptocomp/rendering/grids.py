"""A fill of a crossword grid or word square as ``fill`` and ``square`` print it: the
grids as text with a closing status line when piped, coloured cells on a terminal."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from rich.console import RenderableType

    from ..crossword import FillResult

__all__ = ["fill_text", "fill_parts"]

_STATUS_COLOUR = {"filled": "green", "no_fill": "red", "budget": "yellow"}


def fill_text(result: FillResult) -> str:
    """Every fill as a text grid, a blank line between them (or the best partial fill),
    then ``# status: message [engine, seconds]``."""
    from ..crossword.grid import format_text  # on use: the prompt loads this layer, not grids

    parts = []
    for k in range(len(result.fills)):
        if k:
            parts.append("\n")
        parts.append(format_text(result.grid, result.letters(k)))
    if not result.fills and result.partial is not None:
        parts.append(format_text(result.grid, result.letters()))
    parts.append(f"# {result.status}: {result.message} [{result.engine}, "
                 f"{result.seconds:.2f} s]\n")
    return "".join(parts)


def fill_parts(result: FillResult) -> list[RenderableType]:
    """Every fill (or the best partial fill) as coloured cells, a rich Text each, then the
    status line as rich markup."""
    from rich.text import Text

    grid = result.grid
    open_cells = grid.drawn_open()
    shown = range(len(result.fills)) if result.fills else ([0] if result.partial else [])
    parts: list[RenderableType] = []
    for k in shown:
        letters = result.letters(k)
        text = Text()
        for r in range(grid.height):
            for c in range(grid.width):
                if (r, c) not in open_cells:
                    text.append("   ", style="on grey23")
                else:
                    ch = letters.get((r, c), " ")
                    style = "bold black on white" if (r, c) not in grid.given \
                        else "bold blue on white"
                    text.append(f" {ch.upper()} ", style=style)
            text.append("\n")
        parts.append(text)
    colour = _STATUS_COLOUR[result.status]
    parts.append(f"[{colour}]{result.status}[/]: {result.message} "
                 f"[dim]({result.engine}, {result.steps} steps, {result.seconds:.2f} s)[/]")
    return parts
