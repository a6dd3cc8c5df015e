"""Word lists in the constructors' formats: reading them, detecting which one a file is in,
merging a base list with the user's own lists, and writing them.

Word list format 1
------------------
UTF-8 text (a leading BOM is accepted), one entry a line, blank lines ignored, in one of
five formats (:data:`FORMATS`)::

    semicolon   word;score      scores 1-100 (Spread the Wordlist, XWord Info, Crossfire)
    tab         word<TAB>score  scores 1-100
    comma       word,score      scores 1-100
    count       word count      cryptocomp's freqdict format 1 (:mod:`.freqdict`)
    plain       word            a word list, ranked by its order: the first line is the
                                most frequent word

Detection: the first 100 non-blank lines that are not removal lines are sampled, and the
file is in the first format of that order (semicolon, tab, comma, count, plain) that at
least half of them fit; when none does, in the one most of them fit (the earlier on a
tie), and in the count format when no line fits any.  A line fits a scored format when
it ends in its separator and digits after a non-empty word (the tab format only for
values up to 100, so that a ``word count`` file separated by tabs stays a count file), the
count format when it is two fields whose second is digits, the plain format when it is one
field.

Every word is put in Unicode NFC and lower case (ё folded into е with ``fold_yo``).  In a
scored list a later line for the same word replaces an earlier one; a count file sums
them (as freqdict format 1 does); a plain list keeps a word's first place.  Score 0, or a
line ``-word``, *removes* the word (Crossfire's and Crosshare's convention): it removes the
word from the lists before this one (see :func:`merge_lists`) and any earlier line of the
same file.

Bad lines are skipped and counted, and one warning names how many there were and the first
few with their line numbers and why: in a scored list a missing or non-numeric score, a
score above 100, an empty word; in any list a word with a template wildcard (``?`` ``.``),
a word that cannot be indexed (:func:`~.alphabet.word_problem`) and, when the list is read
against a dictionary's alphabet (a user's list over a base list), a word with other
letters.  Count files are read by :func:`~.freqdict.parse_freqdict` and warn as it does.

Several lists
-------------
:func:`merge_lists` lays the user's lists over a base list in order: each entry of a later
list replaces the word's count, each removal drops the word.  An index built from a
scored base is *scored* (its counts are the scores, :mod:`.scores`).  Over a counted base
(wordfreq's counts per billion, a count file, a plain list ranked by its order) a score
``s`` becomes :func:`~.scores.count_for_score` of ``s`` among the base list's total (the
sum of its counts): the smallest count with at least that score.  A count entry laid over
a scored base becomes the score its count has among its own list's total; a plain entry
laid over any base has the default score 50 (:data:`DEFAULT_SCORE`).
"""

from __future__ import annotations

import hashlib
import logging
import os
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from ..domain import Word
from ..errors import DictionaryError
from ..files import decode_text, read_bytes, shown, write_atomic
from .alphabet import ALPHABETS, ONE, normalize, script_of, word_problem
from .freqdict import LoadReport, parse_freqdict
from .scores import MAX_SCORE, count_for_score, score_of

__all__ = ["WORDLIST_FORMAT", "FORMATS", "SCORED_FORMATS", "DEFAULT_SCORE", "WordList",
           "Admits", "admitted_letters", "detect_format", "parse_list", "read_list",
           "load_list", "merge_lists", "list_text", "write_list"]

log = logging.getLogger(__name__)

WORDLIST_FORMAT = 1
FORMATS = ("semicolon", "tab", "comma", "count", "plain")
_SEPARATORS = {"semicolon": ";", "tab": "\t", "comma": ","}
SCORED_FORMATS = frozenset(_SEPARATORS)
DEFAULT_SCORE = 50  # a word added without a score (`:add WORD`, a plain line in a user list)
_SAMPLE = 100  # lines the detection reads
_REPORTED_LINES = 5
Admits = Callable[[str], bool]  # whether a word is written in a dictionary's alphabet


def admitted_letters(letters: Iterable[str], lang: str | None = None) -> Admits:
    """Whether a word is written in a dictionary's alphabet: its language's fixed alphabet
    (:data:`~.alphabet.ALPHABETS`), else any character of the scripts of its ``letters``
    (a list of Latin words admits every Latin letter)."""
    fixed = ALPHABETS.get(lang or "")
    if fixed:
        chars = frozenset(fixed)
        return lambda word: chars.issuperset(word)
    seen = frozenset(letters)
    scripts = frozenset(map(script_of, seen))
    return lambda word: all(c in seen or script_of(c) in scripts for c in word)


