"""The candidate words for a puzzle's unknown: what the author asks of it, as bitmaps.

Besides solving the puzzle, the word filling the unknown may be asked to

* fit a template written in its place (``SEND+MORE=?o???``, ``SEND+MORE=m????``,
  ``SEND+MORE=[con*]``; see :mod:`.expr`),
* contain some letters (``contains="ey"``; a repeated letter counts: ``"ee"`` is at
  least two e) and not contain others (``excludes="xq"``),
* have a length in a range, and pass the frequency filters (the ``limit`` most
  frequent words of the dictionary, a ``min_count``).

Each is one family of the index, so the candidate set is a chain of bitmap
intersections computed once, before the composer's key join: ``match(template)``
(``by_length`` and ``at(i, c)``, or the word-order ranges of ``*`` templates),
``having(c)`` per required letter and ``at_least(c, k)`` for a repeated one, minus
``having(c)`` per excluded letter, ``by_lengths(lo, hi)``, and the id prefix of the
most frequent words.  The constraints only choose which words are tried: what
counts as a solution, and so whether a word's puzzle has exactly one, never
depends on them.

>>> from cryptocomp import Index
>>> idx = Index.from_counts({"money": 9, "honey": 8, "mommy": 7, "demon": 6})
>>> from cryptocomp.cryptarithm.expr import parse
>>> ids = candidate_ids(idx, parse("send+more=m????"), Constraints(excludes="h"))
>>> [idx.words[i] for i in ids]
['money', 'mommy']
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from pyroaring import FrozenBitMap

from ..errors import ExpressionError
from ..index.alphabet import WILDCARDS, spell
from ..index.index import Index
from .expr import Puzzle

__all__ = ["Constraints", "candidate_ids", "letters_of"]


def letters_of(text: str, what: str, fold_yo: bool = False) -> str:
    """The letters of ``text`` (in a dictionary's spelling, ``fold_yo`` as it was built;
    spaces and commas between them ignored); ExpressionError naming ``what`` for anything
    that is not a letter."""
    out = []
    for ch in spell(text or "", fold_yo=fold_yo):
        if ch.isspace() or ch == ",":
            continue
        if not ch.isalpha():
            raise ExpressionError(f"{what} takes letters, not {ch!r}")
        out.append(ch)
    return "".join(out)


@dataclass(frozen=True)
class Constraints:
    """What the unknown word must satisfy besides the puzzle (all optional)."""

    contains: str = ""             # letters it must contain; a repeated letter counts
    excludes: str = ""             # letters it must not contain
    min_length: int | None = None  # shortest word
    max_length: int | None = None  # longest word
    limit: int | None = None       # only the `limit` most frequent words of the dictionary
    min_count: int | None = None   # only words counted at least this often
    fold_yo: bool = False          # the letters' ё as е (a dictionary that folds ё)

    def __post_init__(self) -> None:
        for name in ("contains", "excludes"):
            object.__setattr__(self, name, letters_of(getattr(self, name), name, self.fold_yo))
        for name in ("min_length", "max_length", "limit", "min_count"):
            value = getattr(self, name)
            if value is not None and value < 0:
                raise ExpressionError(f"{name} must not be negative")
        both = sorted(set(self.contains) & set(self.excludes))
        if both:
            raise ExpressionError(f"letter {both[0]!r} is both required and excluded")

    def describe(self) -> str:
        """The constraints in a few words ('' when there are none)."""
        parts = []
        if self.contains:
            parts.append(f"contains {self.contains}")
        if self.excludes:
            parts.append(f"excludes {self.excludes}")
        lo, hi = self.min_length, self.max_length
        if lo is not None and lo == hi:
            parts.append(f"length {lo}")
        elif lo is not None or hi is not None:
            parts.append(f"length {lo or 1}-{hi}" if hi is not None else f"length ≥ {lo}")
        return ", ".join(parts)


def candidate_ids(index: Index, puzzle: Puzzle, constraints: Constraints) -> FrozenBitMap:
    """Ids of the words the unknown may take under the constraints and the puzzle's
    template: one chain of bitmap intersections (see the module docstring)."""
    c = constraints
    hole = puzzle.hole
    template = None if hole is None else hole.template
    if template is not None:
        _check_template(index, puzzle, c)
    lo, hi = c.min_length, c.max_length
    required = Counter(c.contains)
    if template is None:
        ids = index.select(length=(lo, hi), required=list(required), forbidden=c.excludes,
                           top=c.limit, min_count=c.min_count)
    else:
        ids = index.match(template, required=list(required), forbidden=c.excludes,
                          top=c.limit, min_count=c.min_count).ids
        if lo is not None or hi is not None:
            ids = ids & index.by_lengths(lo, hi)
    for ch, k in required.items():
        if k > 1 and ids:
            ids = ids & index.at_least(ch, k)
    return ids


def _check_template(index: Index, puzzle: Puzzle, c: Constraints) -> None:
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
        if ch in c.excludes:
            raise ExpressionError(f"letter {ch!r} of the template is excluded", col,
                                  puzzle.text)
