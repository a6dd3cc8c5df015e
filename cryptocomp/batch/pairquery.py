"""A batch query ``a OP b`` (two words, OP one of ``+ - *``): one compiled enumeration.

:func:`cryptocomp.cryptarithm.compose.compose_alike` enumerates the digit assignments of
alike puzzles in numpy blocks and joins each block's keys against the candidates' keys.
A batch's queries are all two words and an operator, so here the enumeration is one
compiled loop over the assignments, letter by letter (each level adds the letter's share
of ``a`` and ``b``), and each assignment's key is probed in an open-addressing table of
the candidates' keys of every query of the shape, after a one-hash Bloom filter of those
keys has turned most assignments away (a filter bit costs one cache line, a table probe
more).

Keys are the composer's, read from the units up: position r of the unknown's value
``x`` (r = 0 the units) is labelled with the number of the puzzle's letter holding its
digit, else ``10 + `` the first position from the units where that digit is seen; a
candidate word's key labels its letters the same way from its last letter.  A word
completes the puzzle under an assignment exactly when the two keys are equal (and then
in one way), so counting the assignments per key gives each word's number of
solutions.  The tests compare every result with
:func:`~cryptocomp.cryptarithm.compose.compose_alike` on random batches.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..cryptarithm.candidates import candidate_ids
from ..cryptarithm.compose import Composed
from ..cryptarithm.evaluation import unknown_span
from ..cryptarithm.expr import BinOp, Hole, Operand, Puzzle
from ..index.classes import DEFAULTS
from ..index.index import Index
from ..index.wordfilter import ALL_WORDS, WordFilter
from ..jitcache import compiled

__all__ = ["ColumnForm", "column_form", "compose_columns"]

_OPS = "+-*"
_MAX_DIGITS = 12          # a key holds 12 positions of 5 bits (x below 10**12: int64 is exact)
_SHIFTS = np.array([5 * (_MAX_DIGITS - 1 - r) for r in range(_MAX_DIGITS)], dtype=np.uint64)
_SHARED_WORDS = 2_000_000  # candidate keys held at once (each: key, number, two 12-byte slots)
_SPARSE = 8               # the enumeration's table at most 1/8 full
_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_HASH_SHIFT = np.uint64(32)
_SLOT = "\0"              # the unknown in the rendered puzzle; never in an expression


@dataclass(frozen=True)
class ColumnForm:
    """A puzzle ``a OP b = ?`` as the search reads it: each word's letters as the
    puzzle's letter numbers, most significant first."""

    op: str
    a: tuple[int, ...]
    b: tuple[int, ...]


def column_form(puzzle: Puzzle) -> ColumnForm | None:
    """The puzzle's :class:`ColumnForm`, or None when it is not two words, ``+``, ``-`` or
    ``*`` and a plain ``?`` for the result (or too long for exact int64 arithmetic)."""
    left, right = puzzle.sides
    if not isinstance(right, Hole) or right.template is not None:
        return None
    if not isinstance(left, BinOp) or left.op not in _OPS:
        return None
    a, b = left.left, left.right
    if type(a) is not Operand or type(b) is not Operand:
        return None
    number = {ch: j for j, ch in enumerate(puzzle.letters)}
    if any(ch not in number for ch in a.word + b.word):
        return None
    la, lb = len(a.word), len(b.word)
    longest = la + lb if left.op == "*" else max(la, lb) + 1
    if longest > _MAX_DIGITS:
        return None
    return ColumnForm(left.op, tuple(number[ch] for ch in a.word),
                      tuple(number[ch] for ch in b.word))