@dataclass
class WordList:
    """One list read from a file: its words' values (scores, counts, or counts from the
    order), the words it removes, and what was skipped."""

    entries: dict[Word, int]
    removed: set[Word]
    format: str
    source: str = ""
    sha256: str = ""
    lines: int = 0
    bad: int = 0
    bad_lines: tuple[tuple[int, str], ...] = ()  # the first few: (line, why)
    count_report: LoadReport | None = field(default=None, repr=False)

    @property
    def scored(self) -> bool:
        """Whether the values are 1-100 scores."""
        return self.format in SCORED_FORMATS

    def warnings(self, source: str | None = None) -> list[str]:
        """The warning lines for skipped lines (none when nothing was skipped)."""
        name = shown(source if source is not None else self.source)
        out = []
        if self.bad:
            listed = "; ".join(f"line {n}: {why}" for n, why in self.bad_lines)
            more = "; ..." if self.bad > len(self.bad_lines) else ""
            out.append(f"{name}: skipped {self.bad} bad line{'s' if self.bad != 1 else ''} "
                       f"({listed}{more})")
        if self.count_report is not None:
            out += [w for w in (self.count_report.warning(name),
                                self.count_report.word_warning(name)) if w]
        return out


def _removal(text: str) -> str | None:
    """The word a ``-word`` line removes, or None when the line is not one."""
    if len(text) > 1 and text[0] == "-" and not any(c.isspace() or c in ";," for c in text):
        return text[1:]
    return None


def _digits(text: str) -> bool:
    return text.isascii() and text.isdigit()


def _fits(text: str, fmt: str) -> bool:
    if fmt in _SEPARATORS:
        word, sep, value = text.rpartition(_SEPARATORS[fmt])
        value = value.strip()
        return (bool(sep) and bool(word.strip()) and _digits(value)
                and (fmt != "tab" or int(value) <= MAX_SCORE))
    parts = text.split()
    if fmt == "count":
        return len(parts) == 2 and _digits(parts[1])
    return len(parts) == 1


def detect_format(lines: Iterable[str]) -> str:
    """The format of a list's lines (see the module docstring for the rule)."""
    sample: list[str] = []
    for line in lines:
        text = line.strip()
        if text and _removal(text) is None:
            sample.append(text)
            if len(sample) == _SAMPLE:
                break
    if not sample:
        return "plain"
    fits = {fmt: sum(_fits(text, fmt) for text in sample) for fmt in FORMATS}
    for fmt in FORMATS:
        if 2 * fits[fmt] >= len(sample):
            return fmt
    if not any(fits.values()):
        return "count"
    return max(FORMATS, key=lambda f: (fits[f], -FORMATS.index(f)))


def _entry(text: str, fmt: str) -> tuple[str, int | None] | str:
    """(raw word, value; None for a plain line) of a line, or why it is bad."""
    if fmt in _SEPARATORS:
        word, sep, value = text.rpartition(_SEPARATORS[fmt])
        if not sep:
            return f"no {_SEPARATORS[fmt]!r} and score"
        word, value = word.strip(), value.strip()
        if not word:
            return "empty word"
        if not _digits(value):
            return f"bad score {value[:20]!r}" if value else "no score"
        if len(value) > 4 or int(value) > MAX_SCORE:
            return f"score {value[:20]} is not 1-100"
        return word, int(value)
    parts = text.split()
    if len(parts) != 1:
        return "more than one word (a plain list has one word a line)"
    return parts[0], None


class _Skipped:
    """The bad lines of one list: how many, and the first few with why."""

    def __init__(self) -> None:
        self.count = 0
        self.first: list[tuple[int, str]] = []

    def add(self, n: int, why: str) -> None:
        self.count += 1
        if len(self.first) < _REPORTED_LINES:
            self.first.append((n, why))


def _problem(word: str, admits: Admits | None) -> str | None:
    """Why a (normalised) word of a list cannot be kept, or None."""
    if not word:
        return "empty word"
    if any(w in word for w in ONE):
        return f"{word[:30]!r} holds a template wildcard"
    why = word_problem(word)
    if why is not None:
        return why
    if admits is not None and not admits(word):
        return f"{word[:30]!r} is not written in the dictionary's alphabet"
    return None


def parse_list(lines: Sequence[str], *, fold_yo: bool = False, admits: Admits | None = None,
               fmt: str | None = None) -> WordList:
    """Parse a list's lines (``fmt``: its format, detected when None); ``admits``: whether
    a word is written in the dictionary's alphabet (None: any word is)."""
    fmt = fmt or detect_format(lines)
    if fmt not in FORMATS:
        raise ValueError(f"unknown word list format {fmt!r}")
    if fmt == "count" and admits is None and not _has_removals(lines):
        counts, report = parse_freqdict(lines, fold_yo=fold_yo, plain=False)  # as format 1
        return WordList(counts, set(), fmt, lines=len(lines), count_report=report)
    skipped = _Skipped()
    entries: dict[Word, int] = {}
    removed: set[Word] = set()
    counted: list[str] = []  # a count file's lines, the others blanked, for parse_freqdict
    count_lines: dict[Word, list[int]] = {}  # where each word of a count file was counted
    for n, line in enumerate(lines, 1):
        text = line.strip()
        gone = _removal(text) if text else None
        if fmt == "count" and gone is None:
            parts = text.split()
            word = normalize(parts[0], fold_yo=fold_yo) if len(parts) == 2 else ""
            if word and admits is not None and not admits(word):
                skipped.add(n, f"{parts[0][:30]!r} is not written in the dictionary's alphabet")
                text = ""
            elif word:
                count_lines.setdefault(word, []).append(n - 1)
                removed.discard(word)
            counted.append(text)
            continue
        if fmt == "count" and gone is not None:  # a removal drops the word's earlier lines
            for i in count_lines.pop(normalize(gone, fold_yo=fold_yo), []):
                counted[i] = ""
        counted.append("")
        if not text:
            continue
        got = (gone, 0) if gone is not None else _entry(text, fmt)
        if isinstance(got, str):
            skipped.add(n, got)
            continue
        word = normalize(got[0], fold_yo=fold_yo)
        why = _problem(word, admits)
        if why is not None:
            skipped.add(n, why)
        elif got[1] == 0:
            entries.pop(word, None)
            removed.add(word)
        else:
            removed.discard(word)
            if got[1] is None:  # plain: a word keeps its first place
                entries.setdefault(word, 0)
            else:
                entries.pop(word, None)  # the later line's place and value
                entries[word] = got[1]
    return _finished(WordList(entries, removed, fmt, lines=len(lines), bad=skipped.count,
                              bad_lines=tuple(skipped.first)), counted, fold_yo)


