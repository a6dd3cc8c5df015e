"""Encoded words: every word as a row of letter codes, one matrix per word length.

The code of a letter is its position in the index's alphabet (the letters in
code-point order), so ``codes[r, p]`` is the p-th letter of the word of row r.
Vectorised engines (the composer's key join, the crossword CSP's letter counts,
the rack solver's scores) work on these matrices instead of on strings; an
index file stores them (format 2), so no process re-encodes its words.

:class:`Encoded` is what :meth:`cryptocomp.index.Index.encoded` returns: the
words of one length, rows in ascending id order (most frequent first), with
the letter codes and, per position, where the letter first occurs in the word
(the letter structure the composer's keys and the pattern bitmaps use).
"""

from __future__ import annotations

from collections.abc import Hashable, Iterator, Sequence

import numpy as np

from ..domain import Pattern

__all__ = ["Encoded", "code_dtype", "encode", "first_positions", "pattern", "patterns_of",
           "reversed_words"]

_CHUNK = 1 << 20  # characters encoded at a time: bounds the int64 temporaries of searchsorted
# Longest rows compared pairwise (n^2 / 2 vectorised column comparisons, quicker than a sort
# up to about this length: every real word); longer rows are sorted, O(n log n)
_PAIRWISE = 32


class Encoded:
    """Words of one length as letter-code matrices; row r is word ``ids[r]``.

    Unpacks as ``ids, codes, first = encoded``."""

    __slots__ = ("ids", "codes", "first", "n_letters", "_counts")

    def __init__(self, ids: np.ndarray, codes: np.ndarray, first: np.ndarray, n_letters: int):
        self.ids = ids          # int64 word ids, ascending (most frequent first)
        self.codes = codes      # (m, n) uint8 (uint16 past 256 letters): alphabet positions
        self.first = first      # (m, n) uint8 (uint16 past 256 letters): first position of
        #                         the letter in its word
        self.n_letters = n_letters  # the alphabet's size
        self._counts: np.ndarray | None = None

    def __iter__(self) -> Iterator[np.ndarray]:
        return iter((self.ids, self.codes, self.first))

    def __len__(self) -> int:
        return len(self.ids)

    @property
    def length(self) -> int:
        """The words' length n."""
        return self.codes.shape[1]

    def take(self, rows: np.ndarray) -> Encoded:
        """The given rows only (an index array or a boolean mask)."""
        out = Encoded(self.ids[rows], self.codes[rows], self.first[rows], self.n_letters)
        if self._counts is not None:
            out._counts = self._counts[rows]
        return out

    def letter_counts(self) -> np.ndarray:
        """(m, n_letters) int16: how often each row has each letter (computed once)."""
        if self._counts is None:
            m, width = len(self.ids), self.n_letters
            if m * width > 1 << 28:  # a huge alphabet: count only the letters present
                raise ValueError("alphabet too large for a letter-count matrix")
            flat = np.arange(m, dtype=np.int64)[:, None] * width + self.codes
            self._counts = np.bincount(flat.ravel(), minlength=m * width).reshape(
                m, width).astype(np.int16)
        return self._counts


def pattern(word: Sequence[Hashable]) -> Pattern:
    """Letter structure: the i-th distinct letter becomes i.

    >>> pattern("барабан")
    (0, 1, 2, 1, 0, 1, 3)
    """
    seen: dict[Hashable, int] = {}
    return tuple(seen.setdefault(ch, len(seen)) for ch in word)


def code_dtype(n_letters: int) -> np.dtype:
    """The smallest unsigned dtype holding the codes of an alphabet of ``n_letters``."""
    return np.dtype(np.uint8) if n_letters <= 256 else np.dtype("<u2") if n_letters <= 65536 \
        else np.dtype("<u4")


def encode(text: str, alphabet: str) -> np.ndarray:
    """The codes of the characters of ``text`` (every one of them in ``alphabet``, which is
    sorted), in chunks so that memory stays near the size of the result."""
    dtype = code_dtype(len(alphabet))
    table = np.array([ord(ch) for ch in alphabet], dtype=np.uint32)
    out = np.empty(len(text), dtype=dtype)
    for start in range(0, len(text), _CHUNK):
        points = np.frombuffer(text[start:start + _CHUNK].encode("utf-32-le"), dtype=np.uint32)
        out[start:start + len(points)] = np.searchsorted(table, points)
    return out


def first_positions(codes: np.ndarray) -> np.ndarray:
    """(m, n): for each position, the first position in its row holding the same code
    (uint8, uint16 past 256 letters, uint32 past 65,536)."""
    m, n = codes.shape
    dtype = np.uint8 if n <= 256 else np.uint16 if n <= 65536 else np.uint32
    if n > _PAIRWISE:
        return _first_by_sorting(codes, dtype)
    first = np.empty((m, n), dtype=dtype)
    for p in range(n):
        fp = np.full(m, p, dtype=dtype)
        column = codes[:, p]
        for q in range(p - 1, -1, -1):  # descending: the smallest matching q is written last
            fp[codes[:, q] == column] = q
        first[:, p] = fp
    return first


def _first_by_sorting(codes: np.ndarray, dtype: type[np.unsignedinteger]) -> np.ndarray:
    """:func:`first_positions` in O(n log n) a row: each row's positions sorted by code
    (stably, so equal codes keep their order), and each run of one code gets the position
    that starts it."""
    m, n = codes.shape
    order = np.argsort(codes, axis=1, kind="stable")
    ranked = np.take_along_axis(codes, order, axis=1)
    starts = np.empty((m, n), dtype=bool)
    starts[:, :1] = True
    np.not_equal(ranked[:, 1:], ranked[:, :-1], out=starts[:, 1:])
    run_start = np.where(starts, np.arange(n, dtype=np.int64), 0)
    np.maximum.accumulate(run_start, axis=1, out=run_start)
    first = np.empty((m, n), dtype=dtype)
    np.put_along_axis(first, order, np.take_along_axis(order, run_start, axis=1).astype(dtype),
                      axis=1)
    return first


def patterns_of(first: np.ndarray) -> np.ndarray:
    """(m, n): the letter structure of each row (the i-th distinct letter becomes i), from
    :func:`first_positions`."""
    m, n = first.shape
    if not n:
        return np.zeros((m, 0), dtype=first.dtype)
    fresh = first == np.arange(n, dtype=first.dtype)  # the letter first occurs here
    ordinal = np.cumsum(fresh, axis=1, dtype=np.int64) - 1
    return np.take_along_axis(ordinal, first.astype(np.int64), axis=1).astype(first.dtype)


def reversed_words(words: Sequence[str]) -> list[str]:
    """Each word reversed: the whole list reversed as one UTF-32 array (several times
    quicker than slicing every word), then split."""
    if not words:
        return []
    text = np.frombuffer("\n".join(words).encode("utf-32-le"), dtype=np.uint32)[::-1]
    out = text.tobytes().decode("utf-32-le").split("\n")
    out.reverse()
    return out
