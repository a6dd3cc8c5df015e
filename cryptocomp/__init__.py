"""cryptocomp: word-puzzle composition over frequency dictionaries.

A tour on a tiny dictionary (scripts load real ones with ``load_index("en")``):

>>> from cryptocomp import Index, pattern
>>> idx = Index.from_counts({"money": 50, "honey": 20, "mommy": 5, "send": 40})
>>> idx.match("?oney").words()
['money', 'honey']
>>> pattern("mommy")
(0, 1, 0, 0, 2)
>>> idx.same_pattern("daddy").words()
['mommy']
>>> [(e.word, e.count, e.rank) for e in idx.match("s???")]
[('send', 40, 2)]

Composing and solving cryptarithms:

>>> from cryptocomp import compose, solve
>>> [(p.puzzle, p.solution) for p in compose("SEND+MORE", idx)]
[('send+more=money', '9567+1085=10652')]
>>> solve("SEND+MORE=MONEY").equations
['9567+1085=10652']
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .lazy import lazy_exports
from .version import __version__

if TYPE_CHECKING:
    from .arrow import ArrowPuzzle, ArrowResult, arrowword
    from .crossword import FillResult, Grid, fill, read_grid
    from .cryptarithm import (
        Composed,
        Puzzle,
        Solved,
        compose,
        looks_like_expression,
        parse,
        parse_system,
        solve,
    )
    from .errors import (
        CryptocompError,
        DictionaryError,
        ExpressionError,
        IndexFileError,
        QueryError,
        TileError,
    )
    from .index import (
        Entry,
        FreqDict,
        Index,
        Matches,
        WordFilter,
        build_index,
        load_freqdict,
        load_index,
        pattern,
    )
    from .tiles import BagResult, Play, Rack, TileSet, best_bag, rack_words, tileset

# name -> the subpackage defining it; imported on first use (PEP 562), so that a one-shot
# command pays only for the systems it uses (the crossword and tile engines are not free)
_HOMES = {
    **dict.fromkeys(["FillResult", "Grid", "fill", "read_grid"], "crossword"),
    **dict.fromkeys(["arrowword", "ArrowPuzzle", "ArrowResult"], "arrow"),
    **dict.fromkeys(["Composed", "Puzzle", "Solved", "compose", "looks_like_expression", "parse",
                     "solve", "parse_system"], "cryptarithm"),
    **dict.fromkeys(["CryptocompError", "DictionaryError", "ExpressionError", "IndexFileError",
                     "QueryError", "TileError"], "errors"),
    **dict.fromkeys(["Entry", "FreqDict", "Index", "Matches", "WordFilter", "build_index",
                     "load_freqdict", "load_index", "pattern"], "index"),
    **dict.fromkeys(["BagResult", "Play", "Rack", "TileSet", "best_bag", "rack_words", "tileset"],
                    "tiles"),
}

__all__ = [
    "__version__",
    "Index", "Matches", "Entry", "pattern", "WordFilter",
    "load_index", "build_index", "load_freqdict", "FreqDict",
    "compose", "Composed", "solve", "Solved", "parse", "Puzzle", "looks_like_expression",
    "parse_system",
    "fill", "read_grid", "Grid", "FillResult", "arrowword", "ArrowPuzzle", "ArrowResult",
    "rack_words", "Play", "best_bag", "BagResult", "tileset", "TileSet", "Rack",
    "CryptocompError", "DictionaryError", "IndexFileError", "QueryError", "ExpressionError",
    "TileError",
]


__getattr__ = lazy_exports(__name__, _HOMES)


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
