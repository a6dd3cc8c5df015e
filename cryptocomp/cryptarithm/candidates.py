"""The candidate words for a puzzle's unknown: what the author asks of it, as bitmaps.

Besides solving the puzzle, the word filling the unknown may be asked to

* fit a template written in its place (``SEND+MORE=?o???``, ``SEND+MORE=m????``,
  ``SEND+MORE=[con*]``; see :mod:`.expr`),
* pass a :class:`~cryptocomp.index.wordfilter.WordFilter`: contain some letters
  (``contains="ey"``; a repeated letter counts: ``"ee"`` is at least two e) and not
  contain others (``excludes="xq"``), have a length in a range, and pass the frequency
  filters (the ``top`` most frequent words of the dictionary, a ``min_count``).

Each is one family of the index, so the candidate set is a chain of bitmap
intersections computed once, before the composer's key join: ``match(template)``
(``by_length`` and ``at(i, c)``, or the word-order ranges of ``*`` templates) and
the filter's own (:func:`cryptocomp.index.wordfilter.select`).  The filter only
chooses which words are tried: what counts as a solution, and so whether a word's
puzzle has exactly one, never depends on it.

>>> from cryptocomp import Index
>>> idx = Index.from_counts({"money": 9, "honey": 8, "mommy": 7, "demon": 6})
>>> from cryptocomp.cryptarithm.expr import parse
>>> from cryptocomp import WordFilter
>>> ids = candidate_ids(idx, parse("send+more=m????"), WordFilter(excludes="h"))
>>> [idx.words[i] for i in ids]
['money', 'mommy']
"""

from __future__ import annotations

from pyroaring import FrozenBitMap

from ..errors import ExpressionError
from ..index.alphabet import WILDCARDS
from ..index.index import Index
from ..index.wordfilter import WordFilter
from .expr import Puzzle

__all__ = ["candidate_ids"]


def candidate_ids(index: Index, puzzle: Puzzle, words: WordFilter) -> FrozenBitMap:
    """Ids of the words the unknown may take under the filter (its letters spelled as the
    index's) and the puzzle's template: one chain of bitmap intersections (see the module
    docstring)."""
    hole = puzzle.hole
    template = None if hole is None else hole.template
    if template is None:
        return index.select(words)
    _check_template(index, puzzle, words)
    return index.match(template, words).ids


def _check_template(index: Index, puzzle: Puzzle, words: WordFilter) -> None:
    """ExpressionError at the column of a template letter no word can have there."""
    hole = puzzle.hole
    assert hole is not None and hole.template is not None
    letters = set(index.alphabet)
    for ch, col in zip(hole.template, hole.where):
        if ch in WILDCARDS:  # '.' was spelled '?' when the template was read
            continue
        if ch not in letters:
            raise ExpressionError(f"letter {ch!r} of the template does not occur in dictionary "
                                  f"{index.name or '(unnamed)'}", col, puzzle.text)
        if ch in words.excludes:
            raise ExpressionError(f"letter {ch!r} of the template is excluded", col,
                                  puzzle.text)
