"""The prompt's filters and the parsing of their arguments (shared by :commands and CLI options)."""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from decimal import Decimal
from fractions import Fraction

from ..cryptarithm.grammar import MAX_BASE, MIN_BASE
from ..cryptarithm.solve import MAX_SECONDS
from ..errors import CryptocompError, QueryError
from ..index.classes import DEFAULTS, WordClasses
from ..index.wordfilter import ALL_WORDS, WordFilter, letters_of
from ..numbers import MAX_CHARS, NumberError, is_ratio, is_real, read_real, read_whole, shown

__all__ = ["Settings", "INTERACTIVE_TOP", "MAX_MINFREQ", "MIN_MINFREQ", "parse_top",
           "parse_minfreq", "parse_limit", "parse_letters", "parse_length", "fraction_text",
           "parse_classes", "parse_base", "parse_time"]

INTERACTIVE_TOP = 20  # rows shown at the prompt unless :top says otherwise
# :minfreq bounds, per million: no word is used more than a million times per million, and
# below 1e-30 every word of any real dictionary passes; the bounds also keep the exact
# arithmetic cheap (Fraction("1e-999999999") would compute 10**999999999)
MAX_MINFREQ = Fraction(1_000_000)
MIN_MINFREQ = Fraction(1, 10 ** 30)


@dataclass(frozen=True)
class Settings:
    """The filters: rows shown, minimum frequency (per million), and the words queries use
    (a :class:`~cryptocomp.index.wordfilter.WordFilter`: its ``top`` the dictionary prefix
    of every query, its letters and length range what a composed word must satisfy)."""

    shown: int | None = INTERACTIVE_TOP  # rows shown (:top); None: every row
    minfreq: Fraction | None = None  # per million; None: no threshold
    words: WordFilter = ALL_WORDS  # :limit, :contains, :excludes, :length (never a min_count)
    classes: WordClasses | None = None  # :words; None: each query's default (DEFAULTS)
    base: int = 10  # :base, the digits of solved puzzles (2 to 36)
    difficulty: bool = False  # :difficulty on: rate the puzzles shown
    time: float | None = None  # :time, seconds a generation (:from, :doubly-true) may run

    def _check(self) -> None:
        assert self.shown is None or self.shown >= 1, self.shown
        assert MIN_BASE <= self.base <= MAX_BASE, self.base
        assert self.time is None or 0 < self.time <= MAX_SECONDS, self.time
        assert self.minfreq is None or MIN_MINFREQ <= self.minfreq <= MAX_MINFREQ, \
            self.minfreq
        w = self.words
        assert w.top is None or w.top >= 1, w.top
        assert w.min_count is None, w.min_count  # the minfreq of each dictionary
        assert w.classes is None, w.classes  # the settings' classes, or each query's default
        lo, hi = w.min_length, w.max_length
        assert (lo is None or lo >= 1) and (hi is None or hi >= (lo or 1)), (lo, hi)

    @property
    def length(self) -> tuple[int | None, int | None]:
        """The composed words' length range (either end None: open)."""
        return (self.words.min_length, self.words.max_length)

    def min_count(self, total: int) -> int | None:
        """The smallest count whose frequency reaches ``minfreq`` in a dictionary of ``total``."""
        if self.minfreq is None:
            return None
        # exact arithmetic: count * 1e6 / total >= minfreq  <=>  count >= minfreq * total / 1e6
        return max(1, math.ceil(self.minfreq * total / 1_000_000))

    def found(self, total: int) -> WordFilter:
        """The words a template or structure query lists, in a dictionary of ``total``: the
        prefix and the frequency threshold (the letters and lengths are for composing)."""
        return WordFilter(top=self.words.top, min_count=self.min_count(total),
                          classes=self.classes or DEFAULTS["words"])

    def composed(self, total: int) -> WordFilter:
        """The words a composed puzzle's unknown may take, in a dictionary of ``total``."""
        return replace(self.words, min_count=self.min_count(total),
                       classes=self.classes or DEFAULTS["compose"])

    def describe(self) -> str:
        """The filters in a few words, for the toolbar."""
        w = self.words
        parts = [f"top {self.shown if self.shown is not None else 'all'}"]
        if self.minfreq is not None:
            parts.append(f"minfreq {fraction_text(self.minfreq)}/M")
        if w.top is not None:
            parts.append(f"limit {w.top:,}")
        if w.contains:
            parts.append(f"contains {w.contains}")
        if w.excludes:
            parts.append(f"excludes {w.excludes}")
        if self.length != (None, None):
            parts.append(f"length {length_text(self.length)}")
        if self.classes is not None:
            parts.append(f"words {self.classes.describe()}")
        if self.base != 10:
            parts.append(f"base {self.base}")
        if self.difficulty:
            parts.append("difficulty")
        if self.time is not None:
            parts.append(f"time {self.time:g} s")
        return " · ".join(parts)


