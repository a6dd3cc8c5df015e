"""The interactive prompt: one line in, one result (or one error) out.

A :class:`Session` holds the state a user builds up at the prompt (the
dictionary, the filters, the last results) and turns each line into an
:class:`Outcome`:

=====================  ==========================================================
``SEND+MORE``          compose: every dictionary word completing a puzzle with
                       exactly one solution (``SEND+MORE=?``), most frequent first
``SEND+?=MONEY``       compose for the unknown operand
``SEND+MORE=MONEY``    solve: count the solutions, list some
``?р??а``              words fitting a template (``?`` or ``.`` is any letter)
``:same WORD``         words with the same letter structure as WORD
``:command ...``       see :data:`COMMANDS`
=====================  ==========================================================

Rendering is separate from the session: :func:`result_table` builds a rich
table, :func:`plain_lines` tab-separated lines for pipelines,
:func:`result_json` a JSON value.  :func:`interact` runs the prompt_toolkit
loop (history, completion, toolbar); :func:`run_lines` the non-terminal mode.

Every user error is a :class:`~cryptocomp.errors.CryptocompError`, shown as one
line (an :class:`~cryptocomp.errors.ExpressionError` adds the expression with
a caret under the faulty column); Ctrl-C cancels the running query only.
"""

from __future__ import annotations

import csv
import io
import json
import logging
import math
import os
import time
from collections.abc import Sequence
from contextlib import contextmanager
from dataclasses import dataclass, replace
from decimal import Decimal, InvalidOperation
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Callable, ContextManager, Iterable, Iterator, TextIO

from .errors import CryptocompError, ExpressionError, QueryError

if TYPE_CHECKING:  # the heavy imports stay lazy so the prompt starts fast
    from rich.console import RenderableType
    from rich.table import Table

    from .index import Index, Matches
    from .store import Source

__all__ = ["Session", "Settings", "Result", "Row", "Outcome", "COMMANDS", "JSON_FORMAT",
           "MAX_MINFREQ", "MIN_MINFREQ", "SOLUTIONS_KEPT",
           "parse_top", "parse_minfreq", "parse_limit", "result_table", "help_table",
           "plain_lines", "result_json", "save_result", "render_ansi", "error_text",
           "banner_text", "Screen", "respond", "interact", "run_lines", "completer",
           "open_history", "history_path", "delayed_progress"]

log = logging.getLogger(__name__)

Line = str
Spec = str  # a dictionary: "en", "ru", another wordfreq code, or a file path
Progress = Callable[[int, int], None]  # (done, total)
ProgressFactory = Callable[[str], ContextManager["Progress | None"]]
Write = Callable[[str], None]  # prints ANSI text (one or more lines, no trailing newline)
Kind = str  # "compose" | "solve" | "words"

JSON_FORMAT = 1  # version of the JSON values result_json() and :save write
INTERACTIVE_TOP = 20  # rows shown at the prompt unless :top says otherwise
SOLUTIONS_KEPT = 10_000  # solutions a solve stores for :save (more if :top asks for more)
# :minfreq bounds, per million: no word is used more than a million times per million, and
# below 1e-30 every word of any real dictionary passes; the bounds also keep the exact
# arithmetic cheap (Fraction("1e-999999999") would compute 10**999999999)
MAX_MINFREQ = Fraction(1_000_000)
MIN_MINFREQ = Fraction(1, 10 ** 30)

# name -> (argument, what it does); the order is the :help order
COMMANDS: dict[str, tuple[str, str]] = {
    ":help": ("", "this help"),
    ":same": ("WORD", "words with the letter structure of WORD (барабан ~ заказал)"),
    ":lang": ("CODE", "switch to a wordfreq language (en, ru, fr, ...)"),
    ":dict": ("PATH", "switch to a 'word count' dictionary file (or a word list)"),
    ":top": ("N|all", "show at most N results (all: no truncation)"),
    ":minfreq": ("F|off", "only words used at least F times per million"),
    ":limit": ("N|off", "only the N most frequent words of the dictionary"),
    ":save": ("FILE", "save the last results, all of them (solutions: the first 10,000), "
                      "to FILE.csv or FILE.json"),
    ":quit": ("", "leave (Ctrl-D does too)"),
}
_ALIASES = {":q": ":quit", ":exit": ":quit", ":h": ":help", ":?": ":help"}


