"""A generation run as a user asks for it: the puzzles of a :class:`GenerationSpec` up to a
count, a time budget or Ctrl-C, each rated when asked, and why the run ended.

:func:`harvest` is the one call behind ``compose --from``, ``compose --doubly-true`` and the
prompt's ``:from`` / ``:doubly-true`` (:func:`cross_harvest` its sibling for ``--cross N``);
it never raises on a stop (the deadline, ``top`` puzzles, Ctrl-C): the :class:`Harvest` says
which, and keeps what was found.

>>> h = harvest(GenerationSpec(("red", "green", "indigo", "violet")))
>>> [g.puzzle for g in h.puzzles], h.complete
(['red + green + indigo = violet', 'green + violet = indigo'], True)
"""

from __future__ import annotations

import time
import unicodedata
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Generic, TypeVar

from ..errors import CryptocompError, QueryError
from ..numbers import NumberError, read_whole
from .crossgen import Crossword, cross_generation, cross_system
from .difficulty import Difficulty, rate
from .generation import Generated, GenerationSpec, generate
from .system import DIGITS

__all__ = ["Harvest", "harvest", "CrossHarvest", "cross_harvest", "cross_rating",
           "equation_text", "word_list", "read_range", "rating", "within", "STOPS"]

# why a run ended: every puzzle found, the time budget, the step budget, ``top`` puzzles
# kept, Ctrl-C
STOPS = ("complete", "time", "steps", "top", "interrupted")

Found = Callable[[int, Generated, Difficulty | None], None]
CrossFound = Callable[[int, Crossword, Difficulty | None], None]
T = TypeVar("T")


@dataclass
class Harvest:
    """The puzzles kept (in the order found), their difficulties when rated, the
    candidates counted, the wall seconds, and why the run ended (one of :data:`STOPS`)."""

    spec: GenerationSpec
    puzzles: list[Generated] = field(default_factory=list)
    levels: list[Difficulty] | None = None
    candidates: int = 0
    seconds: float = 0.0
    stop: str = "complete"

    @property
    def complete(self) -> bool:
        """True when every puzzle of the spec was found (and kept, unless filtered)."""
        return self.stop == "complete"

    def equations(self) -> list[str]:
        """Each kept puzzle's solution in the spec's base."""
        return [equation_text(g, self.spec.base) for g in self.puzzles]


def equation_text(g: Generated, base: int = 10) -> str:
    """``g`` in digits (above 9 as a-z, as ``solve`` prints them)."""
    if base <= 10:
        return g.equation

    def digits(w: str) -> str:
        return "".join(DIGITS[g.solution[ch]] for ch in w)
    return (f" {g.op} ".join(map(digits, g.left)) + " = " + " + ".join(map(digits, g.right)))


def rating(g: Generated, base: int = 10) -> Difficulty:
    """``g``'s difficulty in ``base``; unrated (with the reason) when the model cannot read it."""
    try:
        return rate(g.puzzle, base=base)
    except CryptocompError as exc:   # a symbol the model's grammar does not take
        return Difficulty(None, 0, 0, 0, 0, reason=" ".join(str(exc).split()))


def harvest(spec: GenerationSpec, *, seconds: float | None = None, steps: int | None = None,
            top: int | None = None, rated: bool = False, max_level: int | None = None,
            on_found: Found | None = None) -> Harvest:
    """The puzzles of ``spec`` with exactly one solution, as :func:`generate` finds them:
    at most ``top`` kept, the search stopped after ``seconds`` or ``steps`` candidates
    counted; ``rated`` (or a
    ``max_level``) rates each one and keeps only those of level at most ``max_level``.
    ``on_found(number, puzzle, difficulty)`` is told of each kept puzzle at once."""
    start = time.monotonic()
    generation = generate(spec, deadline=None if seconds is None else start + seconds,
                          steps=steps)
    out = Harvest(spec)
    run = _gather(generation, lambda g: rating(g, spec.base), top=top, rated=rated,
                  max_level=max_level, on_found=on_found)
    out.puzzles, out.levels, out.stop = run.kept, run.levels, run.stop
    out.candidates = generation.candidates
    if out.stop == "complete" and not generation.complete:
        out.stop = _budget_stop(out.candidates, steps)
    out.seconds = time.monotonic() - start
    return out


@dataclass
class CrossHarvest:
    """:class:`Harvest` for ``--cross N``: the crosswords kept, their difficulties when
    rated, the words placed, the wall seconds and why the run ended."""

    n: int
    base: int = 10
    puzzles: list[Crossword] = field(default_factory=list)
    levels: list[Difficulty] | None = None
    candidates: int = 0
    seconds: float = 0.0
    stop: str = "complete"

    @property
    def complete(self) -> bool:
        """True when every crossword of the list was found (and kept, unless filtered)."""
        return self.stop == "complete"

    def equations(self) -> list[str]:
        """Each kept crossword's solved system in the base."""
        return [c.equation(self.base) for c in self.puzzles]


