"""Number words for doubly-true cryptarithms (``one + nine + twenty + fifty = eighty``),
spelled by num2words and written as Cryptator writes them.

Cryptator spells a number (ICU's spell-out), then strips accents (NFD, the combining
diacritical marks U+0300..U+036F removed), format characters (soft hyphens, category Cf),
hyphens and white space, and lowers the case: ``forty-five`` is ``fortyfive``, ``zéro`` is
``zero``.  :func:`number_word` does the same to num2words' spelling, then composes what NFD
took apart (NFC: a Hangul syllable stays one symbol) and drops what Cryptator's grammar
cannot hold in a word (an apostrophe, as in Ukrainian ``п'ять``, is its quote).

>>> number_word(45, "en"), number_word(0, "fr"), number_word(31, "it")
('fortyfive', 'zero', 'trentuno')
>>> from cryptocomp.cryptarithm.generation import generate
>>> spec = doubly_true_spec(0, 100, "fr")
>>> sorted(g.puzzle for g in generate(spec))
['zero + un + trois + onze + quinze = trente']
"""

from __future__ import annotations

import unicodedata
from functools import cache

from ..errors import QueryError
from .generation import GenerationSpec

__all__ = ["number_word", "languages", "check_language", "doubly_true_spec", "MAX_NUMBER"]

MAX_NUMBER = 10_000   # a range's top: the words' sums are searched over every subset


@cache
def languages() -> tuple[str, ...]:
    """The language codes num2words spells (``en``, ``fr``, ``pt_BR`` ...)."""
    from num2words import CONVERTER_CLASSES

    return tuple(sorted(CONVERTER_CLASSES))


def _cryptator_form(text: str) -> str:
    """``text`` written as Cryptator writes a number word (module docstring)."""
    stripped = "".join(ch for ch in unicodedata.normalize("NFD", text)
                       if not "\u0300" <= ch <= "\u036f")
    kept = "".join(ch for ch in stripped
                   if unicodedata.category(ch) != "Cf" and ch != "-" and not ch.isspace())
    word = unicodedata.normalize("NFC", kept.lower())
    return "".join(ch for ch in word if unicodedata.category(ch)[0] in "LMN")


def number_word(value: int, lang: str) -> str:
    """``value`` spelled in ``lang`` as one cryptarithm word."""
    from num2words import num2words

    return _cryptator_form(num2words(value, lang=lang))


def check_language(lang: str) -> None:
    """A QueryError listing the supported languages when ``lang`` is not one."""
    if lang not in languages():
        raise QueryError(f"{lang!r} is not a language num2words spells; it spells: "
                         f"{' '.join(languages())}")


def doubly_true_spec(low: int, high: int, lang: str, *, min_words: int = 3,
                     max_words: int | None = None, base: int = 10) -> GenerationSpec:
    """The generation of every sum of distinct number words of [low, high] true in words
    (the right word one of them too) and unique as a cryptarithm."""
    check_language(lang)
    if not 0 <= low <= high <= MAX_NUMBER:
        raise QueryError(f"a doubly-true range is LO-HI with 0 <= LO <= HI <= {MAX_NUMBER} "
                         f"(got {low}-{high})")
    words: dict[str, int] = {}
    for v in range(low, high + 1):
        w = number_word(v, lang)
        if w and w not in words:   # two numbers one word: the first (never seen so far)
            words[w] = v
    return GenerationSpec(tuple(words), min_words=min_words, max_words=max_words, base=base,
                          values=tuple(words.values()), least_sum=low)
