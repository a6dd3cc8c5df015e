"""Wildcard templates: ``?`` (or ``.``) is one letter, ``*`` any run of letters, possibly none.

``con*`` (starts with con), ``*tion`` (ends with tion), ``c?n*s``, ``*ёж*`` (contains ёж).
A template splits at its stars into a *head* (before the first ``*``), *middles*
and a *tail* (after the last ``*``).  Its words are the intersection of:

* the head's literal prefix (its letters before any ``?``): a range of the words
  in sorted order, found by bisection (:mod:`bisect`) in a plain list;
* the tail's literal suffix: the same over the reversed words, sorted;
* the head's other letters: the (position, letter) bitmaps ``at(i, c)``;
* the tail's other letters: per word length n, ``by_length(n)`` and
  ``at(n - d, c)`` for a letter d places from the end;
* the middles, in order and without overlap: bitmaps ``E_j(p)`` of the words in
  which the first j middles fit, the last ending at or before position p, built
  position by position (``E_j(p) = E_j(p-1) | E_{j-1}(p - |M_j|) & fit(M_j, p - |M_j|)``,
  where ``fit(M, i)`` intersects ``at(i + k, M[k])`` over M's letters and
  ``by_lengths(i + |M|)``); a word of length n qualifies when the last middle ends
  by ``n - |tail|``;
* ``by_lengths(minimum)``, the letters the template fixes.

So every template is answered exactly by set operations, with no word-by-word
check.  The sorted lists are built on first use (one per direction, from the
permutations the index file stores, in one linear pass: no sorting), after which a
prefix or suffix range is a bisection.
"""

from __future__ import annotations

import array
import bisect
from collections.abc import Sequence
from typing import Protocol

import numpy as np
from pyroaring import FrozenBitMap

from ..domain import Template, Word
from .alphabet import ONE, STAR, is_mark
from .encoding import reversed_words

__all__ = ["STAR", "ONE", "WordOrder", "Searchable", "split_template", "looks_like_template",
           "wild_ids"]

_EMPTY = FrozenBitMap()


def split_template(template: Template) -> tuple[str, tuple[str, ...], str]:
    """(head, middles, tail) of a template with at least one ``*`` (empty middles dropped)."""
    parts = template.split(STAR)
    return parts[0], tuple(p for p in parts[1:-1] if p), parts[-1]


def looks_like_template(text: str) -> bool:
    """True when a prompt line is a word template rather than a puzzle: it holds only
    letters and ``? . *``, and its stars cannot be a product (``хабр*хабр``, ``a*?``), whose
    operands are plain words or a lone ``?``."""
    text = "".join(text.split())
    if not text or not all(ch.isalpha() or ch in ONE or ch == STAR or is_mark(ch) for ch in text):
        return False
    if STAR not in text:
        return True
    operands = text.split(STAR)
    return not all(op == "?" or (op and all(ch.isalpha() or is_mark(ch) for ch in op))
                   for op in operands)


def _literal_prefix(part: str) -> str:
    for i, ch in enumerate(part):
        if ch in ONE:
            return part[:i]
    return part


def _successor(prefix: str) -> str:
    """The smallest string greater than every string starting with ``prefix``."""
    return prefix[:-1] + chr(ord(prefix[-1]) + 1)


class WordOrder:
    """The words sorted, forward or reversed, for prefix or suffix ranges."""

    def __init__(self, words: Sequence[Word], ids: np.ndarray, *, reverse: bool = False):
        """``ids``: the word ids in the order of their words (``reverse``: of their reversed
        words)."""
        self.ids = ids
        self.reverse = reverse
        keys = reversed_words(words) if reverse else words
        # the keys arrive sorted and never change: a plain list bisects them
        self.sorted = [keys[i] for i in ids.tolist()]

    def starting(self, prefix: str) -> FrozenBitMap:
        """Ids of the words starting (``reverse``: ending) with ``prefix``."""
        key = prefix[::-1] if self.reverse else prefix
        lo = bisect.bisect_left(self.sorted, key)
        hi = bisect.bisect_left(self.sorted, _successor(key))
        # sorted ids take pyroaring's fast path (several times quicker than a random order)
        return _bitmap(np.sort(self.ids[lo:hi]))


