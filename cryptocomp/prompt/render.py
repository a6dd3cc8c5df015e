"""Rendering results: rich tables for the prompt, tab-separated lines, JSON and CSV.

The CLI and the prompt share these, so a result looks the same wherever it is shown.
"""

from __future__ import annotations

import csv
import io
import json
import unicodedata
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from ..errors import CryptocompError, ExpressionError, QueryError
from ..files import write_atomic
from .commands import COMMANDS, QUERY_FORMS
from .result import Result, Row

ColorSystem = Literal["auto", "standard", "256", "truecolor", "windows"]  # rich's names
Justify = Literal["default", "left", "center", "right", "full"]

if TYPE_CHECKING:  # the heavy imports stay lazy so the prompt starts fast
    from rich.console import RenderableType
    from rich.table import Table

    from .session import Session

__all__ = ["JSON_FORMAT", "TABLE_CHUNK", "summary", "result_table", "result_parts", "help_table",
           "plain_lines", "result_json", "save_result", "render_ansi", "error_text",
           "banner_text"]

JSON_FORMAT = 1  # version of the JSON values result_json() and :save write


def _fmt_pm(x: float) -> str:
    if x >= 100:
        return f"{x:,.0f}"
    if x >= 0.01:
        return f"{x:.2f}"
    return f"{x:.2g}"


def summary(result: Result) -> str:
    n = result.total
    noun = result.noun + ("" if n == 1 else "s")
    if result.kind == "solve":
        verdict = " (unique)" if n == 1 else ""
        return f"{result.title}: {n:,} {noun}{verdict}"
    where = f" in {result.dictionary}"
    return f"{result.title}: {n:,} {noun}{where}"


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
    else:
        heads = [("rank", "right", "dim"), ("word", "left", "bold cyan"),
                 ("per million", "right", "")]
        if result.kind == "compose":
            heads += [("puzzle", "left", ""), ("solution", "left", "green")]
        cells = [_cells(row, result.kind) for row in shown]
    widths = [max(map(cell_len, {h[0], *(c[j] for c in cells)})) for j, h in enumerate(heads)]
    yield Text(summary(result), style="bold")
    step = chunk or TABLE_CHUNK
    for start in range(0, len(cells), step):
        yield _table(heads, widths, cells[start:start + step], header=start == 0)
    if more:
        kept = "them all" if len(result.rows) == result.total else \
            f"the first {len(result.rows):,}"
        yield Text(f"… and {more:,} more (:top N shows more, :save FILE keeps {kept})",
                   style="italic")


def _cells(row: Row, kind: str) -> tuple[str, ...]:
    cells = (f"{row.rank:,}", row.word, _fmt_pm(row.per_million))
    return cells + (row.puzzle, row.solution) if kind == "compose" else cells


def _table(heads: list[tuple[str, Justify, str]], widths: list[int],
           rows: list[tuple[str, ...]], *, header: bool) -> Table:
    from rich import box
    from rich.table import Table

    table = Table(box=box.SIMPLE_HEAD, header_style="bold", show_edge=False,
                  show_header=header)
    for (name, justify, style), width in zip(heads, widths):
        table.add_column(name, justify=justify, style=style, width=width)
    for cells in rows:
        table.add_row(*cells)
    return table


def help_table() -> Table:
    """The commands and query forms, for :help."""
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
    for form, what in QUERY_FORMS:
        table.add_row(Text(form), Text(what))
    for name, (arg, what) in COMMANDS.items():
        table.add_row(Text(f"{name} {arg}".rstrip()), Text(what))
    return table


def plain_lines(result: Result, top: int | None) -> list[str]:
    """Tab-separated lines for pipelines, no header: see :func:`run_lines` for the columns."""
    shown = result.rows[:top] if top is not None else result.rows
    if result.kind == "solve":
        return [f"{row.puzzle}\t{row.solution}" for row in shown]
    lines = []
    for row in shown:
        cells = [str(row.rank), row.word, f"{row.per_million:.6g}"]
        if result.kind == "compose":
            cells += [row.puzzle, row.solution]
        lines.append("\t".join(cells))
    return lines


def result_json(result: Result, top: int | None = None) -> dict:
    """One JSON object: the query, what it was, the total and the first ``top`` rows."""
    shown = result.rows[:top] if top is not None else result.rows
    return {"format": JSON_FORMAT, "query": result.query, "kind": result.kind,
            "title": result.title, "dictionary": result.dictionary, "total": result.total,
            "results": [row.to_json(result.kind) for row in shown]}


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
    if result.kind == "solve":
        writer.writerow(["puzzle", "solution"])
        writer.writerows([row.puzzle, row.solution] for row in result.rows)
    else:
        composed = result.kind == "compose"
        head = ["rank", "word", "count", "per_million"]
        writer.writerow(head + (["puzzle", "solution"] if composed else []))
        for row in result.rows:
            cells = [row.rank, row.word, row.count, f"{row.per_million:.6g}"]
            writer.writerow(cells + ([row.puzzle, row.solution] if composed else []))
    return out.getvalue()


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


def banner_text(session: Session) -> RenderableType:
    """The banner: version, dictionary, word count, index file; then how to start."""
    from rich.text import Text

    head, _, rest = session.banner().partition("\n")
    return Text.assemble((head, "bold"), "\n", (rest, "dim"))
