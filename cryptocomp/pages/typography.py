"""The conventions of a page's language: its quotation marks, its words, where a word may
be broken at the end of a line.

Language: a page is Russian when its text holds a Cyrillic letter, English otherwise
(:func:`language_of`); a puzzle's words tell it, so no option has to.

Quotation marks: English “ ” and Russian « » (:data:`QUOTES`); a clue's straight double
quotes are turned into them in pairs (:func:`curly`).

Hyphenation: text is wrapped at spaces to the measured width of each word in the page
font (:func:`wrap`).  A word wider than a whole line (or, ``eager``, wider than the room left
on its line: a clue cell fills its few lines) is broken where a syllable rule allows, with a
hyphen at the end of the line: after the vowel of a vowel-consonant-vowel run (ка-мера,
ca-mera), between the consonants of vowel-consonant-consonant-vowel (кар-та, win-dow), after
ь, ъ or й before a consonant and a vowel (боль-шой), never before ь, ъ or й, and never
leaving fewer than two letters or no vowel on either side.  A word with no such place that
is still too wide for a whole line is cut where it must (a clue cell is narrow), with the
hyphen, though not before ь, ъ or й.  The rule is the same for both languages and uses
no dictionary: an approximation of their syllable rules, which a break of a word too wide
for its line needs only to follow closely enough to be read.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

__all__ = ["QUOTES", "LABELS", "language_of", "quoted", "curly", "break_points", "wrap",
           "label", "square_title"]

QUOTES = {"en": ("“", "”"), "ru": ("«", "»")}
VOWELS = frozenset("aeiouyаеёиоуыэюяAEIOUYАЕЁИОУЫЭЮЯ")
_NOT_FIRST = frozenset("ьъйЬЪЙ")  # Russian letters a line may not start a word part with
_MIN_PART = 2

# the words a page prints around the puzzles, in each language
LABELS = {
    "en": {"across": "Across", "down": "Down", "solution": "Solution", "puzzle": "Crossword",
           "arrow": "Arrow-word puzzle", "clue_needed": "[clue needed]",
           "hidden": "Hidden solution", "hidden_hint": "the shaded cells in reading order",
           "sheet": "Cryptarithms",
           "sheet_rule": "Each letter stands for a digit, different letters for different "
                         "digits; no number of two or more digits starts with 0.",
           "sheet_key": "Answer key", "one_of": "one of {n} solutions",
           "difficulty": "Difficulty: level {level} of 5", "unrated": "Difficulty: unrated",
           "square": "{n}x{n} square"},
    "ru": {"across": "По горизонтали", "down": "По вертикали", "solution": "Ответы",
           "puzzle": "Кроссворд", "arrow": "Сканворд", "clue_needed": "[нужно определение]",
           "hidden": "Ключевое слово", "hidden_hint": "затенённые клетки по порядку чтения",
           "sheet": "Числовые ребусы",
           "sheet_rule": "Каждая буква обозначает цифру, разные буквы — разные цифры; "
                         "многозначное число не начинается с 0.",
           "sheet_key": "Ответы", "one_of": "одно из решений (всего {n})",
           "difficulty": "Сложность: {level} из 5", "unrated": "Сложность: не оценена",
           "square": "Квадрат {n}×{n}"},
}


def language_of(texts: Iterable[str]) -> str:
    """``ru`` when any of ``texts`` holds a Cyrillic letter, else ``en``."""
    for text in texts:
        if any("\u0400" <= ch <= "\u04ff" for ch in text):
            return "ru"
    return "en"


def label(language: str, key: str) -> str:
    """The page word ``key`` in ``language`` (English for a language without its own)."""
    return LABELS.get(language, LABELS["en"])[key]


def square_title(n: int, language: str) -> str:
    """The title of an n x n word square in ``language`` (English for one without its own)."""
    return label(language, "square").format(n=n)


def quoted(text: str, language: str) -> str:
    """``text`` between the language's quotation marks."""
    left, right = QUOTES.get(language, QUOTES["en"])
    return f"{left}{text}{right}"


def curly(text: str, language: str) -> str:
    """``text`` with its straight double quotes turned into the language's, in pairs (an
    odd last one stays straight)."""
    if text.count('"') < 2:
        return text
    left, right = QUOTES.get(language, QUOTES["en"])
    parts = text.split('"')
    pairs = (len(parts) - 1) // 2
    out = [parts[0]]
    for k, part in enumerate(parts[1:]):
        if k < 2 * pairs:
            out.append(left if k % 2 == 0 else right)
        else:
            out.append('"')
        out.append(part)
    return "".join(out)


def break_points(word: str) -> list[int]:
    """The places ``i`` where ``word`` may be broken as ``word[:i]-`` / ``word[i:]``."""
    out = []
    n = len(word)
    for i in range(_MIN_PART, n - _MIN_PART + 1):
        head, tail = word[:i], word[i:]
        if word[i] in _NOT_FIRST or not (VOWELS & set(head)) or not (VOWELS & set(tail)):
            continue
        if not (head[-1].isalpha() and tail[0].isalpha()):
            continue
        a, b = head[-1] in VOWELS, tail[0] in VOWELS
        syllable = not b and len(tail) > 1 and tail[1] in VOWELS  # the tail starts C-V
        after_vowel = a and syllable
        between = not a and syllable and len(head) > 1 and head[-2] in VOWELS
        after_sign = head[-1] in _NOT_FIRST and syllable  # боль-шой, бой-кий
        if after_vowel or between or after_sign:
            out.append(i)
    return out


Measure = Callable[[str], float]


def _split_word(word: str, room: float, width: float, measure: Measure) -> tuple[str, str]:
    """(head with its hyphen, the rest): the longest syllable break of ``word`` whose head
    fits ``room``; when none fits and even a whole line is too narrow for the word, the
    longest head of any letters that fits (at least one letter); else ("", word)."""
    for i in reversed(break_points(word)):
        if measure(word[:i] + "-") <= room:
            return word[:i] + "-", word[i:]
    if len(word) > 1 and measure(word) > width and room >= width:
        i = len(word) - 1
        while i > 1 and (measure(word[:i] + "-") > room or word[i] in _NOT_FIRST):
            i -= 1
        return word[:i] + "-", word[i:]
    return "", word


def wrap(text: str, width: float, measure: Measure, *, eager: bool = False) -> list[str]:
    """The lines of ``text`` no wider than ``width`` (as ``measure`` tells), broken at
    spaces and, where a word is wider than a whole line (``eager``: than the room left on
    its line), at a hyphenation point (module docstring).  A line is wider only when one
    letter is."""
    lines: list[str] = []
    line = ""
    words = text.split()
    k = 0
    while k < len(words):
        word = words[k]
        candidate = f"{line} {word}" if line else word
        if measure(candidate) <= width:
            line, k = candidate, k + 1
            continue
        if line and not eager:
            lines.append(line)
            line = ""
            continue
        gap = f"{line} " if line else ""
        room = width - measure(gap) if line else width
        head, rest = _split_word(word, room, width, measure)
        if head:
            lines.append(gap + head)
            words[k] = rest
            line = ""
        elif line:
            lines.append(line)
            line = ""
        else:  # a single letter wider than the line: set it anyway
            lines.append(word)
            k += 1
    if line:
        lines.append(line)
    return lines
