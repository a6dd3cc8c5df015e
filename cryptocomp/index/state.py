"""The index state: how an :class:`~cryptocomp.index.Index` is built, stored and checked.

Stored state, version 3 (the sections of an index file, see :mod:`.header`)
----------------------------------------------------------------------------
An index is stored as named *sections*, each a value made of plain builtins (so
the file's unpickler admits no class at all), read, checked and decoded only
when first needed: a one-shot ``compose`` reads the counts, the length and
letter bitmaps and the codes of a few lengths, not the 50 MB of everything.

==================  =================================================================
``meta``            dict: ``state_version`` (3), ``name``, ``params`` (the build
                    parameters), ``alphabet`` (every letter of the words in code-point
                    order; a letter's *code* is its position here), ``words`` (the word
                    count n), ``lengths`` ({length: how many words}), ``classes`` (what
                    classified the words, '' when nothing did)
``counts``          bytes: each word's count, little-endian uint64, by id (descending)
``words``           bytes: the words by id (0 = most frequent), UTF-8, joined by "\\n"
``order``           [bytes, bytes]: little-endian uint32 word ids sorted by word, and
                    sorted by reversed word (the wildcards' prefix and suffix ranges)
``codes:N``         bytes: the words of N letters as codes, ids ascending, N codes each
                    (uint8, or little-endian uint16 past 256 letters)
``by_length``,      bitmap families (see :mod:`.family`) keyed by length n; pattern
``by_pattern``,     bytes (:func:`pattern_key`); (position, letter); letter;
``at``, ``having``, (letter, k >= 2)
``at_least``
``classes``,        the word classes and lemma groups (see :mod:`.classes`; version 3
``lemmas``          added them)
==================  =================================================================

Each section is checked against ``meta`` when it is read, in a few milliseconds
and without decoding any bitmap: types, sizes (``codes:N`` holds
``lengths[N] * N`` codes), cardinality sums (the length and pattern families
partition the words; the position family holds one entry per letter of every
word; the length family agrees with ``lengths``), key types and ranges, the
counts descending.  What cannot be seen without decoding is checked when first
decoded: each bitmap's cardinality and id range, each code block's codes, the
word list's line count, the word order being a permutation.
:func:`check_index` verifies everything against plain scans (slow; tests).
"""

from __future__ import annotations

import array
import itertools
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

import numpy as np
from pyroaring import BitMap, FrozenBitMap

from ..domain import Progress, Word
from .alphabet import normalize
from .classes import Classification, lemmas_state, read_classes, read_lemmas
from .encoding import (
    Encoded,
    code_dtype,
    encode,
    first_positions,
    pattern,
    patterns_of,
    reversed_words,
)
from .family import BitmapFamily, Corrupt

__all__ = ["STATE_VERSION", "Built", "Meta", "Sections", "InMemorySections", "build_state",
           "write_sections", "read_meta", "read_section", "check_index", "pattern_key",
           "corrupt_value", "FAMILIES"]

STATE_VERSION = 3  # layout of the stored state; bump when it changes
FAMILIES = ("by_length", "by_pattern", "at", "having", "at_least")
_MAX_COUNT = 2**63 - 1
_MAX_LENGTH = 1 << 24  # a word longer than this is not a word
SMALL = 20_000  # letters, up to which the bitmaps are built by a plain scan (see build_state)


def corrupt_value(why: str) -> Exception:
    """The default error for a damaged state (the store names the file instead)."""
    return ValueError(why)


def pattern_key(p: Sequence[int]) -> bytes:
    """The dictionary key of a pattern: its bytes, or for a pattern with values past 255
    (a word of more than 256 distinct letters) 0xff and 32-bit values; a pattern's first
    value is always 0, so the two kinds never collide."""
    if max(p, default=0) < 256:
        return bytes(p)
    return b"\xff" + array.array("I", p).tobytes()


def _bitmap(ids: np.ndarray) -> FrozenBitMap:
    # array('I') takes pyroaring's bulk-add path, ~10x faster than a numpy iterable
    return FrozenBitMap(array.array("I", ids.astype(np.uint32, copy=False).tobytes()))


