"""Query results: :class:`Matches`, a lazy ranked view of a bitmap of word ids, and
:class:`Entry`, one word of it (word, count, id)."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import NamedTuple, Protocol, overload

from pyroaring import FrozenBitMap

from ..domain import Word, WordId

__all__ = ["Entry", "Matches", "WordSource"]


class Entry(NamedTuple):
    """One word of a result: the word, its count and its id (rank - 1)."""

    word: Word
    count: int  # type: ignore[assignment]  # the field shadows tuple.count()
    id: WordId

    @property
    def rank(self) -> int:
        """1-based frequency rank."""
        return self.id + 1


class WordSource(Protocol):
    """What a result reads of its index (an :class:`~.index.Index`; named here by what it
    does, so that this module need not import the one that imports it)."""

    @property
    def counts(self) -> Sequence[int]: ...

    def entry(self, i: WordId) -> Entry: ...

    def words_of(self, ids: list[WordId]) -> list[Word]: ...


class Matches(Sequence[Entry]):
    """The words of a bitmap, most frequent first; nothing is materialised until read."""

    __slots__ = ("_index", "ids")

    def __init__(self, index: WordSource, ids: FrozenBitMap):
        self._index = index  # not .index: that is Sequence.index()
        self.ids = ids

    def __len__(self) -> int:
        return len(self.ids)

    @overload
    def __getitem__(self, i: int) -> Entry: ...
    @overload
    def __getitem__(self, i: slice) -> list[Entry]: ...

    def __getitem__(self, i: int | slice) -> Entry | list[Entry]:
        if isinstance(i, slice):
            start, stop, step = i.indices(len(self.ids))
            if step == 1 and start == 0:
                return self._entries(self._first(stop))
            return [self[j] for j in range(start, stop, step)]
        if i < 0:
            i += len(self.ids)
        if not 0 <= i < len(self.ids):
            raise IndexError(i)
        return self._index.entry(self.ids[i])

    def __iter__(self) -> Iterator[Entry]:
        entry = self._index.entry
        return (entry(i) for i in self.ids)

    def __bool__(self) -> bool:
        return bool(self.ids)

    def __repr__(self) -> str:
        head = ", ".join(self.words(5))
        return f"<Matches {len(self)}: {head}{', ...' if len(self) > 5 else ''}>"

    def _first(self, n: int) -> list[int]:
        if n >= len(self.ids):
            return self.ids.to_array().tolist()
        out: list[int] = []
        for i in self.ids:
            if len(out) == n:
                break
            out.append(i)
        return out

    def _entries(self, ids: list[int]) -> list[Entry]:
        counts = self._index.counts
        return [Entry(w, counts[i], i) for w, i in zip(self._index.words_of(ids), ids)]

    def words(self, n: int | None = None) -> list[Word]:
        """The words, most frequent first (the first ``n`` when given)."""
        ids = self.ids.to_array().tolist() if n is None else self._first(n)
        return self._index.words_of(ids)

    def top(self, n: int) -> Matches:
        """The ``n`` most frequent of these words."""
        return Matches(self._index, FrozenBitMap(self._first(n)))
