"""The Russian source of word classes: pymorphy3 with its OpenCorpora dictionary.

Each word is looked up in the dictionary itself (``pymorphy3-dicts-ru``, read through
pymorphy3; no guessing of unknown words): every parse the dictionary lists for the word
as written, or, for a word with е and no parse, for its spellings with ё.  The grammemes
of a parse decide:

``name``          a parse tagged Name, Surn, Patr, Geox, Orgn or Trad (first names,
                  surnames, patronymics, places, organisations, trade marks)
``abbreviation``  a parse tagged Abbr or Init
``dictionary``    a parse with none of those tags ("ростова" has only a place's and a
                  surname's parses: a name; "роза" is a word and a name)
``offensive``     a parse tagged Obsc, or a lemma in ``offensive-ru.txt`` (ours: the
                  common lemmas of the obscene roots, slurs and strong insults, which
                  OpenCorpora tags at most Slng), so that every inflected form is caught
``lemma``         a word that is its own normal form (pymorphy3's, of its first
                  dictionary parse, else its first parse)

A word with no parse is ``unknown``, and ``offensive`` too when the list names it or it
starts with an obscene root (:data:`MAT_ROOTS`, after an optional verb prefix: the forms
OpenCorpora lacks, such as "заебал").  With ``fold_yo`` the lemmas and the list are folded
as the words are (ё as е).
"""

from __future__ import annotations

import logging
import re
from collections.abc import Sequence
from functools import cache
from typing import Any

from ..domain import Word
from .classdata import read_offensive, russian_dictionary, russian_source
from .classes import Classification, classification_of
from .classfile import ClassFile

__all__ = ["russian_classes"]

log = logging.getLogger(__name__)

# the obscene roots an unknown word may start with, after one of the common verb prefixes
# (never "с": "себе")
MAT_ROOTS = re.compile(r"^(?:вы|за|на|от|отъ|по|у|раз|разъ|об|объ|до|про|под|подъ|съ|въ)?"
                       r"(?:ху[йеёяи]|пизд|[её]б[алнуиёо]|бля[дт]|залуп|муда|муди|пид[оа]р)")
_NAME_TAGS = frozenset({"Name", "Surn", "Patr", "Geox", "Orgn", "Trad"})
_ABBR_TAGS = frozenset({"Abbr", "Init"})
_NAME, _ABBR, _OBSC, _PLAIN = 1, 2, 4, 8  # a word's flags (a parse's are the first three)
# a parse: (flags, letters its paradigm prefix takes, letters its suffix takes, the normal
# form's prefix, its suffix); -1 letters: the form is its own normal form
_Parse = tuple[int, int, int, str, str]


def _parse_of(dictionary: Any, para: int, idx: int) -> _Parse:
    """What the index needs of one parse: its flags and how its normal form is spelt (as
    pymorphy3's ``build_normal_form`` spells it)."""
    grammemes = dictionary.build_tag_info(para, idx).grammemes
    flags = ((_NAME if grammemes & _NAME_TAGS else 0) | (_ABBR if grammemes & _ABBR_TAGS else 0)
             | (_OBSC if "Obsc" in grammemes else 0))
    if idx == 0:
        return flags, -1, 0, "", ""
    paradigm = dictionary.paradigms[para]
    n = len(paradigm) // 3
    prefixes, suffixes = dictionary.paradigm_prefixes, dictionary.suffixes
    return (flags, len(prefixes[paradigm[2 * n + idx]]), len(suffixes[paradigm[idx]]),
            prefixes[paradigm[2 * n]], suffixes[paradigm[0]])


def _flags(hits: list[tuple[int, int]], parse_of: dict[tuple[int, int], _Parse],
           dictionary: Any) -> tuple[int, _Parse]:
    """(a word's flags, the parse whose normal form is its lemma: its first plain one, else
    its first) from its parses, each parse's facts cached in ``parse_of``."""
    flags = 0
    first = None
    for key in hits:
        parse = parse_of.get(key)
        if parse is None:
            parse = parse_of[key] = _parse_of(dictionary, *key)
        flags |= parse[0]
        if first is None and not parse[0] & (_NAME | _ABBR):
            first = parse
    if first is None:
        return flags, parse_of[hits[0]]
    return flags | _PLAIN, first


def _classes(flags: int) -> frozenset[str]:
    """The classes of a word with these flags."""
    return frozenset(name for name, bit in (("dictionary", _PLAIN), ("name", _NAME),
                                            ("abbreviation", _ABBR), ("offensive", _OBSC))
                     if flags & bit)


@cache
def _analyzer() -> Any:
    russian_dictionary()
    import pymorphy3

    return pymorphy3.MorphAnalyzer(lang="ru")


def russian_classes(words: Sequence[Word], *, fold_yo: bool = False,
                    extra: ClassFile | None = None) -> Classification:
    """The classification of ranked Russian ``words`` (see the module docstring); ``extra``
    (a user's class file) overrides the classes of the words it names."""
    m = _analyzer()
    dictionary = m.dictionary
    lookup = dictionary.words.get
    similar = dictionary.words.similar_items
    substitutes = m.char_substitutes
    offensive, exempt, _ = read_offensive("offensive-ru.txt")
    if fold_yo:
        offensive = frozenset(w.replace("ё", "е") for w in offensive)
        exempt = frozenset(w.replace("ё", "е") for w in exempt)
    parse_of: dict[tuple[int, int], _Parse] = {}
    out: dict[Word, frozenset[str]] = {}
    lemmas: dict[Word, Word] = {}
    by_flags = {f: _classes(f) for f in range(16)}
    for word in words:
        hits = lookup(word)
        form = word
        if hits is None and "е" in word:
            found = similar(word, substitutes)
            if found:
                form, hits = found[0]  # the first spelling with ё the dictionary knows
        if hits is None:
            if (word in offensive or MAT_ROOTS.match(word)) and word not in exempt:
                out[word] = frozenset({"offensive"})
            continue
        flags, parse = _flags(hits, parse_of, dictionary)
        lemma = form if parse[1] < 0 else parse[3] + form[parse[1]:len(form) - parse[2]] + \
            parse[4]
        if fold_yo:
            lemma = lemma.replace("ё", "е")
        cls = by_flags[flags]
        if lemma in offensive or word in offensive:
            cls = cls | {"offensive"}
        if lemma in exempt or word in exempt:
            cls = cls - {"offensive"}
        if cls:
            out[word] = cls
        if lemma != word:
            lemmas[word] = lemma
    source = russian_source()
    if extra is not None:
        out.update(extra.classes)
        lemmas.update(extra.lemmas)
    return classification_of(words, out, source=source, lemmas=lemmas)