# -- state -------------------------------------------------------------------------------

@dataclass(frozen=True)
class Settings:
    """The filters: rows shown, minimum frequency (per million), dictionary prefix."""

    top: int | None = INTERACTIVE_TOP  # None: show every row
    minfreq: Fraction | None = None  # per million; None: no threshold
    limit: int | None = None  # only the `limit` most frequent words; None: all

    def _check(self) -> None:
        assert self.top is None or self.top >= 1, self.top
        assert self.minfreq is None or MIN_MINFREQ <= self.minfreq <= MAX_MINFREQ, \
            self.minfreq
        assert self.limit is None or self.limit >= 1, self.limit

    def min_count(self, total: int) -> int | None:
        """The smallest count whose frequency reaches ``minfreq`` in a dictionary of ``total``."""
        if self.minfreq is None:
            return None
        # exact arithmetic: count * 1e6 / total >= minfreq  <=>  count >= minfreq * total / 1e6
        return max(1, math.ceil(self.minfreq * total / 1_000_000))

    def describe(self) -> str:
        """The filters in a few words, for the toolbar."""
        parts = [f"top {self.top if self.top is not None else 'all'}"]
        if self.minfreq is not None:
            parts.append(f"minfreq {_fraction_text(self.minfreq)}/M")
        if self.limit is not None:
            parts.append(f"limit {self.limit:,}")
        return " · ".join(parts)


@dataclass(frozen=True)
class Row:
    """One result line: a dictionary word (with its puzzle) or one solution of a puzzle."""

    rank: int | None  # the word's 1-based frequency rank; None for a solution row
    word: str
    count: int
    per_million: float
    puzzle: str = ""  # in letters, e.g. "send+more=money"
    solution: str = ""  # in digits, e.g. "9567+1085=10652"
    assignment: dict[str, int] | None = None

    def as_dict(self, kind: Kind) -> dict:
        """The row as a JSON object with the fields its kind has."""
        if kind == "solve":
            return {"solution": self.solution, "assignment": self.assignment}
        out = {"rank": self.rank, "word": self.word, "count": self.count,
               "per_million": self.per_million}
        if kind == "compose":
            out.update(puzzle=self.puzzle, solution=self.solution, assignment=self.assignment)
        return out


class _WordRows(Sequence):
    """The words of a Matches as Rows, converted only when read (templates can match 100k)."""

    def __init__(self, matches: "Matches", total: int):
        self._matches = matches
        self._total = total

    def __len__(self) -> int:
        return len(self._matches)

    def __getitem__(self, i):
        if isinstance(i, slice):
            return [self._row(e) for e in self._matches[i]]
        return self._row(self._matches[i])

    def __iter__(self) -> Iterator[Row]:
        return (self._row(e) for e in self._matches)

    def _row(self, e) -> Row:
        return Row(e.rank, e.word, e.count, _per_million(e.count, self._total))


@dataclass(frozen=True)
class Result:
    """The answer to one query line: every row, most frequent first."""

    kind: Kind
    query: str  # the line as typed
    title: str  # e.g. "send+more=?"
    dictionary: str  # its short name: language code or file name
    rows: Sequence[Row]
    total: int  # len(rows) for compose/words; the exact solution count for solve
    # (a solve stores at most max(SOLUTIONS_KEPT, :top) rows: total may exceed len(rows))

    def _check(self) -> None:
        assert self.kind in ("compose", "solve", "words"), self.kind
        assert self.total >= len(self.rows) if self.kind == "solve" else \
            self.total == len(self.rows)

    @property
    def noun(self) -> str:
        return {"compose": "puzzle", "solve": "solution", "words": "word"}[self.kind]


@dataclass(frozen=True)
class Outcome:
    """What a line produced: a result, a message, a help table, or the wish to quit."""

    result: Result | None = None
    message: str = ""
    help: bool = False
    quit: bool = False


def _per_million(count: int, total: int) -> float:
    return count * 1e6 / total if total else 0.0