def _groups(keys: np.ndarray, ids: np.ndarray) -> Iterator[tuple[int, np.ndarray]]:
    """(key, ids having that key) for each distinct key, keys ascending."""
    if not len(keys):
        return
    order = np.argsort(keys, kind="stable")
    ordered = keys[order]
    cuts = np.flatnonzero(ordered[1:] != ordered[:-1]) + 1
    bounds = np.concatenate(([0], cuts, [len(keys)]))
    for a, b in zip(bounds[:-1].tolist(), bounds[1:].tolist()):
        yield int(ordered[a]), ids[order[a:b]]


# -- building ---------------------------------------------------------------------------

@dataclass
class Built:
    """What :func:`build_state` computes from a ranked word list."""

    alphabet: str
    families: dict[str, BitmapFamily]
    encoded: dict[int, Encoded]
    order: tuple[np.ndarray, np.ndarray]
    classification: Classification


def build_state(words: list[Word], progress: Progress | None = None,
                word_order: np.ndarray | None = None,
                classification: Classification | None = None) -> Built:
    """Every bitmap family, the encoded words and the word order of ranked ``words``.

    Vectorised per word length over the letter-code matrices, with small integer
    types, so that memory stays a few times the size of the codes (Russian: about
    6 million letters); dictionaries of at most :data:`SMALL` letters take a plain
    scan instead (the same bitmaps, without numpy's per-call cost)."""
    report = progress or (lambda done, total: None)
    steps = 6
    report(0, steps)
    n = len(words)
    lengths = np.fromiter(map(len, words), dtype=np.int64, count=n)
    joined = "".join(words)
    alphabet = "".join(sorted(set(joined)))
    flat = encode(joined, alphabet)
    del joined
    starts = np.cumsum(lengths) - lengths
    by_size = np.argsort(lengths, kind="stable")
    sizes = np.bincount(lengths) if n else np.zeros(1, dtype=np.int64)
    encoded: dict[int, Encoded] = {}
    pos = 0
    for length in np.flatnonzero(sizes).tolist():
        ids = by_size[pos:pos + sizes[length]]
        pos += int(sizes[length])
        block = flat[starts[ids][:, None] + np.arange(length)]
        encoded[length] = Encoded(ids.astype(np.int64), block, first_positions(block),
                                  len(alphabet))
    del flat, starts, by_size
    report(1, steps)
    if len(lengths) and int(lengths.sum()) <= SMALL:
        at, having, at_least, by_pattern = _families_small(words)
    else:
        letters = list(alphabet)
        at = {}
        for p in range(max(encoded, default=0)):
            blocks = [enc for length, enc in encoded.items() if length > p]
            column = np.concatenate([enc.codes[:, p] for enc in blocks])
            ids = np.concatenate([enc.ids for enc in blocks])
            for code, members in _groups(column, ids):
                at[(p, letters[code])] = _bitmap(members)
        report(2, steps)
        having, at_least = _letter_counts(at, letters, max(encoded, default=0))
        report(3, steps)
        by_pattern = _patterns(encoded, words)
    report(4, steps)
    forward = word_order if word_order is not None else \
        np.array(sorted(range(n), key=words.__getitem__), dtype=np.int64)
    backward = np.array(sorted(range(n), key=reversed_words(words).__getitem__),
                        dtype=np.int64)
    report(5, steps)
    families = {
        "by_length": BitmapFamily.from_bitmaps(
            "length", {length: _bitmap(enc.ids) for length, enc in encoded.items()}, n),
        "by_pattern": BitmapFamily.from_bitmaps("pattern", by_pattern, n),
        "at": BitmapFamily.from_bitmaps("position", at, n),
        "having": BitmapFamily.from_bitmaps("letter", having, n),
        "at_least": BitmapFamily.from_bitmaps("letter count", at_least, n),
    }
    classification = classification or Classification("")
    families["classes"] = BitmapFamily.from_bitmaps("class", classification.members, n)
    report(steps, steps)
    return Built(alphabet, families, encoded, (forward, backward), classification)


def _families_small(words: list[Word]) -> tuple[dict, ...]:
    """The ``at``, ``having``, ``at_least`` and ``by_pattern`` bitmaps by a plain scan:
    quicker than the vectorised way for a small dictionary (numpy's per-call cost
    dominates), and checked against it in the tests."""
    at: dict = {}
    having: dict = {}
    at_least: dict = {}
    patterns: dict = {}
    for i, word in enumerate(words):
        patterns.setdefault(pattern_key(pattern(word)), []).append(i)
        seen: dict[str, int] = {}
        for p, ch in enumerate(word):
            at.setdefault((p, ch), []).append(i)
            k = seen[ch] = seen.get(ch, 0) + 1
            if k == 1:
                having.setdefault(ch, []).append(i)
            else:
                at_least.setdefault((ch, k), []).append(i)
    return tuple({key: FrozenBitMap(ids) for key, ids in family.items()}
                 for family in (at, having, at_least, patterns))


