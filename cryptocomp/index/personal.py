"""The personal list: the user's own words and scores, edited live over an index.

A :class:`PersonalList` holds word -> score (1-100; 0: the word is removed) in a
``sortedcontainers.SortedDict``, so listing it or a range of it (``irange``) is in
alphabetical order without sorting.  It is read from and written back to the user's list
file, any format of :mod:`.wordlists` on reading (a plain line adds its word with the
default score, :data:`~.wordlists.DEFAULT_SCORE`), ``word;score`` with ``word;0`` for a
removed word on writing, atomically after every edit; the default file is
``data_home()/lists/<index name>.txt`` (:func:`default_list_path`).

An :class:`Overlay` shows an index as if it had been rebuilt with the list laid over it
(:func:`~.wordlists.merge_lists`), without rebuilding it: every base word the list names
(removed or given a new score) is *hidden*, and the words it adds are served from a small
side index (``Index.from_counts`` of them, each count the score on the base's scale,
:func:`~.scores.count_for_score` of the base's total; classed ``dictionary`` by the
user's word).  Results merge the two by count, then word, which is the rebuilt index's
ranking, and each entry's id is the id it would have there.  A filter's ``top`` (the N
most frequent words) is translated into a prefix of each side, its ``min_score`` into a
count on the base's scale.  Composing is per word (``LEFT=W`` has one solution or not),
so :meth:`Overlay.compose` composes on the base (asking for as many more results as there
are hidden words) and on the side index, drops the hidden words and merges: exactly the
rebuilt index's results.  Scores shown for an added word follow the base's total, which
the rebuilt index's differs from by the added counts.
"""

from __future__ import annotations

import bisect
import heapq
from collections.abc import Callable, Iterator, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any, TypeVar, overload

from pyroaring import FrozenBitMap
from sortedcontainers import SortedDict

from ..domain import Word
from ..errors import QueryError
from ..files import shown
from ..numbers import NumberError, read_whole
from .alphabet import normalize
from .classes import given_classes
from .index import Index
from .matches import Entry, Matches
from .scores import MAX_SCORE, MIN_SCORE, count_for_score, score_of
from .store import data_home
from .wordfilter import ALL_WORDS, WordFilter
from .wordlists import (
    DEFAULT_SCORE,
    Admits,
    admitted_letters,
    load_list,
    parse_list,
    write_list,
)

__all__ = ["PersonalList", "Overlay", "MergedMatches", "default_list_path", "parse_score",
           "check_word"]

T = TypeVar("T")


def default_list_path(index_name: str) -> Path:
    """The user's list file of an index by default: ``data_home()/lists/<name>.txt``."""
    return data_home() / "lists" / f"{index_name}.txt"


def parse_score(text: str) -> int:
    """A score as the user typed it (1-100), or one QueryError line."""
    try:
        return read_whole(text, MIN_SCORE, MAX_SCORE)
    except NumberError:
        raise QueryError(f"a score is a whole number from {MIN_SCORE} to {MAX_SCORE}, not "
                         f"{shown(text)[:40]}") from None


def check_word(text: str, admits: Admits, *, fold_yo: bool = False) -> Word:
    """The word the user typed in the dictionary's spelling, or one QueryError line when it
    is not written in the dictionary's letters."""
    word = normalize(text.strip(), fold_yo=fold_yo)
    got = parse_list([word], admits=admits, fmt="plain")
    if not got.entries or got.bad:
        why = got.bad_lines[0][1] if got.bad_lines else "not a word"
        raise QueryError(f"{shown(text)[:40]}: not a word of this dictionary ({why})")
    return word