def _fraction_text(x: Fraction) -> str:
    """A positive number in a few characters, however large or small (never raises)."""
    if x.denominator == 1 and x < 10 ** 15:
        return str(x.numerator)
    if Fraction(1, 10 ** 300) < x < 10 ** 300:
        return f"{float(x):g}"
    # beyond what a float holds: the exponent from the logarithm (math.log10 takes any int)
    exponent = math.log10(x.numerator) - math.log10(x.denominator)
    power = math.floor(exponent)
    mantissa = round(10 ** (exponent - power), 5)
    if mantissa >= 10:
        mantissa, power = mantissa / 10, power + 1
    return f"{mantissa:g}e{power:+d}"


@contextmanager
def _no_progress(description: str) -> Iterator[None]:
    yield None


class Session:
    """The prompt's state and the dispatch of one line; knows nothing about terminals."""

    def __init__(self, index: "Index", source: "Source | None" = None, *,
                 settings: Settings | None = None, progress: ProgressFactory | None = None):
        """A session on ``index``; ``source`` (from store.resolve_source) names its files."""
        self.index = index
        self.source = source
        self.settings = settings or Settings()
        self.last: Result | None = None
        self.progress: ProgressFactory = progress or _no_progress  # for long queries

    @classmethod
    def open(cls, spec: Spec, *, fold_yo: bool = False, settings: Settings | None = None,
             progress: ProgressFactory | None = None) -> "Session":
        """A session on a dictionary, loading (on first use, building) its index."""
        source, index = _load(spec, fold_yo, progress or _no_progress)
        return cls(index, source, settings=settings, progress=progress)

    def _check(self) -> None:
        self.settings._check()
        if self.last is not None:
            self.last._check()

    # -- description ----------------------------------------------------------------------

    @property
    def fold_yo(self) -> bool:
        return bool(self.source and self.source.fold_yo)

    @property
    def dictionary(self) -> str:
        """The dictionary as the user named it: a language code or a file path."""
        src = self.source
        if src is None:
            return self.index.name or "(unnamed)"
        return src.lang + ("+yo" if src.fold_yo else "") if src.lang else str(src.path)

    @property
    def short_name(self) -> str:
        """The dictionary in a word: its language code or its file's name."""
        src = self.source
        if src is None or src.lang:
            return self.dictionary
        return src.path.name

    def index_location(self) -> str:
        """Where this dictionary's index file lives (or that it lives in memory only)."""
        if self.source is None:
            return "memory only"
        path = self.source.index_path
        return str(path) if path.exists() else f"memory only ({path} could not be written)"

    def banner(self) -> str:
        from . import __version__

        return (f"cryptocomp {__version__} · dictionary {self.dictionary}: "
                f"{len(self.index):,} words · index {self.index_location()}\n"
                "Type SEND+MORE to compose, SEND+MORE=MONEY to solve, ?р??а for words, "
                ":help for more.")

    def toolbar(self) -> str:
        return (f" {self.short_name} · {len(self.index):,} words · "
                f"{self.settings.describe()} · :help ")

    # -- dispatch -------------------------------------------------------------------------

    def execute(self, line: Line) -> Outcome:
        """Run one line; raise CryptocompError on bad input, KeyboardInterrupt on Ctrl-C."""
        text = line.strip()
        if not text or text.startswith("#"):
            return Outcome()
        if text.startswith(":"):
            return self._command(text)
        from .expr import looks_like_expression

        if looks_like_expression(text):
            return self._remember(self._puzzle(text))
        return self._remember(self._words(text, self._match(text), text))

    def _remember(self, result: Result) -> Outcome:
        self.last = result
        return Outcome(result=result)

    def _command(self, text: str) -> Outcome:
        name, _, arg = text.partition(" ")
        name = _ALIASES.get(name.lower(), name.lower())
        arg = arg.strip()
        handler = getattr(self, "_cmd_" + name[1:], None) if name in COMMANDS else None
        if handler is None:
            raise QueryError(f"unknown command {name!r} (type :help for the list)")
        return handler(arg)

    def _cmd_help(self, arg: str) -> Outcome:
        return Outcome(help=True)

    def _cmd_quit(self, arg: str) -> Outcome:
        return Outcome(quit=True)

    def _cmd_same(self, arg: str) -> Outcome:
        if not arg:
            raise QueryError("usage: :same WORD")
        s, idx = self.settings, self.index
        matches = idx.same_pattern(arg, top=s.limit, min_count=s.min_count(idx.total))
        return self._remember(self._words(f":same {arg}", matches, f"same structure as {arg}"))

    def _cmd_lang(self, arg: str) -> Outcome:
        codes = _languages()
        if not arg:
            return Outcome(message=f"dictionary {self.dictionary}; switch with :lang CODE "
                                   f"(one of {', '.join(codes)}) or :dict PATH")
        if arg.lower() not in codes:
            raise QueryError(f"unknown language {arg!r}: use one of {', '.join(codes)} "
                             f"(:dict PATH opens a dictionary file)")
        return self._switch(arg.lower())

    def _cmd_dict(self, arg: str) -> Outcome:
        if not arg:
            return Outcome(message=f"dictionary {self.dictionary}; usage: :dict PATH")
        path = os.path.expanduser(arg)
        if not os.path.exists(path):
            raise QueryError(f"{arg}: no such dictionary file")
        return self._switch(path)

    def _switch(self, spec: Spec) -> Outcome:
        # the old dictionary stays until the new one is fully loaded (errors, Ctrl-C)
        source, index = _load(spec, self.fold_yo, self.progress)
        self.index, self.source, self.last = index, source, None
        return Outcome(message=f"dictionary {self.dictionary}: {len(index):,} words · "
                               f"index {self.index_location()}")

    def _filters(self) -> Outcome:
        return Outcome(message=f"filters: {self.settings.describe()}")

    def _cmd_top(self, arg: str) -> Outcome:
        if not arg:
            return self._filters()
        top = parse_top(arg)
        self.settings = replace(self.settings, top=top)
        return Outcome(message="showing all results" if top is None else
                       f"showing the top {top} result{'' if top == 1 else 's'}")

    def _cmd_minfreq(self, arg: str) -> Outcome:
        if not arg:
            return self._filters()
        value = parse_minfreq(arg)
        self.settings = replace(self.settings, minfreq=value)
        if value is None:
            return Outcome(message="no frequency threshold")
        count = self.settings.min_count(self.index.total)
        times = "time" if value == 1 else "times"
        return Outcome(message=f"only words used at least {_fraction_text(value)} {times} per "
                               f"million (count ≥ {count:,} in {self.dictionary})")

    def _cmd_limit(self, arg: str) -> Outcome:
        if not arg:
            return self._filters()
        limit = parse_limit(arg)
        self.settings = replace(self.settings, limit=limit)
        if limit is None:
            return Outcome(message="using every word of the dictionary")
        return Outcome(message=f"using only the {limit:,} most frequent words")

    def _cmd_save(self, arg: str) -> Outcome:
        if not arg:
            raise QueryError("usage: :save FILE.csv or :save FILE.json")
        if self.last is None:
            raise QueryError("nothing to save yet: run a query first")
        path = Path(os.path.expanduser(arg))
        save_result(self.last, path)
        n, total, noun = len(self.last.rows), self.last.total, self.last.noun
        if n < total:  # a solve keeps only the first solutions: say so
            return Outcome(message=f"saved {n:,} of {total:,} {noun}s to {path} (a solve "
                                   f"keeps the first {n:,})")
        return Outcome(message=f"saved {n:,} {noun}{'s' if n != 1 else ''} to {path}")

    # -- queries --------------------------------------------------------------------------

    def _match(self, template: str) -> "Matches":
        s, idx = self.settings, self.index
        return idx.match(template, top=s.limit, min_count=s.min_count(idx.total))

    def _words(self, query: str, matches: "Matches", title: str) -> Result:
        total = self.index.total
        return Result("words", query, title, self.short_name, _WordRows(matches, total),
                      len(matches))

    def _puzzle(self, text: str) -> Result:
        from .expr import parse

        puzzle = parse(text)
        if puzzle.unknown:
            return self._compose(text, str(puzzle))
        return self._solve(text)

    def _compose(self, text: str, title: str) -> Result:
        from .compose import compose

        s, idx = self.settings, self.index
        with self.progress(f"composing {title}") as progress:
            found = compose(text, idx, min_count=s.min_count(idx.total), limit=s.limit,
                            progress=progress)
        rows = [Row(c.rank, c.word, c.count, _per_million(c.count, idx.total), c.puzzle,
                    c.solution, dict(c.assignment)) for c in found]
        return Result("compose", text, title, self.short_name, rows, len(rows))

    def _solve(self, text: str) -> Result:
        from .solve import solve

        # keep more than are shown, so that :save has them (its message says when not all)
        cap = max(SOLUTIONS_KEPT, self.settings.top or 0)
        solved = solve(text, cap=cap)
        rows = [Row(None, "", 0, 0.0, solved.puzzle, eq, dict(sol))
                for eq, sol in zip(solved.equations, solved.solutions)]
        return Result("solve", text, solved.puzzle, self.short_name, rows, solved.count)


