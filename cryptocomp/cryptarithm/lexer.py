"""The tokens of the cryptarithm language (:mod:`cryptocomp.cryptarithm.grammar` reads them).

The text is read in Unicode NFC (the caller normalises it: a column is a column of the NFC
text).  A *word* is a run of symbols: ASCII letters and digits and every code point from
U+0080 up, each code point one symbol, upper case read as lower case one code point for one
(Σ is σ wherever it stands; a letter whose lower case is two code points, as İ, is refused).
The exceptions, none of them a symbol: white space of any kind (it separates tokens), the
operator signs of today's syntax ``× · ÷ −`` and ``≠ ≤ ≥``, and the invisible characters
(controls, format characters such as bidi marks and zero-width joiners, surrogates,
private-use code points), refused because a reader cannot see which symbol they are.

A *constant* is a decimal number in quotes, ``'10'`` or ``"10"`` (decimal whatever the base).
Operators ``+ - * / // % ^`` (``:`` is ``/``), comparators ``= == != < > <= >=``,
separators ``;`` and ``&&``, parentheses.

>>> [(t.kind, t.value) for t in tokens("In*'10' <= Vain2 && a")]
... # doctest: +NORMALIZE_WHITESPACE
[('word', 'in'), ('op', '*'), ('const', '10'), ('cmp', '<='), ('word', 'vain2'),
 ('sep', '&&'), ('word', 'a'), ('end', '')]
"""

from __future__ import annotations

from dataclasses import dataclass

from ..errors import ExpressionError
from ..index.alphabet import hidden_character

__all__ = ["Token", "tokens", "looks_like_system", "has_comparator", "MAX_CONSTANT_DIGITS",
           "OPERATOR_SIGNS", "COMPARATOR_SIGNS"]

MAX_CONSTANT_DIGITS = 80   # the digits of a quoted constant (as the grammar's value bound)

# one-character signs of today's syntax and their operator (they are never symbols)
OPERATOR_SIGNS = {"+": "+", "-": "-", "*": "*", "%": "%", "^": "^", ":": "/",
                  "×": "*", "·": "*", "÷": "/", "−": "-"}
COMPARATOR_SIGNS = {"≠": "!=", "≤": "<=", "≥": ">="}
# the two-character tokens, longest match first: (text, kind, value)
_PAIRS = (("//", "op", "//"), ("==", "cmp", "="), ("!=", "cmp", "!="), ("<=", "cmp", "<="),
          (">=", "cmp", ">="), ("&&", "sep", "&&"))
_SINGLES = {"=": ("cmp", "="), "<": ("cmp", "<"), ">": ("cmp", ">"), "/": ("op", "/"),
            ";": ("sep", ";"), "(": ("(", "("), ")": (")", ")")}
_HINTS = {"&": "'&' alone: relations are joined by '&&' or ';'",
          "!": "'!' alone: the comparator 'not equal' is '!='",
          "?": "'?' is an unknown for compose to fill: solve takes complete puzzles",
          "[": "'[' starts a template for compose to fill: solve takes complete puzzles",
          "]": "']' ends a template for compose to fill: solve takes complete puzzles"}


@dataclass(frozen=True)
class Token:
    """One token: ``kind`` is word, const, op, cmp, sep, (, ) or end; ``pos`` its column."""

    kind: str
    value: str
    pos: int


def is_symbol(ch: str) -> bool:
    """Whether ``ch`` can stand in a word (ASCII letter or digit, or any code point from
    U+0080 up that is neither a space nor an operator sign)."""
    if ch < "\x80":
        return ch.isascii() and ch.isalnum()
    return not ch.isspace() and ch not in OPERATOR_SIGNS and ch not in COMPARATOR_SIGNS


_SIGNS = frozenset("=<>!;&'\"()/") | set(OPERATOR_SIGNS) | set(COMPARATOR_SIGNS)
_COMPARING = frozenset("=<>") | set(COMPARATOR_SIGNS)


