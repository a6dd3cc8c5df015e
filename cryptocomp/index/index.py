"""The dictionary index: roaring bitmaps of word ids ranked by frequency, and the encoded words.

Word ids are assigned in descending count (ties by word), so id 0 is the most
frequent word and iterating any bitmap yields words most-frequent first: ranking
comes free, "the N most frequent words" is the id range ``[0, N)`` and
"count at least m" is another prefix of the ids.

Bitmap families (pyroaring ``FrozenBitMap``, see :mod:`.family`), each keyed as shown:

============================  ==============================================
``by_length(n)``               words of ``n`` letters
``by_pattern(p)``              words with letter structure ``p`` (:func:`pattern`)
``at(i, c)``                   words with letter ``c`` at 0-based position ``i``
``having(c)``                  words containing ``c``
``at_least(c, k)``             words containing ``c`` at least ``k`` times
``in_class(name)``             words of a word class (:mod:`.classes`)
============================  ==============================================

A classified index also knows each word's lemma group (:meth:`Index.lemma_groups`).

The index also owns the words *encoded* (:meth:`Index.encoded`: letter-code matrices
per length, :mod:`.encoding`), where the composer, the crossword CSP and the rack solver
get them; the word orders behind wildcard prefixes and suffixes (:mod:`.wildcards`);
and tables other systems derive from the words, kept by :meth:`Index.derived`.
Its stored state, the sections of an index file, is a
:class:`~.sections.StoredSections`: all in memory for a built index, each section
read on first use for a loaded one.

Queries combine the bitmaps by intersection and difference and return a
:class:`Matches`, a lazy ranked sequence of :class:`Entry` (word, count, id).
Which families a query uses: a template without ``*`` intersects
``by_length(len)`` with ``at(i, c)`` per given letter; :meth:`same_pattern`
reads ``by_pattern``; a :class:`~.wordfilter.WordFilter` (which words: lengths,
frequency, letters required or excluded) adds its intersections and differences
(:mod:`.wordfilter`); wildcard templates are planned in :mod:`.wildcards`.

>>> idx = Index.from_counts({"мама": 5, "папа": 7, "баран": 9, "сад": 1})
>>> [e.word for e in idx.same_pattern("дядя")]
['папа', 'мама']
>>> idx.match("?а?а?").words()
['баран']
>>> idx.match("*а").words()
['папа', 'мама']
"""

from __future__ import annotations

import array
import logging
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from functools import cached_property
from typing import TYPE_CHECKING, Any

import numpy as np
from pyroaring import FrozenBitMap

from ..domain import Pattern, Progress, Template, Word, WordId
from ..errors import QueryError
from .alphabet import WILDCARDS, normalize, script_of, spell, word_problem
from .classes import SOURCE_CLASSES, Classification, WordClasses, check_classes
from .encoding import Encoded, pattern
from .family import Corrupt
from .matches import Entry, Matches
from .scores import score_of
from .sections import StoredSections
from .state import (
    FAMILIES,
    InMemorySections,
    Meta,
    Sections,
    build_state,
    check_index,
    corrupt_value,
    pattern_key,
    write_sections,
)
from .wordfilter import ALL_WORDS, WordFilter, select

if TYPE_CHECKING:
    from .wildcards import WordOrder

__all__ = ["Index", "Matches", "Entry", "Encoded", "pattern", "Word", "WordId", "Template",
           "Pattern", "WILDCARDS"]

log = logging.getLogger(__name__)

_EMPTY = FrozenBitMap()
Classify = Callable[[Sequence[Word]], Classification]  # ranked words -> their classes
MAX_COUNT = 2**63 - 1  # counts are stored as unsigned 64-bit integers