def parse_top(arg: str) -> int | None:
    """The argument of :top / --top: a positive count, or all (None)."""
    return None if arg.strip().lower() in ("all", "off") else _positive_int(":top", arg)


def parse_minfreq(arg: str) -> Fraction | None:
    """The argument of :minfreq / --minfreq: uses per million (exact, MIN_MINFREQ to
    MAX_MINFREQ), or off (None)."""
    text = arg.strip()
    if text.lower() in ("off", "0", "none"):
        return None
    shown = repr(arg) if len(arg) <= 40 else repr(arg[:37] + "...")
    # a decimal is read as a Decimal, whose exponent stays an exponent: Fraction("1e-999999999")
    # would compute 10**999999999; Fraction reads the rest ("1/3") exactly
    try:
        rough = Decimal(text.replace("_", ""))
    except InvalidOperation:
        rough = None
    try:
        if rough is None:
            value = Fraction(text)
        elif rough.is_finite() and rough > 0:
            if not _MIN_DECIMAL <= rough <= _MAX_DECIMAL:
                raise _minfreq_range(shown)
            value = Fraction(rough)
        else:
            value = None
    except (ValueError, ZeroDivisionError):
        value = None
    if value is None or value <= 0:
        raise QueryError(f":minfreq wants a positive number of uses per million or 'off', "
                         f"not {shown}")
    if not MIN_MINFREQ <= value <= MAX_MINFREQ:
        raise _minfreq_range(shown)
    return value


