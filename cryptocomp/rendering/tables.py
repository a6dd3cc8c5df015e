"""A query's :class:`~.results.Result` as the prompt shows it: a rich table drawn in
pieces, tab-separated lines for pipelines, JSON, and the CSV or JSON file of ``:save``;
and the prompt's help, as a table or as aligned lines.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from ..errors import QueryError
from ..files import write_atomic
from .results import Result, Row
from .text import per_million_text, plural

Justify = Literal["default", "left", "center", "right", "full"]

if TYPE_CHECKING:  # the heavy imports stay lazy so the prompt starts fast
    from rich.console import Console, ConsoleOptions, RenderableType
    from rich.table import Table

__all__ = ["JSON_FORMAT", "TABLE_CHUNK", "HelpRow", "summary", "result_table", "result_parts",
           "help_table", "help_lines", "plain_lines", "result_json", "save_result"]

HelpRow = tuple[str, str]  # what is typed ("SEND+MORE", ":top N|all") and what it does

JSON_FORMAT = 1  # version of the JSON values result_json() and :save write


def summary(result: Result) -> str:
    """The line above a result's table: "send+more=?: 44 puzzles in en"."""
    found = plural(result.total, result.noun)
    if result.kind == "solve":
        if not result.complete:
            return f"{result.title}: at least {found} (the budget ran out before the end)"
        verdict = " (unique)" if result.total == 1 else ""
        rated = f" · difficulty {result.difficulty}" if result.difficulty is not None else ""
        return f"{result.title}: {found}{verdict}{rated}"
    if result.kind == "generate":
        return f"{result.title}: {found} with one solution" + (
            "" if result.complete else " so far (the list is incomplete)")
    return f"{result.title}: {found} in {result.dictionary}"


def result_table(result: Result, top: int | None) -> RenderableType:
    """The summary line, a rich table of the first ``top`` rows (all when None), "and K more"."""
    from rich.console import Group

    return Group(*result_parts(result, top, chunk=max(1, len(result.rows))))


TABLE_CHUNK = 200  # rows drawn at a time at the prompt (about 0.1 s each)


def result_parts(result: Result, top: int | None, *,
                 chunk: int | None = None) -> Iterator[RenderableType]:
    """The pieces of :func:`result_table`, each table holding at most ``chunk`` rows
    (default :data:`TABLE_CHUNK`).

    Every piece has the same fixed column widths (measured over all shown rows), so the
    pieces printed one after another look like one table; a long table is drawn piece by
    piece, and Ctrl-C between (or during) pieces stops the drawing: rich renders a table
    in one go, and 80,000 rows took a minute before the first one appeared."""
    from rich.cells import cell_len
    from rich.text import Text

    shown = result.rows[:top] if top is not None else result.rows
    more = result.total - len(shown)
    if result.kind == "solve":
        heads: list[tuple[str, Justify, str]] = [("#", "right", "dim"),
                                                  ("solution", "left", "green")]
        cells: list[tuple[str, ...]] = [(str(i), row.solution) for i, row in enumerate(shown, 1)]
    elif result.kind == "generate":
        heads = [("#", "right", "dim"), ("puzzle", "left", "bold cyan"),
                 ("solution", "left", "green")]
        heads += [("level", "right", "")] if result.level_column else []
        cells = [(str(i), row.puzzle, row.solution) + _level_cell(row, result)
                 for i, row in enumerate(shown, 1)]
    else:
        heads = [("rank", "right", "dim"), ("word", "left", "bold cyan"),
                 ("per million", "right", "")]
        if result.kind == "compose":
            heads += [("puzzle", "left", ""), ("solution", "left", "green")]
        if result.class_column:
            heads.append(("classes", "left", "dim"))
        if result.level_column:
            heads.append(("level", "right", ""))
        cells = [_cells(row, result.kind) + _class_cell(row, result) + _level_cell(row, result)
                 for row in shown]
    widths = [max(map(cell_len, {h[0], *(c[j] for c in cells)})) for j, h in enumerate(heads)]
    yield Text(summary(result), style="bold")
    step = chunk or TABLE_CHUNK
    for start in range(0, len(cells), step):
        yield _Piece(heads, widths, cells[start:start + step], header=start == 0)
    if more:
        kept = "them all" if len(result.rows) == result.total else \
            f"the first {len(result.rows):,}"
        yield Text(f"… and {more:,} more (:top N shows more, :save FILE keeps {kept})",
                   style="italic")


def _cells(row: Row, kind: str) -> tuple[str, ...]:
    cells = (f"{row.rank:,}", row.word, per_million_text(row.per_million))
    return cells + (row.puzzle, row.solution) if kind == "compose" else cells


def _class_cell(row: Row, result: Result) -> tuple[str, ...]:
    """The row's class cell, when its result has a class column."""
    return (",".join(row.classes or ()),) if result.class_column else ()


def _level_cell(row: Row, result: Result) -> tuple[str, ...]:
    """The row's difficulty level (1-5, ``unrated``), when its result has a level column
    (empty for a row not rated)."""
    if not result.level_column:
        return ()
    d = row.difficulty
    return ("" if d is None else str(d.level) if d.level is not None else "unrated",)


_NARROWEST = 8  # a text column is not squeezed below this many cells