def _letter_counts(at: dict[tuple[int, str], FrozenBitMap], letters: list[str], longest: int
                   ) -> tuple[dict, dict]:
    """The ``having`` and ``at_least`` bitmaps, from the position bitmaps: a word gains one
    occurrence of c at each position holding c, so running unions over the positions
    count occurrences (``levels[k]``: words with at least k + 1 so far)."""
    having: dict[str, FrozenBitMap] = {}
    at_least: dict[tuple[str, int], FrozenBitMap] = {}
    for ch in letters:
        levels: list[BitMap] = []
        for p in range(longest):
            here = at.get((p, ch))
            if here is None:
                continue
            for k in range(len(levels), 0, -1):  # high to low: each uses the old level below
                more = levels[k - 1] & here
                if more:
                    if k == len(levels):
                        levels.append(BitMap(more))
                    else:
                        levels[k] |= more
            if levels:
                levels[0] |= here
            else:
                levels.append(BitMap(here))
        for k, level in enumerate(levels, 1):
            bm = FrozenBitMap(level)
            if k == 1:
                having[ch] = bm
            else:
                at_least[(ch, k)] = bm
    return having, at_least


def _patterns(encoded: dict[int, Encoded], words: list[Word]) -> dict[bytes, FrozenBitMap]:
    """The ``by_pattern`` bitmaps: equal pattern rows grouped per length."""
    out: dict[bytes, FrozenBitMap] = {}
    for length, enc in encoded.items():
        if length > 256:  # patterns past 255 take the wide key: rare, done word by word
            groups: dict[bytes, list[int]] = {}
            for i in enc.ids.tolist():
                groups.setdefault(pattern_key(pattern(words[i])), []).append(i)
            out.update((k, FrozenBitMap(v)) for k, v in groups.items())
            continue
        rows = np.ascontiguousarray(patterns_of(enc.first).astype(np.uint8))
        unique, inverse = np.unique(rows.view(f"V{length}").ravel(), return_inverse=True)
        for u, members in _groups(inverse.ravel(), enc.ids):
            out[unique[u].tobytes()] = _bitmap(members)
    return out


class Sections(Protocol):
    """Where a loaded index reads its stored sections (see :mod:`.state`)."""

    def load(self, key: str) -> object:
        """The section's value, its integrity already checked; raise the file's error if
        it is missing or damaged."""


class InMemorySections:
    """Sections held in a dict (an index pickled whole, as for a worker process)."""

    def __init__(self, state: object, corrupt: Corrupt):
        if not isinstance(state, dict):
            raise corrupt("the payload is not an index state")
        self.state, self.corrupt = state, corrupt

    def load(self, key: str) -> object:
        if key not in self.state:
            raise self.corrupt(f"the index state has no {key!r} section")
        return self.state[key]


# -- storing and reading -----------------------------------------------------------------

def _le(values: np.ndarray, dtype: str) -> bytes:
    return np.asarray(values).astype(dtype).tobytes()


def write_sections(*, name: str, params: dict, alphabet: str, words: bytes, counts: array.array,
                   codes: dict[int, np.ndarray], order: tuple[np.ndarray, np.ndarray],
                   families: dict[str, BitmapFamily], classes: str,
                   lemmas: np.ndarray | None) -> dict[str, object]:
    """The stored sections of an index (see the module docstring), small ones first;
    ``classes`` names what classified the words, ``lemmas`` their lemma groups."""
    dtype = code_dtype(len(alphabet)).newbyteorder("<")
    out: dict[str, object] = {
        "meta": {"state_version": STATE_VERSION, "name": name, "params": params,
                 "alphabet": alphabet, "words": len(counts),
                 "lengths": {n: len(block) for n, block in codes.items()}, "classes": classes},
        "counts": _le(np.frombuffer(counts, dtype=np.uint64), "<u8"),
    }
    out.update((key, families[key].to_state()) for key in ("by_length", "having", "classes"))
    out["lemmas"] = lemmas_state(lemmas)
    out.update((f"codes:{n}", block.astype(dtype, copy=False).tobytes())
               for n, block in codes.items())
    out["words"] = words
    out.update((key, families[key].to_state()) for key in ("at", "at_least", "by_pattern"))
    out["order"] = [_le(order[0], "<u4"), _le(order[1], "<u4")]
    return out