def length_text(length: tuple[int | None, int | None]) -> str:
    """A length range as typed: 5, 4-6, 5- or -7."""
    lo, hi = length
    if lo is not None and lo == hi:
        return str(lo)
    return f"{lo if lo is not None else ''}-{hi if hi is not None else ''}"


def length_words(length: tuple[int | None, int | None]) -> str:
    """A length range in words: '5 letters', '4 to 6 letters', 'at least 5 letters'."""
    lo, hi = length
    if lo is not None and lo == hi:
        return f"{lo} letter{'' if lo == 1 else 's'}"
    if lo is not None and hi is not None:
        return f"{lo} to {hi} letters"
    return f"at least {lo} letters" if lo is not None else f"at most {hi} letters"


def fraction_text(x: Fraction) -> str:
    """A positive number in a few characters, however large or small (never raises)."""
    if x.denominator == 1 and x < 10 ** 15:
        return str(x.numerator)
    if Fraction(1, 10 ** 300) < x < 10 ** 300:
        return f"{float(x):g}"
    # beyond what a float holds: the exponent from the logarithm (math.log10 takes any int)
    exponent = math.log10(x.numerator) - math.log10(x.denominator)
    power = math.floor(exponent)
    mantissa = round(10 ** (exponent - power), 5)
    if mantissa >= 10:
        mantissa, power = mantissa / 10, power + 1
    return f"{mantissa:g}e{power:+d}"


# Filters take a positive value or "off" (also "none"; :top takes "all"). Zero is refused
# everywhere, prompt and command line alike: ":limit 0" read as "off" at the prompt but as an
# empty dictionary on the command line, and a zero that means "everything" in one place and
# "nothing" in another is a trap; "off" says what it means.
_OFF = ("off", "none")


def parse_top(arg: str, name: str = ":top") -> int | None:
    """The argument of :top / --top: a positive count, or all (None)."""
    return None if arg.strip().lower() in ("all", *_OFF) else _positive_int(name, arg, "all")


def parse_minfreq(arg: str, name: str = ":minfreq") -> Fraction | None:
    """The argument of :minfreq / --minfreq: uses per million (exact, MIN_MINFREQ to
    MAX_MINFREQ), or off (None)."""
    text = arg.strip()
    if text.lower() in _OFF:
        return None
    quoted = shown(arg)
    # the rule of every number (cryptocomp.numbers: ASCII digits, no "+", "_" between digits),
    # then exact: a decimal is read as a Decimal, whose exponent stays an exponent
    # (Fraction("1e-999999999") would compute 10**999999999), a ratio ("1/3") as a Fraction
    value: Fraction | None = None
    clean = text.replace("_", "")
    if is_real(text):
        rough = Decimal(clean)
        if rough > 0:
            if not _MIN_DECIMAL <= rough <= _MAX_DECIMAL:
                raise _minfreq_range(name, quoted)
            value = Fraction(rough)
    elif is_ratio(text):
        if len(clean) > 2 * MAX_CHARS:  # int() refuses 4,300 digits; none of them is needed
            raise _minfreq_range(name, quoted)
        try:
            value = Fraction(clean)
        except ZeroDivisionError:
            value = None
    if value is None or value <= 0:
        raise QueryError(f"{name} wants a positive number of uses per million or 'off', "
                         f"not {quoted}")
    if not MIN_MINFREQ <= value <= MAX_MINFREQ:
        raise _minfreq_range(name, quoted)
    return value


