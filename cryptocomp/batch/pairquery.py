"""A batch query ``a OP b`` (two words, OP one of ``+ - *``): one compiled enumeration.

:func:`cryptocomp.cryptarithm.compose.compose_alike` enumerates the digit assignments of
alike puzzles in numpy blocks and joins each block's keys against the candidates' keys.
A batch's queries are all two words and an operator, so here the enumeration is one
compiled loop over the assignments, letter by letter (each level adds the letter's share
of ``a`` and ``b``), and each assignment's key is probed in an open-addressing table of
the candidates' keys of every query of the shape, after small tables of the keys' first
three and four positions have turned most assignments away.

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
_SHARED_WORDS = 2_000_000  # candidate keys held at once (about 40 bytes each with the table)
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
    keys = np.concatenate([_word_keys(p, index.alphabet, cands) for p in puzzles])
    size = 1 << max(4, int(2 * len(keys) - 1).bit_length())   # at most half full
    table = np.full(size, -1, dtype=np.int64)
    slot_key = np.zeros(len(keys), dtype=np.uint64)
    key_of, n_keys = _insert(keys, table, slot_key)
    counts = np.zeros(n_keys, dtype=np.int64)
    digits = np.zeros((n_keys, max(k, 1)), dtype=np.int64)
    x_of = np.zeros(n_keys, dtype=np.int64)
    ca, cb = (np.zeros(k, dtype=np.int64) for _ in range(2))
    for coef, letters in ((ca, form.a), (cb, form.b)):
        for p, j in enumerate(reversed(letters)):
            coef[j] += 10 ** p
    lead = np.zeros(k, dtype=np.bool_)
    for ch in rep.leading():
        lead[rep.letters.index(ch)] = True
    pre3 = np.zeros(1 << 15, dtype=np.bool_)
    pre3[slot_key[:n_keys] >> _SHIFTS[2]] = True
    pre4 = np.zeros(1 << 20, dtype=np.bool_)
    pre4[slot_key[:n_keys] >> _SHIFTS[3]] = True
    _enumerate(ca, cb, lead, _OPS.index(form.op), 10 ** hi, table, slot_key, _SHIFTS, pre3,
               pre4, counts, digits, x_of)
    out = []
    m = len(cands.ids)
    for i, puzzle in enumerate(puzzles):
        mine = key_of[i * m:(i + 1) * m]
        rows = np.flatnonzero(counts[mine] == 1)   # candidates are in id order per length
        rows = rows[np.argsort(cands.ids[rows], kind="stable")]
        if max_results is not None:
            rows = rows[:max_results]
        slots = mine[rows]
        out.append(_results(puzzle, index, cands.ids[rows], digits[slots, :k], x_of[slots]))
    return out


@dataclass(frozen=True)
class _Words:
    """The candidate words of lengths lo..hi, read from their last letter (position r is
    the r-th letter from the end; past a word's first letter, padding)."""

    ids: np.ndarray      # int64 (m,): word ids
    codes: np.ndarray    # (m, width) int64: letter codes, the padding len(alphabet)
    new: np.ndarray      # (m, width) int64: a letter's field when it is not the puzzle's:
    #                      1 + 10 + its first position from the end (0 for padding)


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
        return _Words(np.zeros(0, dtype=np.int64), empty, empty)
    return _Words(np.concatenate(ids), np.concatenate(codes), np.concatenate(new))


def _word_keys(puzzle: Puzzle, alphabet: str, cands: _Words) -> np.ndarray:
    """Each candidate's key for this puzzle: position r's field (bits 5 * (11 - r) up) is 1 +
    the letter's number if it is one of the puzzle's, else 1 + 10 + its first position from
    the end, 0 past the word (never 0 as a whole: the hash table's keys are never empty)."""
    table = np.zeros(len(alphabet) + 1, dtype=np.int64)
    for j, ch in enumerate(puzzle.letters):
        at = alphabet.find(ch)
        if at >= 0:
            table[at] = j + 1
    return _keys_of(cands.codes, cands.new, table, _SHIFTS)


def _results(puzzle: Puzzle, index: Index, ids: np.ndarray, digits: np.ndarray,
             xs: np.ndarray) -> list[Composed]:
    """The composed puzzles of the words ``ids``, as the composer makes them (each with its
    letters' digits and the unknown's value)."""
    shape = puzzle.render(hole=_SLOT)
    letters = "".join(puzzle.letters)
    every = index.derived("counts-array", lambda: np.asarray(index.counts, dtype=np.int64))
    counts = every[ids].tolist()
    out = []
    for wid, count, dg, x in zip(ids.tolist(), counts, digits.tolist(), xs.tolist()):
        word = index.word(wid)
        fill = dict(zip(letters, dg))
        value = str(x)
        for ch, d in zip(word, value):
            if ch not in fill:
                fill[ch] = int(d)
        solution = shape.translate(str.maketrans(letters, "".join(map(str, dg))))
        out.append(Composed(word=word, count=count, rank=wid + 1,
                            puzzle=shape.replace(_SLOT, word),
                            solution=solution.replace(_SLOT, value), assignment=fill))
    return out


# -- the compiled enumeration ---------------------------------------------------------------

@compiled()
def _insert(keys: np.ndarray, table: np.ndarray, slot_key: np.ndarray
            ) -> tuple[np.ndarray, int]:
    """Each key's number in the open-addressing table (new keys numbered as they come);
    returns (the numbers, how many keys there are)."""
    mask = np.uint64(len(table) - 1)
    out = np.empty(len(keys), dtype=np.int64)
    count = 0
    for i in range(len(keys)):
        key = keys[i]
        h = np.int64(((key * _GOLDEN) >> _HASH_SHIFT) & mask)
        while True:
            got = table[h]
            if got < 0:
                table[h] = count
                slot_key[count] = key
                out[i] = count
                count += 1
                break
            if slot_key[got] == key:
                out[i] = got
                break
            h = (h + 1) & (len(table) - 1)
    return out, count


@compiled()
def _keys_of(codes: np.ndarray, new: np.ndarray, table: np.ndarray, shifts: np.ndarray
             ) -> np.ndarray:
    """The packed key of each candidate (see _word_keys)."""
    m, width = codes.shape
    pad = len(table) - 1
    out = np.zeros(m, dtype=np.uint64)
    for w in range(m):
        key = np.uint64(0)
        for r in range(width):
            code = codes[w, r]
            if code == pad:
                break
            f = table[code]
            if f == 0:
                f = new[w, r]
            key |= np.uint64(f) << shifts[r]
        out[w] = key
    return out


@compiled()
def _enumerate(  # noqa: C901 (one loop: numba compiles it whole, a call would cost per row)
        ca: np.ndarray, cb: np.ndarray, lead: np.ndarray, op: int, limit: int,
        table: np.ndarray, slot_key: np.ndarray, shifts: np.ndarray, pre3: np.ndarray,
        pre4: np.ndarray, counts: np.ndarray, digits: np.ndarray, x_of: np.ndarray) -> None:
    """Over every assignment of the puzzle's letters: x = a OP b, its key (digits from the
    units up: the letter holding the digit, else 10 + where it is first seen), and, when
    some candidate has that key, one more assignment counted for it."""
    k = len(ca)
    mask = np.uint64(len(table) - 1)
    dig = np.full(k, -1, dtype=np.int64)
    used = np.zeros(10, dtype=np.bool_)
    owner = np.zeros(10, dtype=np.int64)
    mark = np.zeros(10, dtype=np.int64)
    pos = np.zeros(10, dtype=np.int64)
    av = np.zeros(k + 1, dtype=np.int64)
    bv = np.zeros(k + 1, dtype=np.int64)
    stamp = 0
    level = 0
    while level >= 0:
        if level == k:
            level -= 1
            a, b = av[k], bv[k]
            if op == 0:
                x = a + b
            elif op == 1:
                x = a - b
            else:
                x = a * b
            if x < 0 or x >= limit:
                continue
            stamp += 1
            key = np.uint64(0)
            t = 0
            y = x
            while True:
                d = y % 10
                y //= 10
                if used[d]:
                    lab = owner[d]
                elif mark[d] == stamp:
                    lab = 10 + pos[d]
                else:
                    mark[d] = stamp
                    pos[d] = t
                    lab = 10 + t
                key |= np.uint64(lab + 1) << shifts[t]
                t += 1
                if y == 0:
                    break
                # most keys start no candidate's: a small table says so after 3, 4 digits
                if t == 3 and not pre3[key >> shifts[2]]:
                    break
                if t == 4 and not pre4[key >> shifts[3]]:
                    break
            if y:
                continue
            h = np.int64(((key * _GOLDEN) >> _HASH_SHIFT) & mask)
            while True:
                got = table[h]
                if got < 0:
                    break
                if slot_key[got] == key:
                    counts[got] += 1
                    for j in range(k):
                        digits[got, j] = dig[j]
                    x_of[got] = x
                    break
                h = (h + 1) & (len(table) - 1)
            continue
        d = dig[level]
        if d >= 0:
            used[d] = False
        d += 1
        while d < 10 and (used[d] or (d == 0 and lead[level])):
            d += 1
        if d == 10:
            dig[level] = -1
            level -= 1
            continue
        dig[level] = d
        used[d] = True
        owner[d] = level
        av[level + 1] = av[level] + ca[level] * d
        bv[level + 1] = bv[level] + cb[level] * d
        level += 1
