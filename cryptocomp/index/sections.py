"""The stored sections of one index, each loaded on first use: :class:`StoredSections`.

An :class:`~cryptocomp.index.Index` keeps its stored state, the sections of an index
file listed in :mod:`.state`, in one :class:`StoredSections`.  Which sections exist
follows from ``meta`` (:meth:`StoredSections.keys`).  A built index holds every section
from the start; a loaded one holds ``meta`` only and reads each other section from its
source the first time it is asked for, checked as it is read
(:func:`.state.read_section`), so that a command needing one section reads that one and
no other: a one-shot ``compose`` reads the counts, the length and letter bitmaps and the
codes of a few lengths, not the word list.

Three sections are decoded further when used, each part once: ``words`` (the stored
bytes, then the word list when a query needs every word), ``order`` (each of its two
permutations when first asked for, checked to be one) and ``codes:N`` (the
:class:`~.encoding.Encoded` words of one length).
"""

from __future__ import annotations

import array

import numpy as np

from ..domain import Word, WordId
from .encoding import Encoded, code_dtype, first_positions
from .family import BitmapFamily, Corrupt
from .state import FAMILIES, Built, Meta, Sections, corrupt_value, read_meta, read_section

__all__ = ["StoredSections"]


class StoredSections:
    """The sections of one index: which exist, which are in memory, each loaded on first use.

    Invariants (:meth:`_check`): only sections that exist are in memory; without a source
    (a built index) every section is; each section in memory agrees with ``meta`` (counts,
    word list and both word orders of ``meta.words`` entries, the length bitmaps and the
    encoded words of ``meta.lengths``)."""

    def __init__(self, meta: Meta, source: Sections | None, corrupt: Corrupt = corrupt_value):
        """Sections described by ``meta``, read from ``source`` when first needed (None: all
        of them are put in memory by the caller); ``corrupt(why)`` makes the error raised
        for a damaged section."""
        self.meta, self.corrupt = meta, corrupt
        self._source = source
        # sections in memory, as read_section returns them ("order": each direction decoded
        # in place once used)
        self._values: dict[str, object] = {}
        self._words: list[Word] | None = None  # the "words" section decoded: the word list
        self._ends: np.ndarray | None = None   # where each word ends in the stored bytes
        self._encoded: dict[int, Encoded] = {}  # the "codes:N" sections decoded, by N

    @classmethod
    def built(cls, meta: Meta, words: list[Word], counts: array.array,
              built: Built) -> StoredSections:
        """Every section of a freshly built index, in memory."""
        stored = cls(meta, None)
        stored._words = words
        stored._values.update(counts=counts, order=built.order,
                              lemmas=built.classification.lemmas, **built.families)
        stored._encoded = built.encoded
        return stored

    @classmethod
    def reading(cls, source: Sections, corrupt: Corrupt = corrupt_value) -> StoredSections:
        """The sections of ``source``, its ``meta`` read and checked now, the others on use."""
        return cls(read_meta(source.load("meta"), corrupt), source, corrupt)

    # -- which sections -------------------------------------------------------------------

    def keys(self) -> list[str]:
        """Every section an index of this ``meta`` has."""
        return ["meta", "counts", *FAMILIES, "classes", "lemmas", "words", "order",
                *(f"codes:{n}" for n in sorted(self.meta.lengths))]

    def is_loaded(self, key: str) -> bool:
        """Whether section ``key`` is in memory (``words``: its bytes or the word list)."""
        if key == "meta":
            return True
        if key == "words":
            return self._words is not None or key in self._values
        if key.startswith("codes:"):
            return key[6:].isdigit() and int(key[6:]) in self._encoded
        return key in self._values

    def loaded(self) -> list[str]:
        """The sections in memory, in the order of :meth:`keys`."""
        return [key for key in self.keys() if self.is_loaded(key)]

    def _read(self, key: str) -> object:
        """Section ``key``, read from the source and checked the first time it is asked for."""
        if key not in self._values:
            if self._source is None:  # pragma: no cover - a built index holds every section
                raise KeyError(key)
            self._values[key] = read_section(key, self._source.load(key), self.meta,
                                             self.corrupt)
        return self._values[key]

    # -- the sections -----------------------------------------------------------------------

    def counts(self) -> array.array:
        """Each word's count, by id (descending)."""
        counts = self._read("counts")
        assert isinstance(counts, array.array)
        return counts

    def family(self, key: str) -> BitmapFamily:
        """The bitmap family ``key`` (one of :data:`.state.FAMILIES`)."""
        family = self._read(key)
        assert isinstance(family, BitmapFamily)
        return family

    def classes(self) -> BitmapFamily:
        """The class bitmaps (empty for an unclassified index; see :mod:`.classes`)."""
        family = self._read("classes")
        assert isinstance(family, BitmapFamily)
        return family

    def lemmas(self) -> np.ndarray | None:
        """The lemma group of each word by id, or None when the source knew no base forms."""
        groups = self._read("lemmas")
        assert groups is None or isinstance(groups, np.ndarray)
        return groups

    def word_bytes(self) -> bytes:
        """The ``words`` section: the words by id, UTF-8, joined by newlines."""
        blob = self._values.get("words")
        if blob is None:
            if self._words is not None:
                blob = self._values["words"] = "\n".join(self._words).encode("utf-8")
            else:
                blob = self._read("words")
        assert isinstance(blob, bytes)
        return blob

    @property
    def has_word_list(self) -> bool:
        """Whether the word list is decoded (a built index has it from the start)."""
        return self._words is not None

    def words(self) -> list[Word]:
        """Every word, by id (the stored bytes decoded on first use)."""
        if self._words is None:
            self._words = self._decode_words()
        return self._words

    def _decode_words(self) -> list[Word]:
        if not self.meta.words:
            return []
        try:
            words = self.word_bytes().decode("utf-8").split("\n")
        except UnicodeDecodeError:
            raise self.corrupt("the word list is not UTF-8") from None
        if len(words) != self.meta.words or "" in words:
            raise self.corrupt("the word list does not match the word count")
        return words

    def word(self, i: WordId) -> Word:
        """The word of id ``i``: from the word list when decoded, else cut from the stored
        bytes (read now if they are not yet)."""
        if self._words is not None:
            return self._words[i]
        blob = self.word_bytes()
        if self._ends is None:
            raw = np.frombuffer(blob, dtype=np.uint8)
            ends = np.append(np.flatnonzero(raw == 10), len(raw))
            if len(ends) != self.meta.words or (np.diff(ends, prepend=-1) < 2).any():
                raise self.corrupt("the word list does not match the word count")
            self._ends = ends
        start = int(self._ends[i - 1]) + 1 if i else 0
        try:
            return blob[start:int(self._ends[i])].decode("utf-8")
        except UnicodeDecodeError:
            raise self.corrupt("the word list is not UTF-8") from None

    def order(self, *, reverse: bool = False) -> np.ndarray:
        """Word ids in word order (``reverse``: in the order of the reversed words), the
        stored permutation decoded and checked on first use."""
        order = self._read("order")
        assert isinstance(order, tuple)
        ids = order[1 if reverse else 0]
        if isinstance(ids, bytes):
            n = self.meta.words
            ids = np.frombuffer(ids, dtype="<u4").astype(np.int64)
            seen = np.zeros(n, dtype=bool)
            if len(ids) != n or (len(ids) and int(ids.max()) >= n):
                raise self.corrupt("the word order is damaged")
            seen[ids] = True
            if not seen.all():
                raise self.corrupt("the word order is damaged")
            self._values["order"] = (order[0], ids) if reverse else (ids, order[1])
        return ids

    def encoded(self, n: int) -> Encoded:
        """The words of ``n`` letters as letter-code matrices (section ``codes:n`` decoded on
        first use; none for a length without words)."""
        enc = self._encoded.get(n)
        if enc is None:
            enc = self._encoded[n] = self._decode_codes(n)
        return enc

    def _decode_codes(self, n: int) -> Encoded:
        size = len(self.meta.alphabet)
        if n not in self.meta.lengths:
            empty = np.zeros((0, n), dtype=code_dtype(size))
            return Encoded(np.zeros(0, dtype=np.int64), empty, empty.astype(np.uint8), size)
        ids = np.frombuffer(self.family("by_length")[n].to_array(),
                            dtype=np.uint32).astype(np.int64)
        raw = self._read(f"codes:{n}")
        assert isinstance(raw, bytes)
        codes = np.frombuffer(raw, dtype=code_dtype(size)).reshape(len(ids), n)
        if codes.size and int(codes.max()) >= size:
            raise self.corrupt(f"the encoded words of length {n} are damaged")
        return Encoded(ids, codes, first_positions(codes), size)

    # -- invariants -----------------------------------------------------------------------

    def _check(self) -> None:
        """Verify the invariants of the class docstring on the sections in memory (reads
        nothing)."""
        meta, n = self.meta, self.meta.words
        keys = set(self.keys())
        assert set(self._values) <= keys, f"unknown sections {set(self._values) - keys}"
        if self._source is None:
            assert self.loaded() == self.keys(), "a built index lacks a section"
        if "counts" in self._values:
            assert len(self.counts()) == n, "counts and word count differ"
        if self._words is not None:
            assert len(self._words) == n, "word list and word count differ"
            if "words" in self._values:
                assert self._values["words"] == "\n".join(self._words).encode(), "word bytes"
        if self._ends is not None:
            assert len(self._ends) == n, "word ends and word count differ"
        if "order" in self._values:
            order = self._values["order"]
            assert isinstance(order, tuple) and len(order) == 2, "order"
            for ids in order:
                assert len(ids) == (4 * n if isinstance(ids, bytes) else n), "order size"
        for key in (*FAMILIES, "classes"):
            if key in self._values:
                assert isinstance(self._values[key], BitmapFamily), f"{key} is no family"
        if "by_length" in self._values:
            lengths = self.family("by_length")
            assert {k: lengths.cardinality(k) for k in lengths} == meta.lengths, "by_length"
        groups = self._values.get("lemmas")
        if groups is not None:
            assert isinstance(groups, np.ndarray) and len(groups) == n, "lemma groups"
        for length, enc in self._encoded.items():
            rows = meta.lengths.get(length, 0)
            assert enc.codes.shape == (rows, length) and len(enc.ids) == rows, \
                f"encoded words of length {length}"

