"""Options and output shared by the subcommands (what they print is built by
:mod:`cryptocomp.rendering`; this module only writes it)."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any, NoReturn

from .. import files
from ..domain import Progress
from ..errors import CryptocompError, QueryError
from ..index.classes import CLASS_NAMES, DEFAULTS, WordClasses
from ..index.index import Index
from ..index.store import load_index
from ..numbers import MAX_WHOLE, NumberError, bounds_text, read_real, read_whole, shown

if TYPE_CHECKING:
    from rich.console import RenderableType
    from rich.progress import Progress as RichProgress
    from rich.progress import ProgressColumn

    from ..index.personal import Overlay

MAX_SECONDS = 7 * 24 * 3600.0  # a time limit beyond a week is a typo, not a wish
MAX_BATCH = 10**9  # attempts or puzzles of one command: a billion at 1 ms each is 11 days
MIN_SEED, MAX_SEED = -(2**63), 2**63 - 1  # a seed is any 64-bit integer


class UsageError(CryptocompError):
    """The command line does not parse (unknown option, bad value): one line, exit 2."""


class Parser(argparse.ArgumentParser):
    """An argument parser whose errors are one line (argparse prints the usage too)."""

    def error(self, message: str) -> NoReturn:
        raise UsageError(f"{message} (see {self.prog} --help)")


class Whole:
    """An argparse type: a whole number from ``low`` to ``high`` (the rule of
    :mod:`cryptocomp.numbers`: ASCII digits), its error line naming the option ``name``."""

    def __init__(self, name: str, low: int, high: int = MAX_WHOLE):
        self.name, self.low, self.high = name, low, high
        self.bounds = bounds_text(low, high)

    def __call__(self, text: str) -> int:
        try:
            return read_whole(text, self.low, self.high)
        except NumberError as exc:
            raise UsageError(self._message(exc)) from None

    def _message(self, exc: NumberError) -> str:
        if exc.reason == "syntax":
            return (f"{self.name} wants a whole number (digits 0-9), {self.bounds}, "
                    f"not {shown(exc.text)}")
        if exc.reason == "high":
            return (f"{self.name} must be between {self.low:,} and {self.high:,}, "
                    f"not {shown(exc.text)}")
        if exc.text.strip().startswith("-") and self.low >= 0:
            return f"{self.name} must not be negative ({self.bounds}), not {shown(exc.text)}"
        return f"{self.name} must be at least {self.low:,}, not {shown(exc.text)}"


class Seconds:
    """An argparse type: a time in seconds, more than 0 (or, ``zero_is_none``, 0 for no
    limit) and at most :data:`MAX_SECONDS`; nan and inf are no time."""

    def __init__(self, name: str, *, zero_is_none: bool = False):
        self.name, self.zero_is_none = name, zero_is_none
        self.bounds = (f"0 (no limit) or up to {MAX_SECONDS:,.0f} seconds (a week)"
                       if zero_is_none else f"more than 0, at most {MAX_SECONDS:,.0f} (a week)")

    def __call__(self, text: str) -> float:
        try:
            return read_real(text, 0.0, MAX_SECONDS, above=not self.zero_is_none)
        except NumberError:
            what = (f"0 (no limit) or a number of seconds up to {MAX_SECONDS:,.0f} (a week)"
                    if self.zero_is_none else
                    f"a positive number of seconds, at most {MAX_SECONDS:,.0f} (a week)")
            raise UsageError(f"{self.name} must be {what}, not {shown(text)}") from None


def add_number(parser: argparse._ActionsContainer, *flags: str, kind: Whole | Seconds,
               help: str, **kwargs: Any) -> None:
    """An option (or positional) taking a number of ``kind``, its bounds in its help."""
    parser.add_argument(*flags, type=kind, help=f"{help}; {kind.bounds}", **kwargs)


def whole(parser: argparse._ActionsContainer, flag: str, low: int, high: int = MAX_WHOLE, *,
          help: str, name: str | None = None, **kwargs: Any) -> None:
    """:func:`add_number` for a whole number from ``low`` to ``high``."""
    add_number(parser, flag, kind=Whole(name or flag, low, high), help=help, **kwargs)


def seconds(parser: argparse._ActionsContainer, flag: str, *, help: str,
            zero_is_none: bool = False, **kwargs: Any) -> None:
    """:func:`add_number` for a time in seconds (see :class:`Seconds`)."""
    add_number(parser, flag, kind=Seconds(flag, zero_is_none=zero_is_none), help=help,
               **kwargs)


def limit(text: str) -> int | None:
    """An argparse type for --limit: N >= 1 most frequent words, or off (None); the same rule
    as the prompt's :limit (0 is refused: it read as "off" there, as "no word" here)."""
    from ..prompt.settings import parse_limit

    return parse_limit(text, "--limit")


def word_classes(text: str) -> WordClasses:
    """An argparse type for --words: class names separated by commas, or all (see
    :class:`~cryptocomp.index.classes.WordClasses`); one line for a class that is none."""
    try:
        return WordClasses.parse(text)
    except CryptocompError as exc:
        raise UsageError(f"--words: {exc}") from None


