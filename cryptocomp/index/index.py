"""The dictionary index: roaring bitmaps of word ids, ranked by frequency.

Word ids are assigned in descending count (ties by word), so id 0 is the most
frequent word and iterating any bitmap yields words most-frequent first: ranking
comes free, "the N most frequent words" is the id range ``[0, N)`` and
"count at least m" is another prefix of the ids.

Bitmaps (pyroaring ``FrozenBitMap``), each keyed as shown:

============================  ==============================================
``by_length(n)``               words of ``n`` letters
``by_pattern(p)``              words with letter structure ``p`` (:func:`pattern`)
``at(i, c)``                   words with letter ``c`` at 0-based position ``i``
``having(c)``                  words containing ``c``
``at_least(c, k)``             words containing ``c`` at least ``k`` times
============================  ==============================================

Queries combine them by intersection and difference and return a
:class:`Matches`, a lazy ranked sequence of :class:`Entry` (word, count, id).

>>> idx = Index.from_counts({"мама": 5, "папа": 7, "баран": 9, "сад": 1})
>>> [e.word for e in idx.same_pattern("дядя")]
['папа', 'мама']
>>> idx.match("?а?а?").words()
['баран']
"""

from __future__ import annotations

import array
import logging
from functools import cached_property, lru_cache
from typing import Iterable, Iterator, Mapping, NamedTuple, Sequence, overload

import numpy as np
from pyroaring import FrozenBitMap

from ..domain import Pattern, Progress, Template, Word, WordId
from ..errors import QueryError
from .alphabet import normalize

__all__ = ["Index", "Matches", "Entry", "pattern", "Word", "WordId", "Template", "Pattern",
           "WILDCARDS"]

log = logging.getLogger(__name__)


WILDCARDS = frozenset("?.")
_EMPTY = FrozenBitMap()
STATE_VERSION = 1  # layout of __getstate__; bump when it changes
MAX_COUNT = 2**63 - 1  # counts are stored as unsigned 64-bit integers


def pattern(word: str) -> Pattern:
    """Letter structure: the i-th distinct letter becomes i.

    >>> pattern("барабан")
    (0, 1, 2, 1, 0, 1, 3)
    """
    seen: dict[str, int] = {}
    return tuple(seen.setdefault(ch, len(seen)) for ch in word)


def _key(p: Sequence[int]) -> bytes:
    """The dictionary key of a pattern: its bytes, or for a pattern with values past 255
    (a word of more than 256 distinct letters) 0xff and 32-bit values; a pattern's first
    value is always 0, so the two kinds never collide."""
    if max(p, default=0) < 256:
        return bytes(p)
    return b"\xff" + array.array("I", p).tobytes()


def _pattern_key(word: str) -> bytes:
    return _key(pattern(word))


def _bitmap(ids: np.ndarray) -> FrozenBitMap:
    # array('I') takes pyroaring's bulk-add path, ~10x faster than a numpy iterable
    return FrozenBitMap(array.array("I", ids.astype(np.uint32, copy=False).tobytes()))


class Entry(NamedTuple):
    """One word of a result: the word, its count and its id (rank - 1)."""

    word: Word
    count: int
    id: WordId

    @property
    def rank(self) -> int:
        """1-based frequency rank."""
        return self.id + 1


class Matches(Sequence[Entry]):
    """The words of a bitmap, most frequent first; nothing is materialised until read."""

    __slots__ = ("index", "ids")

    def __init__(self, index: "Index", ids: FrozenBitMap):
        self.index = index
        self.ids = ids

    def __len__(self) -> int:
        return len(self.ids)

    @overload
    def __getitem__(self, i: int) -> Entry: ...
    @overload
    def __getitem__(self, i: slice) -> list[Entry]: ...

    def __getitem__(self, i):
        if isinstance(i, slice):
            start, stop, step = i.indices(len(self.ids))
            if step == 1 and start == 0:
                return self._entries(self._first(stop))
            return [self[j] for j in range(start, stop, step)]
        if i < 0:
            i += len(self.ids)
        if not 0 <= i < len(self.ids):
            raise IndexError(i)
        return self.index.entry(self.ids[i])

    def __iter__(self) -> Iterator[Entry]:
        entry = self.index.entry
        return (entry(i) for i in self.ids)

    def __bool__(self) -> bool:
        return bool(self.ids)

    def __repr__(self) -> str:
        head = ", ".join(self.words(5))
        return f"<Matches {len(self)}: {head}{', ...' if len(self) > 5 else ''}>"

    def _first(self, n: int) -> list[int]:
        if n >= len(self.ids):
            return self.ids.to_array().tolist()
        out = []
        for i in self.ids:
            if len(out) == n:
                break
            out.append(i)
        return out

    def _entries(self, ids: list[int]) -> list[Entry]:
        words, counts = self.index.words, self.index.counts
        return [Entry(words[i], counts[i], i) for i in ids]

    def words(self, n: int | None = None) -> list[Word]:
        """The words, most frequent first (the first ``n`` when given)."""
        words = self.index.words
        ids = self.ids.to_array().tolist() if n is None else self._first(n)
        return [words[i] for i in ids]

    def top(self, n: int) -> "Matches":
        """The ``n`` most frequent of these words."""
        return Matches(self.index, FrozenBitMap(self._first(n)))