_MIN_DECIMAL, _MAX_DECIMAL = Decimal("1e-30"), Decimal(1_000_000)  # exact copies of the bounds


def _minfreq_range(name: str, shown: str) -> QueryError:
    return QueryError(f"{name} is in uses per million, from 1e-30 to 1,000,000 "
                      f"(every word), or off, not {shown}")


def parse_classes(arg: str, name: str = ":words") -> WordClasses | None:
    """The argument of :words: word classes separated by commas, all, or default (None:
    each query's default)."""
    if arg.strip().lower() in ("default", *_OFF):
        return None
    try:
        return WordClasses.parse(arg)
    except CryptocompError as exc:
        raise QueryError(f"{name}: {exc}") from None


def parse_limit(arg: str, name: str = ":limit") -> int | None:
    """The argument of :limit / --limit: a positive number of words, or off (None)."""
    return None if arg.strip().lower() in _OFF else _positive_int(name, arg, "off")


def parse_letters(arg: str, command: str) -> str:
    """The argument of :contains / :excludes: letters (spaces and commas between them are
    ignored), or off (the empty string)."""
    if arg.strip().lower() in ("off", "none"):
        return ""
    try:
        letters = letters_of(arg, command)
    except CryptocompError as exc:
        raise QueryError(str(exc)) from None
    if not letters:
        raise QueryError(f"{command} wants letters or 'off', not {arg!r}")
    return letters


def parse_base(arg: str, name: str = ":base") -> int:
    """The argument of :base: a whole number from 2 to 36."""
    try:
        return read_whole(arg, MIN_BASE, MAX_BASE)
    except NumberError:
        raise QueryError(f"{name} wants a whole number from {MIN_BASE} to {MAX_BASE}, "
                         f"not {shown(arg)}") from None


def parse_time(arg: str, name: str = ":time") -> float | None:
    """The argument of :time: a number of seconds above 0 (at most a week), or off."""
    if arg.strip().lower() in ("off", "none"):
        return None
    try:
        return read_real(arg, 0.0, MAX_SECONDS, above=True)
    except NumberError:
        raise QueryError(f"{name} wants a number of seconds above 0 (at most a week) or "
                         f"'off', not {shown(arg)}") from None


def parse_length(arg: str) -> tuple[int | None, int | None]:
    """The argument of :length: N, LO-HI, LO- (at least), -HI (at most), or off."""
    text = arg.strip().lower()
    if text in ("off", "none", "any"):
        return (None, None)
    lo_text, dash, hi_text = text.partition("-")
    if not dash:
        hi_text = lo_text
    lo = _positive_int(":length", lo_text, "off") if lo_text.strip() else None
    hi = _positive_int(":length", hi_text, "off") if hi_text.strip() else None
    if lo is None and hi is None:
        raise QueryError(f":length wants N, LO-HI, LO-, -HI or 'off', not {arg!r}")
    if lo is not None and hi is not None and lo > hi:
        raise QueryError(f":length {arg.strip()}: the shortest is longer than the longest")
    return (lo, hi)


def _positive_int(name: str, arg: str, off: str) -> int:
    # the one rule of every number option (cryptocomp.numbers): ASCII digits, "_" or ","
    # grouping them; no "+5", no "٥"
    try:
        return read_whole(arg, 1)
    except NumberError:
        raise QueryError(f"{name} wants a positive whole number or {off!r}, "
                         f"not {shown(arg)}") from None

