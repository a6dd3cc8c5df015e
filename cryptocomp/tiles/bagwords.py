"""The whole bag's candidate words: the dictionary's tilings that fit the bag, by length.

A candidate is a tiling with its first face, standing for every word of the same face
multiset and first face (anagrams are one candidate to the search, :mod:`.bagsearch`).
For single-letter sets the candidates come from the index's letter counts as arrays,
grouped by sorting, and a candidate's tiling and words are made only when the search
takes it: on the Russian list (647,571 words that fit the bag, 605,724 candidates) making
them all took most of the 17 s the search spent before its first node.  Multi-letter
sets tile word by word.  Either way the clock is read every :data:`CLOCK_WORDS` words (a
tiled word counting :data:`TILED_WORD` times), so that a time limit covers the
preparation too.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import numpy as np

from ..domain import Word
from ..index.index import Index
from ..index.wordfilter import ALL_WORDS, WordFilter
from .tiles import TileSet, Tiling

if TYPE_CHECKING:
    from pyroaring import FrozenBitMap

    from .rack import RackSolver

__all__ = ["Candidate", "Phase", "BagWords", "CLOCK_WORDS", "TILED_WORD"]

# words prepared between two looks at the clock: about 30 ms of work on the 2-core
# machine, and more than a small list holds, so that tiny bags never read it here
CLOCK_WORDS = 10_000
# a word tiled one by one costs as much as this many words counted from arrays (Spanish,
# 317,040 words tiled: 24 s, 75 us a word; Russian, 647,571 counted: 2.0 s, 3 us a word)
TILED_WORD = 25
# counts packed 5 bits each (a word of at most 31 tiles) into int64 columns for sorting
_PER_COLUMN = 12


class _Late(Exception):
    """The time ran out while the rack solver counted letters."""


class Candidate:
    """A tiling of dictionary words as the search sees it (anagrams with one first face)."""

    __slots__ = ("tiling", "counts", "first", "value", "length", "words")

    def __init__(self, tiling: Tiling, counts: tuple[int, ...], first: int, value: int):
        self.tiling = tiling
        self.counts = counts
        self.first = first
        self.value = value
        self.length = len(tiling)
        self.words: list[Word] = []


class Phase:
    """The candidates of one length as arrays: face counts, first face, bit masks, value;
    sorted by first face (then value, highest first).  ``cand(row)`` is row's
    :class:`Candidate`, made on first use by ``make`` from the row's entry of ``keys``
    (given in the order of ``counts``)."""

    def __init__(self, counts: np.ndarray, first: np.ndarray, value: np.ndarray,
                 keys: np.ndarray, make: Callable[[int], Candidate]):
        n_faces = counts.shape[1]
        order = np.lexsort((-value, first))
        self.counts = counts[order]
        self.first = first[order]
        self.value = value[order]
        self._keys = keys[order]
        self._make = make
        self._made: dict[int, Candidate] = {}
        self.first_bit = np.left_shift(np.int64(1), self.first)
        weights = np.left_shift(np.int64(1), np.arange(n_faces, dtype=np.int64))
        self.present = (self.counts > 0).astype(np.int64) @ weights
        self.all_rows = np.arange(len(order))

    def __len__(self) -> int:
        return len(self.all_rows)

    def cand(self, row: int) -> Candidate:
        """The candidate of row ``row``."""
        return self.candidate(int(self._keys[row]))

    def candidate(self, key: int) -> Candidate:
        """The candidate ``make(key)`` gives, made once."""
        made = self._made.get(key)
        if made is None:
            made = self._made[key] = self._make(key)
        return made


class BagWords:
    """Every candidate of the bag in words of at most ``longest`` tiles, as phases by length
    (:attr:`phases`, :attr:`lengths` longest first), the first faces of each length
    (:attr:`firsts`) and one candidate per (length, first face) (:meth:`any_of`).
    ``out_of_time()`` is asked every :data:`CLOCK_WORDS` words; when it says yes the
    preparation stops and :attr:`complete` is False."""

    def __init__(self, ts: TileSet, index: Index, faces: list, longest: int,
                 out_of_time: Callable[[], bool], words: WordFilter = ALL_WORDS):
        from .rack import RackSolver

        self.ts, self.index, self.L = ts, index, longest
        self.faces = faces
        self.code = {f: i for i, f in enumerate(faces)}
        self.values = np.array([ts.values[f] for f in faces], dtype=np.int64)
        self.bag = np.array([ts.counts[f] for f in faces], dtype=np.int16)
        self._out_of_time = out_of_time
        self._since = 0  # words prepared since the clock was last read
        self.complete = True
        self.phases: dict[int, Phase] = {}
        self.firsts: dict[int, int] = {}  # length -> bit mask of the first faces of its words
        self._any: dict[tuple[int, int], int] = {}  # -> its key in the phase
        self.count = 0
        self.lengths: list[int] = []
        solver = RackSolver(ts, index, words)
        # the words the whole bag can spell (exactly so for single-letter faces, a superset
        # otherwise); sets that fold letters count them first, word length by word length
        try:
            ids = solver.candidates(ts.bag(), poll=self._stop_when_late) & index.by_lengths(
                1, longest * max(len(f) for f in ts.counts))
        except _Late:
            return
        if ts.multi_letter:
            self._tilings(ids)
        else:
            self._letters(ids, solver)
        self.lengths = sorted(self.phases, reverse=True)

    def _stop_when_late(self, words: int) -> None:
        """The rack solver's poll: stop it (:class:`_Late`) when the time ran out."""
        if self._tick(words):
            raise _Late

    def _tick(self, words: int) -> bool:
        """Count ``words`` prepared; True when the time ran out (looked at now and then)."""
        self._since += words
        if self._since >= CLOCK_WORDS:
            self._since = 0
            if self._out_of_time():
                self.complete = False
        return not self.complete

    def any_of(self, length: int, first: int) -> Candidate:
        """The first candidate (in the order of preparation) of ``length`` tiles starting
        with face ``first``."""
        return self.phases[length].candidate(self._any[length, first])

    # -- single-letter sets ---------------------------------------------------------------

    def _letters(self, ids: FrozenBitMap, solver: RackSolver) -> None:
        """Single-letter faces: counts straight from the index's letter counts, grouped by
        (counts, first face) with one sort a length."""
        code = np.array([self.code[c] for c in solver.letters], dtype=np.int64)
        by_length: dict[int, list[tuple[np.ndarray, np.ndarray, np.ndarray]]] = {}
        for sub, chars, first in solver.written_blocks(ids):
            counts = np.zeros((len(sub), len(self.faces)), dtype=np.int16)
            counts[:, code] = chars
            # a word as written in the tiles (accents folded, ß as ss) may be longer
            length = counts.sum(axis=1)
            for ell in np.unique(length).tolist():
                if ell <= self.L:
                    pick = length == ell
                    by_length.setdefault(ell, []).append(
                        (sub[pick], counts[pick], code[first[pick]]))
            if self._tick(len(sub)):
                return
        for ell in sorted(by_length, reverse=True):
            parts = by_length.pop(ell)
            rows = np.concatenate([p[0] for p in parts])
            order = np.argsort(rows, kind="stable")  # frequency order, as the words come
            self._group(ell, rows[order], np.concatenate([p[1] for p in parts])[order],
                        np.concatenate([p[2] for p in parts])[order])
            if self._tick(len(rows)):
                return

    def _group(self, ell: int, rows: np.ndarray, counts: np.ndarray, first: np.ndarray) -> None:
        """The phase of the ``ell``-tile words ``rows`` (ascending), with their face counts and
        first faces: one candidate per (counts, first face), its words in frequency order."""
        # pack each row into a few int64 columns and sort them together, far quicker than
        # np.unique(axis=0)
        columns = [first.astype(np.int64)]
        for start in range(0, len(self.faces), _PER_COLUMN):
            block = counts[:, start:start + _PER_COLUMN].astype(np.int64)
            columns.append(block @ (np.int64(1) << (5 * np.arange(block.shape[1],
                                                                  dtype=np.int64))))
        order = np.lexsort(columns[::-1])
        packed = np.column_stack(columns)[order]
        new_group = np.r_[True, (packed[1:] != packed[:-1]).any(1)]
        heads = order[new_group]
        members = rows[order]  # each group's words, in frequency order
        starts = np.flatnonzero(new_group)
        ends = np.r_[starts[1:], len(order)]
        head_counts = counts[heads]
        values = head_counts.astype(np.int64) @ self.values
        group_first = first[heads].astype(np.int64)
        words, write = self.index.words, self.ts.write

        def make(g: int) -> Candidate:
            # every row is a word the tile set writes (the rack solver found it playable)
            cand = Candidate(tuple(write(words[int(members[starts[g]])])), (),  # type: ignore[arg-type]
                             int(group_first[g]), int(values[g]))
            cand.words = [words[i] for i in members[starts[g]:ends[g]].tolist()]
            return cand

        keys = np.arange(len(heads))
        self._keep(ell, Phase(head_counts, group_first, values, keys, make), group_first, keys)

    # -- multi-letter sets ----------------------------------------------------------------

    def _tilings(self, ids: FrozenBitMap) -> None:
        """Multi-letter faces: every tiling of every word, checked against the bag."""
        ts, code, nf = self.ts, self.code, len(self.faces)
        bag = self.bag.tolist()
        values = self.values.tolist()
        by_key: dict[tuple, Candidate] = {}
        for k, word in enumerate(map(self.index.words.__getitem__, ids)):
            if k % 1000 == 999 and self._tick(1000 * TILED_WORD):
                return
            for tiling in ts.tilings(word):
                if len(tiling) > self.L:
                    continue
                counts = [0] * nf
                for f in tiling:
                    counts[code[f]] += 1
                if sum(n - h for n, h in zip(counts, bag) if n > h) > ts.blanks:
                    continue
                key = (tuple(counts), code[tiling[0]])
                cand = by_key.get(key)
                if cand is None:
                    value = sum(n * v for n, v in zip(counts, values))
                    cand = by_key[key] = Candidate(tiling, key[0], key[1], value)
                cand.words.append(word)
        cands = list(by_key.values())
        length = np.array([c.length for c in cands], dtype=np.int64)
        for ell in sorted(set(length.tolist()), reverse=True):
            pick = np.flatnonzero(length == ell)
            chosen = [cands[i] for i in pick.tolist()]
            matrix = np.array([c.counts for c in chosen], dtype=np.int16).reshape(len(pick), nf)
            first = np.array([c.first for c in chosen], dtype=np.int64)
            value = np.array([c.value for c in chosen], dtype=np.int64)
            self._keep(ell, Phase(matrix, first, value, pick, cands.__getitem__), first, pick)

    def _keep(self, ell: int, phase: Phase, group_first: np.ndarray, keys: np.ndarray) -> None:
        """Keep ``phase`` (of ``ell`` tiles), whose candidates in preparation order have
        the keys ``keys`` and start with ``group_first``: its first faces and, per first
        face, its first candidate."""
        self.phases[ell] = phase
        self.count += len(phase)
        faces, at = np.unique(group_first, return_index=True)
        self.firsts[ell] = int(np.bitwise_or.reduce(np.left_shift(np.int64(1), faces),
                                                    initial=0))
        for f, k in zip(faces.tolist(), at.tolist()):
            self._any[ell, f] = int(keys[k])
