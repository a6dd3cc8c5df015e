"""Which words a query may use: one value object, taken by every layer above the index.

A :class:`WordFilter` says which dictionary words are candidates, whatever the query
(a template, a composed cryptarithm's unknown, a crossword slot):

* ``min_length`` / ``max_length``: a length range (either end open),
* ``top``: only the N most frequent words of the dictionary,
* ``min_count``: only words counted at least this often,
* ``min_score``: only words scoring at least this on the 1-100 scale (:mod:`.scores`),
* ``contains``: letters a word must contain (a repeated letter counts: ``"ee"`` is at
  least two e), ``excludes``: letters it must not contain,
* ``classes``: the word classes admitted (:class:`~.classes.WordClasses`; None: every
  word; on an unclassified index every word passes).

The template of a query is the query itself, not part of the filter.  Each condition
is one family of the index, so a filter is a chain of bitmap intersections
(:func:`select`): ``by_lengths(lo, hi)``, ``having(c)`` per required letter and
``at_least(c, k)`` for a repeated one, the id prefix of the most frequent words, the
union of the admitted classes (:meth:`~.index.Index.admitted`), minus ``having(c)`` per
excluded letter.

Letters are spelled as a user's text is (:func:`~.alphabet.spell`); a dictionary that
folds ё reads them through :meth:`WordFilter.spelt`.

>>> from cryptocomp import Index
>>> idx = Index.from_counts({"money": 9, "honey": 8, "mommy": 7, "demon": 6})
>>> words = WordFilter(contains="m", excludes="d", top=3)
>>> words.describe()
'contains m, excludes d'
>>> idx.words_of(list(select(idx, words)))
['money', 'mommy']
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Protocol

from pyroaring import FrozenBitMap

from ..errors import ExpressionError
from .alphabet import spell
from .classes import WordClasses
from .scores import first_below_score

__all__ = ["WordFilter", "ALL_WORDS", "Families", "letters_of", "select"]

_EMPTY = FrozenBitMap()


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
class WordFilter:
    """Which dictionary words a query may use (every condition optional)."""

    min_length: int | None = None  # shortest word
    max_length: int | None = None  # longest word
    top: int | None = None         # only the `top` most frequent words of the dictionary
    min_count: int | None = None   # only words counted at least this often
    contains: str = ""             # letters it must contain; a repeated letter counts
    excludes: str = ""             # letters it must not contain
    classes: WordClasses | None = None  # word classes admitted (None: every word)
    min_score: int | None = None   # only words scoring at least this (1-100)

    def __post_init__(self) -> None:
        for name in ("contains", "excludes"):
            object.__setattr__(self, name, letters_of(getattr(self, name), name))
        for name in ("min_length", "max_length", "top", "min_count", "min_score"):
            value = getattr(self, name)
            if value is not None and value < 0:
                raise ExpressionError(f"{name} must not be negative")
        both = sorted(set(self.contains) & set(self.excludes))
        if both:
            raise ExpressionError(f"letter {both[0]!r} is both required and excluded")

    def spelt(self, *, fold_yo: bool) -> WordFilter:
        """The filter with its letters in the spelling of a dictionary (``fold_yo``: one that
        folds ё into е); the same filter when nothing changes."""
        if not fold_yo:
            return self
        contains = letters_of(self.contains, "contains", fold_yo=True)
        excludes = letters_of(self.excludes, "excludes", fold_yo=True)
        if (contains, excludes) == (self.contains, self.excludes):
            return self
        return replace(self, contains=contains, excludes=excludes)

    def with_classes(self, default: WordClasses) -> WordFilter:
        """The filter with ``default`` classes when it names none."""
        return self if self.classes is not None else replace(self, classes=default)

    def describe(self) -> str:
        """The letter and length conditions in a few words ('' when there are none)."""
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

    def kept(self, index: Families) -> int:
        """How many of the most frequent words of ``index`` pass ``top`` and ``min_count``:
        they are the ids ``[0, kept)`` (its counts are read only for a ``min_count``)."""
        n = len(index)
        if self.top is not None:
            n = min(n, max(0, self.top))
        if self.min_count is not None and self.min_count > 0:
            n = min(n, _first_below(index.counts, self.min_count))
        if self.min_score is not None and self.min_score > 1 and n:
            n = min(n, first_below_score(index.counts, index.total, self.min_score,
                                         scored=index.scored))
        return n


ALL_WORDS = WordFilter()  # every word of the dictionary


def _first_below(counts: Sequence[int], min_count: int) -> int:
    lo, hi = 0, len(counts)
    while lo < hi:  # counts descend: find the first id whose count < min_count
        mid = (lo + hi) // 2
        if counts[mid] >= min_count:
            lo = mid + 1
        else:
            hi = mid
    return lo


@lru_cache(maxsize=64)
def _range(n: int) -> FrozenBitMap:
    return FrozenBitMap(range(n))


class Families(Protocol):
    """The bitmap families of an index that a filter reads (see :mod:`.index`)."""

    fold_yo: bool
    scored: bool

    @property
    def counts(self) -> Sequence[int]: ...

    @property
    def total(self) -> int: ...

    def admitted(self, classes: WordClasses) -> FrozenBitMap: ...

    def __len__(self) -> int: ...

    def all_ids(self) -> FrozenBitMap: ...

    def by_length(self, n: int) -> FrozenBitMap: ...

    def by_lengths(self, lo: int | None = None, hi: int | None = None) -> FrozenBitMap: ...

    def by_pattern(self, p: Sequence[int]) -> FrozenBitMap: ...

    def at(self, i: int, letter: str) -> FrozenBitMap: ...

    def having(self, letter: str) -> FrozenBitMap: ...

    def at_least(self, letter: str, k: int) -> FrozenBitMap: ...


def select(index: Families, words: WordFilter = ALL_WORDS, *, length: int | None = None,
           pattern: Sequence[int] | None = None, fixed: Iterable[tuple[int, str]] = (),
           forbidden: Iterable[str] = (), within: FrozenBitMap | None = None) -> FrozenBitMap:
    """Ids of the words of ``index`` that pass ``words`` and every other given condition:
    an exact ``length``, a letter structure ``pattern``, ``fixed`` (position, letter)
    pairs, ``forbidden`` letters (besides the filter's), a bitmap ``within``."""
    words = words.spelt(fold_yo=index.fold_yo)
    parts: list[FrozenBitMap] = []
    if within is not None:
        parts.append(within)
    if pattern is not None:
        parts.append(index.by_pattern(pattern))
    if length is not None:
        parts.append(index.by_length(length))
    if words.min_length is not None or words.max_length is not None:
        parts.append(index.by_lengths(words.min_length, words.max_length))
    parts.extend(index.at(i, ch) for i, ch in fixed)
    required = Counter(words.contains)
    parts.extend(index.having(ch) for ch in required)
    kept = words.kept(index)
    if kept < len(index):
        parts.append(_range(kept))
    if words.classes is not None:
        admitted = index.admitted(words.classes)
        if len(admitted) < len(index):
            parts.append(admitted)
    parts.sort(key=len)  # smallest first keeps every intermediate small
    ids = parts[0] if parts else index.all_ids()
    for bm in parts[1:]:
        if not ids:
            break
        ids = ids & bm
    for ch, k in required.items():
        if k > 1 and ids:
            ids = ids & index.at_least(ch, k)
    for ch in (*words.excludes, *forbidden):
        if not ids:
            break
        ids = ids - index.having(ch)
    return ids