_MIN_DECIMAL, _MAX_DECIMAL = Decimal("1e-30"), Decimal(1_000_000)  # exact copies of the bounds


def _minfreq_range(shown: str) -> QueryError:
    return QueryError(f":minfreq is in uses per million, from 1e-30 to 1,000,000 "
                      f"(every word), not {shown}")


def parse_limit(arg: str) -> int | None:
    """The argument of :limit / --limit: a positive number of words, or off (None)."""
    return None if arg.strip().lower() in ("off", "0", "none") else _positive_int(":limit", arg)


def _positive_int(command: str, arg: str) -> int:
    try:
        value = int(arg.strip().replace("_", "").replace(",", ""))
    except ValueError:
        value = 0
    if value < 1:
        raise QueryError(f"{command} wants a positive whole number, not {arg!r}")
    return value


def _load(spec: Spec, fold_yo: bool, progress: ProgressFactory) -> tuple["Source", "Index"]:
    """Resolve a dictionary and load its index (building it, with progress, on first use)."""
    from .store import load_index, resolve_source

    source = resolve_source(spec, fold_yo=fold_yo)
    with progress(f"indexing {spec}") as callback:
        return source, load_index(spec, fold_yo=fold_yo, progress=callback)


_LANGUAGES: list[str] = []


def _languages() -> list[str]:
    """wordfreq's language codes (imported on first use: wordfreq is slow to import)."""
    if not _LANGUAGES:
        from .freqdict import wordfreq_languages

        _LANGUAGES.extend(wordfreq_languages())
    return _LANGUAGES


# -- rendering ---------------------------------------------------------------------------

def _fmt_pm(x: float) -> str:
    if x >= 100:
        return f"{x:,.0f}"
    if x >= 0.01:
        return f"{x:.2f}"
    return f"{x:.2g}"


def _summary(result: Result) -> str:
    n = result.total
    noun = result.noun + ("" if n == 1 else "s")
    if result.kind == "solve":
        verdict = " (unique)" if n == 1 else ""
        return f"{result.title}: {n:,} {noun}{verdict}"
    where = f" in {result.dictionary}"
    return f"{result.title}: {n:,} {noun}{where}"


