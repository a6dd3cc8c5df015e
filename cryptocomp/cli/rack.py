"""``cryptocomp rack`` (words a rack of tiles builds) and ``cryptocomp bag`` (the whole bag).

Word source: ``--dict PATH`` (a ``word count`` file or a plain word list),
``--dict enable`` (the ENABLE list shipped in the package), or ``--lang CODE``;
without either, ENABLE for the English tiles and the wordfreq list of the tile
set's language otherwise.
"""

from __future__ import annotations

import argparse
import logging
import sys

from ..errors import DictionaryError
from ..index.index import Index
from ..index.store import resolve_source
from ..index.wordfilter import WordFilter
from ..rendering import bag_lines, class_column, plural, rack_json, rack_lines, rack_table
from ..shipped import shipped
from ..tiles.bag import MAX_TILES, best_bag
from ..tiles.rack import rack_words
from ..tiles.tiles import TileSet, tileset, tileset_names
from .options import (
    add_dict_options,
    add_word_options,
    chosen_classes,
    is_terminal,
    no_result,
    open_index,
    print_json,
    print_lines,
    print_rich,
    seconds,
    whole,
)

log = logging.getLogger(__name__)

ENABLE = "enable"  # the named word source for the shipped ENABLE list


def enable_path() -> str:
    """The path of the ENABLE word list shipped in the package."""
    return str(shipped("enable1.txt"))


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("rack", help="every word a rack of tiles can build, best score first",
                       description="List the dictionary words a rack of tiles can build "
                                   "(? is a blank; [cs] or spaces for multi-letter tiles), "
                                   "best tile score first, then most frequent.")
    p.add_argument("letters", help="the rack, e.g. retinas? or 'cs a sz ?'")
    _tile_options(p)
    whole(p, "--top", 1, default=None, metavar="N",
          help="show at most N words (default: 50 on a terminal, all when piped)")
    p.add_argument("--json", action="store_true", help="print a JSON array")
    add_dict_options(p)
    p.set_defaults(run=run_rack)

    b = sub.add_parser("bag", help="use every tile of the bag in words with distinct first "
                                   "letters, maximising sum of length x value",
                       description="The whole-bag puzzle: every tile used once, in words "
                                   "starting with different letters, each scoring its length "
                                   "times its tile values; prints the best set and whether it "
                                   "is proved optimal.")
    _tile_options(b)
    whole(b, "--max-length", 1, MAX_TILES, default=15, metavar="N",
          help="longest word allowed, in tiles (default 15, a board's width)")
    seconds(b, "--time-limit", zero_is_none=True, default=600.0, metavar="SECONDS",
            help="stop after this many seconds of wall-clock time and report the best found "
                 "and the proved upper bound (default 600)")
    b.add_argument("--json", action="store_true", help="print a JSON object")
    add_dict_options(b)
    b.set_defaults(run=run_bag)


def _tile_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--tiles", default="en", metavar="SET",
                   help=f"tile set: {', '.join(tileset_names())} (default en)")
    add_word_options(p, "rack")


def _words(args: argparse.Namespace) -> WordFilter:
    """The words a rack or the bag may use, as --words and --min-score say."""
    return WordFilter(classes=chosen_classes(args, "rack"), min_score=args.min_score)


def _open(args: argparse.Namespace) -> tuple[TileSet, Index]:
    """The tile set and the index the options name (see the module docstring)."""
    tiles = tileset(args.tiles)
    if args.dict and args.dict.strip().lower() == ENABLE:
        args.dict = enable_path()
    elif not args.dict and not args.lang:
        if tiles.name == "en":
            args.dict = enable_path()
        else:
            args.lang = _default_language(tiles)
    return tiles, open_index(args)


def _default_language(tiles: TileSet) -> str:
    """The wordfreq language a tile set's words come from by default (its own code); a
    one-line error saying what to pass when wordfreq has no list for it (Welsh, Basque ...),
    where the dictionary lookup alone would call the tile set's code an unknown language."""
    try:
        resolve_source(tiles.name)
    except DictionaryError:
        raise DictionaryError(
            f"the {tiles.name} tile set ({tiles.language}) has no default word list: wordfreq "
            f"has none for {tiles.language}; give one with --dict PATH (a word list or a "
            f"'word count' file)") from None
    return tiles.name


def run_rack(args: argparse.Namespace) -> int:
    tiles, index = _open(args)
    words = _words(args)
    plays = rack_words(args.letters, tiles, index, words=words)
    classes = class_column(index, words.classes)
    top = args.top if args.top is not None else (50 if is_terminal() and not args.json else None)
    shown = plays[:top] if top is not None else list(plays)
    none = f"no word of {index.name} can be built from {args.letters} ({tiles.name} tiles)"
    if args.json:
        print_json(rack_json(shown, classes))
        return 0 if plays else no_result(none)
    if not is_terminal():
        print_lines(rack_lines(shown, classes))
        return 0 if plays else no_result(none)
    print_rich(rack_table(args.letters, tiles.name, index.name, len(plays), shown, classes))
    return 0 if plays else 1


def run_bag(args: argparse.Namespace) -> int:
    """Exit status: 0 a solution (proved optimal or not), 1 proved that none exists, 3 the
    time limit ran out before any solution was found (the upper bound is printed)."""
    tiles, index = _open(args)
    progress = (lambda message: log.info("bag: %s", message)) if is_terminal(sys.stderr) \
        else None
    result = best_bag(tiles, index, max_length=args.max_length,
                      time_limit=args.time_limit or None, progress=progress,
                      allowed=_words(args))
    if result is None:
        print(f"cryptocomp: no solution: the {tiles.name} bag cannot be used up with words of "
              f"{index.name} (at most {plural(args.max_length, 'tile')} each)", file=sys.stderr)
        return 1
    if args.json:
        print_json({**result.to_json(), "dictionary": index.name})
        return 0 if result.found else 3
    print_lines(bag_lines(result, args.time_limit))
    return 0 if result.found else 3