def cross_harvest(words: Sequence[str], n: int, *, base: int = 10,
                  seconds: float | None = None, steps: int | None = None,
                  top: int | None = None, rated: bool = False, max_level: int | None = None,
                  on_found: CrossFound | None = None) -> CrossHarvest:
    """The N×N crossword systems of ``words`` with one solution, under the same budgets
    (``steps``: words placed), ``top``, rating and Ctrl-C rules as :func:`harvest`."""
    start = time.monotonic()
    generation = cross_generation(words, n, base=base,
                                  deadline=None if seconds is None else start + seconds,
                                  steps=steps)
    out = CrossHarvest(n, base)
    run = _gather(generation, lambda c: cross_rating(c, base), top=top, rated=rated,
                  max_level=max_level, on_found=on_found)
    out.puzzles, out.levels, out.stop = run.kept, run.levels, run.stop
    out.candidates = generation.candidates
    if out.stop == "complete" and not generation.complete:
        out.stop = _budget_stop(out.candidates, steps)
    out.seconds = time.monotonic() - start
    return out


def within(level: Difficulty | None, max_level: int | None) -> bool:
    """True when a puzzle rated ``level`` is kept under ``max_level`` (None: every one;
    else only a rated puzzle of at most that level)."""
    return max_level is None or (level is not None and level.level is not None
                                 and level.level <= max_level)


def _budget_stop(candidates: int, steps: int | None) -> str:
    """Which budget ended an incomplete search: the steps once they are spent, else the
    clock."""
    return "steps" if steps is not None and candidates >= steps else "time"


def cross_rating(c: Crossword, base: int = 10) -> Difficulty:
    """A crossword's difficulty (its system rated); unrated with the reason otherwise."""
    try:
        return rate(cross_system(c.grid, base), base=base)
    except CryptocompError as exc:
        return Difficulty(None, 0, 0, 0, 0, reason=" ".join(str(exc).split()))


@dataclass
class _Gathered(Generic[T]):
    """What :func:`_gather` kept and why it stopped."""

    kept: list[T]
    levels: list[Difficulty] | None
    stop: str = "complete"


def _gather(items: Iterable[T], rater: Callable[[T], Difficulty], *, top: int | None,
            rated: bool, max_level: int | None,
            on_found: Callable[[int, T, Difficulty | None], None] | None) -> _Gathered[T]:
    """The loop every generation shares: rate, filter by level, tell, stop at ``top`` or
    Ctrl-C (what was kept stays)."""
    rated = rated or max_level is not None
    out: _Gathered[T] = _Gathered([], [] if rated else None)
    try:
        for item in items:
            level = rater(item) if rated else None
            if not within(level, max_level):
                continue
            out.kept.append(item)
            if out.levels is not None and level is not None:
                out.levels.append(level)
            if on_found is not None:
                on_found(len(out.kept), item, level)
            if top is not None and len(out.kept) >= top:
                out.stop = "top"
                break
    except KeyboardInterrupt:
        out.stop = "interrupted"
    return out


def word_list(text: str, *, name: str = "list") -> tuple[list[str], list[str]]:
    """The words of a list file's ``text`` (one a line; blank lines and ``#`` comments
    skipped; NFC and lower case), each once, and one note a line that was refused or
    repeated: a word is letters, marks and digits only (a ``+``, ``=`` or space would
    change the printed puzzle)."""
    words: dict[str, int] = {}
    notes: list[str] = []
    for n, line in enumerate(text.splitlines(), 1):
        word = unicodedata.normalize("NFC", line.strip()).lower()
        if not word or word.startswith("#"):
            continue
        bad = next((ch for ch in word if unicodedata.category(ch)[0] not in "LMN"), None)
        if bad is not None or unicodedata.category(word[0])[0] == "M":
            what = f"{bad!r} (U+{ord(bad):04X})" if bad is not None else "a combining mark"
            notes.append(f"{name} line {n}: {line.strip()[:40]!r} skipped: it holds {what}, "
                         f"not a letter or digit")
        elif word in words:
            notes.append(f"{name} line {n}: {word!r} skipped: already on line {words[word]}")
        else:
            words[word] = n
    return list(words), notes


def read_range(text: str, what: str = "--doubly-true") -> tuple[int, int]:
    """``LO-HI`` (two whole numbers, LO <= HI) as a pair; one QueryError line otherwise."""
    low, dash, high = text.strip().partition("-")
    try:
        if not dash:
            raise NumberError("syntax", text)
        pair = read_whole(low, grouped=False), read_whole(high, grouped=False)
    except NumberError:
        raise QueryError(f"{what} takes LO-HI, two whole numbers such as 0-100 "
                         f"(got {text!r})") from None
    if pair[0] > pair[1]:
        raise QueryError(f"{what} {text}: LO is above HI")
    return pair