class PersonalList:
    """The user's own list: word -> score (0: removed), sorted, and the file it lives in."""

    def __init__(self, path: Path | None = None, entries: dict[Word, int] | None = None):
        self.path = path
        self.entries: SortedDict = SortedDict(entries or {})
        self.version = 0  # grows with every edit: what an Overlay rebuilds its side on

    @classmethod
    def load(cls, path: Path, *, admits: Admits | None = None,
             fold_yo: bool = False) -> PersonalList:
        """The list in ``path`` (empty when there is no such file yet)."""
        path = Path(path)
        if not path.exists():
            return cls(path)
        got = load_list(path, fold_yo=fold_yo, admits=admits, empty_ok=True)
        entries = dict.fromkeys(got.removed, 0)
        total = sum(got.entries.values())
        for word, value in got.entries.items():
            entries[word] = (value if got.scored else DEFAULT_SCORE if got.format == "plain"
                             else score_of(value, total, scored=False))
        return cls(path, entries)

    def __len__(self) -> int:
        return len(self.entries)

    def __bool__(self) -> bool:
        return bool(self.entries)

    def add(self, word: Word, score: int = DEFAULT_SCORE) -> None:
        """Give ``word`` a score (it is added when the dictionary lacks it)."""
        if not MIN_SCORE <= score <= MAX_SCORE:
            raise QueryError(f"a score is from {MIN_SCORE} to {MAX_SCORE}, not {score}")
        self.entries[word] = score
        self.version += 1

    def remove(self, word: Word) -> None:
        """Remove ``word`` from the results."""
        self.entries[word] = 0
        self.version += 1

    def added(self) -> dict[Word, int]:
        """The words given a score, with it."""
        return {w: s for w, s in self.entries.items() if s}

    def removed(self) -> list[Word]:
        """The words removed, a-z."""
        return [w for w, s in self.entries.items() if not s]

    def irange(self, lo: Word | None = None, hi: Word | None = None) -> list[tuple[Word, int]]:
        """The entries from ``lo`` to ``hi`` (both included; None: open), a-z."""
        return [(w, self.entries[w]) for w in self.entries.irange(lo, hi)]

    def save(self) -> None:
        """Write the list to its file atomically (one IndexFileError line when it cannot)."""
        if self.path is None:
            return
        write_list(self.path, dict(self.entries), "semicolon", create_dirs=True)


class Overlay:
    """An index seen with a personal list laid over it (see the module docstring)."""

    def __init__(self, base: Index, personal: PersonalList):
        self.base, self.personal = base, personal
        self._version = -1
        self._hidden = FrozenBitMap()
        self._side: Index | None = None
        self._side_keys: list[tuple[int, Word]] = []
        self._side_ids: list[int] = []  # each side word's id in the merged ranking

    @staticmethod
    def admits_of(index: Index) -> Admits:
        """Whether a word is written in ``index``'s alphabet."""
        lang = index.params.get("lang")
        return admitted_letters(index.alphabet, lang if isinstance(lang, str) else None)

    def _refresh(self) -> None:
        if self._version == self.personal.version:
            return
        base, entries = self.base, self.personal.entries
        ids = (base.id_of(w) for w in entries)
        self._hidden = FrozenBitMap(i for i in ids if i is not None)
        counts = {w: count_for_score(s, base.total, scored=base.scored)
                  for w, s in entries.items() if s}
        self._side = Index.from_counts(
            counts, name=f"{base.name}+mine", params={"lang": base.params.get("lang")},
            classify=given_classes(dict.fromkeys(counts, ("dictionary",)), source="your list")
        ) if counts else None
        side = self._side
        self._side_keys = [] if side is None else \
            [(-side.counts[j], side.word(j)) for j in range(len(side))]
        self._side_ids = [j + self._base_before(*key) for j, key in enumerate(self._side_keys)]
        self._version = self.personal.version

    @property
    def active(self) -> bool:
        """Whether the list changes anything."""
        return bool(self.personal)

    @property
    def hidden(self) -> FrozenBitMap:
        """Ids of the base words the list hides (removed or scored anew)."""
        self._refresh()
        return self._hidden

    @property
    def side(self) -> Index | None:
        """The index of the words the list adds (None: it adds none)."""
        self._refresh()
        return self._side

    def __len__(self) -> int:
        self._refresh()
        return len(self.base) - len(self._hidden) + len(self._side_keys)

    def _visible_below(self, b: int) -> int:
        return b - (self._hidden.rank(b - 1) if b > 0 else 0)

    def _base_before(self, neg_count: int, word: Word) -> int:
        """How many visible base words rank before a word of this count and spelling."""
        base, counts = self.base, self.base.counts
        lo, hi = 0, len(base)
        while lo < hi:
            mid = (lo + hi) // 2
            if (-counts[mid], base.word(mid)) < (neg_count, word):
                lo = mid + 1
            else:
                hi = mid
        return self._visible_below(lo)

    def merged_id(self, entry: Entry, *, side: bool) -> int:
        """The id a base (or side) entry has in the merged ranking."""
        self._refresh()
        if side:
            return self._side_ids[entry.id]
        before = bisect.bisect_left(self._side_keys, (-entry.count, entry.word))
        return self._visible_below(entry.id) + before

    def filters(self, words: WordFilter) -> tuple[WordFilter, WordFilter]:
        """The filter for the base and for the side index that together pass the merged
        ranking's words ``words`` passes."""
        self._refresh()
        base = self.base
        if words.min_score is not None:
            floor = count_for_score(words.min_score, base.total, scored=base.scored)
            words = replace(words, min_score=None,
                            min_count=max(words.min_count or 0, floor))
        if words.top is None:
            return words, words
        top = words.top
        side_top = sum(1 for i in self._side_ids if i < top)
        want = top - side_top
        lo, hi = 0, len(base)  # the smallest base prefix holding `want` visible words
        while lo < hi:
            mid = (lo + hi) // 2
            if self._visible_below(mid) >= want:
                hi = mid
            else:
                lo = mid + 1
        return replace(words, top=lo), replace(words, top=side_top)

    def _merged(self, query: Callable[[Index, WordFilter], Matches],
                words: WordFilter) -> MergedMatches:
        """A query on both sides, merged; a letter that only one side lacks (a QueryError
        there) is no error when the other side knows it, as in the rebuilt index."""
        base_words, side_words = self.filters(words)
        side = self.side
        failed: QueryError | None = None
        try:
            found = query(self.base, base_words)
        except QueryError as exc:
            if side is None:
                raise
            failed, found = exc, Matches(self.base, FrozenBitMap())
        added = None
        if side is not None:
            try:
                added = query(side, side_words)
            except QueryError:
                if failed is not None:
                    raise failed from None
        return MergedMatches(self, found, added)

    def match(self, template: str, words: WordFilter = ALL_WORDS) -> MergedMatches:
        """:meth:`Index.match` on the merged ranking."""
        return self._merged(lambda index, w: index.match(template, w), words)

    def same_pattern(self, word: Word, words: WordFilter = ALL_WORDS) -> MergedMatches:
        """:meth:`Index.same_pattern` on the merged ranking."""
        return self._merged(lambda index, w: index.same_pattern(word, w), words)

    def compose(self, run: Callable[[Index, WordFilter, int | None], list[T]],
                words: WordFilter = ALL_WORDS, max_results: int | None = None) -> list[T]:
        """Compose on the merged ranking: ``run(index, words, max_results)`` composes on one
        index and returns results with ``word``, ``count`` and ``rank`` (dataclasses, most
        frequent first); their ranks become the merged ranking's."""
        base_words, side_words = self.filters(words)
        hidden, side = self.hidden, self.side
        ask = None if max_results is None else max_results + len(hidden)
        base_found = [r for r in run(self.base, base_words, ask)
                      if (r.rank - 1) not in hidden]  # type: ignore[attr-defined]
        side_found = run(side, side_words, max_results) if side is not None else []

        def ranked(results: list[T], from_side: bool) -> Iterator[tuple[int, T]]:
            for r in results:
                e = Entry(r.word, r.count, r.rank - 1)  # type: ignore[attr-defined]
                yield self.merged_id(e, side=from_side), r

        merged = heapq.merge(ranked(base_found, False), ranked(side_found, True),
                             key=lambda pair: pair[0])
        out: list[Any] = [replace(r, rank=i + 1) for i, r in merged]  # type: ignore[type-var]
        return out if max_results is None else out[:max_results]