class Index:
    """Word ids ranked by frequency, with roaring bitmaps over them; immutable once built."""

    def __init__(self, words: Sequence[Word], counts: Sequence[int], *, name: str = "",
                 params: Mapping[str, object] | None = None, progress: Progress | None = None,
                 word_order: np.ndarray | None = None,
                 classify: Classify | None = None):
        """Index ``words`` (already ranked: counts descending, ties by word); ``word_order``,
        the ids sorted by word, when the caller knows it (it is computed otherwise);
        ``classify``: what finds the words' classes (none: an unclassified index)."""
        self.name = name
        self.params = dict(params or {})
        words = list(words)
        counts = array.array("Q", counts)
        if len(words) != len(counts):
            raise ValueError("words and counts differ in length")
        classification = classify(words) if classify is not None else None
        built = build_state(words, progress, word_order, classification)
        self.alphabet: str = built.alphabet
        meta = Meta(name, self.params, built.alphabet, len(words),
                    {n: len(enc.ids) for n, enc in built.encoded.items()},
                    built.classification.source)
        self._finish(StoredSections.built(meta, words, counts, built))

    @classmethod
    def from_counts(cls, counts: Mapping[Word, int], *, name: str = "",
                    params: Mapping[str, object] | None = None,
                    progress: Progress | None = None,
                    classify: Classify | None = None) -> Index:
        """Index a word -> count mapping (words are normalised: NFC, lower case);
        ``classify``: what finds the words' classes (none: an unclassified index)."""
        merged: dict[Word, int] = {}
        for word, count in counts.items():
            norm = normalize(word)
            if norm == word:
                norm = word  # keep the caller's string: one copy of each word, not two
            why = word_problem(norm, longest=None)  # the caller's words may be any length
            if why is not None:
                raise ValueError(f"not a word: {norm[:50]!r} ({why})")
            if count < 0:
                raise ValueError(f"negative count for {norm!r}")
            total = merged.get(norm, 0) + int(count)
            if total > MAX_COUNT:
                raise ValueError(f"count of {norm!r} exceeds {MAX_COUNT}")
            merged[norm] = total
        alphabetical = sorted(merged)
        by_count = array.array("Q", map(merged.__getitem__, alphabetical))
        del merged
        # stable, so equal counts stay a-z; rank_of[r] is the alphabetical position of id r
        rank_of = sorted(range(len(by_count)), key=by_count.__getitem__, reverse=True)
        ranked = [alphabetical[j] for j in rank_of]
        counts_ranked = array.array("Q", map(by_count.__getitem__, rank_of))
        del alphabetical, by_count
        in_word_order = np.empty(len(rank_of), dtype=np.int64)
        in_word_order[np.array(rank_of, dtype=np.int64)] = np.arange(len(rank_of))
        return cls(ranked, counts_ranked, name=name, params=params, progress=progress,
                   word_order=in_word_order, classify=classify)

    # -- the stored state (the sections of an index file; see .sections, .state, .store) --

    @classmethod
    def from_sections(cls, source: Sections, *, corrupt: Corrupt = corrupt_value) -> Index:
        """An index whose stored sections are read from ``source`` when first needed (each
        checked as it is read, see :mod:`.state`); ``corrupt(why)`` makes the error raised
        for a damaged section, on loading or on first use."""
        stored = StoredSections.reading(source, corrupt)
        index = cls.__new__(cls)
        meta = stored.meta
        index.name, index.params, index.alphabet = meta.name, meta.params, meta.alphabet
        index._finish(stored)
        return index

    @classmethod
    def from_state(cls, state: object, *, corrupt: Corrupt = corrupt_value) -> Index:
        """An index from the dict of all its sections (what :meth:`__getstate__` returns)."""
        return cls.from_sections(InMemorySections(state, corrupt), corrupt=corrupt)

    def sections(self) -> dict[str, object]:
        """Every stored section (see :mod:`.state`), read or made now."""
        return write_sections(name=self.name, params=self.params, alphabet=self.alphabet,
                              words=self._stored.word_bytes(), counts=self.counts,
                              codes={n: self.encoded(n).codes for n in self.lengths()},
                              order=(self.sorted_ids(), self.sorted_ids(reverse=True)),
                              families={**{key: self._stored.family(key) for key in FAMILIES},
                                        "classes": self._stored.classes()},
                              classes=self.class_source, lemmas=self.lemma_groups())

    def __getstate__(self) -> dict:
        return self.sections()

    def __setstate__(self, state: dict) -> None:
        self.__dict__.update(Index.from_state(state).__dict__)

    def _finish(self, stored: StoredSections) -> None:
        """Derived lookups, after building or loading."""
        self._stored = stored
        self._corrupt: Corrupt = stored.corrupt
        self._n, self._lengths = stored.meta.words, stored.meta.lengths
        self._letters = frozenset(self.alphabet)
        self.fold_yo = bool(self.params.get("fold_yo"))  # queries fold ё as the words were
        self.scored = bool(self.params.get("scored"))  # counts are 1-100 scores (.scores)
        self.class_source: str = stored.meta.classes  # what classified the words ('' = none)
        self._admitted: dict[WordClasses, FrozenBitMap] = {}
        self._all = FrozenBitMap(range(self._n))
        self._longer: dict[int, FrozenBitMap] = {}
        self._scripts: dict[str, FrozenBitMap] = {}
        self._word_orders: dict[bool, WordOrder | None] = {False: None, True: None}
        self._derived: dict[Hashable, Any] = {}

    @property
    def counts(self) -> array.array:
        """Each word's count, by id (descending)."""
        return self._stored.counts()

    @cached_property
    def total(self) -> int:
        """The sum of all counts (to turn a count into a frequency)."""
        counts = np.frombuffer(self.counts, dtype=np.uint64)
        # a sum in uint64 is exact when it cannot wrap; else Python's integers
        if len(counts) and int(counts[0]) < (1 << 64) // len(counts):
            return int(counts.sum(dtype=np.uint64))
        return sum(self.counts)

    def load_all(self) -> None:
        """Read every stored section now (each is checked as it is read)."""
        self.sections()

    # -- words ------------------------------------------------------------------------------

    @property
    def words(self) -> list[Word]:
        """Every word, by id (decoded from the index file on first use)."""
        return self._stored.words()

    def word(self, i: WordId) -> Word:
        """The word of id ``i``."""
        if self._stored.is_loaded("words"):
            return self._stored.word(i)
        # spelled from its codes: a query that shows a few words (compose) need not read
        # the whole word list
        if not 0 <= i < self._n:
            raise IndexError(i)
        for n in self._lengths:
            ids = self.by_length(n)
            if i in ids:
                row = self.encoded(n).codes[ids.rank(i) - 1]
                return "".join(self.alphabet[c] for c in row.tolist())
        raise self._corrupt(f"word id {i} has no length")

    def words_of(self, ids: list[WordId]) -> list[Word]:
        """The words of some ids, without decoding the whole word list for a few."""
        if self._stored.has_word_list or len(ids) * 16 > self._n:
            words = self.words
            return [words[i] for i in ids]
        return [self.word(i) for i in ids]

    @cached_property
    def _id(self) -> dict[Word, WordId]:
        """word -> id, built on first use: loading an index need not pay for it."""
        return {w: i for i, w in enumerate(self.words)}

    # -- encoded words ----------------------------------------------------------------------

    def encoded(self, n: int, within: FrozenBitMap | None = None) -> Encoded:
        """The words of ``n`` letters (only those in ``within`` when given) as letter-code
        matrices, rows in id order: the one source of encoded words for every engine."""
        enc = self._stored.encoded(n)
        if within is not None and len(enc.ids):
            sub = within & self.by_length(n)
            if len(sub) < len(enc.ids):
                rows = np.searchsorted(enc.ids, np.frombuffer(sub.to_array(), dtype=np.uint32))
                enc = enc.take(rows)
        return enc

    def derived(self, key: Hashable, compute: Callable[[], Any]) -> Any:
        """``compute()`` once per ``key``, kept while the index lives: tables other systems
        derive from the words (the index never changes, so a key names its value for good)."""
        if key not in self._derived:
            self._derived[key] = compute()
        return self._derived[key]

    def written_in(self, script: str) -> FrozenBitMap:
        """Words written entirely in letters of one Unicode script ('LATIN', 'CYRILLIC', ...:
        see :func:`cryptocomp.index.alphabet.script_of`)."""
        got = self._scripts.get(script)
        if got is None:
            foreign = [self.having(c) for c in self.alphabet if script_of(c) != script]
            got = self._scripts[script] = self._all - FrozenBitMap.union(_EMPTY, *foreign)
        return got

    def sorted_ids(self, *, reverse: bool = False) -> np.ndarray:
        """Word ids in word order (``reverse``: in the order of the reversed words)."""
        return self._stored.order(reverse=reverse)

    def word_order(self, *, reverse: bool = False) -> WordOrder:
        """The words sorted (``reverse``: sorted by their reversed spelling), for the prefix
        (suffix) ranges of wildcard templates; built on first use."""
        order = self._word_orders[reverse]
        if order is None:
            from .wildcards import WordOrder

            order = self._word_orders[reverse] = WordOrder(
                self.words, self.sorted_ids(reverse=reverse), reverse=reverse)
        return order

    # -- lookups ----------------------------------------------------------------------------

    def __len__(self) -> int:
        return self._n

    def __contains__(self, word: object) -> bool:
        return word in self._id

    def __repr__(self) -> str:
        return f"<Index {self.name or '(unnamed)'}: {len(self)} words, alphabet {self.alphabet!r}>"

    def stats(self) -> dict[str, int]:
        """Sizes of the bitmap families, for `cryptocomp index info`."""
        family = self._stored.family
        return {"words": len(self), "letters": len(self.alphabet),
                "lengths": len(family("by_length")), "patterns": len(family("by_pattern")),
                "position_bitmaps": len(family("at")),
                "at_least_bitmaps": len(family("at_least"))}

    def id_of(self, word: Word) -> WordId | None:
        """The id (rank - 1) of a word, or None when it is not in the dictionary."""
        return self._id.get(word)

    def count(self, word: Word) -> int:
        """The word's count, 0 when absent."""
        i = self._id.get(word)
        return 0 if i is None else self.counts[i]

    def entry(self, i: WordId) -> Entry:
        """The entry of word id ``i``."""
        return Entry(self.word(i), self.counts[i], i)

    @property
    def max_length(self) -> int:
        """The longest word's length (0 for an empty index)."""
        return max(self._lengths, default=0)

    def lengths(self) -> list[int]:
        """The word lengths present, ascending."""
        return sorted(self._lengths)

    def all_ids(self) -> FrozenBitMap:
        """Every word id."""
        return self._all

    def by_length(self, n: int) -> FrozenBitMap:
        """Words of ``n`` letters."""
        return self._stored.family("by_length").get(n, _EMPTY)

    def by_lengths(self, lo: int | None = None, hi: int | None = None) -> FrozenBitMap:
        """Words whose length is in ``[lo, hi]`` (either end open when None)."""
        lo = 1 if lo is None else lo
        hi = self.max_length if hi is None else hi
        if lo > hi:
            return _EMPTY
        if lo <= 1 and hi >= self.max_length:
            return self._all
        if hi >= self.max_length:  # "at least lo letters": asked for often, kept
            got = self._longer.get(lo)
            if got is None:
                got = self._longer[lo] = FrozenBitMap.union(
                    _EMPTY, *(self.by_length(n) for n in self.lengths() if n >= lo))
            return got
        return FrozenBitMap.union(_EMPTY, *(self.by_length(n) for n in self.lengths()
                                            if lo <= n <= hi))

    def by_pattern(self, p: Pattern | Sequence[int]) -> FrozenBitMap:
        """Words with letter structure ``p`` (see :func:`pattern`)."""
        if any(x < 0 for x in p):
            return _EMPTY
        return self._stored.family("by_pattern").get(pattern_key(p), _EMPTY)

    def at(self, i: int, letter: str) -> FrozenBitMap:
        """Words with ``letter`` at 0-based position ``i``."""
        return self._stored.family("at").get((i, letter), _EMPTY)

    def having(self, letter: str) -> FrozenBitMap:
        """Words containing ``letter``."""
        return self._stored.family("having").get(letter, _EMPTY)

    def at_least(self, letter: str, k: int) -> FrozenBitMap:
        """Words with at least ``k`` occurrences of ``letter`` (all words when k <= 0)."""
        if k <= 0:
            return self._all
        if k == 1:
            return self.having(letter)
        return self._stored.family("at_least").get((letter, k), _EMPTY)

    # -- word classes (see .classes) --------------------------------------------------------

    @property
    def classified(self) -> bool:
        """Whether the index knows its words' classes."""
        return bool(self.class_source)

    def in_class(self, name: str) -> FrozenBitMap:
        """Words of one class (none on an unclassified index)."""
        return self._stored.classes().get(name, _EMPTY)

    def admitted(self, classes: WordClasses) -> FrozenBitMap:
        """Words that ``classes`` admits: in any admitted class, and offensive only when
        admitted (every word on an unclassified index)."""
        got = self._admitted.get(classes)
        if got is None:
            if not self.classified:
                got = self._all
            else:
                got = FrozenBitMap.union(_EMPTY, *(self.in_class(c) for c in classes.names))
                if "offensive" not in classes.names:
                    got = got - self.in_class("offensive")
            got = self._admitted[classes] = got
        return got

    def classes_of(self, i: WordId) -> tuple[str, ...]:
        """The classes of word id ``i`` (source classes and ``unknown``; () when
        unclassified)."""
        return tuple(c for c in (*SOURCE_CLASSES, "unknown") if i in self.in_class(c))

    def lemma_groups(self) -> np.ndarray | None:
        """Each word's lemma group by id (see :mod:`.classes`), None when unknown."""
        return self._stored.lemmas()

    def score(self, i: WordId) -> int:
        """The 1-100 score of word id ``i`` (see :mod:`.scores`)."""
        return score_of(self.counts[i], self.total, scored=self.scored)

    def prefix(self, words: WordFilter = ALL_WORDS) -> int:
        """How many of the most frequent words pass the filter's ``top`` and ``min_count``."""
        return words.kept(self)

    # -- queries ----------------------------------------------------------------------------

    def select(self, words: WordFilter = ALL_WORDS, *, length: int | None = None,
               pattern: Pattern | None = None, fixed: Iterable[tuple[int, str]] = (),
               within: FrozenBitMap | None = None) -> FrozenBitMap:
        """Ids of the words passing ``words`` (see :mod:`.wordfilter`) and every given
        condition: an exact ``length``, a letter structure ``pattern``, ``fixed``
        (position, letter) pairs, a bitmap ``within`` the ids must be in."""
        return select(self, words, length=length, pattern=pattern, fixed=fixed, within=within)

    def matches(self, ids: FrozenBitMap) -> Matches:
        """A ranked view of the words of a bitmap."""
        return Matches(self, ids)

    def parse_template(self, template: Template) -> list[tuple[int, str]]:
        """The fixed (position, letter) pairs of a template (``*`` makes later positions
        relative: only letters before the first ``*`` are returned); unknown letters are an
        error."""
        fixed = []
        star = False
        for i, ch in enumerate(spell(template, fold_yo=self.fold_yo)):
            if ch in WILDCARDS:
                star = star or ch == "*"
                continue
            if ch not in self._letters:
                raise QueryError(f"letter {ch!r} at position {i + 1} of {template!r} "
                                 f"does not occur in dictionary {self.name or '(unnamed)'}")
            if not star:
                fixed.append((i, ch))
        return fixed

    def match(self, template: Template, words: WordFilter = ALL_WORDS) -> Matches:
        """Words fitting a template and passing ``words``: letters where given, any letter
        at ``?`` (or ``.``), any run of letters (possibly none) at ``*``."""
        template = spell("".join(template.split()), fold_yo=self.fold_yo)
        if not template:
            raise QueryError("empty template")
        fixed = self.parse_template(template)
        if "*" in template:
            from .wildcards import wild_ids

            return Matches(self, self.select(words, within=wild_ids(self, template)))
        return Matches(self, self.select(words, length=len(template), fixed=fixed))

    def same_pattern(self, word: Word, words: WordFilter = ALL_WORDS) -> Matches:
        """Words with the same letter structure as ``word`` (the word itself included) that
        pass ``words``."""
        word = spell(word.strip(), fold_yo=self.fold_yo)
        if not word:
            raise QueryError("empty word")
        # any letters will do (the structure of дядя finds папа in a list without д), but
        # "123" or "?!?" is no word: its structure would list every word of that shape
        alien = next((ch for ch in word if not ch.isalpha() and ch not in self._letters), None)
        if alien is not None:
            raise QueryError(f"{word!r} is not a word: {alien!r} is not a letter (of any "
                             f"alphabet, or of dictionary {self.name or '(unnamed)'})")
        return Matches(self, self.select(words, pattern=pattern(word)))

    def structure(self, template: Sequence[str | int], *, forbidden: Iterable[str] = (),
                  words: WordFilter = ALL_WORDS) -> Matches:
        """Words fitting a composer template: letters where given, and ints standing for new
        letters (equal ints, equal letters; different ints, different letters; all different
        from the given letters and from ``forbidden``) that pass ``words``.

        >>> idx = Index.from_counts({"воблы": 3, "вобла": 2, "волны": 1})
        >>> idx.structure(["в", "о", 0, 1, 2], forbidden="а").words()
        ['воблы', 'волны']
        """
        keyed = [("L", x) if isinstance(x, str) else ("N", x) for x in template]
        fixed = [(i, x) for i, x in enumerate(template) if isinstance(x, str)]
        return Matches(self, select(self, words, pattern=pattern(keyed), fixed=fixed,
                                    forbidden=forbidden))

    # -- invariants -----------------------------------------------------------------------

    def _check(self) -> None:
        """Verify every invariant by recomputing everything from the word list (slow)."""
        self._stored._check()
        check_index(self, {key: self._stored.family(key) for key in FAMILIES})
        classes = self._stored.classes()
        assert bool(classes) == self.classified, "class bitmaps and class source disagree"
        check_classes(self.words, classes, self.lemma_groups())
        self._stored._check()

