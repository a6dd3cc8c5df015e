"""The English source of word classes: ENABLE, WordNet 3.0 and SCOWL, as shipped data.

The data (``cryptocomp/data/classes/``, built by ``scripts/build_english_classes.py``
from Debian's ``wordnet-base`` and ``wamerican``; licences beside it) is read at run time
and nothing else: ``en-classes.txt.gz`` (a class file, :mod:`.classfile`, whose
``dictionary`` rule read ENABLE, shipped as ``enable1.txt``, when it was built),
``en-morphy.txt.gz`` (WordNet's lemmas and exception lists) and ``offensive-en.txt``
(ours).

The classes of a word (lower case, as the index spells it):

``dictionary``    a word written in lower case in at least two of ENABLE, SCOWL and
                  WordNet (a lemma, or a form whose base :func:`morphy` finds there):
                  one list alone holds too many rarities (ENABLE's redes, WordNet's
                  hovea) to print them by default
``name``          a WordNet lemma or SCOWL word written capitalised (Monet, Paris)
``abbreviation``  a WordNet lemma or SCOWL word written in capitals (ATM, UFOs), or
                  written in lower case with no vowel (a e i o u y) and not in ENABLE
                  (kt, mph: ENABLE's brr, hmm and nth stay dictionary words); the
                  plural in -s of one that is no other word (dvds)
``offensive``     a WordNet lemma whose commonest sense, or every sense, WordNet files
                  under the usage domains obscenity, profanity, ethnic slur or
                  disparagement (or glosses as an obscene, vulgar, offensive or
                  derogatory term; "boy" has such a sense and stays a plain word); a
                  word of ``offensive-en.txt``; and their inflections; less the words
                  that list takes out ("taco": WordNet's order of senses puts the
                  slur first)
``lemma``         a word that is its own base form: every word but the inflections of
                  dictionary words :func:`morphy` finds a base for (ran: run)

``en-morphy.txt.gz`` format (version 1)::

    # cryptocomp morphy 1
    lemma<TAB>parts          a WordNet lemma and its parts of speech (n v a r)
    form<TAB>part<TAB>bases  an exception: an irregular form, its part of speech, its bases

The offensive lists' format is :mod:`.classdata`'s.
"""

from __future__ import annotations

import gzip
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

from ..domain import Word
from ..errors import DictionaryError
from ..shipped import shipped
from .alphabet import ALPHABETS
from .classdata import english_source, read_offensive
from .classes import Classification, classification_of
from .classfile import ClassFile, parse_classes

__all__ = ["MORPHY_HEADER", "POS_LETTERS", "is_abbreviation_form", "morphy",
           "english_classes"]

MORPHY_HEADER = "# cryptocomp morphy 1"
POS_LETTERS = {"noun": "n", "verb": "v", "adj": "a", "adv": "r"}
_VOWELS = frozenset("aeiouy")
# WordNet's detachment rules (morphy(7WN)) by part of speech, in its order; "es" -> "" only
# after the letters English spells -es after (goes, fixes), which keeps "dones" from "don"
_RULES: dict[str, tuple[tuple[str, str], ...]] = {
    "n": (("s", ""), ("ses", "s"), ("xes", "x"), ("zes", "z"), ("ches", "ch"), ("shes", "sh"),
          ("men", "man"), ("ies", "y")),
    "v": (("s", ""), ("ies", "y"), ("es", "e"), ("es", ""), ("ed", "e"), ("ed", ""),
          ("ing", "e"), ("ing", "")),
    "a": (("er", ""), ("est", ""), ("er", "e"), ("est", "e")),
}
_ES_AFTER = ("s", "x", "z", "ch", "sh", "o")
# the rules by the last letter of their suffix, in their order: most words end in a letter
# no suffix ends in and need no rule tried
_BY_LAST: dict[str, list[tuple[str, int, str, str, bool]]] = {}
for _pos, _rules in _RULES.items():
    for _suffix, _ending in _rules:
        _BY_LAST.setdefault(_suffix[-1], []).append(
            (_suffix, len(_suffix), _ending, _pos, _suffix == "es" and not _ending))


def is_abbreviation_form(word: str, enable: set[str] | frozenset[str]) -> bool:
    """Whether a word written in lower case reads as an abbreviation: no vowel, not ENABLE's."""
    return not (_VOWELS & set(word)) and word not in enable