@dataclass(frozen=True)
class Meta:
    """The ``meta`` section, checked."""

    name: str
    params: dict
    alphabet: str
    words: int
    lengths: dict[int, int]
    classes: str = ""  # what classified the words ('' = unclassified)

    @property
    def letters_total(self) -> int:
        """How many letters all the words have together."""
        return sum(n * m for n, m in self.lengths.items())


def read_meta(obj: object, corrupt: Corrupt = corrupt_value) -> Meta:
    """The ``meta`` section after checking it."""
    keys = {"state_version", "name", "params", "alphabet", "words", "lengths", "classes"}
    if not isinstance(obj, dict) or set(obj) != keys:
        raise corrupt("the index description (meta) is missing parts or has unknown ones")
    if obj["state_version"] != STATE_VERSION:
        raise corrupt(f"index state version {obj['state_version']!r}, expected {STATE_VERSION}")
    name, params, alphabet, n, lengths = (obj[k] for k in ("name", "params", "alphabet",
                                                           "words", "lengths"))
    if not (isinstance(name, str) and isinstance(params, dict) and isinstance(alphabet, str)
            and type(n) is int and 0 <= n < 2**32 and isinstance(lengths, dict)
            and all(type(k) is int and type(v) is int and 1 <= k <= _MAX_LENGTH and 1 <= v <= n
                    for k, v in lengths.items())):
        raise corrupt("the index description (meta) has a part of the wrong type or range")
    if any(a >= b for a, b in itertools.pairwise(alphabet)):
        raise corrupt("the alphabet is not in code-point order")
    if sum(lengths.values()) != n or (n == 0) != (not alphabet):
        raise corrupt("the word lengths do not add up to the word count")
    if not isinstance(obj["classes"], str) or len(obj["classes"]) > 1000:
        raise corrupt("the index description (meta) names its word classes wrongly")
    return Meta(name, params, alphabet, n, dict(lengths), obj["classes"])


def read_section(key: str, obj: object, meta: Meta, corrupt: Corrupt = corrupt_value) -> Any:
    """A section other than ``meta`` after checking it against ``meta``: the counts as an
    ``array('Q')``, a family as a :class:`BitmapFamily`, other sections as stored."""
    n = meta.words
    if key == "counts":
        if not isinstance(obj, bytes) or len(obj) != 8 * n:
            raise corrupt("the counts do not match the word count")
        values = np.frombuffer(obj, dtype="<u8")
        if n and (int(values[0]) > _MAX_COUNT or bool((values[1:] > values[:-1]).any())):
            raise corrupt("the counts are out of range or not in descending order")
        return array.array("Q", values.astype(np.uint64).tobytes())
    if key == "words":
        total = meta.letters_total
        if not isinstance(obj, bytes) or (n == 0 and obj) or (
                n and not total <= len(obj) - n + 1 <= 4 * total):
            raise corrupt("the word list does not match the word count and lengths")
        return obj
    if key == "order":
        if not (isinstance(obj, list) and len(obj) == 2
                and all(isinstance(o, bytes) and len(o) == 4 * n for o in obj)):
            raise corrupt("the word order does not match the word count")
        return obj[0], obj[1]
    if key.startswith("codes:"):
        length = int(key[6:])
        size = code_dtype(len(meta.alphabet)).itemsize
        if not isinstance(obj, bytes) or len(obj) != meta.lengths.get(length, 0) * length * size:
            raise corrupt(f"the encoded words of length {length} do not match the word lengths")
        return obj
    if key in FAMILIES:
        return _read_family(key, obj, meta, corrupt)
    if key == "classes":
        return read_classes(obj, n, meta.classes, corrupt)
    if key == "lemmas":
        return read_lemmas(obj, n, corrupt)
    raise corrupt(f"unknown section {key!r}")