def result_table(result: Result, top: int | None) -> "RenderableType":
    """The summary line, a rich table of the first ``top`` rows (all when None), "and K more"."""
    from rich import box
    from rich.console import Group
    from rich.table import Table
    from rich.text import Text

    shown = result.rows[:top] if top is not None else result.rows
    more = result.total - len(shown)
    table = Table(box=box.SIMPLE_HEAD, header_style="bold", show_edge=False)
    if result.kind == "solve":
        table.add_column("#", justify="right", style="dim")
        table.add_column("solution", style="green")
        for i, row in enumerate(shown, 1):
            table.add_row(str(i), row.solution)
    else:
        table.add_column("rank", justify="right", style="dim")
        table.add_column("word", style="bold cyan")
        table.add_column("per million", justify="right")
        if result.kind == "compose":
            table.add_column("puzzle")
            table.add_column("solution", style="green")
        for row in shown:
            cells = [f"{row.rank:,}", row.word, _fmt_pm(row.per_million)]
            if result.kind == "compose":
                cells += [row.puzzle, row.solution]
            table.add_row(*cells)
    parts: list = [Text(_summary(result), style="bold")]
    if shown:
        parts.append(table)
    if more:
        kept = "them all" if len(result.rows) == result.total else \
            f"the first {len(result.rows):,}"
        parts.append(Text(f"… and {more:,} more (:top N shows more, :save FILE keeps {kept})",
                          style="italic"))
    return Group(*parts)


def help_table() -> "Table":
    """The commands and query forms, for :help."""
    from rich.table import Table

    table = Table(box=None, show_header=False, title="cryptocomp prompt", title_style="bold",
                  title_justify="left", caption_justify="left",
                  caption="Tab completes commands, language codes and paths; Up and Right "
                          "recall history; Ctrl-C cancels a running query; Ctrl-D leaves.")
    table.add_column(style="bold cyan", no_wrap=True)
    table.add_column()
    for form, what in _QUERY_FORMS:
        table.add_row(form, what)
    for name, (arg, what) in COMMANDS.items():
        table.add_row(f"{name} {arg}".rstrip(), what)
    return table


_QUERY_FORMS = [
    ("SEND+MORE", "compose: words W making SEND+MORE=W a puzzle with exactly one solution"),
    ("SEND+?=MONEY", "compose for the unknown operand"),
    ("SEND+MORE=MONEY", "solve: count the solutions, list some"),
    ("?р??а", "words fitting a template (? or . is any letter)"),
]


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
            "results": [row.as_dict(result.kind) for row in shown]}


def save_result(result: Result, path: Path) -> None:
    """Write every row to ``path`` as CSV or JSON (by its extension), atomically."""
    from .store import write_atomic

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


def render_ansi(renderable: "RenderableType", *, width: int = 100,
                color_system: str | None = "standard", soft_wrap: bool = False) -> str:
    """Render rich output to a string of ANSI text (prompt_toolkit prints it cleanly)."""
    from rich.console import Console

    out = io.StringIO()
    console = Console(file=out, force_terminal=color_system is not None,
                      color_system=color_system, width=width, legacy_windows=False,
                      highlight=False, emoji=False)
    # soft_wrap: one logical line stays one line (the terminal wraps it), tables don't
    console.print(renderable, soft_wrap=soft_wrap)
    return out.getvalue().rstrip("\n")


def error_text(exc: CryptocompError) -> str:
    """An error as its one line, plus the expression and a caret for a bad expression."""
    text = f"error: {exc}"
    if isinstance(exc, ExpressionError) and exc.caret():
        text += "\n" + "\n".join("  " + line for line in exc.caret().splitlines())
    return text


# -- the interactive loop ----------------------------------------------------------------

def history_path() -> Path:
    """The history file, in the user's state directory."""
    import platformdirs

    return Path(platformdirs.user_state_dir("cryptocomp", appauthor=False)) / "history"


def open_history(path: Path | None, warn: Write):
    """A file history at ``path``; in memory only, with one warning, when it cannot be written."""
    from prompt_toolkit.history import FileHistory, InMemoryHistory

    class _History(FileHistory):
        """Turns itself off with one warning when a write fails later (disk full, ...)."""

        disabled = False

        def load_history_strings(self) -> Iterable[str]:
            try:
                return list(super().load_history_strings())
            except (OSError, UnicodeError) as exc:
                warn(f"warning: cannot read history {self.filename}: {exc}")
                return []

        def store_string(self, string: str) -> None:
            if self.disabled:
                return
            try:
                super().store_string(string)
            except OSError as exc:
                self.disabled = True
                warn(f"warning: history disabled: cannot write {self.filename} "
                     f"({exc.strerror or exc})")

    if path is None:
        return InMemoryHistory()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with open(path, "ab"):
            pass
    except OSError as exc:
        warn(f"warning: history disabled: cannot write {path} ({exc.strerror or exc})")
        return InMemoryHistory()
    return _History(str(path))