def _bitmap(ids: np.ndarray) -> FrozenBitMap:
    return FrozenBitMap(array.array("I", ids.astype(np.uint32, copy=False).tobytes()))


class Searchable(Protocol):
    """What a ``*`` template's plan reads of its index (an :class:`~.index.Index`; named
    here by what it does, so that this module need not import the one that imports it)."""

    @property
    def max_length(self) -> int: ...

    def lengths(self) -> list[int]: ...

    def all_ids(self) -> FrozenBitMap: ...

    def by_length(self, n: int) -> FrozenBitMap: ...

    def by_lengths(self, lo: int | None = None, hi: int | None = None) -> FrozenBitMap: ...

    def at(self, i: int, letter: str) -> FrozenBitMap: ...

    def word_order(self, *, reverse: bool = False) -> WordOrder: ...


def wild_ids(index: Searchable, template: Template) -> FrozenBitMap:
    """Ids of the words fitting a normalised template with at least one ``*`` (see the
    module docstring)."""
    head, middles, tail = split_template(template)
    minimum = len(head) + sum(map(len, middles)) + len(tail)
    parts: list[FrozenBitMap] = []
    if minimum > 1:
        parts.append(index.by_lengths(minimum, None))
    prefix = _literal_prefix(head)
    if prefix:
        parts.append(index.word_order(reverse=False).starting(prefix))
    parts.extend(index.at(i, ch) for i, ch in enumerate(head)
                 if i >= len(prefix) and ch not in ONE)
    suffix = _literal_prefix(tail[::-1])[::-1]
    if suffix:
        parts.append(index.word_order(reverse=True).starting(suffix))
    rest = [(len(tail) - t, ch) for t, ch in enumerate(tail[:len(tail) - len(suffix)])
            if ch not in ONE]
    if rest:
        parts.append(_from_end(index, rest, minimum))
    if any(ch not in ONE for middle in middles for ch in middle):
        parts.append(_middles(index, middles, len(head), len(tail)))
    if not parts:
        return index.all_ids()
    parts.sort(key=len)
    ids = parts[0]
    for bm in parts[1:]:
        if not ids:
            break
        ids = ids & bm
    return ids


def _from_end(index: Searchable, letters: list[tuple[int, str]], minimum: int) -> FrozenBitMap:
    """Words with each letter at its distance from the end (d = 1 is the last letter)."""
    out = []
    for n in index.lengths():
        if n < minimum:
            continue
        bm = index.by_length(n)
        for d, ch in letters:
            bm = bm & index.at(n - d, ch)
            if not bm:
                break
        if bm:
            out.append(bm)
    return FrozenBitMap.union(_EMPTY, *out)


def _fit(index: Searchable, middle: str, i: int) -> FrozenBitMap:
    """Words with ``middle`` at offset ``i``."""
    bm = index.by_lengths(i + len(middle), None)
    for k, ch in enumerate(middle):
        if ch not in ONE and bm:
            bm = bm & index.at(i + k, ch)
    return bm


def _middles(index: Searchable, middles: Sequence[str], after: int, before: int) -> FrozenBitMap:
    """Words holding the middles in order, without overlap, after the first ``after``
    letters and before the last ``before`` (the ``E_j(p)`` of the module docstring)."""
    longest = index.max_length
    # ended[p]: words in which the middles so far fit, the last ending at or before p
    ended: list[FrozenBitMap] = [_EMPTY] * after + [index.all_ids()] * (longest + 1 - after)
    for middle in middles:
        size = len(middle)
        now: list[FrozenBitMap] = [_EMPTY] * (longest + 1)
        for p in range(after + size, longest + 1):
            here = ended[p - size]
            if here:
                here = here & _fit(index, middle, p - size)
            now[p] = now[p - 1] | here if here else now[p - 1]
        ended = now
    out = []
    for n in index.lengths():
        if n - before >= 0:
            bm = index.by_length(n) & ended[n - before]
            if bm:
                out.append(bm)
    return FrozenBitMap.union(_EMPTY, *out)