def _has_removals(lines: Sequence[str]) -> bool:
    return any(line.lstrip().startswith("-") for line in lines)


def _finished(got: WordList, counted: list[str], fold_yo: bool) -> WordList:
    """A parsed list with its values final: a count file's counts (its lines read as freqdict
    format 1), a plain list's counts from its order."""
    if got.format == "count":
        got.entries, got.count_report = parse_freqdict(counted, fold_yo=fold_yo, plain=False)
    elif got.format == "plain":  # the first word counts as many as there are words
        got.entries = {w: len(got.entries) - i for i, w in enumerate(got.entries)}
    return got


def read_list(data: bytes, source: str, *, fold_yo: bool = False,
              admits: Admits | None = None, what: str = "word list") -> WordList:
    """Parse the bytes of a list file (``source`` names it in messages, ``what`` says what
    it is), logging one warning per kind of skipped line."""
    text = decode_text(data, source, what, DictionaryError)
    got = parse_list(text.splitlines(), fold_yo=fold_yo, admits=admits)
    del text
    got.source, got.sha256 = source, hashlib.sha256(data).hexdigest()
    for warning in got.warnings():
        log.warning(warning)
    return got


def load_list(path: str | os.PathLike, *, fold_yo: bool = False,
              admits: Admits | None = None, empty_ok: bool = False,
              what: str = "word list") -> WordList:
    """Read a list file in any of the formats; a file without any word is an error unless
    ``empty_ok`` (a user's list may only remove words, or be new)."""
    data = read_bytes(path, what, DictionaryError)
    if not data and not empty_ok:
        raise DictionaryError(f"{what} is empty: {shown(path)}")
    got = read_list(data, str(path), fold_yo=fold_yo, admits=admits, what=what)
    if not empty_ok and not got.entries:
        raise DictionaryError(f"{shown(path)}: no words found (one word a line, with a score "
                              "or a count after it or none)")
    return got


def merge_lists(base: WordList, overlays: Iterable[WordList]) -> dict[Word, int]:
    """The counts of ``base`` with ``overlays`` laid over it in order (see the module
    docstring; an index of them is scored when ``base`` is)."""
    counts = dict(base.entries)
    total = sum(counts.values())
    for overlay in overlays:
        for word in overlay.removed:
            counts.pop(word, None)
        own_total = sum(overlay.entries.values())
        for word, value in overlay.entries.items():
            if overlay.format == "count":
                counts[word] = (score_of(value, own_total, scored=False) if base.scored
                                else value)
                continue
            score = value if overlay.scored else DEFAULT_SCORE
            counts[word] = count_for_score(score, total, scored=base.scored)
    return counts


def list_text(entries: Mapping[Word, int], fmt: str = "semicolon") -> str:
    """The text of a list in a format: ``entries`` word -> value (0: removed); a plain list
    is written most frequent first, removals as ``-word`` (also in a count file, where 0 is
    a count)."""
    if fmt not in FORMATS:
        raise ValueError(f"unknown word list format {fmt!r}")
    if fmt in _SEPARATORS:
        sep = _SEPARATORS[fmt]
        return "".join(f"{w}{sep}{v}\n" for w, v in entries.items())
    if fmt == "count":
        return "".join(f"{w} {v}\n" if v else f"-{w}\n" for w, v in entries.items())
    ranked = sorted((w for w, v in entries.items() if v), key=lambda w: (-entries[w], w))
    return "".join([*(f"{w}\n" for w in ranked), *(f"-{w}\n" for w, v in entries.items()
                                                   if not v)])


def write_list(path: str | os.PathLike, entries: Mapping[Word, int], fmt: str = "semicolon",
               *, create_dirs: bool = False) -> None:
    """Write a list file atomically (see :func:`list_text`; errors are one
    :class:`~cryptocomp.errors.IndexFileError` line)."""
    write_atomic(Path(path), list_text(entries, fmt).encode("utf-8"), create_dirs=create_dirs)