def completer():
    """Tab completion: commands after ":", language codes after ":lang", paths after ":dict"."""
    from prompt_toolkit.completion import Completer, Completion, PathCompleter
    from prompt_toolkit.document import Document

    class _Completer(Completer):
        """Command names after ':', language codes after ':lang', paths after ':dict'/':save'."""

        paths = PathCompleter(expanduser=True)

        def get_completions(self, document, complete_event):
            text = document.text_before_cursor.lstrip()
            if not text.startswith(":"):
                return
            if " " not in text:
                for name in COMMANDS:
                    if name.startswith(text.lower()):
                        yield Completion(name, start_position=-len(text),
                                         display_meta=COMMANDS[name][1][:40])
                return
            name, _, arg = text.partition(" ")
            arg = arg.lstrip()
            if name == ":lang":
                for code in _languages():
                    if code.startswith(arg.lower()):
                        yield Completion(code, start_position=-len(arg))
            elif name in (":dict", ":save"):
                yield from self.paths.get_completions(Document(arg, len(arg)), complete_event)

    return _Completer()


def delayed_progress(delay: float = 0.3, console=None) -> ProgressFactory:
    """A rich progress bar (on stderr, or ``console``) that appears only if the work lasts
    longer than ``delay`` seconds: quick queries print nothing."""

    @contextmanager
    def factory(description: str):
        state: dict = {"start": time.monotonic(), "bar": None}

        def update(done: int, total: int) -> None:
            if state["bar"] is None:
                if time.monotonic() - state["start"] < delay:
                    return
                from rich.console import Console
                from rich.progress import (BarColumn, Progress as RichProgress, TextColumn,
                                           TimeElapsedColumn)

                bar = RichProgress(TextColumn("{task.description}"), BarColumn(),
                                   TimeElapsedColumn(), TextColumn("Ctrl-C cancels"),
                                   console=console or Console(stderr=True), transient=True)
                bar.start()
                state["bar"], state["task"] = bar, bar.add_task(description, total=None)
            state["bar"].update(state["task"], completed=done, total=total or None)

        try:
            yield update
        finally:
            if state["bar"] is not None:
                state["bar"].stop()

    return factory


class Screen:
    """Where the prompt shows things: rich renderables turned into ANSI text for ``write``."""

    def __init__(self, write: Write, *, width: Callable[[], int] | int = 100,
                 color_system: str | None = "standard"):
        self.write = write
        self._width = width
        self.color_system = color_system

    def show(self, renderable: "RenderableType", soft_wrap: bool = False) -> None:
        width = self._width() if callable(self._width) else self._width
        self.write(render_ansi(renderable, width=width, color_system=self.color_system,
                               soft_wrap=soft_wrap))

    def error(self, text: str) -> None:
        """An error line in bold red (plus, for an expression, the caret lines under it)."""
        from rich.text import Text

        first, _, rest = text.partition("\n")
        self.show(Text.assemble((first, "bold red"), "\n" + rest if rest else ""),
                  soft_wrap=True)


def respond(session: Session, line: Line, screen: Screen) -> bool:
    """Run one line at the prompt and show its outcome or its error; False means quit."""
    try:
        outcome = session.execute(line)
    except KeyboardInterrupt:
        screen.error("cancelled")
        return True
    except CryptocompError as exc:
        screen.error(error_text(exc))
        return True
    except Exception as exc:  # a bug must not cost the user the session
        log.debug("internal error on %r", line, exc_info=True)
        screen.error(f"internal error: {type(exc).__name__}: {exc} (please report it)")
        return True
    if outcome.quit:
        return False
    if outcome.result is not None:
        screen.show(result_table(outcome.result, session.settings.top))
    if outcome.help:
        screen.show(help_table())
    if outcome.message:
        screen.show(outcome.message, soft_wrap=True)
    return True