class MergedMatches(Sequence[Entry]):
    """A base index's matches and a side index's, merged by rank, the hidden words left
    out; each entry carries its id in the merged ranking.  Entries are merged when first
    read and kept, so reading a long result a slice at a time merges it once."""

    def __init__(self, overlay: Overlay, base: Matches, side: Matches | None):
        self._overlay = overlay
        self._base = base.ids - overlay.hidden
        self._base_matches = Matches(overlay.base, self._base)
        self._side = side
        self._read: list[Entry] = []
        self._rest: Iterator[Entry] | None = None

    def __len__(self) -> int:
        return len(self._base) + (len(self._side) if self._side is not None else 0)

    def __bool__(self) -> bool:
        return len(self) > 0

    def _merged(self) -> Iterator[Entry]:
        overlay = self._overlay
        base = (e._replace(id=overlay.merged_id(e, side=False)) for e in self._base_matches)
        side = (e._replace(id=overlay.merged_id(e, side=True)) for e in self._side or ())
        return heapq.merge(base, side, key=lambda e: e.id)

    def _upto(self, n: int) -> list[Entry]:
        """The first ``n`` entries (fewer when there are fewer)."""
        if self._rest is None:
            self._rest = self._merged()
        while len(self._read) < n:
            entry = next(self._rest, None)
            if entry is None:
                break
            self._read.append(entry)
        return self._read

    def __iter__(self) -> Iterator[Entry]:
        return iter(self[:len(self)])

    @overload
    def __getitem__(self, i: int) -> Entry: ...
    @overload
    def __getitem__(self, i: slice) -> list[Entry]: ...

    def __getitem__(self, i: int | slice) -> Entry | list[Entry]:
        if isinstance(i, slice):
            start, stop, step = i.indices(len(self))
            return self._upto(stop)[start:stop:step] if stop > start else []
        if i < 0:
            i += len(self)
        if not 0 <= i < len(self):
            raise IndexError(i)
        return self._upto(i + 1)[i]

    def words(self, n: int | None = None) -> list[Word]:
        """The words, most frequent first (the first ``n`` when given)."""
        return [e.word for e in self[:n if n is not None else len(self)]]
