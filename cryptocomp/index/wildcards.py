"""Wildcard templates: ``?`` (or ``.``) is one letter, ``*`` any run of letters, possibly none.

``con*`` (starts with con), ``*tion`` (ends with tion), ``c?n*s``, ``*ёж*`` (contains ёж).
A template splits at its stars into a *head* (before the first ``*``), *middles*
and a *tail* (after the last ``*``).  The query is a chain of set operations over
the index's families, smallest first:

* the head's literal prefix (its letters before any ``?``): a range of the words
  in sorted order, found by bisection in a ``sortedcontainers.SortedList``;
* the tail's literal suffix: the same over the reversed words, sorted;
* the head's other letters: the (position, letter) bitmaps ``at(i, c)``;
* the tail's other letters: per word length n, ``by_length(n)`` and
  ``at(n - d, c)`` for a letter d places from the end;
* a middle M (letters and ``?``): the union over its possible offsets i
  (after the head, before the tail) of ``at(i + k, M[k])`` and ``by_lengths(i + |M| + |tail|)``;
* the total length of the fixed parts: ``by_lengths(minimum)``.

With at most one middle the result is exact (one middle fits between head and
tail exactly when some offset does); with two or more, their order is not in
the bitmaps, so the candidates are checked one by one with a regular
expression.  The sorted lists are built on first use from the permutations the
index file stores (ids in word order and in reversed-word order), in about
0.2 s for Russian; each query is then a bisection.
"""

from __future__ import annotations

import array
import re
from typing import TYPE_CHECKING, Sequence

import numpy as np
from pyroaring import FrozenBitMap

from ..domain import Template, Word

if TYPE_CHECKING:
    from .index import Index

__all__ = ["STAR", "ONE", "WordOrder", "split_template", "looks_like_template", "wild_ids",
           "fits"]

STAR = "*"
ONE = frozenset("?.")  # one letter
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
    if not text or not all(ch.isalpha() or ch in ONE or ch == STAR or _is_mark(ch) for ch in text):
        return False
    if STAR not in text:
        return True
    operands = text.split(STAR)
    return not all(op == "?" or (op and all(ch.isalpha() or _is_mark(ch) for ch in op))
                   for op in operands)


def _is_mark(ch: str) -> bool:
    import unicodedata

    return unicodedata.category(ch) == "Mn"


def fits(word: Word, template: Template) -> bool:
    """The plain definition: does ``word`` fit ``template`` (the tests' oracle uses fnmatch)."""
    return _regex(template).fullmatch(word) is not None


def _regex(template: Template) -> "re.Pattern[str]":
    out = []
    for ch in template:
        out.append(".*" if ch == STAR else "." if ch in ONE else re.escape(ch))
    return re.compile("".join(out), re.DOTALL)


def _literal_prefix(part: str) -> str:
    for i, ch in enumerate(part):
        if ch in ONE:
            return part[:i]
    return part


def _successor(prefix: str) -> str:
    """The smallest string greater than every string starting with ``prefix``."""
    return prefix[:-1] + chr(ord(prefix[-1]) + 1)


class WordOrder:
    """The words sorted, forward and reversed, for prefix and suffix ranges."""

    def __init__(self, words: Sequence[Word], forward: np.ndarray, backward: np.ndarray):
        """``forward``: word ids in word order; ``backward``: in reversed-word order."""
        from sortedcontainers import SortedList

        self.forward_ids = forward
        self.backward_ids = backward
        # the inputs arrive sorted, so building is one linear pass (no real sort)
        self.forward = SortedList(words[i] for i in forward.tolist())
        self.backward = SortedList(words[i][::-1] for i in backward.tolist())

    @staticmethod
    def _range(sorted_words, ids: np.ndarray, prefix: str) -> np.ndarray:
        lo = sorted_words.bisect_left(prefix)
        hi = sorted_words.bisect_left(_successor(prefix))
        return ids[lo:hi]

    def prefixed(self, prefix: str) -> np.ndarray:
        """Ids of the words starting with ``prefix`` (in word order)."""
        return self._range(self.forward, self.forward_ids, prefix)

    def suffixed(self, suffix: str) -> np.ndarray:
        """Ids of the words ending with ``suffix`` (in reversed-word order)."""
        return self._range(self.backward, self.backward_ids, suffix[::-1])


def _bitmap(ids: np.ndarray) -> FrozenBitMap:
    return FrozenBitMap(array.array("I", ids.astype(np.uint32, copy=False).tobytes()))


def wild_ids(index: "Index", template: Template) -> FrozenBitMap:
    """Ids of the words fitting a normalised template with at least one ``*`` (see the
    module docstring for the plan)."""
    head, middles, tail = split_template(template)
    minimum = len(head) + sum(map(len, middles)) + len(tail)
    parts: list[FrozenBitMap] = []
    if minimum > 1:
        parts.append(index.by_lengths(minimum, None))
    prefix = _literal_prefix(head)
    if prefix:
        parts.append(_bitmap(index.word_order.prefixed(prefix)))
    parts.extend(index.at(i, ch) for i, ch in enumerate(head)
                 if i >= len(prefix) and ch not in ONE)
    suffix = _literal_prefix(tail[::-1])[::-1]
    if suffix:
        parts.append(_bitmap(index.word_order.suffixed(suffix)))
    rest = [(len(tail) - t, ch) for t, ch in enumerate(tail[:len(tail) - len(suffix)])
            if ch not in ONE]
    if rest:
        parts.append(_from_end(index, rest, minimum))
    for middle in middles:
        if any(ch not in ONE for ch in middle):
            parts.append(_inside(index, middle, len(head), len(tail)))
    if not parts:
        return index.all_ids()
    parts.sort(key=len)
    ids = parts[0]
    for bm in parts[1:]:
        if not ids:
            break
        ids = ids & bm
    if len(middles) > 1 and ids:  # the middles' order is not in the bitmaps: check each word
        rx = _regex(template)
        keep = [i for i, w in zip(ids, index.words_of(ids.to_array().tolist()))
                if rx.fullmatch(w)]
        ids = FrozenBitMap(keep)
    return ids


def _from_end(index: "Index", letters: list[tuple[int, str]], minimum: int) -> FrozenBitMap:
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


def _inside(index: "Index", middle: str, after: int, before: int) -> FrozenBitMap:
    """Words holding ``middle`` at some offset i >= ``after`` that leaves ``before`` letters
    after it."""
    out = []
    fixed = [(k, ch) for k, ch in enumerate(middle) if ch not in ONE]
    for i in range(after, index.max_length - len(middle) - before + 1):
        bm = None
        for k, ch in fixed:
            at = index.at(i + k, ch)
            bm = at if bm is None else bm & at
            if not bm:
                break
        if bm:
            need = i + len(middle) + before
            if need > fixed[-1][0] + i + 1:  # trailing '?' or a tail: the word must be longer
                bm = bm & index.by_lengths(need, None)
            if bm:
                out.append(bm)
    return FrozenBitMap.union(_EMPTY, *out)
