"""Generated puzzles as ``compose --from`` / ``--doubly-true`` and the prompt print them: a
numbered rich table with a footer, tab-separated lines, or one JSON object.

Like the other rendering modules it prints nothing; the footer says how many puzzles there
are and whether the list is every puzzle of the search (a budget, ``--top`` or Ctrl-C
leaves it incomplete).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .listings import level_text
from .text import plural

if TYPE_CHECKING:
    from rich.console import RenderableType

    from ..cryptarithm.crossgen import Crossword
    from ..cryptarithm.difficulty import Difficulty
    from ..cryptarithm.generation import Generated
    from ..cryptarithm.harvest import CrossHarvest, Harvest

__all__ = ["harvest_footer", "harvest_line", "harvest_lines", "harvest_table", "harvest_json",
           "cross_line", "cross_table", "cross_json", "grid_text"]


def _levels(h: Harvest | CrossHarvest) -> list[Difficulty | None]:
    """Each kept puzzle's difficulty, None for all when unrated."""
    return [*h.levels] if h.levels is not None else [None] * len(h.puzzles)


def harvest_footer(h: Harvest | CrossHarvest, *, budget: float | None = None,
                   top: int | None = None, steps: int | None = None) -> str:
    """One line: the count, and whether the search was complete (and why not)."""
    count = plural(len(h.puzzles), "puzzle")
    counted = f"{plural(h.candidates, 'candidate')} counted in {h.seconds:.1f} s"
    if h.stop == "complete":
        return f"{count}; the search was complete ({counted})"
    if h.stop == "time":
        why = "the time budget ran out" + (f" (--time {budget:g})" if budget else "")
    elif h.stop == "steps":
        why = "the step budget ran out" + (f" (--steps {steps})" if steps else "")
    elif h.stop == "top":
        why = "--top reached" + (f" ({top})" if top else "") + "; there may be more"
    else:
        why = "interrupted"
    return f"{count} so far: {why} ({counted}); the list is incomplete"


def harvest_line(g: Generated, equation: str, level: Difficulty | None = None) -> str:
    """One puzzle piped: ``puzzle<TAB>solution`` (then its level when rated)."""
    return f"{g.puzzle}\t{equation}" + ("" if level is None else f"\t{level_text(level)}")


def harvest_lines(h: Harvest) -> list[str]:
    """Every kept puzzle piped, one line each (see :func:`harvest_line`)."""
    levels = _levels(h)
    return [harvest_line(g, e, d) for g, e, d in zip(h.puzzles, h.equations(), levels)]


def harvest_table(title: str, h: Harvest, *, budget: float | None = None,
                  top: int | None = None, steps: int | None = None) -> list[RenderableType]:
    """The numbered table of the kept puzzles with their solutions (and levels), then the
    footer line."""
    from rich.markup import escape
    from rich.table import Table

    table = Table(title=f"{escape(title)}: {plural(len(h.puzzles), 'puzzle')} with one solution")
    table.add_column("#", justify="right")
    table.add_column("puzzle", style="bold")
    table.add_column("solution")
    if h.levels is not None:
        table.add_column("level", justify="right")
    levels = _levels(h)
    for n, (g, equation, d) in enumerate(zip(h.puzzles, h.equations(), levels), 1):
        table.add_row(str(n), escape(g.puzzle), equation,
                      *(() if d is None else (level_text(d),)))
    return [table, escape(harvest_footer(h, budget=budget, top=top, steps=steps))]


def harvest_json(query: str, h: Harvest) -> dict:
    """``{"query", "count", "complete", "stop", "candidates", "results"}``: each result is
    the puzzle's JSON (``puzzle``, ``left``, ``right``, ``op``, ``solution``,
    ``equation``) with its ``number`` and, when rated, its ``difficulty``."""
    results = []
    levels = _levels(h)
    for n, (g, equation, d) in enumerate(zip(h.puzzles, h.equations(), levels), 1):
        row = {"number": n, **g.to_json(), "equation": equation}
        if d is not None:
            row["difficulty"] = d.to_json()
        results.append(row)
    return {"query": query, "count": len(h.puzzles), "complete": h.complete, "stop": h.stop,
            "candidates": h.candidates, "results": results}


def grid_text(rows: tuple[tuple[str, ...], ...]) -> str:
    """A grid of words (or numbers) as aligned lines, each column right-justified as a sum
    is written."""
    widths = [max(len(r[j]) for r in rows) for j in range(len(rows[0]))]
    return "\n".join("  ".join(w.rjust(k) for w, k in zip(r, widths)) for r in rows)


def cross_line(c: Crossword, base: int, level: Difficulty | None = None) -> str:
    """One crossword piped: ``system<TAB>solved system`` (then its level when rated)."""
    return f"{c.text}\t{c.equation(base)}" + ("" if level is None else f"\t{level_text(level)}")


def cross_table(title: str, h: CrossHarvest, *, budget: float | None = None,
                top: int | None = None, steps: int | None = None) -> list[RenderableType]:
    """The numbered table of the kept crosswords: the grid of words beside the grid of
    numbers (and the level), then the footer line."""
    from rich.markup import escape
    from rich.table import Table

    table = Table(title=f"{escape(title)}: {plural(len(h.puzzles), 'crossword')} with one "
                        f"solution", show_lines=True)
    table.add_column("#", justify="right")
    table.add_column("grid", style="bold")
    table.add_column("solution")
    if h.levels is not None:
        table.add_column("level", justify="right")
    for n, (c, d) in enumerate(zip(h.puzzles, _levels(h)), 1):
        table.add_row(str(n), escape(grid_text(c.grid)), grid_text(c.numbers(h.base)),
                      *(() if d is None else (level_text(d),)))
    return [table, escape(harvest_footer(h, budget=budget, top=top, steps=steps))]


def cross_json(query: str, h: CrossHarvest) -> dict:
    """As :func:`harvest_json`, each result the crossword's JSON (``puzzle``, ``grid``,
    ``solution``, ``numbers``) with its ``number``, ``equation`` and, when rated, its
    ``difficulty``."""
    results = []
    for n, (c, d) in enumerate(zip(h.puzzles, _levels(h)), 1):
        row = {"number": n, **c.to_json(h.base), "equation": c.equation(h.base)}
        if d is not None:
            row["difficulty"] = d.to_json()
        results.append(row)
    return {"query": query, "size": h.n, "count": len(h.puzzles), "complete": h.complete,
            "stop": h.stop, "candidates": h.candidates, "results": results}
