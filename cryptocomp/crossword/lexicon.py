"""The words a fill may use: an index cut by a word filter (most frequent words, lengths).

Word ids are the index's (rank - 1), so iterating a domain bitmap yields the
most frequent candidate first: that is the value order of the CSP engine.

Index families the crossword systems use: ``by_length(n)`` cut to the id prefix of the
words the filter keeps (``top``, ``min_count``: :meth:`Lexicon.base`), and ``at(i, c)``
intersected with it (:meth:`Lexicon.at`) for the letters a grid gives; a slot's first
domain is their intersection.  The fill engines take it from there in their own
structures.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from functools import lru_cache

from pyroaring import FrozenBitMap

from ..domain import Word, WordId
from ..index.index import Index
from ..index.wordfilter import ALL_WORDS, WordFilter

__all__ = ["Lexicon", "Word", "WordId"]

_EMPTY = FrozenBitMap()


class Lexicon:
    """Words of ``index`` that pass a filter's length range, frequency cut (its ``top``
    most frequent, count >= ``min_count``, score >= ``min_score``) and word classes (a
    fill's words have no letter conditions)."""

    def __init__(self, index: Index, words: WordFilter = ALL_WORDS, *,
                 exclude: Iterable[WordId] = (), prefer: Iterable[WordId] = (),
                 include: Iterable[WordId] = ()):
        if words.contains or words.excludes:
            raise ValueError("a fill's words take a length range and a frequency cut, not "
                             "letters to contain or exclude")
        self.index = index
        self.words = index.words
        self.filter = words
        self.kept = index.prefix(words)  # the ids [0, kept) pass the frequency cut
        self.min_length = max(1, words.min_length or 1)
        self.max_length = index.max_length if words.max_length is None else words.max_length
        self.alphabet = index.alphabet
        self._prefix = FrozenBitMap(range(self.kept)) if self.kept < len(index) else None
        if words.classes is not None and len(index.admitted(words.classes)) < len(index):
            # one more intersection with the words of the admitted classes
            admitted = index.admitted(words.classes)
            self._prefix = admitted if self._prefix is None else self._prefix & admitted
        # the words a caller leaves out, prefers, or must have whatever the cut (theme words)
        self.excluded = FrozenBitMap(exclude)
        self.preferred = FrozenBitMap(prefer) - self.excluded
        self.included = FrozenBitMap(include) - self.excluded
        self._base = lru_cache(maxsize=None)(self._compute_base)
        self._at = lru_cache(maxsize=None)(self._compute_at)

    def __contains__(self, word: object) -> bool:
        if not isinstance(word, str):
            return False
        i = self.index.id_of(word)
        if i is None or i in self.excluded:
            return False
        return i in self.included or (i < self.kept
                                      and self.min_length <= len(word) <= self.max_length
                                      and (self._prefix is None or i in self._prefix))

    def with_words(self, *, exclude: Iterable[WordId] = (), prefer: Iterable[WordId] = (),
                   include: Iterable[WordId] = ()) -> Lexicon:
        """This lexicon with those words left out, preferred, or kept whatever the cut
        (added to its own; see :mod:`.rules`)."""
        return Lexicon(self.index, self.filter, exclude=self.excluded | FrozenBitMap(exclude),
                       prefer=self.preferred | FrozenBitMap(prefer),
                       include=self.included | FrozenBitMap(include))

    def cut(self, min_count: int) -> Lexicon:
        """This lexicon cut to its words of count ``min_count`` or more (the words it must
        keep whatever the cut still in)."""
        return Lexicon(self.index, replace(self.filter, top=self.kept, min_count=min_count),
                       exclude=self.excluded, prefer=self.preferred, include=self.included)

    def base(self, n: int) -> FrozenBitMap:
        """Ids of every usable word of ``n`` letters."""
        return self._base(n)

    def at(self, n: int, pos: int, letter: str) -> FrozenBitMap:
        """Ids of usable ``n``-letter words with ``letter`` at 0-based ``pos``."""
        return self._at(n, pos, letter)

    def longest(self) -> int:
        """The length of the longest usable word (0 when none)."""
        return max((n for n in self.index.lengths() if self.base(n)), default=0)

    def why_empty(self) -> str:
        """Why no word is usable (for a lexicon whose :meth:`longest` is 0), in a few words."""
        name = self.index.name or "the dictionary"
        if not len(self.index):
            return f"{name} has no word"
        top, min_count = self.filter.top, self.filter.min_count
        if self.kept == 0 and min_count is not None and \
                self.index.prefix(WordFilter(top=top)) > 0:
            return (f"no word of {name} has a count of at least {min_count:,} (the "
                    f"commonest, {self.index.word(0)!r}, has {self.index.counts[0]:,})")
        if self.kept == 0:
            return f"top {top} keeps no word of {name}"
        if self._prefix is not None and not self._prefix:
            classes = self.filter.classes.describe() if self.filter.classes else "no"
            return f"no word of {name} is of the word classes {classes}"
        lo, hi = self.min_length, self.max_length
        if hi >= self.index.max_length:
            letters = f"{lo} letter{'s' if lo > 1 else ''} or more"
        elif lo <= 1:
            letters = f"at most {hi} letter{'s' if hi > 1 else ''}"
        else:
            letters = f"{lo} to {hi} letters"
        kept = f" among its {self.kept:,} kept" if self.kept < len(self.index) else ""
        return f"no word of {name}{kept} has {letters}"

    def _compute_base(self, n: int) -> FrozenBitMap:
        bm = _EMPTY
        if self.min_length <= n <= self.max_length:
            bm = self.index.by_length(n)
            bm = bm & self._prefix if self._prefix is not None else bm
        if self.included:
            bm = bm | (self.included & self.index.by_length(n))
        return bm - self.excluded if self.excluded else bm

    def _compute_at(self, n: int, pos: int, letter: str) -> FrozenBitMap:
        return self.base(n) & self.index.at(pos, letter)

    def describe(self) -> str:
        """A short description: '<index> top 100000, 3-15 letters'."""
        parts = [self.index.name or "(unnamed)"]
        if self.kept < len(self.index):
            parts.append(f"top {self.kept}")
        return " ".join(parts)
