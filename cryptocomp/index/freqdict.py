"""Frequency dictionaries: the ``word count`` text format, its loader, and the wordfreq export.

Format (the original author's; cryptocomp calls it freqdict format 1)
-----------------------------------------------------------------------
UTF-8 text (a leading BOM is accepted), one entry a line::

    word count

``word`` is any run of non-space characters without ``?`` or ``.`` (the template
wildcards), ``count`` a decimal integer from 0 to 2**63 - 1, separated by whitespace.
Blank lines are ignored.  On loading, every word is put in Unicode NFC and lower case,
and duplicates (also those that only differ in case or normalisation) are merged by
summing their counts.  A line with no count, a non-numeric, negative or too large
count, extra fields, or a word containing a wildcard is malformed: it is skipped and
counted, and one warning names how many there were and the first few line numbers.  A
line whose word cannot be indexed (see :func:`~cryptocomp.index.alphabet.word_problem`:
more than :data:`~cryptocomp.index.alphabet.MAX_WORD_LENGTH` letters, a combining mark
first, or a control, bidi, zero-width, surrogate or private-use character) is skipped the
same way, with its own warning naming the first few lines and why; such a word is never
indexed nor printed.  A file that is not UTF-8 is refused with one error naming the file.

A plain word list (one word a line, no counts, like ENABLE) is accepted too:
when the first non-blank line has a single field the file is read as a word
list, every word with count 1 (ranked alphabetically), and a line with more
than one field is malformed.  Indexes are built through :mod:`.wordlists`, which
detects this format among the scored ones (``word;score``) and ranks a plain list
by its order instead.

English, Russian and every other language of the ``wordfreq`` package are
exported into this format by :func:`export_wordfreq`: the "large" list where
wordfreq has one (else its best), counts are frequencies per billion words
rounded to integers, and only words written entirely in the language's own
alphabet are kept (see :mod:`cryptocomp.alphabet`).  Russian words keep ё as
written; ``fold_yo=True`` folds ё into е (and merges the counts) when loading.
"""

from __future__ import annotations

import hashlib
import logging
import os
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from ..domain import Word
from ..errors import DictionaryError
from ..files import decode_text, open_regular, read_bytes, shown, write_atomic
from .alphabet import ONE, normalize, refusal_warning, word_filter, word_problem

__all__ = ["FreqDict", "LoadReport", "load_freqdict", "read_freqdict", "parse_freqdict",
           "export_wordfreq", "wordfreq_text", "wordfreq_languages", "file_sha256",
           "FREQDICT_FORMAT"]

log = logging.getLogger(__name__)

FREQDICT_FORMAT = 1
_COUNT_SCALE = 1e9  # counts are occurrences per billion words
_REPORTED_LINES = 5
MAX_COUNT = 2**63 - 1  # counts are stored as unsigned 64-bit integers; sums must fit too


@dataclass(frozen=True)
class LoadReport:
    """What the loader did with a file: lines read, words kept, lines skipped."""

    lines: int = 0
    words: int = 0
    merged: int = 0
    malformed: int = 0
    malformed_lines: tuple[int, ...] = ()
    refused: int = 0  # lines whose word cannot be indexed (alphabet.word_problem)
    refused_lines: tuple[tuple[int, str], ...] = ()  # the first few: (line, why)

    def warning(self, source: str) -> str | None:
        """The one warning line for skipped lines, or None when there were none."""
        if not self.malformed:
            return None
        shown = ", ".join(map(str, self.malformed_lines))
        more = ", ..." if self.malformed > len(self.malformed_lines) else ""
        return (f"{source}: skipped {self.malformed} malformed line"
                f"{'s' if self.malformed != 1 else ''} (line {shown}{more}); "
                "each line must be 'word count' with a non-negative integer count")

    def word_warning(self, source: str) -> str | None:
        """The one warning line for lines skipped for their word, or None when there were
        none."""
        return refusal_warning(source, self.refused, self.refused_lines) if self.refused \
            else None


@dataclass
class FreqDict:
    """Word counts read from one source, with where they came from."""

    counts: dict[Word, int]
    source: str
    sha256: str = ""
    report: LoadReport = field(default_factory=LoadReport)

    def __len__(self) -> int:
        return len(self.counts)


