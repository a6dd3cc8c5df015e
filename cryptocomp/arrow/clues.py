"""Clue books: the clues an arrow-word puzzle may print for each word.

Two file formats are read, both UTF-8 (gzip allowed, recognised by its magic
bytes, up to :data:`~cryptocomp.files.MAX_DECOMPRESSED` bytes once decompressed),
words stored NFC lower case.

Clue list (a user's own, ``--clues FILE``)
------------------------------------------
One clue a line, ``word<TAB>clue``; a word may have several lines (several
clues).  Blank lines and lines starting with ``#`` are skipped.  A word is
letters only (no spaces, digits or hyphens); the clue is non-empty and has no
further TAB.  A bad line is an error naming the file and line.  A clue that
contains its own answer (see :func:`clue_contains`) is never used; such clues
are dropped with one warning (a file where every clue does so is an error
saying that).  A word's number of senses is its number of
distinct clues.

Compact clue file (version 1; the shipped WordNet clues)
--------------------------------------------------------
First line ``cryptocomp-clues<TAB>1<TAB><source>``; then one word a line:
``word<TAB>senses<TAB>clue<TAB>clue...``, clues best first, ``senses`` a
positive integer (the word's number of senses in the source).
``scripts/build_wordnet_clues.py`` writes it from WordNet 3.0.

Stems: two words *share a stem* when one contains the other (3+ letters) or
they begin with the same ``min(4, shorter length)`` letters; this is
deliberately conservative (``car``/``cargo`` count as sharing), so a clue that
passes never gives its answer away.
"""

from __future__ import annotations

import logging
import random
import re
import unicodedata
from collections.abc import Collection, Iterator
from pathlib import Path

from ..errors import CryptocompError
from ..files import decode_text, gunzip, read_bytes, shown
from ..index.alphabet import normalize, word_problem
from ..shipped import shipped

__all__ = ["ClueBook", "ClueError", "load_clues", "read_clue_list", "read_compact",
           "parse_clue_list", "parse_compact", "shares_stem", "clue_contains", "CLUE_MAGIC",
           "CLUE_VERSION", "WORDNET_PATH", "MAX_CLUE"]

log = logging.getLogger(__name__)

Word = str
Clue = str

CLUE_MAGIC = "cryptocomp-clues"
CLUE_VERSION = 1
MAX_CLUE = 200  # characters: a longer "clue" is a broken line, not a clue
WORDNET_PATH = shipped("clues/wordnet-en.tsv.gz")
_TOKEN = re.compile(r"\w+")


class ClueError(CryptocompError):
    """A clue file cannot be read (missing, not UTF-8, a malformed line, no clue at all)."""


def shares_stem(a: str, b: str) -> bool:
    """True when words ``a`` and ``b`` share a stem (see the module docstring)."""
    a, b = normalize(a), normalize(b)
    short, long_ = (a, b) if len(a) <= len(b) else (b, a)
    if not short:
        return False
    if short == long_ or (len(short) >= 3 and short in long_):
        return True
    n = min(4, len(short))
    return long_[:n] == short[:n]


def clue_contains(clue: str, answer: str) -> bool:
    """True when ``clue`` gives ``answer`` away: a token of it shares a stem with the answer,
    or (answers of 4+ letters) the answer is written inside it."""
    text = normalize(clue)
    answer = normalize(answer)
    if any(shares_stem(tok, answer) for tok in _TOKEN.findall(text)):
        return True
    return len(answer) >= 4 and answer in "".join(ch for ch in text if ch.isalpha())


class ClueBook:
    """word -> (senses, clues best first).  ``ranked``: the clue order is a preference (a
    built clue file), else every clue is as good (a user's list: one is drawn per puzzle)."""

    def __init__(self, entries: dict[Word, tuple[int, list[Clue]]], *, source: str,
                 ranked: bool):
        self._entries = {w: (s, tuple(c)) for w, (s, c) in entries.items() if c}
        self.source = source
        self.ranked = ranked

    def __len__(self) -> int:
        return len(self._entries)

    def __contains__(self, word: object) -> bool:
        return word in self._entries

    def __iter__(self) -> Iterator[Word]:
        return iter(self._entries)

    def senses(self, word: Word) -> int:
        """The word's number of senses (0 when it has no clue)."""
        e = self._entries.get(word)
        return e[0] if e else 0

    def clues(self, word: Word) -> tuple[Clue, ...]:
        """Every clue of the word, best first (empty when it has none)."""
        e = self._entries.get(word)
        return e[1] if e else ()

    def pick(self, word: Word, rng: random.Random | None = None, *, fit: int = 40,
             avoid: Collection[Clue] = ()) -> Clue:
        """The clue to print: the best one of at most ``fit`` characters (a drawn one for an
        unranked book), else the shortest; clues in ``avoid`` (printed already) only when
        there is no other.  KeyError when the word has none."""
        clues = [c for c in self._entries[word][1] if not clue_contains(c, word)]
        if not clues:
            raise KeyError(word)
        fresh = [c for c in clues if _printed(c) not in avoid] or clues
        short = [c for c in fresh if len(c) <= fit] or [min(fresh, key=len)]
        clue = short[0] if self.ranked or rng is None else rng.choice(short)
        return _printed(clue)

    def _check(self) -> None:
        """Invariants: normalised words, positive senses, clues non-empty and not giving the
        answer away."""
        for word, (senses, clues) in self._entries.items():
            assert word == normalize(word) and word.isalpha(), word
            assert senses >= 1 and clues
            for c in clues:
                assert c.strip() and "\t" not in c and "\n" not in c
                assert not clue_contains(c, word), (word, c)


