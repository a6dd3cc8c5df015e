"""The rack solver: every dictionary word a rack of tiles can build.

Rules
-----
A word is playable from a rack when some tiling of it into faces of the tile
set (see :mod:`cryptocomp.tiles`) uses each face no more often than the rack
holds it, the shortfall being covered by the rack's blanks (a blank plays any
one face).  Not every tile need be used.  A play scores the sum of the values
of the real tiles it uses (blanks score 0); when several tilings fit, the
best-scoring one counts (ties: fewer blanks, then the first tiling).  Blanks
play exactly the shortfall, so they never displace a real tile.  Plays are
ranked by score (descending), then by word frequency (the index's ids).

How
---
The index's letter-count bitmaps answer "at least k of letter c" (the ``at_least``
and ``having`` families); scores come from the index's encoded words
(:meth:`cryptocomp.index.Index.encoded`), letter counts of the candidates only.  A word's
*deficit* is ``sum over letters c of max(0, count_c(word) - have_c)``; a word
is playable (single-letter tile sets) exactly when its deficit is at most the
number of blanks ``b``.  Each set ``at_least(c, have_c + j)`` (j = 1, 2, ...)
holds the words with at least j units of deficit in c, so counting how many of
these sets hold a word, with ``b + 1`` running unions (``S_j`` = deficit >= j),
gives ``all - S_{b+1}``: the playable words, with no word-by-word check.  With
multi-letter tiles the same count over characters (threshold ``b`` times the
longest face) gives a superset, and every candidate's tilings are then checked.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable, Iterator, Sequence
from functools import partial
from typing import NamedTuple, overload

import numpy as np
from pyroaring import FrozenBitMap

from ..domain import Word
from ..index import Encoded
from ..index.alphabet import spell
from ..index.classes import DEFAULTS
from ..index.index import Index
from ..index.wordfilter import ALL_WORDS, WordFilter, select
from .tiles import BLANK, Face, Rack, TileSet, Tiling, show_tiles, tileset

__all__ = ["Play", "Plays", "RackSolver", "rack_words", "play_of", "Word", "Score"]

log = logging.getLogger(__name__)

Score = int
Poll = Callable[[int], None]  # told how many words were just handled; may raise to stop
_EMPTY = FrozenBitMap()


class Play(NamedTuple):
    """A playable word: its tiling, the faces its blanks play, its score and frequency."""

    word: Word
    score: Score
    tiles: Tiling
    blanks: tuple[Face, ...]
    count: int  # type: ignore[assignment]  # the field shadows tuple.count()
    id: int

    @property
    def rank(self) -> int:
        return self.id + 1

    def display(self) -> str:
        """The word in tiles (see :func:`cryptocomp.tiles.show_tiles`)."""
        return show_tiles(self.tiles, self.blanks)

    def to_json(self) -> dict:
        """The play as a JSON object (what ``rack --json`` prints, one per play)."""
        return {"word": self.word, "score": self.score, "tiles": list(self.tiles),
                "blanks": list(self.blanks), "shown": self.display(), "count": self.count,
                "rank": self.rank}


def play_of(word: Word, rack: Rack, tiles: TileSet, *, count: int = 0, id: int = -1) -> Play | None:
    """The best play of ``word`` from ``rack`` (the rules above), or None if unplayable."""
    best: Play | None = None
    have = rack.counts
    values = tiles.values
    for tiling in tiles.tilings(word):
        need: dict[Face, int] = {}
        for f in tiling:
            need[f] = need.get(f, 0) + 1
        score = 0
        blanks: list[Face] = []
        for f, n in need.items():
            h = have.get(f, 0)
            if n > h:
                blanks.extend([f] * (n - h))
                n = h
            score += n * values[f]
        if len(blanks) > rack.blanks:
            continue
        if best is None or (score, -len(blanks)) > (best.score, -len(best.blanks)):
            best = Play(word, score, tiling, tuple(sorted(blanks)), count, id)
    return best


class RackSolver:
    """Rack queries on one index with one tile set (holds what both share)."""

    def __init__(self, tiles: TileSet | str, index: Index, words: WordFilter = ALL_WORDS):
        self.tiles = tileset(tiles)
        self.index = index
        self._words = select(index, words)  # the words a rack may play (the filter's)
        alphabet = index.alphabet
        written = {c: self.tiles.letter(c) for c in alphabet}
        # words with a letter the set cannot write (by its spelling rules) never play
        self._unspellable = FrozenBitMap.union(
            _EMPTY, *(index.having(c) for c, w in written.items() if w is None))
        # the characters the tiles show, each with the alphabet letters written with it and
        # how often (French e <- e, é, è, ê, ë; German s <- s, ß twice): words are counted
        # in these characters, as written in the tiles
        self._sources: dict[str, dict[str, int]] = {}
        for c, w in written.items():
            for ch in w or "":
                self._sources.setdefault(ch, {})
                self._sources[ch][c] = self._sources[ch].get(c, 0) + 1
        self.letters = sorted(self._sources)  # the counted characters
        self._identity = all(w in (None, c) for c, w in written.items())
        # alphabet letter counts -> character counts: columns when every letter is written
        # as itself, else a small matrix product
        self._columns = np.array([alphabet.index(c) for c in self.letters], dtype=np.int64) \
            if self._identity else None
        self._fold = np.zeros((len(alphabet), len(self.letters)), dtype=np.int16)
        for a, c in enumerate(alphabet):
            for ch in written[c] or "":
                self._fold[a, self.letters.index(ch)] += 1
        self._longest_face = max(len(f) for f in self.tiles.counts)
        self._exact = not self.tiles.multi_letter
        # multi-letter sets whose every multi-letter face is tile-only (Spanish CH LL RR,
        # Catalan L·L NY QU), each letter written as one character: a word has at most one
        # tiling, found by counting the faces' occurrences, so racks score like single-letter
        # sets, on face counts (word by word they took seconds)
        multi = [f for f in self.tiles.counts if len(f) > 1]
        self._forced = multi if multi and set(multi) <= self.tiles.spelling.tile_only else None
        # words with a letter written as several characters (Catalan ŀ as l·) are tiled
        # word by word, as in the other multi-letter sets
        self._several = FrozenBitMap.union(
            _EMPTY, *(index.having(c) for c, w in written.items() if w and len(w) > 1))
        self._faces = sorted(self.tiles.counts)  # face-count columns, in sorted order
        # per alphabet letter, the character it is written as (-1: none, or several)
        self._written_code = np.array([self.letters.index(w) if w and len(w) == 1 else -1
                                       for w in written.values()], dtype=np.int64)
        # per alphabet letter, the first character it is written with (-1: none; a written
        # form is never empty)
        self._first_code = np.array([self.letters.index(w[0]) if w else -1
                                     for w in written.values()], dtype=np.int64)
        longest_first = sorted(multi, key=len, reverse=True)
        self._split = re.compile("".join(re.escape(f) + "|" for f in longest_first) + ".",
                                 re.S).findall  # a forced tiling, from the written word

    def _chars(self, enc: Encoded, rows: np.ndarray | slice = slice(None),
               fold: np.ndarray | None = None) -> np.ndarray:
        """Counts of :attr:`letters` (as written in the tiles) in rows ``rows`` of ``enc``;
        with ``fold`` (columns of ``self._fold``), of those characters only."""
        fold = self._fold if fold is None else fold
        try:
            counts = enc.letter_counts()[rows]
        except ValueError:  # an alphabet too large for a whole letter-count matrix (Chinese):
            codes = enc.codes[rows]  # count only the letters the tiles can write
            out = np.zeros((len(codes), fold.shape[1]), dtype=np.int16)
            for a in np.flatnonzero(fold.any(axis=1)).tolist():
                out += (codes == a).sum(axis=1, dtype=np.int16)[:, None] * fold[a]
            return out
        if self._columns is not None and fold is self._fold:
            return counts[:, self._columns]
        used = np.flatnonzero(fold.any(axis=1))  # the letters written with these characters
        return counts[:, used] @ fold[used]

    def _at_least(self, ch: str, k: int, poll: Poll | None = None) -> FrozenBitMap:
        """Ids of the words whose written form has at least ``k`` of character ``ch``."""
        sources = self._sources[ch]
        if sources == {ch: 1}:  # written as itself alone: the index knows
            return self.index.at_least(ch, k)

        def compute() -> FrozenBitMap:
            ids, counts = self._written_count(ch, poll)
            return FrozenBitMap(ids[counts >= k].astype(np.uint32))

        # kept with the index, like its own bitmaps: a solver is made for every query
        return self.index.derived(("rack:at-least", tuple(sorted(sources.items())), k), compute)

    def _written_count(self, ch: str, poll: Poll | None = None
                       ) -> tuple[np.ndarray, np.ndarray]:
        """(ids, how often ``ch`` occurs written) of every word, kept with the index."""
        def compute() -> tuple[np.ndarray, np.ndarray]:
            fold = self._fold[:, [self.letters.index(ch)]]
            ids, counts = [], []
            for n in self.index.lengths():
                enc = self.index.encoded(n)
                ids.append(enc.ids)
                counts.append(self._chars(enc, fold=fold)[:, 0])
                if poll is not None:  # the first count of a length reads all its words
                    poll(len(enc.ids))
            return np.concatenate(ids), np.concatenate(counts)

        return self.index.derived(("rack:written", tuple(sorted(self._sources[ch].items()))),
                                  compute)

    def candidates(self, rack: Rack, *, poll: Poll | None = None) -> FrozenBitMap:
        """Ids of words whose character deficit against the rack is small enough: exactly the
        playable words for single-letter sets, a superset otherwise.  ``poll(words)`` hears
        of the words counted on the way (it may raise to stop)."""
        have: dict[str, int] = {}
        for face, n in rack.counts.items():
            for c in face:
                have[c] = have.get(c, 0) + n
        limit = rack.blanks * self._longest_face
        if limit == 0:
            over = FrozenBitMap.union(_EMPTY, *(self._at_least(c, have.get(c, 0) + 1, poll)
                                                for c in self.letters))
        else:
            # running[j]: words with at least j + 1 units of deficit so far
            running = [_EMPTY] * (limit + 1)
            for c in self.letters:
                h = have.get(c, 0)
                for j in range(1, limit + 2):
                    units = self._at_least(c, h + j, poll)
                    if not units:
                        break
                    for k in range(limit, 0, -1):
                        if running[k - 1]:
                            running[k] = running[k] | (running[k - 1] & units)
                    running[0] = running[0] | units
            over = running[limit]
        return self._words - over - self._unspellable

    def solve(self, rack: Rack | str, *, max_results: int | None = None) -> Plays:
        """Every playable word, best score first (ties: more frequent first); the first
        ``max_results`` of them when given."""
        if isinstance(rack, str):
            rack = self.tiles.parse_rack(rack)
        else:
            self.tiles.parse_rack(_faces(rack))  # the same checks as for text
        ids = self.candidates(rack)
        built: list[Play] | None = None
        if self._exact:
            order, scores = self._score_exact(ids, rack)
        elif self._forced and not (ids & self._several):
            order, scores = self._score_forced(ids, rack)
        elif self._forced:  # counted, and the few words with a letter written as several
            fast, slow = self._score_forced(ids - self._several, rack), \
                self._score_tilings(ids & self._several, rack)[1:]
            order, scores = (np.concatenate(pair) for pair in zip(fast, slow))
            ranked = np.lexsort((order, -scores))
            order, scores = order[ranked], scores[ranked]
        else:  # scored by building every play: keep them
            built, order, scores = self._score_tilings(ids, rack)
        if max_results is not None:
            keep = max(0, max_results)
            order, scores = order[:keep], scores[:keep]
            built = built[:keep] if built is not None else None
        return Plays(self, rack, order, scores, built)

    def _score_tilings(self, ids: FrozenBitMap, rack: Rack
                       ) -> tuple[list[Play], np.ndarray, np.ndarray]:
        """Every play of ``ids`` built word by word (all tilings tried), ranked."""
        words, counts = self.index.words, self.index.counts
        built = [p for p in (play_of(words[i], rack, self.tiles, count=counts[i], id=i)
                             for i in ids) if p is not None]
        built.sort(key=lambda p: (-p.score, p.id))
        order = np.fromiter((p.id for p in built), dtype=np.int64, count=len(built))
        scores = np.fromiter((p.score for p in built), dtype=np.int64, count=len(built))
        return built, order, scores

    def plays(self, rack: Rack, ids: np.ndarray, scores: np.ndarray) -> list[Play]:
        """The plays of words ``ids`` (with their ``scores``) from ``rack``, built together.

        For single-letter sets every play has one tiling and its blanks are the shortfall
        of its letter counts, so a batch of plays comes from one matrix operation, not from
        :func:`play_of` word by word (which cost 25 us a play: 0.15 s CPU for the 20,000
        plays of a 15-tile rack with two blanks)."""
        words, counts = self.index.words, self.index.counts
        chosen_ids = FrozenBitMap(ids.astype(np.uint32))
        if not self._exact and (not self._forced or chosen_ids & self._several):
            out = [play_of(words[i], rack, self.tiles, count=counts[i], id=i)
                   for i in ids.tolist()]
            assert all(p is not None for p in out), "rack scoring disagrees"
            return out  # type: ignore[return-value]
        if self._exact:
            rows, matrix = self.letter_counts(chosen_ids)
            columns = self.letters
        else:
            rows, matrix, _ = self._face_counts(chosen_ids)
            columns = self._faces
        have = np.array([rack.counts.get(c, 0) for c in columns], dtype=np.int16)
        short = np.maximum(matrix[np.searchsorted(rows, ids)] - have, 0)
        id_list = ids.tolist()
        chosen = [words[i] for i in id_list]
        if self._forced:
            # every chosen word is playable, so the tile set writes it (never None)
            tilings = map(tuple, map(self._split, map(self.tiles.write, chosen)))  # type: ignore[arg-type]
        else:
            tilings = map(tuple, chosen if self._identity else map(self.tiles.write, chosen))
        # tuple.__new__ of the named tuple: the loop stays in C (about a microsecond a play)
        return list(map(partial(tuple.__new__, Play),
                        zip(chosen, scores.tolist(), tilings, self._blanks(short, columns),
                            [counts[i] for i in id_list], id_list)))

    def _blanks(self, short: np.ndarray, letters: list[str]) -> list[tuple[Face, ...]]:
        """Per row of shortfalls (rows: plays; columns: ``letters``, sorted), the sorted faces
        the blanks play; a row's faces are coded as one number, and each distinct code (a few
        hundred at most) is turned into a tuple once."""
        if not len(short):
            return []
        rows, cols = np.nonzero(short)
        reps = short[rows, cols].astype(np.int64)
        rows, cols = np.repeat(rows, reps), np.repeat(cols, reps)  # row-major: cols sorted
        base = len(letters) + 1
        if base ** int(short.sum(axis=1).max()) >= 2 ** 62:  # codes would overflow
            out: list[list[Face]] = [[] for _ in range(len(short))]
            for row, col in zip(rows.tolist(), cols.tolist()):
                out[row].append(letters[col])
            return list(map(tuple, out))
        position = np.arange(len(rows)) - np.searchsorted(rows, rows)
        code = np.zeros(len(short), dtype=np.int64)
        np.add.at(code, rows, (cols + 1) * base ** position)
        distinct, which = np.unique(code, return_inverse=True)
        shapes = []
        for c in distinct.tolist():
            faces = []
            while c:
                c, digit = divmod(c, base)
                faces.append(letters[digit - 1])
            shapes.append(tuple(faces))
        return list(map(shapes.__getitem__, which.tolist()))

    def letter_counts(self, ids: FrozenBitMap, longest: int | None = None
                      ) -> tuple[np.ndarray, np.ndarray]:
        """(word ids ascending, int16 matrix): how often each word has each of
        :attr:`letters`, from the index's encoded words (only those of ``ids``, at most
        ``longest`` letters long)."""
        rows, blocks = [np.zeros(0, dtype=np.int64)], [np.zeros((0, len(self.letters)), np.int16)]
        for sub, counts in self._blocks(ids, longest):
            rows.append(sub)
            blocks.append(counts)
        order = np.argsort(np.concatenate(rows), kind="stable")
        return np.concatenate(rows)[order], np.concatenate(blocks)[order]

    def _by_length(self, ids: FrozenBitMap, longest: int | None
                   ) -> Iterator[tuple[int, Encoded, np.ndarray, np.ndarray]]:
        """(length, encoded words of that length, ids of ``ids`` among them, their rows in
        the encoded words), one length at a time up to ``longest``."""
        for n in self.index.lengths():
            if longest is not None and n > longest:
                break
            sub = ids & self.index.by_length(n)
            if not sub:
                continue
            enc = self.index.encoded(n)
            sub_ids = np.frombuffer(sub.to_array(), dtype=np.uint32).astype(np.int64)
            yield n, enc, sub_ids, np.searchsorted(enc.ids, sub_ids)

    def _blocks(self, ids: FrozenBitMap, longest: int | None
                ) -> Iterator[tuple[np.ndarray, np.ndarray]]:
        """(ids, counts of :attr:`letters`) of the words of ``ids``, one length at a time;
        the letter counts of a length are computed once and kept by the index's encoded
        words."""
        for _, enc, sub_ids, at in self._by_length(ids, longest):
            yield sub_ids, self._chars(enc, at)

    def written_blocks(self, ids: FrozenBitMap, longest: int | None = None
                       ) -> Iterator[tuple[np.ndarray, np.ndarray, np.ndarray]]:
        """(ids, counts of :attr:`letters`, the first character's place in :attr:`letters`)
        of the words of ``ids`` as written in the tiles, one word length at a time (ids
        ascending within a length), as :meth:`letter_counts` counts them."""
        for _, enc, sub_ids, at in self._by_length(ids, longest):
            yield sub_ids, self._chars(enc, at), self._first_code[enc.codes[at, 0]]

    def _face_counts(self, ids: FrozenBitMap, longest: int | None = None
                     ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(word ids ascending, face counts (columns: the sorted faces), valid) of the words
        of ``ids`` in a set whose tilings are forced: each tile-only face where its letters
        occur, every other letter a tile of its own.  A word is not valid when two
        occurrences overlap (llll) or a letter that is no face of its own is left over
        (Catalan y outside ny)."""
        rows_all, faces_all, valid_all = [np.zeros(0, dtype=np.int64)], [], []
        width = len(self._faces)
        face_column = {f: j for j, f in enumerate(self._faces)}
        letter_code = {c: j for j, c in enumerate(self.letters)}
        for n, enc, sub_ids, rows in self._by_length(ids, longest):
            written = self._written_code[enc.codes[rows]]
            m = len(sub_ids)
            chars = self._chars(enc, rows).astype(np.int16)
            faces = np.zeros((m, width), dtype=np.int16)
            inside = np.zeros((m, n), dtype=bool)  # a position inside an occurrence
            valid = np.ones(m, dtype=bool)
            starts = []
            for f in self._forced:  # type: ignore[union-attr]
                if len(f) > n or any(ch not in letter_code for ch in f):
                    continue  # no word of this index holds it
                span = n - len(f) + 1
                at = np.ones((m, span), dtype=bool)
                for k, ch in enumerate(f):
                    at &= written[:, k:k + span] == letter_code[ch]
                for d in range(1, len(f)):
                    inside[:, d:d + span] |= at
                starts.append((f, at))
            for f, at in starts:
                valid &= ~(at & inside[:, :at.shape[1]]).any(axis=1)
                occurrences = at.sum(axis=1, dtype=np.int16)
                faces[:, face_column[f]] = occurrences
                for ch in f:
                    chars[:, letter_code[ch]] -= occurrences
            for ch, j in letter_code.items():
                if ch in face_column:
                    faces[:, face_column[ch]] = chars[:, j]
                else:  # only ever part of a multi-letter face
                    valid &= chars[:, j] == 0
            rows_all.append(sub_ids)
            faces_all.append(faces)
            valid_all.append(valid)
        order = np.argsort(np.concatenate(rows_all), kind="stable")
        faces = np.concatenate(faces_all) if faces_all else np.zeros((0, width), np.int16)
        valid = np.concatenate(valid_all) if valid_all else np.zeros(0, dtype=bool)
        return np.concatenate(rows_all)[order], faces[order], valid[order]

    def _score_forced(self, ids: FrozenBitMap, rack: Rack) -> tuple[np.ndarray, np.ndarray]:
        # forced tilings: a valid word plays when its face shortfall is at most the blanks,
        # and scores the values of min(count, have) per face
        values = np.array([self.tiles.values[f] for f in self._faces], dtype=np.int64)
        have = np.array([rack.counts.get(f, 0) for f in self._faces], dtype=np.int16)
        rows, faces, valid = self._face_counts(ids, rack.size * self._longest_face)
        fits = valid & (np.maximum(faces - have, 0).sum(axis=1) <= rack.blanks)
        rows, scores = rows[fits], np.minimum(faces[fits], have) @ values
        order = np.lexsort((rows, -scores))
        return rows[order], scores[order]

    def _score_exact(self, ids: FrozenBitMap, rack: Rack) -> tuple[np.ndarray, np.ndarray]:
        # single-letter faces: every candidate is playable, with one tiling; blanks cover
        # exactly the shortfall, so a word scores the values of min(count, have) per
        # character as written (candidates hold no letter the tiles cannot write)
        values = np.array([self.tiles.values.get(c, 0) for c in self.letters], dtype=np.int64)
        have = np.array([rack.counts.get(c, 0) for c in self.letters], dtype=np.int16)
        rows, scores = [np.zeros(0, dtype=np.int64)], [np.zeros(0, dtype=np.int64)]
        # no word is longer than the rack (a letter is written as one character or more)
        for sub, counts in self._blocks(ids, rack.size):
            rows.append(sub)
            scores.append(np.minimum(counts, have) @ values)
        ids_all, scores_all = np.concatenate(rows), np.concatenate(scores)
        order = np.lexsort((ids_all, -scores_all))
        return ids_all[order], scores_all[order]


class Plays(Sequence[Play]):
    """The plays of one rack, ranked; the :class:`Play` objects are built when read, a batch
    at a time (see :meth:`RackSolver.plays`)."""

    __slots__ = ("solver", "rack", "ids", "scores", "_built")

    def __init__(self, solver: RackSolver, rack: Rack, ids: np.ndarray, scores: np.ndarray,
                 built: list[Play] | None = None):
        self.solver = solver
        self.rack = rack
        self.ids = ids
        self.scores = scores
        self._built = built  # multi-letter sets: every play, built while scoring

    def __len__(self) -> int:
        return len(self.ids)

    @overload
    def __getitem__(self, i: int) -> Play: ...

    @overload
    def __getitem__(self, i: slice) -> list[Play]: ...

    def __getitem__(self, i: int | slice) -> Play | list[Play]:
        if isinstance(i, slice):
            start, stop, step = i.indices(len(self))
            if step != 1:
                return [self[j] for j in range(start, stop, step)]
            return self._build(start, max(start, stop))
        if i < 0:
            i += len(self)
        if not 0 <= i < len(self):
            raise IndexError(i)
        return self._build(i, i + 1)[0]

    def __iter__(self) -> Iterator[Play]:
        for start in range(0, len(self), _BATCH):
            yield from self._build(start, min(start + _BATCH, len(self)))

    def _build(self, start: int, stop: int) -> list[Play]:
        if self._built is not None:
            return self._built[start:stop]
        return self.solver.plays(self.rack, self.ids[start:stop], self.scores[start:stop])

    def __repr__(self) -> str:
        head = ", ".join(p.word for p in self[:5])
        return f"<Plays {len(self)}: {head}{', ...' if len(self) > 5 else ''}>"


_BATCH = 4096  # plays built at a time when iterating

def _faces(rack: Rack) -> list[Face]:
    return [f for f, n in rack.counts.items() for _ in range(n)] + [BLANK] * rack.blanks


def rack_words(rack: Rack | str | Sequence[Face], tiles: TileSet | str, index: Index, *,
               max_results: int | None = None, words: WordFilter = ALL_WORDS) -> Plays:
    """Every word of ``index`` passing ``words`` (a filter naming no word classes takes
    ``DEFAULTS["rack"]``, dictionary words) playable from ``rack`` with ``tiles``, best
    score first (the first ``max_results`` when given)."""
    tiles = tileset(tiles)
    if isinstance(rack, str):
        rack = spell(rack, fold_yo=index.fold_yo)  # a rack's ё as the words spell it
    elif not isinstance(rack, Rack):
        rack = tiles.parse_rack([spell(face, fold_yo=index.fold_yo) for face in rack])
    # a solver costs a few bitmap unions: the index keeps the encoded words it scores from
    return RackSolver(tiles, index, words.with_classes(DEFAULTS["rack"])).solve(
        rack, max_results=max_results)
