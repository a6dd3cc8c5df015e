"""Reading the studio's parameters (query strings and JSON fields): the CLI's rules, one
line for each value that breaks them.

The numbers follow :mod:`cryptocomp.numbers` (ASCII digits, no ``+5``, no ``nan``); the word
filters are the CLI's and the prompt's: word classes (``dictionary,name`` or ``all``), a
minimum frequency per million, a minimum count or score, a length (``5``, ``4-6``, ``5-``,
``-7``), letters a word contains (``ee``: two e at least) or excludes.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from fractions import Fraction

from ..errors import CryptocompError
from ..index.classes import WordClasses
from ..index.wordfilter import WordFilter, letters_of
from ..numbers import MAX_WHOLE, NumberError, read_real, read_whole, shown
from .settings import StudioError

__all__ = ["Filters", "whole", "seconds", "text", "classes", "length", "letters",
           "word_filter", "minfreq", "MAX_SEED", "MIN_SEED", "FILTER_NAMES"]

MIN_SEED, MAX_SEED = -(2**63), 2**63 - 1  # a seed is any 64-bit integer, as in the CLI
_MIN_FREQ, _MAX_FREQ = Fraction(1, 10**30), Fraction(1_000_000)

Raw = object  # a value as a query string or a JSON body gives it (str, int, float, ...)


def whole(name: str, value: Raw, low: int, high: int = MAX_WHOLE) -> int:
    """A whole number from ``low`` to ``high`` (text or a JSON integer)."""
    if isinstance(value, bool) or not isinstance(value, (int, str)):
        raise StudioError(f"{name} wants a whole number, not {_kind(value)}")
    try:
        return read_whole(str(value), low, high)
    except NumberError:
        raise StudioError(f"{name} must be a whole number from {low:,} to {high:,}, not "
                          f"{shown(str(value))}") from None


def seconds(name: str, value: Raw, high: float) -> float:
    """A positive time in seconds, at most ``high`` (text or a JSON number)."""
    if isinstance(value, bool) or not isinstance(value, (int, float, str)):
        raise StudioError(f"{name} wants a number of seconds, not {_kind(value)}")
    try:
        return read_real(str(value) if not isinstance(value, float) else repr(value), 0.0,
                         high, above=True)
    except NumberError:
        raise StudioError(f"{name} must be a number of seconds above 0, at most {high:g}, "
                          f"not {shown(str(value))}") from None


def text(name: str, value: Raw, most: int) -> str:
    """A string of at most ``most`` characters."""
    if not isinstance(value, str):
        raise StudioError(f"{name} wants text, not {_kind(value)}")
    if len(value) > most:
        raise StudioError(f"{name} is {len(value):,} characters long: at most {most:,}")
    return value


def classes(value: Raw) -> WordClasses:
    """Word classes separated by commas, or ``all``."""
    try:
        return WordClasses.parse(text("words", value, 200))
    except StudioError:
        raise
    except CryptocompError as exc:
        raise StudioError(f"words: {exc}") from None


def length(value: Raw) -> tuple[int | None, int | None]:
    """A length range: ``N``, ``LO-HI``, ``LO-`` (at least) or ``-HI`` (at most)."""
    spec = text("length", value if not isinstance(value, int) or isinstance(value, bool)
                else str(value), 40).strip()
    lo_text, dash, hi_text = spec.partition("-")
    if not dash:
        hi_text = lo_text
    lo = whole("length", lo_text, 1) if lo_text.strip() else None
    hi = whole("length", hi_text, 1) if hi_text.strip() else None
    if lo is None and hi is None:
        raise StudioError(f"length wants N, LO-HI, LO- or -HI, not {shown(spec)}")
    if lo is not None and hi is not None and lo > hi:
        raise StudioError(f"length {spec}: the shortest is longer than the longest")
    return (lo, hi)


def letters(name: str, value: Raw) -> str:
    """Letters (spaces and commas between them ignored)."""
    try:
        return letters_of(text(name, value, 100), name)
    except StudioError:
        raise
    except CryptocompError as exc:
        raise StudioError(str(exc)) from None


def minfreq(value: Raw, total: int) -> int:
    """The smallest count reaching ``value`` uses per million in a dictionary of ``total``."""
    raw = str(value) if isinstance(value, (int, float, str)) and not isinstance(value, bool) \
        else None
    try:
        if raw is None or len(raw) > 40:
            raise InvalidOperation
        exact = Fraction(Decimal(raw.strip()))
    except (InvalidOperation, ValueError, OverflowError):
        exact = Fraction(-1)
    if not _MIN_FREQ <= exact <= _MAX_FREQ:
        raise StudioError(f"minfreq is in uses per million, from 1e-30 to 1,000,000, not "
                          f"{shown(str(value))}")
    return max(1, math.ceil(exact * total / 1_000_000))


@dataclass(frozen=True)
class Filters:
    """The word filters a request names (None: not named), as the CLI's options."""

    classes: WordClasses | None = None
    min_count: int | None = None
    min_score: int | None = None
    limit: int | None = None
    length: tuple[int | None, int | None] = (None, None)
    contains: str = ""
    excludes: str = ""

    def word_filter(self, default: WordClasses) -> WordFilter:
        """The WordFilter of these filters, ``default`` classes when they name none."""
        try:
            return WordFilter(min_length=self.length[0], max_length=self.length[1],
                              top=self.limit, min_count=self.min_count,
                              contains=self.contains, excludes=self.excludes,
                              classes=self.classes or default, min_score=self.min_score)
        except CryptocompError as exc:
            raise StudioError(str(exc)) from None


FILTER_NAMES = ("words", "minfreq", "min_count", "min_score", "limit", "length", "contains",
                "excludes")


def word_filter(given: Mapping[str, Raw], total: int) -> Filters:
    """The filters named in ``given`` (query parameters or a JSON object); ``total``: the
    dictionary's count total, for ``minfreq``."""
    counts = [whole("min_count", given["min_count"], 0)] if "min_count" in given else []
    if "minfreq" in given:
        counts.append(minfreq(given["minfreq"], total))
    return Filters(
        classes=classes(given["words"]) if "words" in given else None,
        min_count=max(counts) if counts else None,
        min_score=whole("min_score", given["min_score"], 1, 100) if "min_score" in given
        else None,
        limit=whole("limit", given["limit"], 1) if "limit" in given else None,
        length=length(given["length"]) if "length" in given else (None, None),
        contains=letters("contains", given["contains"]) if "contains" in given else "",
        excludes=letters("excludes", given["excludes"]) if "excludes" in given else "")


def _kind(value: Raw) -> str:
    if value is None:
        return "null"
    return {bool: "true/false", list: "a list", dict: "an object"}.get(type(value),
                                                                       type(value).__name__)
