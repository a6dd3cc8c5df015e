"""The ``cryptocomp`` command: a thin layer over the library.

``cryptocomp`` alone opens the interactive prompt; subcommands do one job each
and print rich tables on a terminal, plain lines when piped, JSON with ``--json``
(built by :mod:`cryptocomp.rendering`; the commands only print them).
Every :class:`~cryptocomp.errors.CryptocompError` becomes one line on stderr and
exit status 2; Ctrl-C exits with status 130 and no traceback.
"""

from __future__ import annotations

import argparse
import importlib
import logging
import sys
from typing import TextIO

from ..errors import BatchStopped, CryptocompError

__all__ = ["main", "build_parser"]

# subcommand modules of this package; each defines register(subparsers)
_COMMANDS = ["words", "index", "compose", "fill", "swedish", "rack", "serve"]
# the subcommands each module registers (argv[0] picks the one module to import)
_NAMES = {"words": ("words",), "index": ("index",), "compose": ("compose", "solve"),
          "fill": ("fill", "square"), "swedish": ("swedish",), "rack": ("rack", "bag"),
          "serve": ("serve",)}


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The argument parser with every subcommand registered (``only``: just that one, so
    that a one-shot command does not import every system)."""
    from ..version import __version__
    from .options import Parser

    parser = Parser(
        prog="cryptocomp",
        description="Compose word puzzles from frequency dictionaries. "
                    "Without a subcommand, opens the interactive prompt.")
    parser.add_argument("--version", action="version", version=f"cryptocomp {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in _COMMANDS if only is None else [only]:
        importlib.import_module(f".{name}", __name__).register(sub)
    return parser


class _StderrHandler(logging.StreamHandler):
    """Writes to whatever ``sys.stderr`` is at the time, so a live rich progress bar, which
    redirects stderr, prints log lines above itself instead of on its own line."""

    @property
    def stream(self) -> TextIO:
        return sys.stderr

    @stream.setter
    def stream(self, value: TextIO) -> None:
        pass


def _setup_logging() -> None:
    handler = _StderrHandler()
    handler.setFormatter(logging.Formatter("cryptocomp: %(message)s"))
    root = logging.getLogger("cryptocomp")
    root.handlers[:] = [handler]
    root.setLevel(logging.INFO)
    root.propagate = False


def main(argv: list[str] | None = None) -> int:
    """Run the command line; return the exit status."""
    argv = sys.argv[1:] if argv is None else list(argv)
    _setup_logging()
    try:
        if not argv or (argv[0].startswith("-") and argv[0] not in ("-h", "--help", "--version")):
            from . import prompt_cmd

            return prompt_cmd.run(argv)
        # a subcommand's module registers the names it answers to ("compose", "solve")
        only = next((m for m, names in _NAMES.items() if argv[0] in names), None)
        args = build_parser(only).parse_args(argv)
        if not getattr(args, "run", None):
            build_parser().print_help()
            return 0
        return args.run(args) or 0
    except BatchStopped as exc:
        # finished work is kept; the line says how to finish
        print(f"cryptocomp: {exc}", file=sys.stderr)
        return 130 if exc.interrupted else 3
    except CryptocompError as exc:
        print(f"cryptocomp: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("cryptocomp: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # the reader went away (e.g. `| head`); nothing left to say
        sys.stderr.close()
        return 0
    except SystemExit as exc:  # --help, --version: a status for callers of main() too
        return exc.code if isinstance(exc.code, int) else 0 if exc.code is None else 2
