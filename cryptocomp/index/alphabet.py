"""Alphabets: which letters a language's words may be written with.

English and Russian have fixed alphabets.  For any other language the alphabet
is derived from the language's own word list: the Unicode script that carries
most of the frequency mass of its top words (Latin for French, Greek for Greek,
Devanagari for Hindi ...): every letter or combining mark of that script.  Words
written with anything else (digits, apostrophes, hyphens, letters of other scripts)
are dropped from exported dictionaries.

Every word of every dictionary and all text a user types against one (templates,
expressions, grid letters, racks) is read in one spelling, :func:`normalize`'s, and
no dictionary word is one that :func:`word_problem` refuses (too long, a bare
combining mark, control or invisible characters).

The one definition of the characters around letters lives here too: the wildcards
of templates (:data:`ONE`, :data:`STAR`, :data:`WILDCARDS`), the combining mark that
belongs to the letter before it (:func:`is_mark`) and the letter with its marks
dropped (:func:`strip_marks`).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Iterable

from ..errors import QueryError

__all__ = ["Alphabet", "ALPHABETS", "INWORD", "MAX_WORD_LENGTH", "LetterError", "normalize",
           "spell", "word_problem", "hidden_character", "refusal_warning", "script_of",
           "main_script", "word_filter", "ONE", "STAR", "WILDCARDS", "is_mark", "is_any_mark",
           "strip_marks"]

Alphabet = str  # the letters, in their conventional order

ALPHABETS: dict[str, Alphabet] = {
    "en": "abcdefghijklmnopqrstuvwxyz",
    "ru": "абвгдеёжзийклмнопрстуфхцчшщъыьэюя",
}


# The wildcards of a template (words, compose's unknown, the prompt): no word holds one
ONE = frozenset("?.")  # any one letter
STAR = "*"             # any run of letters, possibly none
WILDCARDS = ONE | {STAR}


def is_mark(ch: str) -> bool:
    """Whether ``ch`` is a nonspacing combining mark (category Mn, as U+0301 in e + U+0301):
    part of the letter before it in a typed word or template."""
    return unicodedata.category(ch) == "Mn"


def is_any_mark(ch: str) -> bool:
    """Whether ``ch`` is a combining mark of any kind (category M: nonspacing, spacing or
    enclosing), which cannot stand first in a word or alone in a grid cell."""
    return unicodedata.category(ch)[0] == "M"


def strip_marks(text: str) -> str:
    """``text`` in its compatibility decomposition with the combining marks dropped
    (é -> e, ŀ -> l·, ĳ -> ij, ǆ -> dž -> dz)."""
    return "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c))


# Letters: the longest word of every wordfreq language has 80 (German's
# donaudampfschifffahrtselektrizitätenhauptbetriebswerkbauunterbeamtengesellschaft), English's
# 34 and Russian's 27; a longer "word" is a run-on line, and parts of the index build grow
# with the square of a word's length
MAX_WORD_LENGTH = 100

# Characters no word holds and none is printed raw: they control the terminal or reorder
# and hide text (NUL, escapes, bidi overrides and isolates, zero-width characters)
_REFUSED = {"Cc": "the control character", "Cf": "the invisible format character",
            "Cs": "the surrogate", "Co": "the private-use character"}


class LetterError(QueryError):
    """A character a user typed that is not one letter in lower case (İ); ``position``: its
    0-based place in the NFC text, ``why``: the message without the place."""

    def __init__(self, why: str, position: int, text: str):
        self.why, self.position = why, position
        super().__init__(f"{why} (at position {position + 1} of {text!r})")


def normalize(text: str, *, fold_yo: bool = False) -> str:
    """Unicode NFC and lower case (and ё as е with ``fold_yo``): the one spelling every word
    is stored in."""
    text = unicodedata.normalize("NFC", text)
    # most words already are: islower() is a scan, lower() a new string (a million of them
    # when a dictionary is indexed)
    text = text if text.islower() else text.lower()
    return text.replace("ё", "е") if fold_yo else text


def spell(text: str, *, fold_yo: bool = False) -> str:
    """Text a user typed (a template, an expression's words, a rack) in the spelling of the
    words of a dictionary (``fold_yo``: one that folds ё): :func:`normalize`'s; a
    :class:`LetterError` names a character that lower-cases to two (İ: i and a combining
    dot, a letter of no alphabet)."""
    text = unicodedata.normalize("NFC", text)
    if not text.isascii():
        for i, ch in enumerate(text):
            low = ch.lower()
            if len(low) > 1:
                parts = " + ".join(f"U+{ord(c):04X}" for c in low)
                raise LetterError(f"{ch!r} is not one letter in lower case: it becomes {low!r}, "
                                  f"{parts}", i, text)
    return normalize(text, fold_yo=fold_yo)


def word_problem(word: str, *, longest: int | None = MAX_WORD_LENGTH) -> str | None:
    """Why ``word`` (normalised) cannot be a dictionary word, or None: it is empty or longer
    than ``longest`` letters, starts with a combining mark (which has no letter to sit on),
    or holds a space or a control, format (bidi, zero-width), surrogate or private-use
    character."""
    if longest is not None and len(word) > longest:
        return f"it has {len(word):,} letters, more than {longest}"
    if word[:1].isalnum() and word.isprintable() and " " not in word:  # nearly every word
        return None
    if not word:
        return "it is empty"
    if is_any_mark(word[0]):
        return f"it starts with the combining mark U+{ord(word[0]):04X}"
    if " " in word or any(ch.isspace() for ch in word):
        return "it holds a space"
    hidden = hidden_character(word)
    return None if hidden is None else f"it holds {hidden}"


def hidden_character(text: str) -> str | None:
    """The first control, format (bidi, zero-width), surrogate or private-use character of
    ``text``, described ("the control character U+0000"), or None."""
    if text.isprintable():  # one C scan: false for those and for spaces (other than " ")
        return None
    for ch in text:
        what = _REFUSED.get(unicodedata.category(ch))
        if what:
            return f"{what} U+{ord(ch):04X}"
    return None  # spaces, or unassigned code points (letters of a later Unicode, maybe)


def refusal_warning(source: str, refused: int, first: Iterable[tuple[int, str]]) -> str:
    """The one warning line for ``refused`` lines of ``source`` skipped for their word, the
    ``first`` few named as (line, why)."""
    shown = [f"line {n}: {why}" for n, why in first]
    more = "; ..." if refused > len(shown) else ""
    return (f"{source}: skipped {refused} line{'s' if refused != 1 else ''} whose word cannot "
            f"be indexed ({'; '.join(shown)}{more})")


def script_of(ch: str) -> str:
    """The Unicode script of a letter, read off its character name ('LATIN', 'CYRILLIC', ...)."""
    try:
        name = unicodedata.name(ch)
    except ValueError:
        return ""
    first = name.split(" ", 1)[0]
    return "CJK" if first.startswith("CJK") else first


def _is_letterlike(ch: str) -> bool:
    return unicodedata.category(ch)[0] in "LM"


def main_script(weighted_words: Iterable[tuple[str, float]], sample: int = 5000) -> str:
    """The script carrying most of the weight of a language's top words."""
    scripts: dict[str, float] = {}
    for i, (word, weight) in enumerate(weighted_words):
        if i >= sample:
            break
        for ch in word:
            if _is_letterlike(ch):
                key = script_of(ch)
                scripts[key] = scripts.get(key, 0.0) + weight
    return max(scripts, key=scripts.__getitem__) if scripts else ""


# Characters that belong inside a language's words without being letters: Catalan's ela
# geminada (col·lecció) and Ukrainian's apostrophe (пам'ять). Both are tiles of those
# languages' tile sets, and dropping such words lost 1,343 of Catalan's 200,000 most
# frequent words.  Kept only between letters.
INWORD: dict[str, str] = {"ca": "·", "uk": "'"}


def word_filter(lang: str,
                weighted_words: Iterable[tuple[str, float]] = ()) -> Callable[[str], bool]:
    """A predicate keeping the words written entirely in the language's own alphabet (plus
    its INWORD characters between letters)."""
    inword = frozenset(INWORD.get(lang, ""))
    if lang in ALPHABETS:
        letters = frozenset(ALPHABETS[lang])
        return lambda word: bool(word) and all(ch in letters for ch in word)
    script = main_script(weighted_words)

    def keep(word: str) -> bool:
        if not word or word[0] in inword or word[-1] in inword:
            return False
        return all((_is_letterlike(ch) and script_of(ch) == script) or ch in inword
                   for ch in word)

    return keep