def _printed(clue: Clue) -> Clue:
    """A clue as printed: first letter in upper case."""
    return clue[:1].upper() + clue[1:]


def _text_of(path: str | Path, what: str) -> str:
    data = read_bytes(path, what, ClueError)
    if data[:2] == b"\x1f\x8b":
        data = gunzip(data, path, what, ClueError)  # bounded: a small file may be a bomb
    if not data:
        raise ClueError(f"{what} is empty: {shown(path)}")
    return decode_text(data, path, what, ClueError)


def _all_give_away(source: str, dropped: int) -> ClueError:
    """The error for a file whose every clue contains its answer (none can be printed)."""
    return ClueError(f"{source}: every clue contains its answer ({dropped} clue"
                     f"{'s' if dropped > 1 else ''}), so none can be printed")


def _word(raw: str, where: str) -> Word:
    word = normalize(raw.strip())
    if not word.isalpha() or word_problem(word):  # letters only, and a word a dictionary holds
        raise ClueError(f"{where}: {raw.strip()!r} is not a word (letters only)")
    return word


def parse_clue_list(text: str, source: str = "clue file") -> ClueBook:
    """A :class:`ClueBook` from ``word<TAB>clue`` lines (see the module docstring)."""
    entries: dict[Word, list[Clue]] = {}
    dropped = 0
    for n, line in enumerate(text.splitlines(), 1):
        if not line.strip() or line.startswith("#"):
            continue
        where = f"{source}, line {n}"
        parts = line.split("\t")
        if len(parts) != 2:
            raise ClueError(f"{where}: expected 'word<TAB>clue' (one TAB), found "
                            f"{len(parts) - 1} TABs")
        word = _word(parts[0], where)
        clue = " ".join(parts[1].split())
        if not clue:
            raise ClueError(f"{where}: the clue of {word!r} is empty")
        if len(clue) > MAX_CLUE:
            raise ClueError(f"{where}: the clue of {word!r} is {len(clue)} characters long "
                            f"(at most {MAX_CLUE})")
        if clue_contains(clue, word):
            dropped += 1
            continue
        got = entries.setdefault(word, [])
        if clue not in got:
            got.append(clue)
    if dropped and entries:
        log.warning("%s: %d clue%s giving the answer away not used", source, dropped,
                    "s" if dropped > 1 else "")
    if not entries and dropped:
        raise _all_give_away(source, dropped)
    if not entries:
        raise ClueError(f"{source}: no usable clue (expected 'word<TAB>clue' lines)")
    return ClueBook({w: (len(c), c) for w, c in entries.items()}, source=source, ranked=False)


def parse_compact(text: str, source: str = "clue file", *, trusted: bool = False) -> ClueBook:
    """A :class:`ClueBook` from the compact format (see the module docstring).  Clues that
    give their answer away are dropped, unless the file is ``trusted`` (the shipped one,
    screened when it was built and checked by the tests)."""
    lines = text.splitlines()
    head = lines[0].split("\t") if lines else []
    if len(head) < 2 or head[0] != CLUE_MAGIC:
        raise ClueError(f"{source}: not a compact clue file (no '{CLUE_MAGIC}' header)")
    if head[1] != str(CLUE_VERSION):
        raise ClueError(f"{source}: compact clue file version {head[1]!r}, this cryptocomp "
                        f"reads version {CLUE_VERSION}")
    entries: dict[Word, tuple[int, list[Clue]]] = {}
    dropped = 0
    for n, line in enumerate(lines[1:], 2):
        parts = line.split("\t")
        word = parts[0]
        if len(parts) < 3 or not parts[1].isdigit() or parts[1] == "0" or not word.isalpha() \
                or word != word.lower() or not unicodedata.is_normalized("NFC", word):
            if not line.strip():
                continue
            raise ClueError(f"{source}, line {n}: expected 'word<TAB>senses<TAB>clue...' "
                            f"(word in lower case letters)")
        fit = [c for c in parts[2:] if c.strip() and len(c) <= MAX_CLUE]
        clues = [c for c in fit if trusted or not clue_contains(c, word)]
        dropped += len(fit) - len(clues)
        if clues:
            entries[word] = (int(parts[1]), clues)
    if not entries and dropped:
        raise _all_give_away(source, dropped)
    if not entries:
        raise ClueError(f"{source}: no usable clue")
    return ClueBook(entries, source=source, ranked=True)


def read_clue_list(path: str | Path) -> ClueBook:
    """Read a ``word<TAB>clue`` file."""
    return parse_clue_list(_text_of(path, "clue file"), shown(path))


def read_compact(path: str | Path) -> ClueBook:
    """Read a compact clue file."""
    return parse_compact(_text_of(path, "clue file"), shown(path))


def load_clues(spec: str | Path) -> ClueBook:
    """``wordnet`` (the shipped English clues) or a clue file of either format."""
    if str(spec) == "wordnet":
        if not WORDNET_PATH.is_file():
            raise ClueError(f"the WordNet clue file is missing ({WORDNET_PATH}); rebuild it "
                            f"with scripts/build_wordnet_clues.py")
        return parse_compact(_text_of(WORDNET_PATH, "clue file"), "WordNet 3.0", trusted=True)
    text = _text_of(spec, "clue file")
    if text.startswith(CLUE_MAGIC):
        return parse_compact(text, shown(spec))
    return parse_clue_list(text, shown(spec))