def fit_widths(widths: list[int], shrinkable: list[bool], room: int) -> list[int]:
    """``widths`` cut down, widest shrinkable column first, until the table (each column
    padded by one cell a side, one cell between columns) fits ``room`` cells, or no
    shrinkable column is wider than :data:`_NARROWEST`: a row wider than the terminal
    would otherwise be cut at its edge, and the cut part lost."""
    out = list(widths)
    excess = sum(out) + 3 * len(out) - 1 - room
    while excess > 0:
        j = max((j for j, ok in enumerate(shrinkable) if ok and out[j] > _NARROWEST),
                key=lambda j: out[j], default=None)
        if j is None:
            break
        out[j] -= 1
        excess -= 1
    return out


class _Piece:
    """One piece of a result's table, its column widths fitted to the console's width when
    drawn (every piece fits the same widths to the same width, so the pieces still line up;
    a text cell too long for its column wraps onto more lines)."""

    def __init__(self, heads: list[tuple[str, Justify, str]], widths: list[int],
                 rows: list[tuple[str, ...]], *, header: bool):
        self.heads, self.widths, self.rows, self.header = heads, widths, rows, header

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> Iterator[Table]:
        shrinkable = [justify == "left" for _, justify, _ in self.heads]
        yield _table(self.heads, fit_widths(self.widths, shrinkable, options.max_width),
                     self.rows, header=self.header)


def _table(heads: list[tuple[str, Justify, str]], widths: list[int],
           rows: list[tuple[str, ...]], *, header: bool) -> Table:
    from rich import box
    from rich.table import Table

    table = Table(box=box.SIMPLE_HEAD, header_style="bold", show_edge=False,
                  show_header=header)
    for (name, justify, style), width in zip(heads, widths):
        table.add_column(name, justify=justify, style=style, width=width, overflow="fold")
    for cells in rows:
        table.add_row(*cells)
    return table


def help_table(rows: Iterable[HelpRow]) -> Table:
    """The query forms and commands of the prompt, for :help."""
    from rich.table import Table

    table = Table(box=None, show_header=False, title="cryptocomp prompt", title_style="bold",
                  title_justify="left", caption_justify="left",
                  caption="Tab completes commands, language codes and paths; Up and Right "
                          "recall history; Ctrl-C cancels a running query or stops drawing a "
                          "long table; Ctrl-D leaves.")
    table.add_column(style="bold cyan", no_wrap=True)
    table.add_column()
    from rich.text import Text

    # plain Text, not markup: "[con*]" in a line of help is text, not a style tag
    for form, what in rows:
        table.add_row(Text(form), Text(what))
    return table


def help_lines(rows: list[HelpRow]) -> list[str]:
    """The help without a terminal: one line a row, what is typed padded to one width."""
    width = max(len(form) for form, _ in rows)
    return [f"{form:<{width}}  {what}" for form, what in rows]


def plain_lines(result: Result, top: int | None) -> list[str]:
    """Tab-separated lines for pipelines, no header: see :func:`cryptocomp.prompt.run_lines` for the
    columns."""
    shown = result.rows[:top] if top is not None else result.rows
    if result.kind in ("solve", "generate"):
        return [f"{row.puzzle}\t{row.solution}" + "".join(
            f"\t{cell}" for cell in _level_cell(row, result)) for row in shown]
    lines = []
    for row in shown:
        cells = [str(row.rank), row.word, f"{row.per_million:.6g}"]
        if result.kind == "compose":
            cells += [row.puzzle, row.solution]
        cells += _class_cell(row, result)
        cells += _level_cell(row, result)
        lines.append("\t".join(cells))
    return lines


def result_json(result: Result, top: int | None = None) -> dict:
    """One JSON object: the query, what it was, the total and the first ``top`` rows."""
    shown = result.rows[:top] if top is not None else result.rows
    out = {"format": JSON_FORMAT, "query": result.query, "kind": result.kind,
           "title": result.title, "dictionary": result.dictionary, "total": result.total,
           "results": [row.to_json(result.kind) for row in shown]}
    if result.kind in ("solve", "generate"):
        out["complete"] = result.complete
    if result.difficulty is not None:
        out["difficulty"] = result.difficulty.to_json()
    return out


def save_result(result: Result, path: Path) -> None:
    """Write every row to ``path`` as CSV or JSON (by its extension), atomically."""
    suffix = path.suffix.lower()
    if suffix == ".json":
        data = json.dumps(result_json(result), ensure_ascii=False, indent=1) + "\n"
    elif suffix == ".csv":
        data = _csv_text(result)
    else:
        raise QueryError(f"{path}: :save writes .csv or .json files, "
                         f"not {suffix or 'no extension'!r}")
    write_atomic(path, data.encode("utf-8"))


def _csv_text(result: Result) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    if result.kind in ("solve", "generate"):
        writer.writerow(["puzzle", "solution"])
        writer.writerows([row.puzzle, row.solution] for row in result.rows)
    else:
        composed = result.kind == "compose"
        head = ["rank", "word", "count", "per_million"]
        classes = ["classes"] if result.class_column else []
        writer.writerow(head + (["puzzle", "solution"] if composed else []) + classes)
        for row in result.rows:
            cells = [row.rank, row.word, row.count, f"{row.per_million:.6g}"]
            writer.writerow(cells + ([row.puzzle, row.solution] if composed else [])
                            + list(_class_cell(row, result)))
    return out.getvalue()
