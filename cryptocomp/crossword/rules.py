"""Rules on a fill's words beyond the grid's: words left out or preferred, theme words,
shared substrings and lemmas.

:class:`FillRules` is what a caller asks for; the engines enforce it:

* ``exclude``: words the fill must not use (they leave the lexicon,
  :meth:`.lexicon.Lexicon.with_words`);
* ``prefer``: words every search tries before the others (then the usual frequency
  order): the CSP's word choice gives them a bonus that outweighs look-ahead and
  frequency (:data:`PREFER_BONUS`) and the rows search's letter order put them first, and
  SAT's phases make them likelier first.  Only the order changes: a search that proves
  "no fill" proves it alike;
* ``theme``: words the fill must contain, placed by :mod:`.theme`;
* ``max_shared``: no two answers share a run of ``max_shared + 1`` letters (ingrid_core's
  ``--max-shared-substring``);
* ``same_lemma``: allow answers of one lemma (by default two forms of one lemma are not
  both answers, where the index knows lemmas: :meth:`~cryptocomp.index.Index.lemma_groups`).

The last two are *conflict keys* (:func:`conflict_keys`): each word has a set of keys
(its runs of ``max_shared + 1`` letters, its lemma group), and no two answers may share
a key.  The CSP removes, when a slot settles, every word sharing a key with its word
from the other slots (propagation, undone with the trail, as ingrid_core's dupe index);
the rows search refuses a finished row or column whose word has a key already placed;
SAT has an at-most-one constraint per key.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

import numpy as np

from ..domain import Word
from ..files import decode_text, read_bytes, shown
from ..index.alphabet import MAX_WORD_LENGTH
from ..index.freqdict import parse_freqdict
from .grid import GridError

__all__ = ["FillRules", "DEFAULT_RULES", "conflict_keys", "word_keys", "read_word_list",
           "ConflictKeys", "ids_of", "PREFER_BONUS", "MAX_SHARED"]

# a preferred word's score bonus in the CSP's word choice: larger than any look-ahead sum
# (a slot of 64 letters, each crossing at most log of 2**32 words) plus frequency weight
PREFER_BONUS = 1e5
MAX_SHARED = MAX_WORD_LENGTH  # a longer run than any word: the rule has no effect past it


@dataclass(frozen=True)
class FillRules:
    """What a fill's words must satisfy beyond the grid's rules (see the module
    docstring); the default forbids two answers of one lemma only."""

    exclude: frozenset[Word] = frozenset()
    prefer: frozenset[Word] = frozenset()
    theme: tuple[Word, ...] = ()
    max_shared: int | None = None
    same_lemma: bool = False

    def __post_init__(self) -> None:
        if self.max_shared is not None and not 1 <= self.max_shared <= MAX_SHARED:
            raise GridError(f"the longest shared substring must be 1 to {MAX_SHARED} letters, "
                            f"not {self.max_shared}")
        seen = set()
        for w in self.theme:
            if not w:
                raise GridError("a theme word is empty")
            if w in seen:
                raise GridError(f"theme word {w!r} is given twice (a fill has each word once)")
            seen.add(w)
            if w in self.exclude:
                raise GridError(f"theme word {w!r} is also excluded")

    @property
    def restricts(self) -> bool:
        """True when the rules ask more than the default."""
        return bool(self.exclude or self.prefer or self.theme or self.max_shared is not None
                    or self.same_lemma)

    def identity(self) -> dict:
        """A JSON-ready description (for a batch's identity)."""
        return {"exclude": sorted(self.exclude), "prefer": sorted(self.prefer),
                "theme": list(self.theme), "max_shared": self.max_shared,
                "same_lemma": self.same_lemma}


DEFAULT_RULES = FillRules()


def word_keys(word: Word, max_shared: int | None, lemma: int | None) -> set[object]:
    """The conflict keys of ``word``: its runs of ``max_shared + 1`` letters, and its lemma
    group (None: none of either)."""
    keys: set[object] = set()
    if max_shared is not None:
        n = max_shared + 1
        keys.update(word[i:i + n] for i in range(len(word) - n + 1))
    if lemma is not None:
        keys.add(("lemma", lemma))
    return keys


@dataclass
class ConflictKeys:
    """Each word row's keys (``keys[kstart[r]:kstart[r + 1]]``, distinct) and each key's
    rows (``post[pstart[k]:pstart[k + 1]]``)."""

    kstart: np.ndarray
    keys: np.ndarray
    pstart: np.ndarray
    post: np.ndarray

    @property
    def active(self) -> bool:
        return len(self.keys) > 0


def no_keys(rows: int) -> ConflictKeys:
    """No word has a key."""
    z = np.zeros(1, dtype=np.int32)
    return ConflictKeys(np.zeros(rows + 1, dtype=np.int64), z[:0], np.zeros(1, np.int64), z[:0])


def conflict_keys(wl: np.ndarray, lengths: Sequence[int], grow: np.ndarray,
                  max_shared: int | None, lemmas: np.ndarray | None) -> ConflictKeys:
    """The keys of the word rows of ``wl`` (letter codes, grouped by length: the rows of
    ``n``-letter words start at ``grow[n]``): runs of ``max_shared + 1`` letters
    (``max_shared`` None: none) and the lemma group ``lemmas[row]`` (None: none; a group
    of one word is no key)."""
    rows = len(wl)
    row_parts: list[np.ndarray] = []
    key_parts: list[np.ndarray] = []
    nkeys = 0
    if max_shared is not None:
        w = max_shared + 1
        grams_rows, grams = [], []
        for n in lengths:
            if n < w:
                continue
            lo, hi = int(grow[n]), int(grow[n + 1])
            block = wl[lo:hi, :n].astype(np.int64)
            for i in range(n - w + 1):
                grams.append(block[:, i:i + w])
                grams_rows.append(np.arange(lo, hi, dtype=np.int64))
        if grams:
            gid = _gram_ids(np.concatenate(grams), int(wl.max(initial=0)) + 1)
            r = np.concatenate(grams_rows)
            row_parts.append(r)
            key_parts.append(gid)
            nkeys = int(gid.max()) + 1 if len(gid) else 0
    if lemmas is not None and rows:
        groups, inverse, sizes = np.unique(lemmas, return_inverse=True, return_counts=True)
        shared = sizes[inverse] > 1
        row_parts.append(np.flatnonzero(shared).astype(np.int64))
        key_parts.append(inverse[shared].astype(np.int64) + nkeys)
        nkeys += len(groups)
    if not row_parts:
        return no_keys(rows)
    r = np.concatenate(row_parts)
    k = np.concatenate(key_parts)
    pair = _distinct(r * max(1, nkeys) + k)  # distinct (row, key), by row then key
    r, k = pair // max(1, nkeys), pair % max(1, nkeys)
    # a key of one row conflicts with nothing: dropped, so that lists stay short
    per_key = np.bincount(k, minlength=nkeys)
    keep = per_key[k] > 1
    r, k = r[keep], k[keep]
    used, k = np.unique(k, return_inverse=True)
    k = k.reshape(-1)
    kstart = np.zeros(rows + 1, dtype=np.int64)
    np.cumsum(np.bincount(r, minlength=rows), out=kstart[1:])
    order = np.lexsort((r, k))
    pstart = np.zeros(len(used) + 1, dtype=np.int64)
    np.cumsum(np.bincount(k, minlength=len(used)), out=pstart[1:])
    return ConflictKeys(kstart, k.astype(np.int32), pstart, r[order].astype(np.int32))


def _distinct(x: np.ndarray) -> np.ndarray:
    """The distinct values of ``x``, sorted (a sort: numpy's hashing unique of large int64
    arrays is several times slower)."""
    x = np.sort(x)
    return x[np.concatenate(([True], x[1:] != x[:-1]))] if len(x) else x


def _gram_ids(grams: np.ndarray, letters: int) -> np.ndarray:
    """Dense ids of the rows of ``grams`` (letter codes below ``letters``): equal rows, equal
    ids.  The codes are read as numbers in base ``letters``, a few columns at a time while
    they fit in 62 bits, then renumbered densely (a sort of integers, not of rows)."""
    ids = np.zeros(len(grams), dtype=np.int64)
    span = 1  # the ids are below span
    for p in range(grams.shape[1]):
        if span * letters >= 1 << 62:
            _, ids = np.unique(ids, return_inverse=True)
            ids = ids.reshape(-1).astype(np.int64)
            span = int(ids.max(initial=0)) + 1
        ids = ids * letters + grams[:, p]
        span *= letters
    _, ids = np.unique(ids, return_inverse=True)
    return ids.reshape(-1).astype(np.int64)


def ids_of(words: Iterable[Word], id_of: Callable[[Word], int | None]) -> list[int]:
    """The ids of those ``words`` the index has (``id_of``: its word -> id or None)."""
    return [i for i in (id_of(w) for w in words) if i is not None]


def read_word_list(path: str | os.PathLike, what: str, *, fold_yo: bool = False
                   ) -> tuple[Word, ...]:
    """The words of a plain list (one word a line; ``word count`` lines are read too, their
    counts ignored), in the dictionaries' spelling and the file's order; GridError with
    one line naming the file (and the first bad line) when it cannot be read, has a bad
    line, or has no word.  ``what`` names the list in messages (``--exclude list``)."""
    data = read_bytes(path, what, GridError)
    text = decode_text(data, path, what, GridError)
    counts, report = parse_freqdict(text.splitlines(), fold_yo=fold_yo)
    if report.malformed:
        raise GridError(f"{what} {shown(path)}, line {report.malformed_lines[0]}: expected one "
                        f"word a line")
    if report.refused:
        line, why = report.refused_lines[0]
        raise GridError(f"{what} {shown(path)}, line {line}: {why}")
    if not counts:
        raise GridError(f"{what} {shown(path)} has no word")
    return tuple(counts)