def looks_like_system(text: str) -> bool:
    """True when ``text`` holds a sign of the language (an operator, comparator, separator,
    quote or parenthesis): a puzzle, not a word template."""
    return not _SIGNS.isdisjoint(text)


def has_comparator(text: str) -> bool:
    """True when ``text`` holds a comparator sign (``=``, ``<``, ``>``, ``≠``, ...)."""
    return not _COMPARING.isdisjoint(text)


def tokens(text: str, fold_yo: bool = False) -> list[Token]:
    """The tokens of ``text`` (NFC) ending with an ``end`` token; an
    :class:`~cryptocomp.errors.ExpressionError` names the column of a bad character."""
    out: list[Token] = []
    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        if ch.isspace():
            i += 1
        elif is_symbol(ch):
            i = _word(text, i, fold_yo, out)
        elif ch in "'\"":
            i = _constant(text, i, out)
        else:
            i = _sign(text, i, out)
    out.append(Token("end", "", n))
    return out


def _sign(text: str, i: int, out: list[Token]) -> int:
    """Appends the operator, comparator, separator or parenthesis at ``i``; the next column."""
    for pair, kind, value in _PAIRS:
        if text.startswith(pair, i):
            out.append(Token(kind, value, i))
            return i + 2
    ch = text[i]
    if ch in _SINGLES:
        kind, value = _SINGLES[ch]
    elif ch in OPERATOR_SIGNS:
        kind, value = "op", OPERATOR_SIGNS[ch]
    elif ch in COMPARATOR_SIGNS:
        kind, value = "cmp", COMPARATOR_SIGNS[ch]
    else:
        raise ExpressionError(_HINTS.get(ch, f"unexpected character {ch!r}"), i, text)
    out.append(Token(kind, value, i))
    return i + 1


def _word(text: str, i: int, fold_yo: bool, out: list[Token]) -> int:
    """Appends the word starting at ``i`` (lower case, one code point a symbol); its end."""
    j, n = i, len(text)
    symbols = []
    while j < n and is_symbol(text[j]):
        symbols.append(_symbol(text, j, fold_yo))
        j += 1
    out.append(Token("word", "".join(symbols), i))
    return j


def _symbol(text: str, j: int, fold_yo: bool) -> str:
    """The symbol of the character at ``j``: its lower case, one code point."""
    ch = text[j]
    if ch >= "\x80":
        hidden = hidden_character(ch)
        if hidden is not None:
            raise ExpressionError(f"{hidden} cannot be a symbol (no reader can see it)", j, text)
    low = ch.lower()
    if len(low) != 1:
        parts = " + ".join(f"U+{ord(c):04X}" for c in low)
        raise ExpressionError(f"{ch!r} is not one symbol in lower case: it becomes {low!r}, "
                              f"{parts}", j, text)
    return "е" if fold_yo and low == "ё" else low


def _constant(text: str, i: int, out: list[Token]) -> int:
    """Appends the quoted constant at ``i`` (``'10'``, spaces allowed inside); its end."""
    quote, j, n = text[i], i + 1, len(text)
    while j < n and text[j].isspace():
        j += 1
    start = j
    while j < n and "0" <= text[j] <= "9":
        j += 1
    digits = text[start:j]
    while j < n and text[j].isspace():
        j += 1
    if j >= n:
        raise ExpressionError(f"expected {quote} to close the constant", n, text)
    if text[j] != quote or not digits:
        raise ExpressionError(f"a constant is a decimal number in quotes, as {quote}10{quote}",
                              j, text)
    if len(digits.lstrip("0")) > MAX_CONSTANT_DIGITS:
        raise ExpressionError(f"constant of {len(digits.lstrip('0'))} digits: at most "
                              f"{MAX_CONSTANT_DIGITS}", i, text)
    out.append(Token("const", digits.lstrip("0") or "0", i))
    return j + 1
