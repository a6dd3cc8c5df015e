"""``cryptocomp [--lang CODE | --dict PATH] [--json]``: the interactive prompt.

On a terminal this opens the prompt (see :mod:`cryptocomp.prompt`).  When stdin
or stdout is not a terminal it reads one query a line from stdin and prints
plain tab-separated results, or with ``--json`` one JSON object a query line
(JSON Lines), so ``echo SEND+MORE | cryptocomp`` composes with pipelines.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING, cast

from .options import Parser, add_dict_options, dict_spec, is_terminal

if TYPE_CHECKING:
    from ..rendering import ColorSystem


def build_parser() -> argparse.ArgumentParser:
    p = Parser(
        prog="cryptocomp",
        description="Open the interactive prompt (or, with stdin/stdout not a terminal, run one "
                    "query a line). Subcommands: cryptocomp words|index ... (see "
                    "`cryptocomp --help`).")
    add_dict_options(p)
    p.add_argument("--json", action="store_true",
                   help="not a terminal: print one JSON object a query line (JSON Lines)")
    p.add_argument("--top", default=None, metavar="N",
                   help="show at most N results a query, or all (default: 20 at the prompt, "
                        "all when piped)")
    p.add_argument("--minfreq", default=None, metavar="F",
                   help="only words used at least F times per million (1e-30 to 1,000,000), "
                        "or off (the default)")
    p.add_argument("--limit", default=None, metavar="N",
                   help="only the N most frequent words of the dictionary (N >= 1), or off "
                        "(the default)")
    p.add_argument("--list", dest="personal_list", default=None, metavar="FILE",
                   help="your own word list, edited with :add and :remove (default: "
                        "lists/<index name>.txt in the data directory)")
    p.add_argument("--words", default=None, metavar="CLASSES",
                   help="word classes queries use (as :words): dictionary, name, ..., all, or "
                        "default (compose and templates: dictionary)")
    p.add_argument("--no-history", action="store_true", help="keep no history file")
    return p


def run(argv: list[str]) -> int:
    """Parse the prompt's options, open the dictionary, run the prompt or the line mode."""
    from ..index.wordfilter import WordFilter
    from ..prompt import (
        INTERACTIVE_TOP,
        Session,
        Settings,
        delayed_progress,
        history_path,
        interact,
        parse_classes,
        parse_limit,
        parse_minfreq,
        parse_top,
        run_lines,
    )

    args = build_parser().parse_args(argv)
    interactive = is_terminal(sys.stdin) and is_terminal(sys.stdout) and not args.json
    # the options take the same arguments as the commands, checked before any loading
    settings = Settings(
        shown=parse_top(args.top, "--top") if args.top is not None else
        (INTERACTIVE_TOP if interactive else None),
        minfreq=parse_minfreq(args.minfreq, "--minfreq") if args.minfreq is not None else None,
        words=WordFilter(top=parse_limit(args.limit, "--limit") if args.limit is not None
                         else None),
        classes=parse_classes(args.words, "--words") if args.words is not None else None)
    progress = delayed_progress() if is_terminal(sys.stderr) else None
    mine = Path(args.personal_list).expanduser() if args.personal_list else None
    session = Session.open(dict_spec(args), fold_yo=args.fold_yo, progress=progress,
                           settings=settings, list_path=mine)
    if not interactive:
        if hasattr(sys.stdin, "reconfigure"):  # queries are UTF-8; other bytes get an error line
            sys.stdin.reconfigure(encoding="utf-8", errors="surrogateescape")
        return run_lines(session, sys.stdin, sys.stdout, sys.stderr, as_json=args.json)
    return interact(session, history=None if args.no_history else history_path(),
                    color_system=_color_system())


def _color_system() -> ColorSystem | None:
    from rich.console import Console

    system = Console().color_system  # what the terminal supports, under rich's names
    known = ("standard", "256", "truecolor", "windows")
    return cast("ColorSystem", system) if system in known else None
