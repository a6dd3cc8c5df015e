"""A fill of a crossword grid or word square as ``fill`` and ``square`` print it: the
grids as text with a closing status line when piped, coloured cells on a terminal."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .text import ClassColumn

if TYPE_CHECKING:
    from rich.console import RenderableType

    from ..crossword import FillResult

__all__ = ["fill_text", "fill_parts", "fill_json", "not_dictionary"]

_STATUS_COLOUR = {"filled": "green", "no_fill": "red", "budget": "yellow"}


def not_dictionary(words: list[str], classes: ClassColumn) -> str:
    """The answers of a fill that are no dictionary words, each with its classes:
    ``eliot (name), nasa (abbreviation)``, or a line saying there are none."""
    odd = [(w, c) for w in dict.fromkeys(words) if "dictionary" not in (c := classes.of_word(w))]
    if not odd:
        return "every answer is a dictionary word"
    return "not dictionary words: " + ", ".join(f"{w} ({', '.join(c)})" for w, c in odd)


def fill_json(result: FillResult, classes: ClassColumn | None = None) -> dict:
    """``fill --json``: the result's JSON, each fill with the ``classes`` of its answers
    (slot -> its word's classes) when given."""
    out = result.to_json()
    if classes is not None:
        for doc, words in zip(out["fills"], result.fills):
            doc["classes"] = {s.name: classes.of_word(w)
                              for s, w in zip(result.grid.slots, words)}
    return out


def fill_text(result: FillResult, classes: ClassColumn | None = None) -> str:
    """Every fill as a text grid, a blank line between them (or the best partial fill),
    with ``classes``: a line ``# not dictionary words: ...`` under each fill; then
    ``# status: message [engine, seconds]``."""
    from ..crossword.grid import format_text  # on use: the prompt loads this layer, not grids

    parts = []
    for k in range(len(result.fills)):
        if k:
            parts.append("\n")
        parts.append(format_text(result.grid, result.letters(k)))
        if classes is not None:
            parts.append(f"# {not_dictionary(result.fills[k], classes)}\n")
    if not result.fills and result.partial is not None:
        parts.append(format_text(result.grid, result.letters()))
    parts.append(f"# {result.status}: {result.message} [{result.engine}, "
                 f"{result.seconds:.2f} s]\n")
    return "".join(parts)


def fill_parts(result: FillResult, classes: ClassColumn | None = None
               ) -> list[RenderableType]:
    """Every fill (or the best partial fill) as coloured cells, a rich Text each (with
    ``classes``: the answers that are no dictionary words under it), then the status line
    as rich markup."""
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
        if classes is not None and result.fills:
            parts.append(Text(not_dictionary(result.fills[k], classes), style="dim"))
    colour = _STATUS_COLOUR[result.status]
    parts.append(f"[{colour}]{result.status}[/]: {result.message} "
                 f"[dim]({result.engine}, {result.steps} steps, {result.seconds:.2f} s)[/]")
    return parts
