"""Class files: a user's (or a shipped source's) word classes, one word a line.

Format, version 1 (UTF-8, optionally gzip-compressed)::

    # cryptocomp classes 1
    word<TAB>class[,class...][<TAB>lemma]

``class`` is one of ``dictionary``, ``name``, ``abbreviation``, ``offensive``
(:data:`~.classes.SOURCE_CLASSES`), or ``unknown`` alone (the word is in no class: it
overrides what a language's source says); ``lemma``, where given, is the word's base
form (the crossword fillers keep one form of a lemma per fill).  Words and lemmas are
read in the index's spelling (:func:`~.alphabet.normalize`: NFC, lower case).

The first line names the version.  A file without it (its first line is a word line)
is taken as version 1; another version is refused whole.  Other lines starting with
``#`` and blank lines are comments.  A word given on several lines has the classes of
all of them (``unknown`` of none) and the lemma of the last one that names one.

Every line is checked on read: a bad line (not UTF-8, no tab, an empty word, a class
that is no class, a letter outside the language's alphabet, a word an index cannot
hold) is skipped with one warning line naming its line number, and counted in
:attr:`ClassFile.skipped`; every other line is kept.

A class file adds to the classes of a language's source (``en``, ``ru``) and overrides
them: a word the file names has the file's classes instead of the source's (and the
file's lemma where it gives one).  For any other language it is the only source.
"""

from __future__ import annotations

import hashlib
import logging
import re
from dataclasses import dataclass, field
from pathlib import Path

from ..domain import Word
from ..errors import DictionaryError
from ..files import gunzip, read_bytes, shown
from .alphabet import is_any_mark, normalize, word_problem
from .classes import SOURCE_CLASSES

__all__ = ["CLASSFILE_HEADER", "CLASSFILE_VERSION", "ClassFile", "read_class_file",
           "parse_classes"]

log = logging.getLogger(__name__)

CLASSFILE_VERSION = 1
CLASSFILE_HEADER = f"# cryptocomp classes {CLASSFILE_VERSION}"
_HEADER_RE = re.compile(r"^#\s*cryptocomp classes\s+(\S+)\s*$")
_NAMES = frozenset(SOURCE_CLASSES)
_MAX_WARNINGS = 10  # bad lines named one by one; the rest are counted
_LIMIT = 1 << 30


@dataclass
class ClassFile:
    """The word classes a class file gives (see the module docstring)."""

    label: str                                               # the file, as shown
    sha256: str = ""                                         # of its bytes as stored
    classes: dict[Word, frozenset[str]] = field(default_factory=dict)
    lemmas: dict[Word, Word] = field(default_factory=dict)
    skipped: int = 0                                         # bad lines left out
    problems: list[str] = field(default_factory=list)        # the first few, one line each


def read_class_file(path: str | Path, *, alphabet: str | None = None,
                    fold_yo: bool = False) -> ClassFile:
    """The classes of the class file at ``path`` (``.gz``: compressed), its lines checked
    (``alphabet``: the letters the words may use; None: any letters); a bad line is a
    warning, an unreadable file or another version a :class:`DictionaryError`."""
    data = read_bytes(path, "class file", DictionaryError, limit=_LIMIT)
    digest = hashlib.sha256(data).hexdigest()
    if data[:2] == b"\x1f\x8b":
        data = gunzip(data, path, "class file", DictionaryError)
    out = parse_classes(data, shown(path), alphabet=alphabet, fold_yo=fold_yo)
    out.sha256 = digest
    return out


def parse_classes(data: bytes, label: str, *, alphabet: str | None = None,
                  fold_yo: bool = False) -> ClassFile:
    """:func:`read_class_file` for a class file's (decompressed) bytes."""
    out = ClassFile(label)
    letters = frozenset(alphabet) if alphabet is not None else None
    lines = data.split(b"\n")
    if lines and lines[-1] == b"":
        lines.pop()
    specs: dict[str, frozenset[str] | str] = {}
    for number, raw in enumerate(lines, 1):
        why = _line(out, number, raw, letters, fold_yo, specs)
        if why is not None:
            out.skipped += 1
            text = f"{label}: line {number}: {why} (line skipped)"
            if len(out.problems) < _MAX_WARNINGS:
                out.problems.append(text)
                log.warning("%s", text)
    if out.skipped > _MAX_WARNINGS:
        log.warning("%s: %d bad lines skipped in all", label, out.skipped)
    return out


def _line(out: ClassFile, number: int, raw: bytes, letters: frozenset[str] | None,
          fold_yo: bool, specs: dict[str, frozenset[str] | str]) -> str | None:
    """Take one line into ``out``; why it is bad, or None."""
    try:
        line = raw.decode("utf-8-sig" if number == 1 else "utf-8").rstrip("\r")
    except UnicodeDecodeError as exc:
        return f"not UTF-8 (byte 0x{raw[exc.start]:02x})"
    if line.startswith("#"):
        head = _HEADER_RE.match(line)
        if head and number == 1 and head.group(1) != str(CLASSFILE_VERSION):
            raise DictionaryError(f"{out.label}: class file version {head.group(1)[:20]!r} is "
                                  f"not {CLASSFILE_VERSION} (written by another version?)")
        return None
    if not line.strip():
        return None
    parts = line.split("\t")
    if len(parts) not in (2, 3):
        return "expected word<TAB>classes[<TAB>lemma]"
    word = _word(parts[0], letters, fold_yo)
    if not isinstance(word, tuple):
        return f"word: {word}"
    names = specs.get(parts[1])
    if names is None:  # a file has few distinct class lists: each is checked once
        names = specs[parts[1]] = _names(parts[1])
    if isinstance(names, str):
        return names
    lemma = None
    if len(parts) == 3 and parts[2].strip():
        got = _word(parts[2], letters, fold_yo)
        if not isinstance(got, tuple):
            return f"lemma: {got}"
        lemma = got[0]
    w = word[0]
    out.classes[w] = out.classes.get(w, frozenset()) | names if w in out.classes else names
    if lemma is not None:
        out.lemmas[w] = lemma
    return None


def _names(spec: str) -> frozenset[str] | str:
    """The classes a line's class list names, or why it is bad."""
    names = frozenset(n.strip().lower() for n in spec.split(",") if n.strip())
    if names == {"unknown"}:
        return frozenset()
    if not names:
        return "no class given"
    bad = sorted(names - _NAMES)
    if bad:
        return f"{bad[0][:40]!r} is no class (use {', '.join(SOURCE_CLASSES)} or unknown)"
    return names


def _word(text: str, letters: frozenset[str] | None, fold_yo: bool) -> tuple[Word] | str:
    """(the word in the index's spelling,) or why it is no word."""
    if text.isalpha() and text.islower() and text.isascii() and \
            (letters is None or letters.issuperset(text)):
        return (text,)  # nearly every line of a word list: already in the index's spelling
    word = normalize(text.strip(), fold_yo=fold_yo)
    if not word:
        return "it is empty"
    why = word_problem(word)
    if why is not None:
        return why
    for ch in word:
        if letters is not None and ch not in letters:
            return f"{ch!r} is not in the alphabet"
        if letters is None and not (ch.isalpha() or is_any_mark(ch)):
            return f"{ch!r} is not a letter"
    return (word,)
