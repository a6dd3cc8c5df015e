"""Reading the numbers people type (options, prompt commands) and files hold: one rule.

A whole number is ASCII digits, with a minus sign in front where negative values are
allowed; ``_`` (and in typed values ``,``) may group digits (``1_000``, ``400,000``).  A
real number is ASCII decimal notation (``2``, ``0.5``, ``.5``, ``1e3``), finite.  Nothing
else is a number: not ``+5``, not Arabic-Indic or other Unicode digits (which :func:`int`
and :func:`float` take), not ``nan``, ``inf`` or hexadecimal.  Text longer than
:data:`MAX_CHARS` is never converted: no caller's bound needs that many digits, and Python
refuses to convert 4,300 digits or more.
"""

from __future__ import annotations

import math
import re

__all__ = ["MAX_WHOLE", "MAX_CHARS", "NumberError", "read_whole", "read_real", "is_whole",
           "is_real", "is_ratio", "shown", "bounds_text"]

MAX_WHOLE = 2**63 - 1  # the engines, the index and numpy hold counts in signed 64 bits
MAX_CHARS = 40  # a number's text, separators and sign included: 2**63 has 19 digits

_WHOLE = re.compile(r"-?[0-9]+(?:[_,][0-9]+)*", re.ASCII)  # one way to match: linear time
_WHOLE_PLAIN = re.compile(r"-?[0-9]+", re.ASCII)
_DIGITS = r"[0-9]+(?:_[0-9]+)*"
_REAL = re.compile(rf"-?(?:{_DIGITS}(?:\.(?:{_DIGITS})?)?|\.{_DIGITS})(?:[eE][-+]?[0-9]+)?",
                   re.ASCII)
_RATIO = re.compile(rf"-?{_DIGITS}/{_DIGITS}", re.ASCII)


class NumberError(ValueError):
    """Text that is no number of the kind asked for, or one out of its bounds; ``reason``
    is ``"syntax"``, ``"low"`` or ``"high"``."""

    def __init__(self, reason: str, text: str):
        self.reason, self.text = reason, text
        super().__init__(f"{reason}: {shown(text)}")


def shown(text: str) -> str:
    """A value quoted for an error line, cut short when long."""
    return repr(text) if len(text) <= MAX_CHARS else repr(text[:MAX_CHARS - 3] + "...")


def is_whole(text: str, *, grouped: bool = True) -> bool:
    """Whether ``text`` (surrounding spaces ignored) is written as a whole number."""
    return (_WHOLE if grouped else _WHOLE_PLAIN).fullmatch(text.strip()) is not None


def read_whole(text: str, low: int = 0, high: int = MAX_WHOLE, *, grouped: bool = True) -> int:
    """``text`` (surrounding spaces ignored) as a whole number from ``low`` to ``high``;
    ``grouped``: ``_`` and ``,`` may group digits (typed values; files hold plain digits)."""
    if not is_whole(text, grouped=grouped):
        raise NumberError("syntax", text)
    body = text.strip()
    if len(body) > MAX_CHARS:  # far beyond every bound: never converted
        raise NumberError("low" if body.startswith("-") else "high", text)
    value = int(body.replace("_", "").replace(",", ""))
    if value < low:
        raise NumberError("low", text)
    if value > high:
        raise NumberError("high", text)
    return value


def is_real(text: str) -> bool:
    """Whether ``text`` (surrounding spaces ignored) is written as a real number."""
    return _REAL.fullmatch(text.strip()) is not None


def is_ratio(text: str) -> bool:
    """Whether ``text`` is a ratio of whole numbers, ``1/3`` (exact values: :minfreq)."""
    return _RATIO.fullmatch(text.strip()) is not None


def read_real(text: str, low: float, high: float, *, above: bool = False) -> float:
    """``text`` as a finite real number from ``low`` (excluded when ``above``) to ``high``."""
    if not is_real(text):
        raise NumberError("syntax", text)
    value = float(text.strip())  # linear in the text, unlike int()
    if math.isinf(value):  # 1e309: beyond any float, so beyond every bound
        raise NumberError("low" if value < 0 else "high", text)
    if value < low or (above and value == low):
        raise NumberError("low", text)
    if value > high:
        raise NumberError("high", text)
    return value


def bounds_text(low: int, high: int) -> str:
    """The bounds of a whole number for help and error lines: "1 to 64", "at least 1"."""
    if high >= MAX_WHOLE and low >= 0:
        return f"{low:,} or more"
    return f"{low:,} to {high:,}"
