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

Compact clue file (version 2; the shipped WordNet clues)
--------------------------------------------------------
First line ``cryptocomp-clues<TAB>2<TAB><source>``; then one word a line:
``word<TAB>senses<TAB>K:clue<TAB>K:clue...``, clues best first, ``senses`` a
positive integer (the word's number of senses in the source), ``K`` the clue's kind
(:data:`KINDS`): ``s`` a synonym that is itself a common word, ``p`` another synonym,
``g`` a gloss fragment, ``h`` a hypernym; in upper case when the clue comes from a sense
in which the word is an abbreviation (it is printed marked :data:`ABBR_MARK`).
``scripts/build_wordnet_clues.py`` writes it from WordNet 3.0.  Version 1 (no
``K:``; every clue of unknown kind) is still read.

Choosing a clue
---------------
A clue's *ambiguity* is the number of other words of the book, of the same length as
its answer, that carry the same clue (as printed, case and the abbreviation mark
ignored): a solver reading "Unit" over two cells cannot tell KT from the other two-letter
units.  Its *breadth* is the number of words of any length that carry it ("Bush" is
the hypernym of a couple of hundred shrubs).  Its *class*: clear (ambiguity at most
:data:`CLEAR`), fair (at most :data:`VAGUE`) or vague (more, or a breadth over
:data:`BROAD`).  :meth:`ClueBook.choose` takes, among the clues that fit the cell and were
not printed already, the first by (from an abbreviation sense, vague, longer than
:data:`SHORT`, class, a gloss fragment, the file's order, ambiguity): plain senses before
abbreviations, any other clue before a vague one, short before long, clear before fair, a
word (synonym or hypernym) before a
piece of a definition, and within that the builder's order (commoner synonyms of commoner
senses first; crossing letters tell apart the two or three answers a clear clue may fit).
A user's list has no order: one of its least ambiguous equally good clues is drawn.
"""

from __future__ import annotations

import logging
import random
import re
import unicodedata
from collections import Counter
from collections.abc import Collection, Iterator
from pathlib import Path

from ..errors import CryptocompError
from ..files import decode_text, gunzip, read_bytes, shown
from ..index.alphabet import normalize, word_problem
from ..shipped import shipped

__all__ = ["ClueBook", "ClueError", "load_clues", "read_clue_list", "read_compact",
           "parse_clue_list", "parse_compact", "shares_stem", "clue_contains", "CLUE_MAGIC",
           "CLUE_VERSION", "WORDNET_PATH", "MAX_CLUE", "KINDS", "ABBR_MARK", "SHORT", "CLEAR",
           "VAGUE", "BROAD", "clue_class", "clue_key"]

log = logging.getLogger(__name__)

Word = str
Clue = str

CLUE_MAGIC = "cryptocomp-clues"
CLUE_VERSION = 2
_READS = ("1", "2")
# clue kinds ("u": a clue of unknown kind, from a version 1 file or a user's list)
KINDS = {"s": "common synonym", "p": "other synonym", "g": "gloss fragment",
         "h": "hypernym", "u": "unknown"}
ABBR_MARK = " (abbr.)"
SHORT = 24  # characters: a clue up to this long fits a clue cell in a few lines
# a clue more answers of its length share than this is vague: crossing letters rarely
# single out one answer among so many
CLEAR = 1
VAGUE = 3
BROAD = 20  # a clue of more words than this, of any length, names a category, not a word
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


def clue_key(printed: str) -> str:
    """What two printed clues share when a solver cannot tell them apart (case and the
    abbreviation mark ignored)."""
    text = printed[:-len(ABBR_MARK)] if printed.endswith(ABBR_MARK) else printed
    return " ".join(text.split()).casefold()


def clue_class(ambiguity: int, breadth: int) -> int:
    """0 clear, 1 fair, 2 vague (see the module docstring)."""
    if ambiguity > VAGUE or breadth > BROAD:
        return 2
    return 0 if ambiguity <= CLEAR else 1


def _stored_key(clue: Clue) -> str:
    """:func:`clue_key` of a stored clue, whose spaces were collapsed when it was read."""
    return (clue[:-len(ABBR_MARK)] if clue.endswith(ABBR_MARK) else clue).casefold()


class ClueBook:
    """word -> (senses, clues best first, their kinds).  ``ranked``: the clue order is a
    preference (a built clue file), else every clue is as good (a user's list: one of the
    least ambiguous is drawn per puzzle).  ``kinds``: word -> one :data:`KINDS` letter a
    clue, upper case for an abbreviation sense (default: unknown kind)."""

    def __init__(self, entries: dict[Word, tuple[int, list[Clue]]], *, source: str,
                 ranked: bool, kinds: dict[Word, list[str]] | None = None):
        self._entries = {w: (s, tuple(c)) for w, (s, c) in entries.items() if c}
        kinds = kinds or {}
        self._kinds = {w: tuple(kinds.get(w) or "u" * len(c))
                       for w, (_, c) in self._entries.items()}
        self.source = source
        self.ranked = ranked
        self._shared: Counter[tuple[int, str]] | None = None

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
        """Every clue of the word, best first, as stored (empty when it has none)."""
        e = self._entries.get(word)
        return e[1] if e else ()

    def kinds(self, word: Word) -> tuple[str, ...]:
        """The kind letter of each of the word's clues (upper case: an abbreviation sense)."""
        return self._kinds.get(word, ())

    def printed(self, word: Word) -> tuple[Clue, ...]:
        """Every clue of the word as a puzzle prints it (abbreviations marked)."""
        return tuple(_printed(c, k.isupper()) for c, k in zip(self.clues(word),
                                                               self.kinds(word)))

    def _table(self) -> Counter[tuple[int, str]]:
        """(answer length, clue key) -> how many words carry that clue, and (0, clue key) ->
        how many of any length (counted once, when first needed)."""
        if self._shared is None:
            keys = [(len(w), {_stored_key(c) for c in cs}) for w, (_, cs) in
                    self._entries.items()]
            shared: Counter[tuple[int, str]] = Counter((n, k) for n, ks in keys for k in ks)
            shared.update((0, k) for _, ks in keys for k in ks)
            self._shared = shared
        return self._shared

    def warm(self) -> None:
        """Count every clue's carriers now (else on the first :meth:`ambiguity`): a batch
        counts them before its clock starts."""
        self._table()

    def _carries(self, word: Word, key: str) -> bool:
        """Whether one of the word's clues has ``key``."""
        return any(_stored_key(c) == key for c in self.clues(word))

    def ambiguity(self, word: Word, clue: Clue) -> int:
        """How many other words of the book, as long as ``word``, carry ``clue``."""
        key = clue_key(clue)
        return self._table().get((len(word), key), 0) - self._carries(word, key)

    def breadth(self, clue: Clue) -> int:
        """How many words of the book, of any length, carry ``clue``."""
        return self._table().get((0, clue_key(clue)), 0)

    def choose(self, word: Word, rng: random.Random | None = None, *, fit: int = 40,
               avoid: Collection[Clue] = (), abbreviation: bool = False) -> tuple[Clue, int]:
        """The clue to print and its ambiguity (see the module docstring): of the clues of
        at most ``fit`` characters (else the shortest), those not in ``avoid`` (printed
        already; when there is no other, those too), the first by (abbreviation sense,
        vague, long, class, gloss, order, ambiguity); a drawn one among the equally good
        of an unranked book.  ``abbreviation``: the word is one (every clue printed
        marked).  KeyError when the word has none."""
        cands = self._candidates(word)
        if not cands:
            raise KeyError(word)
        fresh = [x for x in cands if x[0] not in avoid] or cands
        fitting = [x for x in fresh if len(x[0]) <= fit] or [min(fresh, key=lambda x: len(x[0]))]

        def rank(x: tuple[Clue, str, int]) -> tuple[int, ...]:
            p, k, i = x
            amb = self.ambiguity(word, p)
            cls = clue_class(amb, self.breadth(p))
            return (k.isupper(), cls == 2, len(p) > SHORT, cls, k.lower() == "g",
                    i if self.ranked else 0, amb)

        ranks = [rank(x) for x in fitting]
        top = min(ranks)
        best = [x for x, r in zip(fitting, ranks) if r == top]
        clue, kind, _ = best[0] if self.ranked or rng is None else rng.choice(best)
        amb = self.ambiguity(word, clue)
        marked = _printed(clue, True)
        if abbreviation and not kind.isupper() and not clue_contains(marked, word):
            clue = marked
        return clue, amb

    def _candidates(self, word: Word) -> list[tuple[Clue, str, int]]:
        """(printed clue, kind, place) of the word's clues that do not give it away."""
        return [(p, k, i) for i, (k, p) in enumerate(zip(self.kinds(word), self.printed(word)))
                if not clue_contains(p, word)]

    def printable(self, word: Word) -> bool:
        """Whether the word has a clue :meth:`choose` can print."""
        if word not in self._entries:
            return False
        if not any(k.isupper() for k in self.kinds(word)):
            return True  # unmarked clues were screened when the book was read or built
        return bool(self._candidates(word))

    def pick(self, word: Word, rng: random.Random | None = None, *, fit: int = 40,
             avoid: Collection[Clue] = ()) -> Clue:
        """The clue :meth:`choose` prints.  KeyError when the word has none."""
        return self.choose(word, rng, fit=fit, avoid=avoid)[0]

    def _check(self) -> None:
        """Invariants: normalised words, positive senses, clues non-empty and not giving the
        answer away, one known kind a clue."""
        for word, (senses, clues) in self._entries.items():
            assert word == normalize(word) and word.isalpha(), word
            assert senses >= 1 and clues
            kinds = self._kinds[word]
            assert len(kinds) == len(clues) and all(k.lower() in KINDS for k in kinds)
            for c in clues:
                assert c.strip() and "\t" not in c and "\n" not in c
                assert c == " ".join(c.split()), c
                assert not clue_contains(c, word), (word, c)


def _printed(clue: Clue, abbreviation: bool = False) -> Clue:
    """A clue as printed: first letter in upper case, an abbreviation's marked."""
    text = clue[:1].upper() + clue[1:]
    return text + ABBR_MARK if abbreviation and not text.endswith(ABBR_MARK) else text


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
    """A :class:`ClueBook` from the compact format, version 1 or 2 (see the module
    docstring).  Clues that give their answer away are dropped, unless the file is
    ``trusted`` (the shipped one, screened when it was built and checked by the tests)."""
    lines = text.splitlines()
    head = lines[0].split("\t") if lines else []
    if len(head) < 2 or head[0] != CLUE_MAGIC:
        raise ClueError(f"{source}: not a compact clue file (no '{CLUE_MAGIC}' header)")
    if head[1] not in _READS:
        raise ClueError(f"{source}: compact clue file version {head[1]!r}, this cryptocomp "
                        f"reads versions {', '.join(_READS)}")
    kinded = head[1] != "1"
    entries: dict[Word, tuple[int, list[Clue]]] = {}
    kinds: dict[Word, list[str]] = {}
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
        fields = []
        for c in parts[2:]:
            kind = "u"
            if kinded:
                if len(c) < 2 or c[1] != ":" or c[0].lower() not in KINDS:
                    raise ClueError(f"{source}, line {n}: expected clues as 'K:clue' with K "
                                    f"one of {''.join(KINDS)} (upper case: abbreviation)")
                kind, c = c[0], c[2:]
            c = c if trusted else " ".join(c.split())
            if c.strip() and len(c) <= MAX_CLUE and (trusted or not clue_contains(c, word)):
                fields.append((kind, c))
            elif c.strip() and len(c) <= MAX_CLUE:
                dropped += 1
        if fields:
            entries[word] = (int(parts[1]), [c for _, c in fields])
            kinds[word] = [k for k, _ in fields]
    if not entries and dropped:
        raise _all_give_away(source, dropped)
    if not entries:
        raise ClueError(f"{source}: no usable clue")
    return ClueBook(entries, source=source, ranked=True, kinds=kinds)


def read_clue_list(path: str | Path) -> ClueBook:
    """Read a ``word<TAB>clue`` file."""
    return parse_clue_list(_text_of(path, "clue file"), shown(path))


def read_compact(path: str | Path) -> ClueBook:
    """Read a compact clue file."""
    return parse_compact(_text_of(path, "clue file"), shown(path))


def load_clues(spec: str | Path) -> ClueBook:
    """``wordnet`` (the shipped English clues) or a clue file of either format, its clues'
    carriers counted (:meth:`ClueBook.warm`: a puzzle's clock need not count them)."""
    if str(spec) == "wordnet":
        if not WORDNET_PATH.is_file():
            raise ClueError(f"the WordNet clue file is missing ({WORDNET_PATH}); rebuild it "
                            f"with scripts/build_wordnet_clues.py")
        book = parse_compact(_text_of(WORDNET_PATH, "clue file"), "WordNet 3.0", trusted=True)
    else:
        text = _text_of(spec, "clue file")
        book = (parse_compact(text, shown(spec)) if text.startswith(CLUE_MAGIC)
                else parse_clue_list(text, shown(spec)))
    book.warm()
    return book
