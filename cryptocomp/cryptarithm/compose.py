"""The composer: dictionary words that complete a cryptarithm with exactly one solution.

Given ``SEND+MORE`` (i.e. ``SEND+MORE=?``), ``SEND+?=MONEY`` or ``?-MORE=MONEY``, every
dictionary word W is found for which the puzzle with W in place of ``?`` has exactly one
solution under the rules of :mod:`cryptocomp.cryptarithm.expr` (one digit per letter, different
letters different digits, no leading zero in a number of two or more digits, the identity
holds in integers; "exactly one" is an exhaustive count over all assignments of all the
puzzle's letters).  Negative or non-integer values of the unknown yield no word; an
assignment that divides by zero or leaves a remainder is skipped.  Words are taken only
from the script of the puzzle's letters (a Cyrillic puzzle never yields Latin words).

Algorithm.  Let S be the k letters of the known parts.  For every injective assignment
``a`` of digits to S (all 10!/(10-k)! of them, vectorised with numpy) the unknown's value
X is computed (for ``?`` inside an operation, by inverting the operations on the path to
it).  The *key* of ``a`` labels each digit position of X: the letter of S holding that
digit, or, for a digit no letter of S holds, ``10 + p`` where p is the first position of
that digit in X.  The key of a word W labels each position with the letter if it is in S,
else ``10 + p`` where p is the first position of that letter in W.  W completes the
puzzle under ``a`` (with its other letters on the free digits) iff the keys are equal,
and then in exactly one way; so the number of solutions of the puzzle with W is the
number of assignments whose key equals W's key.  Keys are packed into uint64 words and
joined against the keys of the candidate words (right script, possible lengths); first
the last positions' labels must end some word's key (:mod:`.suffixes`).

Templates and the index's bitmaps.  The key of an assignment *is* a template for the
unknown, and one assignment alone could be answered by the index's bitmap families:
for ``send+more`` under s=9 e=5 n=6 d=7 m=1 o=0 r=8, X = 10652 and the template is
``m o n e 14`` (position 4 holds the digit 2, which no letter of S holds: a new
letter, first seen there).  The words fitting it are ``by_length(5)`` ∩ ``at(0, m)``
∩ ``at(1, o)`` ∩ ``at(2, n)`` ∩ ``at(3, e)`` ∩ ``by_pattern`` of the template's
structure (new letters differ from each other and from the placed ones) minus
``having(c)`` for each letter c of S the template does not place (s, d, r: a new
letter is never one of S): money, monet, monel ... -- what
:meth:`~cryptocomp.index.index.Index.structure` computes.  Counting, for every word,
the assignments whose template it fits would take one such intersection per
assignment (604,800 for SEND+MORE); the key join is that template idea done once for
all assignments: the assignments' keys are their templates, each candidate word's key
is the one template it fits, and one hash join counts every word's assignments at
once (tests check it against the intersections, assignment by assignment).

The author's conditions on the unknown use the bitmaps where they narrow the work:
a template in place of ``?`` (``send+more=m????``) and a
:class:`~cryptocomp.index.wordfilter.WordFilter` (letters it must or must not contain,
a length range, the frequency filters) are intersections of the same families,
computed once before the join (:mod:`.candidates`).  They choose the
candidate words -- the right side of the join, and so the key width and the prefix
filters that drop most assignments early -- never what counts as a solution.

If, for some valid assignment, the identity does not determine the unknown (``0*?=0``,
``?*(a-b+c)=d-d``...) the puzzle is refused with an :class:`ExpressionError`: counting
its solutions would need the count of free extensions per word, not supported.  The
test is made level by level on the way down to ``?``: a level is free where a factor
beside the unknown's operand is 0 with target 0, or the unknown's operand divides a
dividend 0 with quotient 0, and every level above it is solvable (exact) for that
assignment.  It is conservative in one rare shape: when a free level sits above
``?`` used as a divisor (``(a/?)*b=c-c``), the puzzle is refused even for an ``a``
(like 1) whose exact division pins ``?`` down.
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass
from functools import partial

import numpy as np

from ..domain import Progress, Word
from ..errors import ExpressionError
from ..index.classes import CLASS_NAMES, DEFAULTS, WordClasses
from ..index.encoding import Encoded
from ..index.index import Index
from ..index.wordfilter import ALL_WORDS, WordFilter
from . import permutations as perms
from .candidates import candidate_ids
from .evaluation import Evaluator, dtype_for, hole_bounds, largest, unknown_span
from .expr import Hole, Puzzle, bound, has_hole, holds, operands, parse
from .suffixes import SuffixFilter

__all__ = ["Composed", "compose", "compose_puzzle", "compose_alike", "alike_key",
           "check_composable"]

log = logging.getLogger(__name__)
_EVERY = WordClasses(frozenset(CLASS_NAMES))  # every word

_BATCH = 1 << 15      # assignments keyed at once (past the suffix filter)
_FILTER_BITS = 22     # size of the bit table pre-filtering assignment keys before the exact join
# candidate words of puzzles composed together at most: about 100 bytes each while held
# (ids, codes, labels, keys), so some 200 MB whatever the number of alike puzzles
_SHARED_WORDS = 2_000_000
_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_GOLDEN2 = np.uint64(0xC2B2AE3D27D4EB4F)


@dataclass(frozen=True)
class Composed:
    """One composed puzzle: the word filling the unknown and the unique solution."""

    word: Word                  # the dictionary word filling the unknown
    count: int                  # its dictionary count
    rank: int                   # its 1-based frequency rank in the dictionary
    puzzle: str                 # the whole puzzle in letters, e.g. "send+more=money"
    solution: str               # the same in digits, e.g. "9567+1085=10652"
    assignment: dict[str, int]  # letter -> digit of the unique solution

    def to_json(self) -> dict:
        return {"word": self.word, "count": self.count, "rank": self.rank, "puzzle": self.puzzle,
                "solution": self.solution, "assignment": self.assignment}

    def _check(self) -> None:
        """The puzzle, completed with the word, holds under the assignment (one solution
        among possibly several: uniqueness is what the tests' oracles check)."""
        complete = parse(self.puzzle)
        assert not complete.unknown, self.puzzle
        assert holds(complete, self.assignment), (self.puzzle, self.assignment)
        assert complete.render(self.assignment) == self.solution, self.solution
        assert self.word in self.puzzle and self.rank >= 1 and self.count >= 0


# -- keys ------------------------------------------------------------------------------------

class _KeyLayout:
    """How labels of ``width`` positions pack into uint64 words (``bits`` per label)."""

    def __init__(self, width: int):
        self.width = width
        self.bits = (10 + width).bit_length()  # labels: letters 0-9, 10+position, and PAD
        self.pad = (1 << self.bits) - 1
        self.per_word = 64 // self.bits
        self.words = -(-width // self.per_word)

    def pack(self, labels: list[np.ndarray]) -> np.ndarray:
        """Pack ``width`` uint8 label arrays into an (n, words) uint64 array."""
        n = len(labels[0])
        out = np.zeros((n, self.words), dtype=np.uint64)
        for p, lab in enumerate(labels):
            w, slot = divmod(p, self.per_word)
            shift = np.uint64(self.bits * (self.per_word - 1 - slot))
            out[:, w] |= lab.astype(np.uint64) << shift
        return out


def _as_rows(keys: np.ndarray) -> np.ndarray:
    """(n, w) uint64 keys as a 1-D array comparable and sortable row by row."""
    if keys.shape[1] == 1:
        return keys[:, 0]
    keys = np.ascontiguousarray(keys)
    dt = np.dtype([(f"k{i}", np.uint64) for i in range(keys.shape[1])])
    return keys.view(dt)[:, 0]


def _hash(keys: np.ndarray, bits: int) -> np.ndarray:
    h = keys[:, 0] * _GOLDEN
    for i in range(1, keys.shape[1]):
        h = (h ^ keys[:, i]) * _GOLDEN2
    return (h >> np.uint64(64 - bits)).astype(np.int64)


def _limbs(x: np.ndarray, width: int) -> list[np.ndarray]:
    """Non-negative ``x`` (< 10**width) as uint32 limbs of 9 decimal digits, least first."""
    out: list[np.ndarray] = []
    rest = x
    for _ in range(-(-width // 9)):
        if rest.dtype != object and len(out) == -(-width // 9) - 1:
            out.append(rest.astype(np.uint32))
            break
        out.append((rest % 1_000_000_000).astype(np.uint32))
        rest = rest // 1_000_000_000
    return out


class _Labeler:
    """Keys of assignments, position by position, dropping rows early by key prefix.

    The label of a position depends only on the digits up to it, so after ``e``
    positions a row whose label prefix starts no word key can be dropped: most rows
    go after two or four positions, and only the survivors pay for the full key.
    """

    def __init__(self, layout: _KeyLayout, free: int, prefixes: dict[int, np.ndarray],
                 suffixes: SuffixFilter):
        self.layout = layout
        self.free = free
        self.prefixes = prefixes
        self.suffixes = suffixes  # tested first, block by block: the last positions drop most

    def keys(self, x: np.ndarray, local: np.ndarray, inv: np.ndarray
             ) -> tuple[np.ndarray, np.ndarray]:
        """(packed keys, indices into x) of the rows that survive the prefix filters."""
        layout, width, pad = self.layout, self.layout.width, np.uint8(self.layout.pad)
        limbs = _limbs(x, width)
        rows = np.arange(len(x))
        base = local * perms.WIDTH
        started = np.zeros(len(x), dtype=bool)
        first = np.full(len(x), 255, dtype=np.uint8)
        digits: list[np.ndarray] = []
        labels: list[np.ndarray] = []
        code = np.zeros(len(x), dtype=np.int64)
        for p in range(width):
            power = width - 1 - p
            limb = limbs[power // 9]
            if power % 9:
                limb = limb // np.uint32(10 ** (power % 9))
            d = (limb - (limb // np.uint32(10)) * np.uint32(10)).astype(np.uint8)
            if p < width - 1:
                # leading zeros are padding (digit 10), never equal to a real digit
                started |= d != 0
                d = np.where(started, d, np.uint8(10))
            lab = np.take(inv, base + d)
            if self.free:
                unset = lab == perms.UNSET
                if self.free == 1:
                    # the one free digit is first seen at the first unheld position
                    first = np.where(unset & (first == 255), np.uint8(p), first)
                    fp = first
                else:
                    fp = np.full(len(d), p, dtype=np.uint8)
                    for q in range(p - 1, -1, -1):
                        fp[digits[q] == d] = q
                lab = np.where(unset, np.uint8(10) + fp, lab)
            lab = np.minimum(lab, pad)
            digits.append(d)
            labels.append(lab)
            table = self.prefixes.get(p + 1)
            if table is not None:
                code = (code << layout.bits) | lab
                hit = table[code]
                keep = np.flatnonzero(hit)
                # compacting costs a pass over every array: only worth it when many go
                if len(keep) < 0.6 * len(rows):
                    rows, base, started, first, code = (  # type: ignore[assignment]
                        a[keep] for a in (rows, base, started, first, code))
                    limbs = [a[keep] for a in limbs]
                    digits = [a[keep] for a in digits]
                    labels = [a[keep] for a in labels]
                if not len(rows):
                    break
            elif p < max(self.prefixes, default=0):
                code = (code << layout.bits) | lab
        if not len(rows):
            return np.zeros((0, layout.words), dtype=np.uint64), rows
        return layout.pack(labels), rows


def _prefix_tables(layout: _KeyLayout,
                   word_labels: list[list[np.ndarray]]) -> dict[int, np.ndarray]:
    """Bit tables of the word-key prefixes after 2 and 4 positions (as fits in 2**20)."""
    stops = [e for e in (2, 4) if e < layout.width and layout.bits * e <= 20]
    tables = {}
    for e in stops:
        table = np.zeros(1 << (layout.bits * e), dtype=bool)
        for labels in word_labels:
            code = np.zeros(len(labels[0]), dtype=np.int64)
            for lab in labels[:e]:
                code = (code << layout.bits) | lab
            table[code] = True
        tables[e] = table
    return tables


# -- composing -------------------------------------------------------------------------------

def compose(expr: str, index: Index, words: WordFilter = ALL_WORDS, *,
            max_results: int | None = None, progress: Progress | None = None
            ) -> list[Composed]:
    """Words completing ``expr`` to a one-solution cryptarithm, most frequent first.

    ``words``: which dictionary words may fill the unknown (a
    :class:`~cryptocomp.index.wordfilter.WordFilter`: length range, the ``top`` most
    frequent, a ``min_count``, letters the word must (a repeated letter counts) or must
    not contain, the word classes admitted: by default ``DEFAULTS["compose"]``, dictionary
    words only, on a classified index); ``max_results``: at most N results.  A template in
    place of ``?`` (``send+more=m????``) constrains the word too.  ``progress(done,
    total)`` is called per block.
    """
    return compose_puzzle(parse(expr, fold_yo=index.fold_yo), index, words,
                          max_results=max_results, progress=progress)


def check_composable(puzzle: Puzzle) -> None:
    """Raise ExpressionError unless the puzzle has an unknown to fill."""
    if not puzzle.unknown:
        raise ExpressionError("nothing to compose: the puzzle has no unknown '?' "
                              "(use solve for a complete puzzle)", None, puzzle.text)


def compose_puzzle(puzzle: Puzzle, index: Index, words: WordFilter = ALL_WORDS, *,
                   max_results: int | None = None, progress: Progress | None = None
                   ) -> list[Composed]:
    """:func:`compose` for an already parsed puzzle."""
    return compose_alike([puzzle], index, words, max_results=max_results,
                         progress=progress)[0]


def alike_key(puzzle: Puzzle) -> str:
    """The puzzle with each letter replaced by its number (``send+more`` ->
    ``0123+4561=? LATIN``): puzzles with one key enumerate the very same digit
    assignments, to the same values (see :func:`compose_alike`)."""
    number = {ch: str(j) for j, ch in enumerate(puzzle.letters)}
    return "".join(number.get(ch, ch) for ch in puzzle.render(hole="?")) + " " + puzzle.script


def compose_alike(puzzles: list[Puzzle], index: Index, words: WordFilter = ALL_WORDS, *,
                  max_results: int | None = None, progress: Progress | None = None
                  ) -> list[list[Composed]]:
    """:func:`compose_puzzle` for each of several puzzles with one :func:`alike_key`,
    sharing one enumeration of the digit assignments (a batch's ``когда+если`` and
    ``время+меня``: letters in the same places): results identical to composing each
    alone, for about the cost of one.  An error of any of them (a template letter that is
    excluded; the undetermined unknown of ``a*?=a``, the same for all) is raised: compose
    them alone to learn each one's.

    Why it is exact: puzzle.letters are numbered in order of appearance, so puzzles with
    one key number their letters alike and assignment i gives every one of them the same
    value and the same assignment key; only their candidate words and the words' keys
    differ, and the join counts the assignments of each key, whichever puzzle's words
    carry it (a key wider than a puzzle's words needs is exact too: padding)."""
    if not puzzles:
        return []
    for puzzle in puzzles:
        check_composable(puzzle)
    rep = puzzles[0]
    if any(alike_key(p) != alike_key(rep) for p in puzzles[1:]):
        raise ValueError("compose_alike takes puzzles with one alike_key")
    if max_results is not None and max_results < 0:
        raise ExpressionError("max_results must not be negative", None, rep.text)
    # a filter naming no word classes takes the composer's default (dictionary words only);
    # ё of the letters as the dictionary spells it
    words = words.with_classes(DEFAULTS["compose"]).spelt(fold_yo=index.fold_yo)
    left, right = rep.sides
    hole_side, known_side = (left, right) if has_hole(left) else (right, left)
    bounds = hole_bounds(hole_side, bound(known_side))
    dtype = dtype_for(max(bounds.largest, largest(known_side)))

    # the lengths the unknown's value can have in a solution: the words worth trying
    reach = unknown_span(hole_side, known_side)
    lo, hi = (1, 0) if reach is None else (len(str(reach[0])), len(str(reach[1])))
    hi = min(hi, index.max_length)
    # a puzzle given twice (a batch list's repeated words) is composed once: each copy
    # would hold its own candidate words and keys
    distinct: dict[str, int] = {}
    firsts: list[Puzzle] = []
    copy_of = []
    for puzzle in puzzles:
        copy_of.append(distinct.setdefault(puzzle.render(), len(firsts)))
        if copy_of[-1] == len(firsts):
            firsts.append(puzzle)
    found: list[list[Composed]] = []
    # puzzles sharing an enumeration hold their candidates' keys together: at most
    # _SHARED_WORDS words at a time (a puzzle over that is composed alone)
    chunk: list[Puzzle] = []
    chunk_groups: list[list] = []
    held = 0
    for puzzle in firsts:
        groups = _candidates(index, puzzle, words, lo, hi)
        size = sum(len(ids) for _, ids, _, _ in groups)
        if chunk and held + size > _SHARED_WORDS:
            found += _compose_shared(chunk, chunk_groups, index, dtype, max_results, progress)
            chunk, chunk_groups, held = [], [], 0
        chunk.append(puzzle)
        chunk_groups.append(groups)
        held += size
    found += _compose_shared(chunk, chunk_groups, index, dtype, max_results, progress)
    return [list(found[j]) for j in copy_of]


def _compose_shared(puzzles: list[Puzzle], groups: list[list], index: Index,
                    dtype: type | np.dtype,
                    max_results: int | None, progress: Progress | None
                    ) -> list[list[Composed]]:
    """The results of alike puzzles from one enumeration, given their candidate words."""
    rep = puzzles[0]
    k = len(rep.letters)
    t0 = time.perf_counter()
    if not any(groups):
        _check_determined(rep, Evaluator(rep.letters, dtype))
        return [[] for _ in puzzles]
    layout = _KeyLayout(max(n for g in groups for n, *_ in g))
    sides = [_word_keys(index.alphabet, g, layout, p.letters) for p, g in zip(puzzles, groups)]
    keys_all = np.concatenate([keys for _, keys, _ in sides])
    if not len(keys_all):
        _check_determined(rep, Evaluator(rep.letters, dtype))
        return [[] for _ in puzzles]
    unique_keys, inverse = np.unique(_as_rows(keys_all), return_inverse=True)
    inverse = inverse.reshape(-1)
    bits = _FILTER_BITS
    filt = np.zeros(1 << bits, dtype=bool)
    filt[_hash(keys_all, bits)] = True
    word_labels = [lab for _, _, labels in sides for lab in labels]
    labeler = _Labeler(layout, 10 - k, _prefix_tables(layout, word_labels),
                       SuffixFilter(layout.width, layout.pad, word_labels))
    log.debug("compose %s (%d alike): %d letters, %d candidate words, %d keys, width %d",
              rep, len(puzzles), k, len(keys_all), len(unique_keys), layout.width)
    t1 = time.perf_counter()
    counts, row_of, x_of = _enumerate(rep, Evaluator(rep.letters, dtype), layout, labeler,
                                      filt, unique_keys, progress)
    log.debug("compose %s: words %.3f s, enumeration %.3f s", rep, t1 - t0,
              time.perf_counter() - t1)
    out = []
    start = 0
    for puzzle, (ids, _, _) in zip(puzzles, sides):
        word_key = inverse[start:start + len(ids)]
        start += len(ids)
        unique_words = np.flatnonzero(counts[word_key] == 1)
        chosen = unique_words[np.argsort(ids[unique_words], kind="stable")]
        if max_results is not None:
            chosen = chosen[:max_results]
        rendered = puzzle.render(hole=_SLOT)
        out.append([_result(puzzle, rendered, index, int(ids[w]),
                            perms.row(k, int(row_of[word_key[w]])), int(x_of[word_key[w]]))
                    for w in chosen.tolist()])
    return out


def _candidates(index: Index, puzzle: Puzzle, words: WordFilter, lo: int, hi: int
                ) -> list[tuple[int, np.ndarray, np.ndarray, np.ndarray]]:
    """(length, ids, codes, first positions) of the words the unknown may take, lengths
    lo..hi: the author's filter on it (bitmap intersections, before the join) and the
    puzzle's script choose the words the index gives encoded."""
    wanted = candidate_ids(index, puzzle, words) & index.written_in(puzzle.script)
    # the words of the admitted classes in the puzzle's script, encoded once per index: a
    # query's candidates are cut from these (a cut of every word's codes would cost each
    # query a copy of most of them)
    key = (words.classes, puzzle.script)
    pool = index.derived(("compose-pool", key), lambda: index.admitted(
        words.classes or _EVERY) & index.written_in(puzzle.script))
    groups = []
    for n in range(lo, hi + 1):
        part = wanted & index.by_length(n)
        if not part:
            continue
        enc: Encoded = index.derived(("compose-encoded", key, n), partial(index.encoded, n, pool))
        if len(part) < len(enc.ids):
            enc = enc.take(np.searchsorted(enc.ids, np.frombuffer(part.to_array(),
                                                                   dtype=np.uint32)))
        ids, codes, first = enc
        if len(ids):
            groups.append((n, ids, codes, first))
    return groups


def _word_keys(alphabet: str, groups: list[tuple[int, np.ndarray, np.ndarray, np.ndarray]],
               layout: _KeyLayout, letters: tuple[str, ...]
               ) -> tuple[np.ndarray, np.ndarray, list[list[np.ndarray]]]:
    """(word ids, packed keys, label columns per length) of the candidate words that can
    complete a puzzle with these letters."""
    k, width = len(letters), layout.width
    # word keys: the puzzle's letters as their number, other letters as 10 + first position
    # (the word shifted right to the key's width)
    in_s = np.zeros(len(alphabet) + 1, dtype=bool)
    s_label = np.zeros(len(alphabet) + 1, dtype=np.uint8)
    for j, ch in enumerate(letters):
        at = alphabet.find(ch)
        if at >= 0:
            in_s[at] = True
            s_label[at] = j
    word_ids, word_keys, word_labels = [], [], []
    for n, ids, codes, first in groups:
        # a word with more letters outside the puzzle's than free digits can never match
        new = np.zeros(len(ids), dtype=np.int64)
        for p in range(n):
            new += ~in_s[codes[:, p]] & (first[:, p] == p)
        keep = new <= 10 - k
        if not keep.all():
            ids, codes, first = ids[keep], codes[keep], first[keep]
        if not len(ids):
            continue
        labels = [np.full(len(ids), layout.pad, dtype=np.uint8)] * (width - n)
        for p in range(n):
            c = codes[:, p]
            labels.append(np.where(in_s[c], s_label[c], np.uint8(10 + width - n) + first[:, p]))
        word_ids.append(ids)
        word_labels.append(labels)
        word_keys.append(layout.pack(labels))
    if not word_ids:
        return (np.zeros(0, dtype=np.int64), np.zeros((0, layout.words), dtype=np.uint64), [])
    return np.concatenate(word_ids), np.concatenate(word_keys), word_labels


def _enumerate(puzzle: Puzzle, evaluator: Evaluator, layout: _KeyLayout, labeler: _Labeler,
               filt: np.ndarray, unique_keys: np.ndarray, progress: Progress | None
               ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Over every assignment of the puzzle's letters: per word key, the number of
    assignments with that key, the last such assignment and its value of the unknown."""
    k = len(puzzle.letters)
    bits = _FILTER_BITS
    total = perms.count(k)
    width = layout.width
    limit_value = 10 ** width
    hit_key: list[np.ndarray] = []
    hit_row: list[np.ndarray] = []
    hit_x: list[np.ndarray] = []
    waiting: list[tuple[np.ndarray, np.ndarray, np.ndarray]] = []
    held = 0
    with np.errstate(all="ignore"):
        for block in perms.blocks(k):
            start, cols = block.start, block.cols
            stop = start + len(block)
            x, ok = _solve_block(puzzle, evaluator, cols)
            ok &= x >= 0
            if x.dtype == object or width <= 18:  # else every int64 is below 10**width
                ok &= x < limit_value
            local = np.flatnonzero(ok)
            if len(local):
                xs = x[local]
                if xs.dtype == object and width <= 18:
                    xs = xs.astype(np.int64)
                inv = block.inverse()
                pre = labeler.suffixes.keep(xs, local, inv)
                if pre is not None:
                    local, xs = local[pre], xs[pre]
                # the survivors of several blocks are keyed and joined at once: the numpy
                # calls a position costs are then paid once for them all
                waiting.append((xs, local + start, inv.reshape(-1, perms.WIDTH)[local]))
                held += len(local)
            if held >= _BATCH or (stop == total and waiting):
                xs, rows, invs = (np.concatenate(a) for a in zip(*waiting))
                waiting, held = [], 0
                keys, kept = labeler.keys(xs, np.arange(len(xs)), invs.reshape(-1))
                rows, xs = rows[kept], xs[kept]
                maybe = np.flatnonzero(filt[_hash(keys, bits)])
                if len(maybe):
                    found = _as_rows(keys[maybe])
                    pos = np.searchsorted(unique_keys, found)
                    pos[pos >= len(unique_keys)] = 0
                    hit = unique_keys[pos] == found
                    hit_key.append(pos[hit])
                    hit_row.append(rows[maybe[hit]])
                    hit_x.append(xs[maybe[hit]])
            if progress is not None:
                progress(stop, total)
    counts = np.zeros(len(unique_keys), dtype=np.int64)
    row_of = np.zeros(len(unique_keys), dtype=np.int64)
    x_of = np.zeros(len(unique_keys), dtype=np.int64)
    if hit_key:
        keys_hit = np.concatenate(hit_key)
        counts = np.bincount(keys_hit, minlength=len(unique_keys))
        row_of[keys_hit] = np.concatenate(hit_row)
        xs_all = np.concatenate(hit_x)
        x_of = np.zeros(len(unique_keys), dtype=xs_all.dtype)
        x_of[keys_hit] = xs_all
    return counts, row_of, x_of


def _solve_block(puzzle: Puzzle, evaluator: Evaluator, cols: list[np.ndarray]
                 ) -> tuple[np.ndarray, np.ndarray]:
    """(the unknown's value, where it solves the puzzle) over a block of assignments of the
    puzzle's letters; ExpressionError where some valid assignment leaves it undetermined."""
    left, right = puzzle.sides
    hole_side, known_side = (left, right) if has_hole(left) else (right, left)
    ok = np.ones(len(cols[0]) if cols else 1, dtype=bool)
    for ch in puzzle.leading():
        ok &= cols[puzzle.letters.index(ch)] != 0
    target, known_ok = evaluator.value(known_side, cols)
    x, feasible, side_ok, free = evaluator.solve_hole(hole_side, target, cols)
    ok = _and_all(ok, known_ok, side_ok)
    if free is not None and (free & ok).any():
        hole = next(n for n in operands(hole_side) if isinstance(n, Hole))
        raise ExpressionError("for some digits the unknown is not determined by the rest of "
                              "the puzzle (like 0*?=0); such puzzles are not supported",
                              hole.pos, puzzle.text)
    return x, _and_all(ok, feasible)


def _check_determined(puzzle: Puzzle, evaluator: Evaluator) -> None:
    """Raise ExpressionError when some valid assignment leaves the unknown undetermined
    (the refusal must not depend on whether the dictionary has candidates)."""
    with np.errstate(all="ignore"):
        for block in perms.blocks(len(puzzle.letters)):
            _solve_block(puzzle, evaluator, block.cols)


_SLOT = "\0"  # stands for the unknown in the rendered puzzle; never in an expression


def _result(puzzle: Puzzle, shape: str, index: Index, wid: int, digits: list[int],
            x: int) -> Composed:
    """The composed puzzle of one word; ``shape`` is the puzzle rendered with _SLOT for
    the unknown (rendering the tree once, not twice per word, keeps thousands cheap)."""
    word = index.word(wid)
    fill = {ch: int(d) for ch, d in zip(puzzle.letters, digits)}
    for ch, d in zip(word, str(x)):
        fill.setdefault(ch, int(d))
    # the shape's letters are the puzzle's: each becomes its digit, the slot the value
    solution = shape.translate({ord(ch): str(fill[ch]) for ch in puzzle.letters})
    return Composed(word=word, count=int(index.counts[wid]), rank=wid + 1,
                    puzzle=shape.replace(_SLOT, word), solution=solution.replace(_SLOT, str(x)),
                    assignment=fill)


def _and_all(first: np.ndarray, /, *masks: np.ndarray | None) -> np.ndarray:
    """``first`` and every mask given (None: no condition)."""
    for m in masks:
        if m is not None:
            first = first & m
    return first