def parse_freqdict(lines: Iterable[str], *, fold_yo: bool = False,
                   plain: bool | None = None) -> tuple[dict[Word, int], LoadReport]:
    """Parse ``word count`` lines into merged counts and a report of skipped lines
    (``plain``: whether they are a plain word list; None: the first line tells)."""
    counts: dict[Word, int] = {}
    n_lines = merged = malformed = refused = 0
    bad: list[int] = []
    refusals: list[tuple[int, str]] = []
    # 2 for 'word count' lines, 1 for a plain word list; else set by the first line
    fields = 0 if plain is None else 1 if plain else 2
    for n_lines, line in enumerate(lines, 1):
        parts = line.split()
        if not parts:
            continue
        if not fields:
            fields = 1 if len(parts) == 1 else 2
        if fields == 1:
            parts = parts + ["1"] if len(parts) == 1 else parts + ["extra"]
        if (len(parts) != 2 or not parts[1].isascii() or not parts[1].isdigit()
                or len(parts[1]) > 19 or int(parts[1]) > MAX_COUNT
                or any(w in parts[0] for w in ONE)):
            malformed += 1
            if len(bad) < _REPORTED_LINES:
                bad.append(n_lines)
            continue
        word = normalize(parts[0], fold_yo=fold_yo)
        why = word_problem(word)
        if why is not None:
            refused += 1
            if len(refusals) < _REPORTED_LINES:
                refusals.append((n_lines, why))
            continue
        count = int(parts[1])
        if word in counts:
            merged += 1
            count += counts[word]
            if count > MAX_COUNT:
                raise DictionaryError(f"line {n_lines}: the summed count of {word!r} exceeds "
                                      f"{MAX_COUNT}")
        counts[word] = count
    return counts, LoadReport(n_lines, len(counts), merged, malformed, tuple(bad), refused,
                              tuple(refusals))


def file_sha256(path: str | os.PathLike) -> str:
    """Hex SHA-256 of a dictionary file's bytes (:class:`DictionaryError` when it is not a
    readable regular file)."""
    digest = hashlib.sha256()
    with open_regular(path, "dictionary file", DictionaryError) as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def load_freqdict(path: str | os.PathLike, *, fold_yo: bool = False) -> FreqDict:
    """Read a ``word count`` file; malformed lines are skipped with one warning."""
    path = Path(path)
    return read_freqdict(read_bytes(path, "dictionary file", DictionaryError), str(path),
                         fold_yo=fold_yo)


def read_freqdict(data: bytes, source: str, *, fold_yo: bool = False) -> FreqDict:
    """Parse the bytes of a ``word count`` file (``source`` names it in messages)."""
    if not data:
        raise DictionaryError(f"dictionary file is empty: {shown(source)}")
    text = decode_text(data, source, "dictionary file", DictionaryError)
    counts, report = parse_freqdict(text.splitlines(), fold_yo=fold_yo)
    del text
    for warning in (report.warning(shown(source)), report.word_warning(shown(source))):
        if warning:
            log.warning(warning)
    if not counts:
        raise DictionaryError(f"{shown(source)}: no 'word count' lines found")
    return FreqDict(counts, source, hashlib.sha256(data).hexdigest(), report)


def wordfreq_languages() -> list[str]:
    """Language codes the installed wordfreq package has word lists for."""
    import wordfreq

    return sorted(wordfreq.available_languages("best"))


def wordfreq_text(lang: str) -> tuple[bytes, dict[Word, int]]:
    """wordfreq's list for ``lang`` as the bytes of a ``word count`` file, and its counts
    (what parsing those bytes gives)."""
    import wordfreq

    large = wordfreq.available_languages("large")
    if lang not in wordfreq.available_languages("best"):
        raise DictionaryError(
            f"unknown language {lang!r}: wordfreq has {', '.join(wordfreq_languages())}")
    try:
        freqs = wordfreq.get_frequency_dict(lang, "large" if lang in large else "best")
        keep = word_filter(lang, freqs.items())
        counts: dict[Word, int] = {}
        for word, freq in freqs.items():
            word = normalize(word)
            if keep(word) and word_problem(word) is None:
                counts[word] = counts.get(word, 0) + max(1, round(freq * _COUNT_SCALE))
        del freqs
    finally:
        # wordfreq keeps every list it loaded (hundreds of MB for Russian) for the life of
        # the process; the index build that follows needs that memory
        wordfreq.get_frequency_dict.cache_clear()
        wordfreq.get_frequency_list.cache_clear()
    ordered = sorted(counts)
    ordered.sort(key=counts.__getitem__, reverse=True)  # stable: equal counts stay a-z
    data = "".join([f"{w} {counts[w]}\n" for w in ordered]).encode("utf-8")
    return data, counts


def export_wordfreq(lang: str, path: str | os.PathLike) -> int:
    """Write wordfreq's list for ``lang`` as a ``word count`` file (atomically); return its size."""
    data, counts = wordfreq_text(lang)
    write_atomic(Path(path), data, create_dirs=True)
    return len(counts)