def compose_columns(puzzles: list[Puzzle], form: ColumnForm, index: Index,
                    words: WordFilter = ALL_WORDS, *, max_results: int | None = None
                    ) -> list[list[Composed]]:
    """The results of ``compose_alike(puzzles, index, words, max_results=...)`` for
    puzzles of one ``alike_key`` and :func:`column_form` ``form``: one compiled
    enumeration of the assignments, joined against all their candidates' keys."""
    words = words.with_classes(DEFAULTS["compose"]).spelt(fold_yo=index.fold_yo)
    rep = puzzles[0]
    left, right = rep.sides
    reach = unknown_span(right, left)
    if reach is None:
        return [[] for _ in puzzles]
    lo, hi = len(str(reach[0])), min(len(str(reach[1])), index.max_length)
    if lo > hi:
        return [[] for _ in puzzles]
    cands = index.derived(("column-candidates", words, rep.script, lo, hi),
                          lambda: _candidates(index, rep, words, lo, hi))
    if not len(cands.ids):
        return [[] for _ in puzzles]
    out: list[list[Composed]] = []
    per_chunk = max(1, _SHARED_WORDS // len(cands.ids))
    for at in range(0, len(puzzles), per_chunk):
        out += _compose_chunk(puzzles[at:at + per_chunk], form, index, cands, hi, max_results)
    return out


def _compose_chunk(puzzles: list[Puzzle], form: ColumnForm, index: Index, cands: _Words,
                   hi: int, max_results: int | None) -> list[list[Composed]]:
    """:func:`compose_columns` for puzzles whose keys are held together."""
    rep = puzzles[0]
    k = len(rep.letters)
    keyed = _key_numbers(puzzles, index.alphabet, cands)
    n_keys = keyed.count
    counts = np.zeros(n_keys + 1, dtype=np.int64)   # number -1 reads the last, never counted
    digits = np.zeros((n_keys, max(k, 1)), dtype=np.int64)
    x_of = np.zeros(n_keys, dtype=np.int64)
    ca, cb = (np.zeros(k, dtype=np.int64) for _ in range(2))
    for coef, letters in ((ca, form.a), (cb, form.b)):
        for p, j in enumerate(reversed(letters)):
            coef[j] += 10 ** p
    lead = np.zeros(k, dtype=np.bool_)
    for ch in rep.leading():
        lead[rep.letters.index(ch)] = True
    bloom, spread = _bloom(keyed.keys)
    _enumerate(ca, cb, lead, _OPS.index(form.op), hi, keyed.held, keyed.number, _SHIFTS,
               bloom, spread, counts, digits, x_of)
    out = []
    m = len(cands.ids)
    for i, puzzle in enumerate(puzzles):
        mine = keyed.numbers[i * m:(i + 1) * m]
        rows = np.flatnonzero(counts[mine] == 1)   # candidates are in id order per length
        rows = rows[np.argsort(cands.ids[rows], kind="stable")]
        if max_results is not None:
            rows = rows[:max_results]
        slots = mine[rows]
        out.append(_results(puzzle, index, cands, rows, digits[slots, :k], x_of[slots],
                            slots))
    return out


@dataclass(frozen=True)
class _Keyed:
    """The distinct candidate keys of a chunk's puzzles, in an open-addressing table."""

    numbers: np.ndarray  # int32 (puzzles * m,): each (puzzle, candidate)'s key number, -1
    #                      for a word no assignment completes
    keys: np.ndarray     # uint64 (count,): the key of each number
    held: np.ndarray     # uint64: a slot's key or 0 (no key is 0), at most 1 / _SPARSE full
    number: np.ndarray   # int32: a slot's key number, beside its key (one probe reads both)
    count: int


def _key_numbers(puzzles: list[Puzzle], alphabet: str, cands: _Words) -> _Keyed:
    """Every candidate's key for each puzzle, numbered by distinct key.  The table grows
    with the distinct keys, not with the (puzzle, candidate) pairs: alike puzzles share
    most keys, and a small table is probed from cache by the enumeration."""
    m = len(cands.ids)
    numbers = np.empty(len(puzzles) * m, dtype=np.int32)
    keys = np.empty(len(puzzles) * m, dtype=np.uint64)
    held, number = _rehash(keys[:0], _table_size(m))
    count = 0
    for i, puzzle in enumerate(puzzles):
        if 2 * (count + m) > len(held):
            held, number = _rehash(keys[:count], _table_size(count + m))
        count = _number_keys(cands.codes, cands.new, _letter_fields(puzzle, alphabet),
                             10 - len(puzzle.letters), _SHIFTS, held, number, keys, count,
                             numbers[i * m:(i + 1) * m])
    # most of the enumeration's probes miss: a sparse table ends them at the first slot
    held, number = _rehash(keys[:count], _table_size(count, _SPARSE))
    return _Keyed(numbers, keys[:count], held, number, count)


def _bloom(keys: np.ndarray) -> tuple[np.ndarray, np.uint64]:
    """A one-hash Bloom filter of the keys (some 64 bits a key, so about one assignment in
    sixty that has no candidate's key passes it) and the shift taking a key's hash to its
    bit: the enumeration reads it from cache before the table, which most keys miss."""
    bits = 1 << max(12, min(24, int(64 * len(keys) - 1).bit_length()))
    spread = np.uint64(65 - bits.bit_length())
    at = (keys * _GOLDEN) >> spread
    out = np.zeros(bits // 64, dtype=np.uint64)
    np.bitwise_or.at(out, (at >> np.uint64(6)).astype(np.int64),
                     np.left_shift(np.uint64(1), at & np.uint64(63)))
    return out, spread


def _table_size(n: int, spread: int = 2) -> int:
    """The power of two that holds n keys at most 1 / spread full."""
    return 1 << max(4, int(spread * n - 1).bit_length())


@dataclass(frozen=True)
class _Words:
    """The candidate words of lengths lo..hi, read from their last letter (position r is
    the r-th letter from the end; past a word's first letter, padding)."""

    ids: np.ndarray      # int64 (m,): word ids
    codes: np.ndarray    # (m, width) int64: letter codes, the padding len(alphabet)
    new: np.ndarray      # (m, width) int64: a letter's field when it is not the puzzle's:
    #                      1 + 10 + its first position from the end (0 for padding)
    spelt: list[str]     # the words themselves, spelt once for every query of the set


def _candidates(index: Index, puzzle: Puzzle, words: WordFilter, lo: int, hi: int) -> _Words:
    """The words of lengths lo..hi the unknown may take (as the composer chooses them)."""
    wanted = candidate_ids(index, puzzle, words) & index.written_in(puzzle.script)
    pad = len(index.alphabet)
    ids, codes, new = [], [], []
    for n in range(lo, hi + 1):
        enc = index.encoded(n, wanted & index.by_length(n))
        m = len(enc.ids)
        if not m:
            continue
        rev = enc.codes[:, ::-1].astype(np.int64)
        first = np.zeros((m, n), dtype=np.int64)
        for r in range(n):
            first[:, r] = r
            for q in range(r - 1, -1, -1):
                first[rev[:, q] == rev[:, r], r] = q
        c = np.full((m, hi), pad, dtype=np.int64)
        c[:, :n] = rev
        f = np.zeros((m, hi), dtype=np.int64)
        f[:, :n] = 11 + first
        ids.append(enc.ids.astype(np.int64))
        codes.append(c)
        new.append(f)
    if not ids:
        empty = np.zeros((0, hi), dtype=np.int64)
        return _Words(np.zeros(0, dtype=np.int64), empty, empty, [])
    every = np.concatenate(ids)
    return _Words(every, np.concatenate(codes), np.concatenate(new),
                  [index.word(w) for w in every.tolist()])


def _letter_fields(puzzle: Puzzle, alphabet: str) -> np.ndarray:
    """Each alphabet letter's key field for this puzzle: 1 + the letter's number when it is
    one of the puzzle's, else 0 (the word's own first-position field is taken then); a
    candidate's key has position r's field at bits 5 * (11 - r) up, 0 past the word (so
    never 0 as a whole: the hash table's keys are never empty)."""
    table = np.zeros(len(alphabet) + 1, dtype=np.int64)
    for j, ch in enumerate(puzzle.letters):
        at = alphabet.find(ch)
        if at >= 0:
            table[at] = j + 1
    return table


def _results(puzzle: Puzzle, index: Index, cands: _Words, rows: np.ndarray,
             digits: np.ndarray, xs: np.ndarray, slots: np.ndarray) -> list[Composed]:
    """The composed puzzles of the candidates ``rows``, as the composer makes them (each
    with its letters' digits and the unknown's value); words of one key share them."""
    shape = puzzle.render(hole=_SLOT)
    letters = "".join(puzzle.letters)
    every = index.derived("counts-array", lambda: np.asarray(index.counts, dtype=np.int64))
    ids = cands.ids[rows]
    spelt = cands.spelt
    # a key's solution and digits, made once for all its words
    solved: dict[int, tuple[str, tuple[int, ...]]] = {}
    out = []
    for row, wid, count, slot, dg, x in zip(rows.tolist(), ids.tolist(), every[ids].tolist(),
                                            slots.tolist(), digits.tolist(), xs.tolist()):
        got = solved.get(slot)
        if got is None:
            value = str(x)
            solution = shape.translate(str.maketrans(letters, "".join(map(str, dg))))
            got = solved[slot] = (solution.replace(_SLOT, value),
                                  (*dg, *map(int, value)))
        word = spelt[row]
        # the puzzle's letters, then the word's own in the word's order (its letters that
        # are the puzzle's take the same digits again)
        out.append(Composed(word, count, wid + 1, shape.replace(_SLOT, word), got[0],
                            dict(zip(letters + word, got[1]))))
    return out


# -- the compiled enumeration ---------------------------------------------------------------

@compiled()
def _number_keys(codes: np.ndarray, new: np.ndarray, fields: np.ndarray, free: int,
                 shifts: np.ndarray, held: np.ndarray, number: np.ndarray, keys: np.ndarray,
                 count: int, out: np.ndarray) -> int:
    """Each candidate's packed key (see _letter_fields) numbered in the open-addressing
    table, new keys numbered from ``count`` on as they come, -1 for a word with more
    letters of its own than the ``free`` digits (no assignment completes it); returns the
    keys' count."""
    m, width = codes.shape
    pad = len(fields) - 1
    mask = np.uint64(len(held) - 1)
    for w in range(m):
        key = np.uint64(0)
        own = 0
        for r in range(width):
            code = codes[w, r]
            if code == pad:
                break
            f = fields[code]
            if f == 0:
                f = new[w, r]
                if f == 11 + r:
                    own += 1
            key |= np.uint64(f) << shifts[r]
        if own > free:
            out[w] = -1
            continue
        h = np.int64(((key * _GOLDEN) >> _HASH_SHIFT) & mask)
        while True:
            there = held[h]
            if there == key:
                out[w] = number[h]
                break
            if there == 0:
                held[h] = key
                number[h] = count
                keys[count] = key
                out[w] = count
                count += 1
                break
            h = (h + 1) & (len(held) - 1)
    return count


@compiled()
def _rehash(keys: np.ndarray, size: int) -> tuple[np.ndarray, np.ndarray]:
    """A table of ``size`` slots holding the distinct ``keys`` (never 0) under their
    numbers: each slot's key (0 for none) and number."""
    held = np.zeros(size, dtype=np.uint64)
    number = np.full(size, -1, dtype=np.int32)
    mask = np.uint64(size - 1)
    for i in range(len(keys)):
        h = np.int64(((keys[i] * _GOLDEN) >> _HASH_SHIFT) & mask)
        while held[h] != 0:
            h = (h + 1) & (size - 1)
        held[h] = keys[i]
        number[h] = i
    return held, number


@compiled()
def _enumerate(  # noqa: C901 (one loop: numba compiles it whole, a call would cost per row)
        ca: np.ndarray, cb: np.ndarray, lead: np.ndarray, op: int, width: int,
        held: np.ndarray, number: np.ndarray, shifts: np.ndarray, bloom: np.ndarray,
        spread: np.uint64, counts: np.ndarray, digits: np.ndarray, x_of: np.ndarray) -> None:
    """Over every assignment of the puzzle's letters: x = a OP b (below 10 ** width), its key
    (digits from the units up: the letter holding the digit, else 10 + where it is first
    seen), and, when some candidate has that key, one more assignment counted for it."""
    k = len(ca)
    if k == 0:
        return
    mask = np.uint64(len(held) - 1)
    limit = 10 ** width
    dig = np.full(k, -1, dtype=np.int64)
    used = np.zeros(10, dtype=np.bool_)
    av = np.zeros(k + 1, dtype=np.int64)
    bv = np.zeros(k + 1, dtype=np.int64)
    # 4 bits a digit, held in registers: 1 + the letter holding the digit (0 for none), and
    # in the key loop where x shows the digit first; arrays cost a store and a load a digit
    labels = np.uint64(0)
    last = k - 1
    level = 0
    while level >= 0:
        if level == last:
            # the last letter's digits in one loop, with no step down and up the levels
            for d in range(10):
                if used[d] or (d == 0 and lead[last]):
                    continue
                a = av[last] + ca[last] * d
                b = bv[last] + cb[last] * d
                if op == 0:
                    x = a + b
                elif op == 1:
                    x = a - b
                else:
                    x = a * b
                if x < 0 or x >= limit:
                    continue
                owners = labels | (np.uint64(k) << np.uint64(4 * d))
                # a fixed number of digits, every choice a select: the branches a digit's
                # owner and first sight would take are the ones a processor guesses wrong
                key = np.uint64(0)
                seen = np.uint64(0)
                firsts = np.uint64(0)
                y = np.uint64(x)
                for t in range(width):
                    live = y != 0 or t == 0
                    e = y % np.uint64(10)
                    y = y // np.uint64(10)
                    at = e << np.uint64(2)
                    was = (seen >> e) & np.uint64(1)
                    f = ((firsts >> at) & np.uint64(15)) if was else np.uint64(t)
                    firsts |= (np.uint64(0) if was else np.uint64(t)) << at
                    seen |= np.uint64(1) << e
                    o = (owners >> at) & np.uint64(15)
                    field = o if o else np.uint64(11) + f
                    key |= (field if live else np.uint64(0)) << shifts[t]
                hashed = key * _GOLDEN
                bit = hashed >> spread
                if not (bloom[bit >> np.uint64(6)] >> (bit & np.uint64(63))) & np.uint64(1):
                    continue
                h = np.int64((hashed >> _HASH_SHIFT) & mask)
                while True:
                    there = held[h]
                    if there == 0:
                        break
                    if there == key:
                        got = number[h]
                        counts[got] += 1
                        if counts[got] == 1:   # only a key's one assignment is ever read
                            for j in range(last):
                                digits[got, j] = dig[j]
                            digits[got, last] = d
                            x_of[got] = x
                        break
                    h = (h + 1) & (len(held) - 1)
            level -= 1
            continue
        d = dig[level]
        if d >= 0:
            used[d] = False
            labels &= ~(np.uint64(15) << np.uint64(4 * d))
        d += 1
        while d < 10 and (used[d] or (d == 0 and lead[level])):
            d += 1
        if d == 10:
            dig[level] = -1
            level -= 1
            continue
        dig[level] = d
        used[d] = True
        labels |= np.uint64(level + 1) << np.uint64(4 * d)
        av[level + 1] = av[level] + ca[level] * d
        bv[level + 1] = bv[level] + cb[level] * d
        level += 1