def _read_family(key: str, obj: object, meta: Meta, corrupt: Corrupt) -> BitmapFamily:
    n, letters, longest = meta.words, frozenset(meta.alphabet), max(meta.lengths, default=0)
    checks: dict[str, tuple[str, Callable[[object], bool]]] = {
        "by_length": ("length", lambda k: type(k) is int and k in meta.lengths),
        "by_pattern": ("pattern", lambda k: type(k) is bytes and len(k) > 0),
        "at": ("position", lambda k: type(k) is tuple and len(k) == 2 and type(k[0]) is int
               and 0 <= k[0] < longest and k[1] in letters),
        "having": ("letter", lambda k: type(k) is str and k in letters),
        "at_least": ("letter count", lambda k: type(k) is tuple and len(k) == 2
                     and type(k[1]) is int and 2 <= k[1] <= longest and k[0] in letters),
    }
    label, key_ok = checks[key]
    family = BitmapFamily.from_state(label, obj, n, key_ok, corrupt)
    if key == "by_length" and (set(family) != set(meta.lengths) or any(
            family.cardinality(k) != m for k, m in meta.lengths.items())):
        raise corrupt("the length bitmaps do not match the word lengths")
    if key == "by_pattern" and family.total() != n:
        raise corrupt("the pattern bitmaps do not cover every word exactly once")
    if key == "at" and family.total() != meta.letters_total:
        raise corrupt("the position bitmaps do not hold every letter of every word")
    if key == "having" and set(family) != letters:
        raise corrupt("the letter bitmaps do not match the alphabet")
    return family


# -- the slow invariant check ------------------------------------------------------------

def check_index(index: Any, families: dict[str, BitmapFamily]) -> None:
    """Verify every invariant of an index (whose bitmap ``families`` are given) by
    recomputing everything with plain scans."""
    words = index.words
    n = len(words)
    assert len(index.counts) == n, "counts and words differ in length"
    assert len(set(words)) == n, "duplicate words"
    counts = index.counts
    for i in range(1, n):
        a, b = (-counts[i - 1], words[i - 1]), (-counts[i], words[i])
        assert a < b, f"ranking order broken at id {i}: {words[i - 1]!r}, {words[i]!r}"
    for w in words:
        assert w and w == normalize(w) and not any(c.isspace() for c in w), f"bad word {w!r}"
    assert index.alphabet == "".join(sorted(set("".join(words)))), "alphabet"
    assert index.total == sum(counts), "total count"
    assert [index.word(i) for i in range(n)] == words, "stored words"
    lengths: dict[int, set] = {}
    patterns: dict[bytes, set] = {}
    at: dict[tuple[int, str], set] = {}
    having: dict[str, set] = {}
    at_least: dict[tuple[str, int], set] = {}
    for i, w in enumerate(words):
        lengths.setdefault(len(w), set()).add(i)
        patterns.setdefault(pattern_key(pattern(w)), set()).add(i)
        for p, ch in enumerate(w):
            at.setdefault((p, ch), set()).add(i)
        for ch in set(w):
            having.setdefault(ch, set()).add(i)
            for k in range(2, w.count(ch) + 1):
                at_least.setdefault((ch, k), set()).add(i)
    fam = families
    for name, want in (("by_length", lengths), ("by_pattern", patterns), ("at", at),
                       ("having", having), ("at_least", at_least)):
        have = fam[name]
        assert set(want) == set(have), f"{name} keys differ"
        for key, ids in want.items():
            bm = have[key]
            assert isinstance(bm, FrozenBitMap), f"{name} {key!r} is not a FrozenBitMap"
            assert set(bm) == ids, f"{name} bitmap {key!r} holds the wrong ids"
            assert have.cardinality(key) == len(ids), f"{name} {key!r} cardinality"
    assert index.all_ids() == FrozenBitMap(range(n))
    code = {ch: i for i, ch in enumerate(index.alphabet)}
    for length, ids in lengths.items():
        enc = index.encoded(length)
        assert enc.ids.tolist() == sorted(ids), f"encoded ids of length {length}"
        for row, i in enumerate(enc.ids.tolist()):
            w = words[i]
            assert enc.codes[row].tolist() == [code[ch] for ch in w], f"codes of {w!r}"
            assert enc.first[row].tolist() == [w.index(ch) for ch in w], f"first of {w!r}"
    assert index.sorted_ids().tolist() == sorted(range(n), key=words.__getitem__), "word order"
    assert index.sorted_ids(reverse=True).tolist() == sorted(
        range(n), key=lambda i: words[i][::-1]), "reversed word order"

