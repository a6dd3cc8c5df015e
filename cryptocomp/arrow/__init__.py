"""Arrow-word (Swedish) puzzles: masks, fills by the crossword engine, clues, hidden phrases.

The wing stands on the crossword engine (:mod:`cryptocomp.crossword` fills each mask) and
on the batch layer (:mod:`cryptocomp.batch` runs the puzzles on all cores):
:mod:`.mask` searches where the clue cells go, :mod:`.generator` makes one attempt (a mask
and its fill, :class:`MaskFill`) and finishes a puzzle, :mod:`.workload` is the batch
workload behind ``swedish --count`` and :mod:`.api` the :func:`arrowword` call on it;
:mod:`.clues` and :mod:`.phrases` read the clue and phrase files, :mod:`.puzzle` holds the
finished puzzle and its JSON, :mod:`.check` checks one independently of the generator and
:mod:`.svg` draws it.

>>> from cryptocomp import Index
>>> from cryptocomp.arrow import arrowword, load_clues, puzzle_problems
>>> book = load_clues("wordnet")
>>> idx = Index.from_counts({w: book.senses(w) for w in book if len(w) <= 6}, name="wn6")
>>> result = arrowword((6, 6), index=idx, clues=book, phrases="none", seed=1)
>>> result.complete, len(result.puzzle.grid), puzzle_problems(result.puzzle.to_json(),
...                                                            words=idx.__contains__)
(True, 6, [])
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..lazy import lazy_exports

if TYPE_CHECKING:
    from .api import arrowword, generate
    from .check import puzzle_problems
    from .clues import ClueBook, load_clues
    from .generator import ArrowError, ArrowParams, MaskFill, attempt
    from .phrases import PhraseBook, read_phrases
    from .puzzle import ArrowPuzzle, ArrowResult, ArrowWord, Hidden
    from .svg import arrow_svg

# the wing's modules are imported on first use (PEP 562): the generator and its API bring
# the crossword engine and the batch layer with them, which reading a clue file or drawing
# a finished puzzle does not need
_HOMES = {
    "arrowword": "api", "generate": "api", "puzzle_problems": "check",
    "ClueBook": "clues", "load_clues": "clues",
    "ArrowError": "generator", "ArrowParams": "generator", "MaskFill": "generator",
    "attempt": "generator", "PhraseBook": "phrases", "read_phrases": "phrases",
    "ArrowPuzzle": "puzzle", "ArrowResult": "puzzle", "ArrowWord": "puzzle", "Hidden": "puzzle",
    "arrow_svg": "svg",
}
__getattr__ = lazy_exports(__name__, _HOMES)

__all__ = [
    "arrowword", "generate", "ArrowParams", "ArrowError", "attempt", "MaskFill",
    "ArrowPuzzle", "ArrowResult", "ArrowWord", "Hidden", "arrow_svg", "puzzle_problems",
    "ClueBook", "load_clues", "PhraseBook", "read_phrases",
]