@dataclass(frozen=True)
class _Tables:
    """The shipped English data, read once."""

    classes: ClassFile                         # en-classes.txt.gz
    lemmas: dict[str, str]                     # WordNet lemma -> its parts of speech
    exceptions: dict[str, list[str]]           # irregular form -> its bases (any part)
    offensive: frozenset[str]                  # offensive-en.txt
    exempt: frozenset[str]                     # its "-lemma" lines
    source: str


@cache
def _tables() -> _Tables:
    raw = gzip.decompress(shipped("classes/en-classes.txt.gz").read_bytes())
    classes = parse_classes(raw, "en-classes.txt.gz", alphabet=ALPHABETS["en"])
    lines = gzip.decompress(shipped("classes/en-morphy.txt.gz").read_bytes()).decode("ascii")
    rows = lines.splitlines()
    if not rows or rows[0] != MORPHY_HEADER:
        raise DictionaryError(f"en-morphy.txt.gz: not a version 1 morphy file "
                              f"(first line {MORPHY_HEADER!r})")
    lemmas: dict[str, str] = {}
    exceptions: dict[str, list[str]] = {}
    for number, row in enumerate(rows[1:], 2):
        parts = row.split("\t")
        if len(parts) == 2:
            lemmas[parts[0]] = parts[1]
        elif len(parts) == 3:
            exceptions.setdefault(parts[0], []).extend(parts[2].split())
        else:
            raise DictionaryError(f"en-morphy.txt.gz: line {number}: expected 2 or 3 fields")
    offensive, exempt, _ = read_offensive("offensive-en.txt")
    return _Tables(classes, lemmas, exceptions, offensive, exempt, english_source())


def morphy(word: str, lemmas: dict[str, str], exceptions: dict[str, list[str]]) -> str | None:
    """The base form of ``word`` as WordNet's morphy finds it, or None: the word itself when
    it is a lemma; else the first base of its exceptions; else the first detachment (noun,
    verb, adjective rules in order) that leaves a lemma of that part of speech."""
    if word in lemmas:
        return word
    bases = exceptions.get(word)
    if bases:
        return bases[0]
    for suffix, cut, ending, pos, after_es in _BY_LAST.get(word[-1:], ()):
        if len(word) > cut + 1 and word.endswith(suffix):
            base = word[:-cut] + ending
            if after_es and not base.endswith(_ES_AFTER):
                continue
            if pos in lemmas.get(base, ""):
                return base
    return None


def english_classes(words: Sequence[Word], extra: ClassFile | None = None) -> Classification:
    """The classification of ranked English ``words`` (see the module docstring); ``extra``
    (a user's class file) overrides the classes of the words it names."""
    t = _tables()
    given, lemmas, exceptions = t.classes.classes, t.lemmas, t.exceptions
    offensive, exempt = t.offensive, t.exempt
    out: dict[Word, frozenset[str]] = {}
    bases: dict[Word, Word] = {}
    for word in words:
        cls = given.get(word, _EMPTY)
        base = morphy(word, lemmas, exceptions) if word.isascii() else None
        if base is not None and base != word:
            cls = _with_base(cls, word, base, t)
            if "dictionary" in cls:
                bases[word] = base
        elif not cls and word.endswith("s") and "abbreviation" in given.get(word[:-1], _EMPTY):
            cls = frozenset({"abbreviation"})
        if word in offensive or (word.endswith("s") and word[:-1] in offensive):
            cls = cls | {"offensive"}
        if word in exempt:
            cls = cls - {"offensive"}
        if cls:
            out[word] = cls
    if extra is not None:
        out.update(extra.classes)
        bases.update(extra.lemmas)
    return classification_of(words, out, source=t.source, lemmas=bases)


_EMPTY: frozenset[str] = frozenset()


def _with_base(cls: frozenset[str], word: Word, base: Word, t: _Tables) -> frozenset[str]:
    """The classes of ``word`` (``cls`` as the lists say) given that ``base`` is its base
    form: a plural the lists miss of an abbreviation is one, and the form of an offensive
    lemma is offensive (a dictionary word needs two lists: the shipped data says which)."""
    of_base = t.classes.classes.get(base, _EMPTY)
    if not cls - {"offensive"} and "abbreviation" in of_base and word.endswith("s"):
        cls = cls | {"abbreviation"}
    if "offensive" in of_base or base in t.offensive:
        cls = cls | {"offensive"}
    if base in t.exempt:
        cls = cls - {"offensive"}
    return cls