class Index:
    """Word ids ranked by frequency, with roaring bitmaps over them; immutable once built."""

    def __init__(self, words: Sequence[Word], counts: Sequence[int], *, name: str = "",
                 params: Mapping[str, object] | None = None, progress: Progress | None = None):
        """Index ``words`` (already ranked: counts descending, ties by word)."""
        self.name = name
        self.params = dict(params or {})
        self.words: list[Word] = list(words)
        self.counts = array.array("Q", counts)
        if len(self.words) != len(self.counts):
            raise ValueError("words and counts differ in length")
        self._build(progress)
        self._finish()

    @classmethod
    def from_counts(cls, counts: Mapping[Word, int], *, name: str = "",
                    params: Mapping[str, object] | None = None,
                    progress: Progress | None = None) -> "Index":
        """Index a word -> count mapping (words are normalised: NFC, lower case)."""
        merged: dict[Word, int] = {}
        for word, count in counts.items():
            word = normalize(word)
            if not word or any(ch.isspace() for ch in word):
                raise ValueError(f"not a word: {word!r}")
            if count < 0:
                raise ValueError(f"negative count for {word!r}")
            merged[word] = merged.get(word, 0) + int(count)
            if merged[word] > MAX_COUNT:
                raise ValueError(f"count of {word!r} exceeds {MAX_COUNT}")
        ranked = sorted(merged.items(), key=lambda kv: (-kv[1], kv[0]))
        return cls([w for w, _ in ranked], [c for _, c in ranked], name=name, params=params,
                   progress=progress)

    # -- building ---------------------------------------------------------------

    def _build(self, progress: Progress | None) -> None:
        words, n = self.words, len(self.words)
        report = progress or (lambda done, total: None)
        steps = 5
        report(0, steps)
        lengths = np.fromiter(map(len, words), dtype=np.int64, count=n)
        letters = sorted(set("".join(words)))
        n_letters = len(letters)
        # one row of letter codes per character occurrence: (word id, position, letter code)
        total = int(lengths.sum())
        word_of = np.repeat(np.arange(n, dtype=np.int64), lengths)
        starts = np.cumsum(lengths) - lengths
        pos_of = np.arange(total, dtype=np.int64) - np.repeat(starts, lengths)
        joined = "".join(words)
        points = np.frombuffer(joined.encode("utf-32-le"), dtype=np.uint32)
        table = np.array([ord(ch) for ch in letters], dtype=np.uint32)
        code_of = np.searchsorted(table, points).astype(np.int64)
        report(1, steps)

        self._by_length = self._group(lengths, np.arange(n, dtype=np.int64),
                                      lambda key: int(key))
        # (position, letter): group occurrences by position * L + code, ids stay ascending
        self._at = self._group(pos_of * n_letters + code_of, word_of,
                               lambda key: (int(key) // n_letters, letters[int(key) % n_letters]))
        report(2, steps)
        # letter multiplicities per word: unique (word, letter) pairs with their counts
        pairs, multiplicity = np.unique(word_of * n_letters + code_of, return_counts=True)
        pair_word, pair_code = pairs // n_letters, pairs % n_letters
        self._having = self._group(pair_code, pair_word, lambda key: letters[int(key)])
        at_least: dict[tuple[str, int], FrozenBitMap] = {}
        for k in range(2, int(multiplicity.max(initial=1)) + 1):
            sel = multiplicity >= k
            for ch, bm in self._group(pair_code[sel], pair_word[sel],
                                      lambda key: letters[int(key)]).items():
                at_least[(ch, k)] = bm
        self._at_least = at_least
        report(3, steps)
        groups: dict[bytes, list[int]] = {}
        for i, word in enumerate(words):
            key = _pattern_key(word)
            group = groups.get(key)
            if group is None:
                groups[key] = [i]
            else:
                group.append(i)
        self._by_pattern = {key: FrozenBitMap(ids) for key, ids in groups.items()}
        report(4, steps)
        self.alphabet = "".join(letters)
        report(steps, steps)

    @staticmethod
    def _group(keys: np.ndarray, ids: np.ndarray, name) -> dict:
        """One bitmap per distinct key, of the ids having that key."""
        if len(keys) == 0:
            return {}
        order = np.lexsort((ids, keys))
        keys, ids = keys[order], ids[order]
        cuts = np.flatnonzero(np.diff(keys)) + 1
        bounds = np.concatenate(([0], cuts, [len(keys)]))
        return {name(keys[a]): _bitmap(ids[a:b]) for a, b in zip(bounds[:-1], bounds[1:])}

    def _finish(self) -> None:
        """Derived lookups, rebuilt after building or unpickling."""
        self.__dict__.pop("_id", None)
        self._letters = frozenset(self.alphabet)
        self._all = FrozenBitMap(range(len(self.words)))
        self.total = sum(self.counts)  # to turn a count into a frequency

    @cached_property
    def _id(self) -> dict[Word, WordId]:
        """word -> id, built on first use: loading an index need not pay for it."""
        return {w: i for i, w in enumerate(self.words)}

    # -- pickling (the payload of an index file; see cryptocomp.store) -------------

    def __getstate__(self) -> dict:
        return {
            "state_version": STATE_VERSION,
            "name": self.name,
            "params": self.params,
            "alphabet": self.alphabet,
            "words": "\n".join(self.words),
            "counts": self.counts.tobytes(),
            "by_length": self._by_length,
            "by_pattern": self._by_pattern,
            "at": self._at,
            "having": self._having,
            "at_least": self._at_least,
        }

    def __setstate__(self, state: dict) -> None:
        if state.get("state_version") != STATE_VERSION:
            raise ValueError(f"index state version {state.get('state_version')!r}")
        self.name = state["name"]
        self.params = state["params"]
        self.alphabet = state["alphabet"]
        self.words = state["words"].split("\n") if state["words"] else []
        self.counts = array.array("Q")
        self.counts.frombytes(state["counts"])
        self._by_length = state["by_length"]
        self._by_pattern = state["by_pattern"]
        self._at = state["at"]
        self._having = state["having"]
        self._at_least = state["at_least"]
        n = len(self.words)
        if len(self.counts) != n:
            raise ValueError("counts and words differ in length")
        for family in (self._by_length, self._by_pattern, self._at, self._having, self._at_least):
            if not isinstance(family, dict):
                raise ValueError("a bitmap family is not a mapping")
            for bm in family.values():
                # max() is O(1) on a roaring bitmap: a cheap guard against ids past the words
                if not isinstance(bm, FrozenBitMap) or (bm and bm.max() >= n):
                    raise ValueError("a bitmap holds an id past the word list")
        self._finish()

    # -- lookups --------------------------------------------------------------------

    def __len__(self) -> int:
        return len(self.words)

    def __contains__(self, word: object) -> bool:
        return word in self._id

    def __repr__(self) -> str:
        return f"<Index {self.name or '(unnamed)'}: {len(self)} words, alphabet {self.alphabet!r}>"

    def stats(self) -> dict[str, int]:
        """Sizes of the bitmap families, for `cryptocomp index info`."""
        return {"words": len(self.words), "letters": len(self.alphabet),
                "lengths": len(self._by_length), "patterns": len(self._by_pattern),
                "position_bitmaps": len(self._at), "at_least_bitmaps": len(self._at_least)}

    def id_of(self, word: Word) -> WordId | None:
        """The id (rank - 1) of a word, or None when it is not in the dictionary."""
        return self._id.get(word)

    def count(self, word: Word) -> int:
        """The word's count, 0 when absent."""
        i = self._id.get(word)
        return 0 if i is None else self.counts[i]

    def entry(self, i: WordId) -> Entry:
        """The entry of word id ``i``."""
        return Entry(self.words[i], self.counts[i], i)

    @property
    def max_length(self) -> int:
        """The longest word's length (0 for an empty index)."""
        return max(self._by_length, default=0)

    def lengths(self) -> list[int]:
        """The word lengths present, ascending."""
        return sorted(self._by_length)

    def all_ids(self) -> FrozenBitMap:
        """Every word id."""
        return self._all

    def by_length(self, n: int) -> FrozenBitMap:
        """Words of ``n`` letters."""
        return self._by_length.get(n, _EMPTY)

    def by_lengths(self, lo: int | None = None, hi: int | None = None) -> FrozenBitMap:
        """Words whose length is in ``[lo, hi]`` (either end open when None)."""
        lo = 1 if lo is None else lo
        hi = self.max_length if hi is None else hi
        if lo > hi:
            return _EMPTY
        if lo <= 1 and hi >= self.max_length:
            return self._all
        return FrozenBitMap.union(_EMPTY, *(bm for n, bm in self._by_length.items() if lo <= n <= hi))

    def by_pattern(self, p: Pattern | Sequence[int]) -> FrozenBitMap:
        """Words with letter structure ``p`` (see :func:`pattern`)."""
        if any(x < 0 for x in p):
            return _EMPTY
        return self._by_pattern.get(_key(p), _EMPTY)

    def at(self, i: int, letter: str) -> FrozenBitMap:
        """Words with ``letter`` at 0-based position ``i``."""
        return self._at.get((i, letter), _EMPTY)

    def having(self, letter: str) -> FrozenBitMap:
        """Words containing ``letter``."""
        return self._having.get(letter, _EMPTY)

    def at_least(self, letter: str, k: int) -> FrozenBitMap:
        """Words with at least ``k`` occurrences of ``letter`` (all words when k <= 0)."""
        if k <= 0:
            return self._all
        if k == 1:
            return self.having(letter)
        return self._at_least.get((letter, k), _EMPTY)

    def prefix(self, top: int | None = None, min_count: int | None = None) -> int:
        """How many of the most frequent words pass ``top`` and ``min_count``."""
        n = len(self.words)
        if top is not None:
            n = min(n, max(0, top))
        if min_count is not None and min_count > 0:
            n = min(n, self._first_below(min_count))
        return n

    def _first_below(self, min_count: int) -> int:
        counts = self.counts
        lo, hi = 0, len(counts)
        while lo < hi:  # counts descend: find the first id whose count < min_count
            mid = (lo + hi) // 2
            if counts[mid] >= min_count:
                lo = mid + 1
            else:
                hi = mid
        return lo

    @staticmethod
    @lru_cache(maxsize=64)
    def _range(n: int) -> FrozenBitMap:
        return FrozenBitMap(range(n))

    # -- queries ----------------------------------------------------------------------

    def select(self, *, length: int | tuple[int | None, int | None] | None = None,
               pattern: Pattern | None = None, fixed: Iterable[tuple[int, str]] = (),
               forbidden: Iterable[str] = (), required: Iterable[str] = (),
               top: int | None = None, min_count: int | None = None) -> FrozenBitMap:
        """Ids of the words satisfying every given condition.

        ``length`` is an exact length or an inclusive ``(lo, hi)`` range;
        ``pattern`` a letter structure; ``fixed`` (position, letter) pairs;
        ``forbidden`` letters that must not occur; ``required`` letters that must;
        ``top``/``min_count`` keep only the most frequent words.
        """
        parts: list[FrozenBitMap] = []
        if pattern is not None:
            parts.append(self.by_pattern(pattern))
        if isinstance(length, int):
            parts.append(self.by_length(length))
        elif length is not None:
            parts.append(self.by_lengths(*length))
        parts.extend(self.at(i, ch) for i, ch in fixed)
        parts.extend(self.having(ch) for ch in required)
        limit = self.prefix(top, min_count)
        if limit < len(self.words):
            parts.append(self._range(limit))
        if not parts:
            ids = self._all
        else:
            parts.sort(key=len)  # smallest first keeps every intermediate small
            ids = parts[0]
            for bm in parts[1:]:
                if not ids:
                    break
                ids = ids & bm
        for ch in forbidden:
            if not ids:
                break
            bm = self._having.get(ch)
            if bm is not None:
                ids = ids - bm
        return ids

    def matches(self, ids: FrozenBitMap) -> Matches:
        """A ranked view of the words of a bitmap."""
        return Matches(self, ids)

    def parse_template(self, template: Template) -> list[tuple[int, str]]:
        """The fixed (position, letter) pairs of a template; unknown letters are an error."""
        fixed = []
        for i, ch in enumerate(normalize(template)):
            if ch in WILDCARDS:
                continue
            if ch not in self._letters:
                raise QueryError(f"letter {ch!r} at position {i + 1} of {template!r} "
                                 f"does not occur in dictionary {self.name or '(unnamed)'}")
            fixed.append((i, ch))
        return fixed

    def match(self, template: Template, *, forbidden: Iterable[str] = (),
              required: Iterable[str] = (), top: int | None = None,
              min_count: int | None = None) -> Matches:
        """Words fitting a template: letters where given, any letter at ``?`` (or ``.``)."""
        template = normalize(template.strip())
        if not template:
            raise QueryError("empty template")
        return Matches(self, self.select(length=len(template), fixed=self.parse_template(template),
                                         forbidden=forbidden, required=required, top=top,
                                         min_count=min_count))

    def same_pattern(self, word: Word, *, top: int | None = None,
                     min_count: int | None = None) -> Matches:
        """Words with the same letter structure as ``word`` (the word itself included)."""
        word = normalize(word.strip())
        if not word:
            raise QueryError("empty word")
        return Matches(self, self.select(pattern=pattern(word), top=top, min_count=min_count))

    def structure(self, template: Sequence[str | int], *, forbidden: Iterable[str] = (),
                  top: int | None = None, min_count: int | None = None) -> Matches:
        """Words fitting a composer template: letters where given, and ints standing for new
        letters (equal ints, equal letters; different ints, different letters; all different
        from the given letters and from ``forbidden``).

        >>> idx = Index.from_counts({"воблы": 3, "вобла": 2, "волны": 1})
        >>> idx.structure(["в", "о", 0, 1, 2], forbidden="а").words()
        ['воблы', 'волны']
        """
        keyed = [("L", x) if isinstance(x, str) else ("N", x) for x in template]
        fixed = [(i, x) for i, x in enumerate(template) if isinstance(x, str)]
        return Matches(self, self.select(pattern=pattern(keyed), fixed=fixed,
                                         forbidden=forbidden, top=top, min_count=min_count))

    # -- invariants -----------------------------------------------------------------------

    def _check(self) -> None:
        """Verify every invariant by recomputing all bitmaps from the word list (slow)."""
        n = len(self.words)
        assert len(self.counts) == n, "counts and words differ in length"
        assert len(self._id) == n, "duplicate words"
        for i in range(1, n):
            a, b = (-self.counts[i - 1], self.words[i - 1]), (-self.counts[i], self.words[i])
            assert a < b, f"ranking order broken at id {i}: {self.words[i - 1]!r}, {self.words[i]!r}"
        for w in self.words:
            assert w and w == normalize(w) and not any(c.isspace() for c in w), f"bad word {w!r}"
        assert self.alphabet == "".join(sorted(set("".join(self.words)))), "alphabet"
        lengths: dict[int, set] = {}
        patterns: dict[bytes, set] = {}
        at: dict[tuple[int, str], set] = {}
        having: dict[str, set] = {}
        at_least: dict[tuple[str, int], set] = {}
        for i, w in enumerate(self.words):
            lengths.setdefault(len(w), set()).add(i)
            patterns.setdefault(_pattern_key(w), set()).add(i)
            for p, ch in enumerate(w):
                at.setdefault((p, ch), set()).add(i)
            for ch in set(w):
                having.setdefault(ch, set()).add(i)
                for k in range(2, w.count(ch) + 1):
                    at_least.setdefault((ch, k), set()).add(i)
        for name, want, have in (("length", lengths, self._by_length),
                                 ("pattern", patterns, self._by_pattern),
                                 ("position", at, self._at), ("letter", having, self._having),
                                 ("at_least", at_least, self._at_least)):
            assert set(want) == set(have), f"{name} keys differ"
            for key, ids in want.items():
                bm = have[key]
                assert isinstance(bm, FrozenBitMap), f"{name} {key!r} is not a FrozenBitMap"
                assert set(bm) == ids, f"{name} bitmap {key!r} holds the wrong ids"
                assert not bm or bm.max() < n, f"{name} bitmap {key!r} has an id out of range"
        assert self._all == FrozenBitMap(range(n))