def interact(session: Session, *, input=None, output=None, history: Path | None = None,
             write: Write | None = None, width: int | None = None,
             color_system: str | None = "standard") -> int:
    """Run the prompt until :quit or Ctrl-D; return the exit status (0).

    ``input``/``output`` are prompt_toolkit ones (tests pass a pipe input and a dummy
    output); ``write`` prints ANSI text (default: prompt_toolkit's printer); ``width``
    defaults to the terminal's.
    """
    from prompt_toolkit import PromptSession
    from prompt_toolkit.auto_suggest import AutoSuggestFromHistory
    from prompt_toolkit.formatted_text import ANSI

    if write is None:
        from prompt_toolkit import print_formatted_text

        def write(text: str) -> None:
            print_formatted_text(ANSI(text), output=output)

    screen = Screen(write, width=width or (lambda: _columns(output)), color_system=color_system)
    screen.show(banner_text(session), soft_wrap=True)
    prompt = PromptSession(history=open_history(history, screen.error),
                           auto_suggest=AutoSuggestFromHistory(), completer=completer(),
                           complete_while_typing=False, bottom_toolbar=session.toolbar,
                           input=input, output=output)
    while True:
        try:
            line = prompt.prompt(f"{session.short_name}> ")
        except KeyboardInterrupt:
            continue  # Ctrl-C at the prompt clears the line, like a shell
        except EOFError:
            break
        if not respond(session, line, screen):
            break
    return 0


def banner_text(session: Session) -> "RenderableType":
    """The banner: version, dictionary, word count, index file; then how to start."""
    from rich.text import Text

    head, _, rest = session.banner().partition("\n")
    return Text.assemble((head, "bold"), "\n", (rest, "dim"))


def _columns(output) -> int:
    try:
        return max(40, min(output.get_size().columns, 160)) if output is not None else \
            max(40, min(os.get_terminal_size().columns, 160))
    except (OSError, ValueError, AttributeError):
        return 100


# -- the non-terminal mode ---------------------------------------------------------------

def run_lines(session: Session, lines: Iterable[Line], out: TextIO, err: TextIO, *,
              as_json: bool = False) -> int:
    """Run one query a line; results to ``out``, messages and errors to ``err``.

    Plain output (no header, tab-separated, the first ``:top`` rows, all by default):
    words ``rank word per_million``; compose ``rank word per_million puzzle solution``;
    solve ``puzzle solution``, one line a solution.  With ``as_json`` every query line
    (errors included, as ``{"query": ..., "error": ...}``) prints exactly one JSON object
    on one line (JSON Lines); command lines print nothing to ``out``.
    Return 0, or 2 if some line failed.
    """
    status = 0
    for line in lines:
        line = line.rstrip("\n")
        try:
            outcome = session.execute(line)
        except CryptocompError as exc:
            status = 2
            if as_json:
                _json_line(out, {"format": JSON_FORMAT, "query": line, "error": str(exc)})
            else:
                err.write(f"cryptocomp: {error_text(exc)}\n")
            continue
        except Exception as exc:  # a bug must not cost the user the rest of the input
            log.debug("internal error on %r", line, exc_info=True)
            status = 2
            message = f"internal error: {type(exc).__name__}: {exc} (please report it)"
            if as_json:
                _json_line(out, {"format": JSON_FORMAT, "query": line, "error": message})
            else:
                err.write(f"cryptocomp: {message}\n")
            continue
        if outcome.quit:
            break
        if outcome.result is not None:
            top = session.settings.top
            if as_json:
                _json_line(out, result_json(outcome.result, top))
            else:
                for text in plain_lines(outcome.result, top):
                    out.write(text + "\n")
                shown = len(outcome.result.rows[:top]) if top is not None else \
                    len(outcome.result.rows)
                if outcome.result.total == 0:
                    err.write(f"cryptocomp: {_summary(outcome.result)}\n")
                elif outcome.result.total > shown:
                    err.write(f"cryptocomp: {_summary(outcome.result)}; "
                              f"{outcome.result.total - shown:,} more not shown\n")
        if outcome.help:
            for form, what in _QUERY_FORMS + [(f"{n} {a}".rstrip(), w)
                                              for n, (a, w) in COMMANDS.items()]:
                err.write(f"{form:<18} {what}\n")
        if outcome.message:
            err.write(f"cryptocomp: {outcome.message}\n")
        out.flush()
    return status


def _json_line(out: TextIO, obj: dict) -> None:
    out.write(json.dumps(obj, ensure_ascii=False) + "\n")
