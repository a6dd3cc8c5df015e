"""Options and output shared by the subcommands."""

from __future__ import annotations

import argparse
import json
import sys
from contextlib import contextmanager
from typing import Iterator

from ..errors import QueryError
from ..domain import Progress
from ..index.index import Index
from ..index.store import load_index



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


def is_terminal(stream=None) -> bool:
    """True when the stream (stdout by default) is a terminal."""
    stream = stream or sys.stdout
    return hasattr(stream, "isatty") and stream.isatty()


@contextmanager
def progress_bar(description: str) -> Iterator[Progress | None]:
    """A rich progress callback on a terminal (stderr); None, i.e. quiet, when piped."""
    if not is_terminal(sys.stderr):
        yield None
        return
    from rich.console import Console
    from rich.progress import BarColumn, Progress as RichProgress, TextColumn, TimeElapsedColumn

    with RichProgress(TextColumn("{task.description}"), BarColumn(), TimeElapsedColumn(),
                      console=Console(stderr=True), transient=True) as bar:
        task = bar.add_task(description, total=None)

        def update(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total)

        yield update


def open_index(args: argparse.Namespace) -> Index:
    """Load (building on first use) the index the options name, with a progress bar."""
    spec = dict_spec(args)
    with progress_bar(f"indexing {spec}") as progress:
        return load_index(spec, fold_yo=getattr(args, "fold_yo", False), progress=progress)


def print_json(obj) -> None:
    """Print a JSON value to stdout (UTF-8 text, not escapes)."""
    json.dump(obj, sys.stdout, ensure_ascii=False, indent=1)
    sys.stdout.write("\n")


def per_million(count: int, total: int) -> float:
    """A count as occurrences per million words of the dictionary."""
    return count * 1e6 / total if total else 0.0