def add_word_options(parser: argparse._ActionsContainer, command: str, *,
                     score: bool = True) -> None:
    """--words CLASSES (the default of ``command`` in ``DEFAULTS``) and, with ``score``,
    --min-score N: which kinds of dictionary word the command may use."""
    parser.add_argument("--words", type=word_classes, default=None, metavar="CLASSES",
                        help=f"word classes to use, separated by commas: "
                             f"{', '.join(CLASS_NAMES)}, or all (every class but offensive, "
                             f"which is used only when named); default: "
                             f"{DEFAULTS[command].describe()}")
    if score:
        whole(parser, "--min-score", 1, 100, default=None, metavar="N",
              help="only words scoring at least N on the 1-100 scale")


def chosen_classes(args: argparse.Namespace, command: str) -> WordClasses:
    """The word classes the options admit: --words, else the default of ``command``."""
    return getattr(args, "words", None) or DEFAULTS[command]


def no_result(message: str) -> int:
    """Say on stderr that a command found nothing (stdout may be a pipe, showing nothing);
    return the exit status of "no result", 1."""
    print(f"cryptocomp: {message}", file=sys.stderr)
    return 1


def add_dict_options(parser: argparse.ArgumentParser) -> None:
    """--lang / --dict / --fold-yo: which dictionary to use."""
    group = parser.add_argument_group("dictionary")
    group.add_argument("--lang", default=None, metavar="CODE",
                       help="wordfreq language code (default: en)")
    group.add_argument("--dict", default=None, metavar="PATH",
                       help="a 'word count' frequency dictionary file")
    group.add_argument("--fold-yo", action="store_true",
                       help="fold ё into е (Russian) when indexing")


def dict_spec(args: argparse.Namespace) -> str:
    """The dictionary the options name: --dict PATH, else --lang CODE, else en."""
    if args.dict and args.lang:
        raise QueryError("give --lang or --dict, not both")
    return args.dict or args.lang or "en"


def is_terminal(stream: IO[str] | None = None) -> bool:
    """True when the stream (stdout by default) is a terminal."""
    stream = stream or sys.stdout
    return hasattr(stream, "isatty") and stream.isatty()


def live_progress(*columns: str | ProgressColumn, **options: Any) -> RichProgress:
    """A rich progress display on stderr (a terminal), cleared when done.  What is printed
    to stdout meanwhile goes above it only when stdout is that terminal too: rich sent it to
    stderr, so that ``fill --attempts 2 > out`` on a terminal left ``out`` empty."""
    from rich.console import Console
    from rich.progress import Progress as RichProgress

    return RichProgress(*columns, console=Console(stderr=True), transient=True,
                        redirect_stdout=is_terminal(sys.stdout), **options)


@contextmanager
def progress_bar(description: str) -> Iterator[Progress | None]:
    """A rich progress callback on a terminal (stderr); None, i.e. quiet, when piped."""
    if not is_terminal(sys.stderr):
        yield None
        return
    from rich.progress import BarColumn, TextColumn, TimeElapsedColumn

    with live_progress(TextColumn("{task.description}"), BarColumn(),
                       TimeElapsedColumn()) as bar:
        task = bar.add_task(description, total=None)

        def update(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total)

        yield update


def open_index(args: argparse.Namespace) -> Index:
    """Load (building on first use) the index the options name, with a progress bar."""
    spec = dict_spec(args)
    with progress_bar(f"indexing {spec}") as progress:
        return load_index(spec, fold_yo=getattr(args, "fold_yo", False), progress=progress)


def print_json(obj: Any) -> None:
    """Print a JSON value to stdout (UTF-8 text, not escapes); an array one element a line.

    An array is written element by element with the C encoder, which json.dump with an
    indent never uses: the 20,000 plays of a 15-tile rack took 0.25 s to encode, not 0.1 s."""
    if isinstance(obj, list):
        body = ",\n".join(json.dumps(x, ensure_ascii=False) for x in obj)
        sys.stdout.write(f"[\n{body}\n]\n" if obj else "[]\n")
        return
    json.dump(obj, sys.stdout, ensure_ascii=False, indent=1)
    sys.stdout.write("\n")


def print_lines(lines: Iterable[str]) -> None:
    """Print text lines to stdout, one after another."""
    for line in lines:
        print(line)


def print_rich(parts: Iterable[RenderableType]) -> None:
    """Print rich renderables (a string as rich markup) to stdout with one console."""
    from rich.console import Console

    console = Console()
    for part in parts:
        console.print(part)


def add_list_option(parser: argparse.ArgumentParser) -> None:
    """--list FILE: the user's own list laid over the dictionary (cryptocomp.index.personal)."""
    parser.add_argument("--list", dest="personal_list", default=None, metavar="FILE",
                        help="your own word list laid over the dictionary (word;score, "
                             "score 0 or -word removes a word), without rebuilding the index")


def personal_overlay(args: argparse.Namespace, index: Index) -> Overlay | None:
    """The index with the --list file laid over it, or None without --list."""
    if not getattr(args, "personal_list", None):
        return None
    from ..index.personal import Overlay, PersonalList

    path = Path(args.personal_list).expanduser()
    if not path.exists():
        raise QueryError(f"{files.shown(args.personal_list)}: no such word list")
    return Overlay(index, PersonalList.load(path, admits=Overlay.admits_of(index),
                                            fold_yo=getattr(args, "fold_yo", False)))
