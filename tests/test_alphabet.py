"""The one definition of the characters around letters (cryptocomp.index.alphabet): the
wildcards and the mark tests agree, code point by code point, with what they replaced."""

from __future__ import annotations

import sys
import unicodedata

from cryptocomp.index import alphabet, index, wildcards


def test_the_wildcard_vocabulary_has_one_home():
    assert frozenset("?.") == alphabet.ONE and alphabet.STAR == "*"
    assert frozenset("?.*") == alphabet.WILDCARDS
    assert wildcards.ONE is alphabet.ONE and wildcards.STAR is alphabet.STAR
    assert index.WILDCARDS is alphabet.WILDCARDS


def test_the_mark_tests_agree_with_unicodedata_everywhere():
    for cp in range(sys.maxunicode + 1):
        ch = chr(cp)
        assert alphabet.is_mark(ch) == (unicodedata.category(ch) == "Mn"), hex(cp)
    for ch in "éŀĳǆЁйx·":
        assert alphabet.strip_marks(ch) == "".join(
            c for c in unicodedata.normalize("NFKD", ch) if not unicodedata.combining(c))
    assert alphabet.strip_marks("éŀĳ") == "el·ij"
